import Elevate
import Foundation
import Testing

@testable import ElevateCLI

/// `elevate extract` writes each value whole or not at all: when the input fails midway, the
/// output holds the values completed before the failure, each on a whole line, and nothing of the
/// value being copied (issue #26).
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct CLIExtractAllOrNothingTests {
    /// Over the writer's 256 KiB buffer, so that the old writer had flushed part of it.
    static let long = String(repeating: "x", count: 300_000)

    @Test(arguments: [
        // Truncated inside the second element.
        #"{"items": [{"id": 1, "s": "abc"}, ["\#(long)", "y", tr"#,
        // Invalid inside the second element.
        #"{"items": [{"id": 1, "s": "abc"}, ["\#(long)", "y", }]}"#,
        // Invalid at the end of a second element of many small tokens.
        #"{"items": [{"id": 1, "s": "abc"}, [\#(Array(repeating: "12345", count: 60_000).joined(separator: ",")), ]]}"#,
    ])
    func jsonLinesKeepsTheCompleteElementsOnly(document: String) throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", document)
        let result = try scratch.run("extract", "--json-lines", "--key-path", "items", file)
        #expect(result.status == ExitStatus.invalidJSON)
        #expect(result.output == "{\"id\":1,\"s\":\"abc\"}\n")
        #expect(result.standardError.hasPrefix("\(file):1:"), "\(result.standardError.prefix(200))")
        #expect(result.standardError.contains("error:"))
    }

    @Test func aValueThatFailsMidwayPrintsNothing() throws {
        let scratch = try ScratchDirectory()
        for (keyPath, document) in [
            ("a", #"{"a": [1, 2, "\#(Self.long)", "\#(Self.long)", }"#),
            ("", #"[{"a": "\#(Self.long)"}, {"b": "\#(Self.long)"}, nul"#),
        ] {
            let file = try scratch.file("doc.json", document)
            let result = try scratch.run("extract", "--key-path", keyPath, file)
            #expect(result.status == ExitStatus.invalidJSON)
            #expect(result.standardOutput.isEmpty, "\(result.standardOutput.count) bytes written")
            #expect(result.standardError.contains("error:"))
            let pretty = try scratch.run("extract", "--pretty", "--key-path", keyPath, file)
            #expect(pretty.status == ExitStatus.invalidJSON)
            #expect(pretty.standardOutput.isEmpty, "\(pretty.standardOutput.count) bytes written")
        }
    }

    /// A value larger than the writer keeps in memory goes to a temporary file until it is
    /// complete: written whole when it completes, not at all when the input fails.
    @Test(arguments: [false, true])
    func aValueOverTheMemoryLimitIsSpilledAndStillAllOrNothing(pretty: Bool) throws {
        let scratch = try ScratchDirectory()
        var elements = (0..<2000).map { #"{"n": \#($0), "s": "\#(String(repeating: "é\\n", count: $0 % 7))"}"# }
        // A token larger than the buffer, written straight to the spill file.
        elements[1000] = "\"\(String(repeating: "long ", count: 2000))\""
        let document = "[" + elements.joined(separator: ",") + "]"
        let expected = try written(document, pretty: pretty, memoryLimit: .max, in: scratch)
        #expect(expected.outcome == nil)
        for limit in [1, 4096, 20_000, 50_000] {
            let spilled = try written(document, pretty: pretty, memoryLimit: limit, in: scratch)
            #expect(spilled.outcome == nil)
            #expect(spilled.bytes == expected.bytes, "memory limit \(limit)")
            // Cut short: nothing of it.
            let failed = try written(String(document.dropLast(3)), pretty: pretty, memoryLimit: limit, in: scratch)
            #expect(failed.outcome is JSONSyntaxError)
            #expect(failed.bytes.isEmpty, "memory limit \(limit): \(failed.bytes.count) bytes written")
        }
    }

    /// Feeds `document` to a writer (as `extract` of the root does) and returns what reached the
    /// file once the writer finished, or the error and what reached it before.
    private func written(
        _ document: String, pretty: Bool, memoryLimit: Int, in scratch: ScratchDirectory
    ) throws -> (bytes: [UInt8], outcome: (any Error)?) {
        let path = scratch.url.appendingPathComponent("out-\(UUID().uuidString).json").path
        let output = try OutputFile(path)
        let writer = JSONTextWriter(output: output, prettyPrinted: pretty, memoryLimit: memoryLimit)
        var outcome: (any Error)?
        do {
            try JSONEventParser(handler: writer).parseAll(Data(document.utf8))
            try writer.finish()
        } catch {
            outcome = error
            try writer.finish()
        }
        try output.close()
        return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), outcome)
    }
}
