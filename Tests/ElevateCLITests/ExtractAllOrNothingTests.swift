import Elevate
import Foundation
import ElevateTestSupport
import Testing

@testable import ElevateCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `elevate extract` writes each value whole or not at all (issue #26): when the input fails
/// midway, the output holds the values completed before the failure, each on a whole line, and
/// nothing of the value being copied: a regular file is truncated back to where that value began;
/// over a pipe, a value is held in memory up to 16 MiB, and a longer one may be left cut off.
///
/// `ElevateBinary.run` sends standard output to a regular file, so the tests that read
/// `standardOutput` check the truncation; those that pipe go through a shell.
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct ExtractAllOrNothingTests {
    /// Over the writer's 256 KiB buffer, so that part of it has reached the output file before
    /// the failure, and is truncated away.
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

    /// Text in the file before the tool wrote (earlier output, or a file opened to append) stays:
    /// the truncation goes back to where the failed value began, not to the start of the file.
    @Test(arguments: [
        #"{ printf 'header\n'; "$0" extract --json-lines --key-path items "$1"; echo $? > status; } > out.json"#,
        #"printf 'header\n' > out.json; "$0" extract --json-lines --key-path items "$1" >> out.json; echo $? > status"#,
    ])
    func aRegularFileIsTruncatedBackToWhereTheFailedValueBegan(script: String) throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", #"{"items": [{"id": 1}, ["\#(Self.long)", "y", tr"#)
        let result = try ElevateBinary.run(
            ["-c", script, ElevateBinary.url!.path, file], executable: URL(fileURLWithPath: "/bin/sh"), in: scratch.url)
        #expect(result.standardError.contains("error:"))
        let status = try String(contentsOf: scratch.url.appendingPathComponent("status"), encoding: .utf8)
        #expect(status == "\(ExitStatus.invalidJSON)\n")
        let output = try String(contentsOf: scratch.url.appendingPathComponent("out.json"), encoding: .utf8)
        #expect(output == "header\n{\"id\":1}\n", "\(output.count) bytes: \(output.prefix(40))")
    }

    /// Over a pipe, which cannot be taken back: a failed value of up to 16 MiB was held in memory
    /// and is not printed; a longer one was written on after its first 16 MiB, and is left cut off
    /// where the input failed, on a last line of its own (as the README and --help say).
    @Test func aPipeGetsNothingOfAFailedValueUpTo16MiBAndALongerOneCutOff() throws {
        let scratch = try ScratchDirectory()
        let script = #"("$0" extract --json-lines --key-path items "$1"; echo $? > status) | cat"#
        let huge = String(repeating: "z", count: 17 << 20)
        for (document, expected) in [
            (#"{"items": [{"id": 1}, ["\#(Self.long)", "y", tr"#, "{\"id\":1}\n"),
            (#"{"items": [{"id": 1}, ["\#(Self.long)", "y", }]}"#, "{\"id\":1}\n"),
            (#"{"items": [{"id": 1}, ["\#(huge)", "y", tr"#, "{\"id\":1}\n[\"\(huge)\",\"y\"\n"),
        ] {
            let file = try scratch.file("doc.json", document)
            let result = try ElevateBinary.run(
                ["-c", script, ElevateBinary.url!.path, file], executable: URL(fileURLWithPath: "/bin/sh"), in: scratch.url)
            let status = try String(contentsOf: scratch.url.appendingPathComponent("status"), encoding: .utf8)
            #expect(status == "\(ExitStatus.invalidJSON)\n")
            #expect(result.standardError.contains("error:"))
            #expect(result.output == expected, "\(result.standardOutput.count) bytes: \(result.output.prefix(40))")
        }
    }

    /// The writer, fed events as `extract` of the root feeds it: the same bytes at every memory
    /// limit and into every kind of output; on a failure, nothing of the value into a regular file
    /// (text already there kept), and over a pipe nothing while the value fits the limit, its start
    /// past it (a prefix of the whole text).
    @Test(arguments: [false, true])
    func theWriterIsAllOrNothingIntoAFileAndUpToItsLimitIntoAPipe(pretty: Bool) throws {
        let scratch = try ScratchDirectory()
        var elements = (0..<2000).map { #"{"n": \#($0), "s": "\#(String(repeating: "é\\n", count: $0 % 7))"}"# }
        // A token larger than the buffer, written straight through.
        elements[1000] = "\"\(String(repeating: "long ", count: 2000))\""
        let document = "[" + elements.joined(separator: ",") + "]"
        let expected = try written(document, pretty: pretty, memoryLimit: .max, into: .file, in: scratch)
        #expect(expected.outcome == nil)
        #expect(expected.bytes.count > 60_000)
        let failing = String(document.dropLast(3))
        for limit in [1, 4096, 20_000, 50_000, JSONTextEmitter.defaultMemoryLimit, .max] {
            for output in [Output.file, .appendingToAFileWithText, .pipe] {
                let complete = try written(document, pretty: pretty, memoryLimit: limit, into: output, in: scratch)
                #expect(complete.outcome == nil)
                #expect(complete.bytes == expected.bytes, "memory limit \(limit), \(output)")
                let failed = try written(failing, pretty: pretty, memoryLimit: limit, into: output, in: scratch)
                #expect(failed.outcome is JSONSyntaxError)
                if output == .pipe && limit < expected.bytes.count {
                    #expect(!failed.bytes.isEmpty, "memory limit \(limit): nothing written")
                    #expect(expected.bytes.starts(with: failed.bytes), "memory limit \(limit): not a prefix")
                } else {
                    #expect(failed.bytes.isEmpty, "memory limit \(limit), \(output): \(failed.bytes.count) bytes written")
                }
            }
        }
    }

    enum Output: CustomStringConvertible {
        /// A new file (`OutputFile(path)`).
        case file
        /// A file holding a line of text, opened to append (`>>`), read without that line.
        case appendingToAFileWithText
        /// A pipe, read to its end.
        case pipe

        var description: String {
            switch self {
            case .file: "file"
            case .appendingToAFileWithText: "appended file"
            case .pipe: "pipe"
            }
        }
    }

    /// Feeds `document` to a writer (as `extract` of the root does) and returns what reached the
    /// output once the writer finished, or the error and what reached it before.
    private func written(
        _ document: String, pretty: Bool, memoryLimit: Int, into kind: Output, in scratch: ScratchDirectory
    ) throws -> (bytes: [UInt8], outcome: (any Error)?) {
        let path = scratch.url.appendingPathComponent("out-\(UUID().uuidString).json").path
        let header = Array("earlier text\n".utf8)
        let output: OutputFile
        var descriptor: Int32 = -1
        var reader: PipeReader?
        switch kind {
        case .file:
            output = try OutputFile(path)
        case .appendingToAFileWithText:
            try Data(header).write(to: URL(fileURLWithPath: path))
            // At offset 0, as the shell's >> leaves it: the writes land at the end.
            descriptor = open(path, O_WRONLY | O_APPEND)
            try #require(descriptor >= 0)
            output = OutputFile(descriptor: descriptor, name: path)
        case .pipe:
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            reader = PipeReader(FileHandle(fileDescriptor: ends[0], closeOnDealloc: true))
            descriptor = ends[1]
            output = OutputFile(descriptor: descriptor, name: "pipe")
        }
        #expect(output.isRegularFile == (kind != .pipe))
        let writer = JSONTextEmitter(output: output, prettyPrinted: pretty, memoryLimit: memoryLimit)
        var outcome: (any Error)?
        do {
            try JSONEventParser(handler: writer).parseAll(Data(document.utf8))
            try writer.finishCompleteValues()
        } catch {
            outcome = error
            try writer.finishCompleteValues()
        }
        try output.close()
        if descriptor >= 0 { close(descriptor) }
        if let reader { return (Array(reader.wait()), outcome) }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        if kind == .appendingToAFileWithText {
            #expect(bytes.starts(with: header), "the text already in the file was lost")
            bytes.removeFirst(min(header.count, bytes.count))
        }
        return (bytes, outcome)
    }
}

/// Reads a pipe to its end on another thread, so that a writer into it never blocks.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
