import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// An error inside a token of 64 KiB or more, a few bytes before the end of a chunk the parser
/// holds back: its excerpt ends where that chunk does, with workers (the run's worker, or the tail
/// of an element longer than 32 runs) as on one thread (found by review: the workers' excerpts went
/// on into the chunk that ended the token).
@Suite struct LongTokenExcerptTests {
    /// A token of 200 000 bytes whose byte 3 bytes before the end of the 4 KiB chunk at 96 KiB is
    /// damaged (a chunk held back: the token is 64 KiB long at 68 KiB), inside `before` … `after`.
    static func document(_ kind: String) -> [UInt8] {
        let (before, body, after): (String, UInt8, String) =
            switch kind {
            case "string": (#"[1, ""#, UInt8(ascii: "a"), #"", 2, 3]"#)
            case "number": ("[1, 1", UInt8(ascii: "1"), ", 2, 3]")
            case "tail": (#"[1, ["a", ""#, UInt8(ascii: "b"), #""], 2]"#)
            // Members enough to split the root object.
            case "object": ("{" + (0..<200).map { #""k\#($0)":\#($0),"# }.joined() + #""s": ""#, UInt8(ascii: "c"), #"", "d": 2}"#)
            default: (#"{"s": ""#, UInt8(ascii: "e"), "\"}\n{\"t\": 2}\n")
            }
        var bytes = Array(before.utf8) + [UInt8](repeating: body, count: 200_000) + Array(after.utf8)
        bytes[24 * 4096 - 3] = kind == "number" ? UInt8(ascii: "+") : 0xFF
        return bytes
    }

    /// What the reader of `kind` reports, in 4 KiB chunks from a file, with `workers` workers and
    /// runs of `runBytes`: the error with its excerpt, or the count.
    static func outcome(_ kind: String, workers: Int, runBytes: Int) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("long-token-\(UUID().uuidString).json")
        try! Data(document(kind)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions(chunkSize: 4096, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        do {
            switch kind {
            case "lines":
                return "\(try forEachValue(from: .file(url), framing: .jsonLines, as: JSON.self, options: options) { _ in })"
            case "concatenated":
                return "\(try forEachValue(from: .file(url), framing: .concatenated, as: JSON.self, options: options) { _ in })"
            case "object":
                return "\(try countedValues(in: .file(url), options: options)) values"
            default:
                let elements = try forEachElement(from: .file(url), as: JSON.self, options: options) { _ in }
                return "\(elements) elements, \(try countedValues(in: .file(url), options: options)) values"
            }
        } catch {
            return SplitLinesReaderTests.describe(error)
        }
    }

    @Test(arguments: ["string", "number", "tail", "object", "lines", "concatenated"])
    func anExcerptInAHeldChunkIsOneThreads(_ kind: String) {
        let one = Self.outcome(kind, workers: 1, runBytes: 1 << 20)
        #expect(one.contains("near"), "\(one)")
        for runBytes in [1, 64, 8192, 1 << 16] {
            #expect(Self.outcome(kind, workers: 2, runBytes: runBytes) == one, "\(kind), runs of \(runBytes)")
        }
    }

    /// A token over the size limit: the excerpt shows where it starts, with workers as on one
    /// thread (found by review: one thread's was empty, as the token had been taken into what
    /// the parser carries before the excerpt was made).
    @Test func aTokenOverTheLimitShowsWhereItStarts() throws {
        let text = #"[1, ""# + String(repeating: "x", count: 200_000) + #""]"#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("too-long-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var outcomes: [String] = []
        for workers in [1, 2] {
            var options = StreamingOptions(chunkSize: 4096, wrapsErrorsInParserError: false)
            options.parsing.maximumTokenSize = 100_000
            options.concurrency = workers
            options.splitBatchByteCount = 64
            do {
                _ = try countedValues(in: .file(url), options: options)
                outcomes.append("no error")
            } catch {
                outcomes.append(SplitLinesReaderTests.describe(error))
            }
        }
        #expect(outcomes[0].contains(#"near "[1, \"xxxxxxxxxxxxxx"#), "\(outcomes[0])")
        #expect(outcomes[1] == outcomes[0])
    }
}
