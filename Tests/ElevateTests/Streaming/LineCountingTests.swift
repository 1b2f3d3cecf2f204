import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `countLines(in:options:)`, what `elevate validate` and `count` read JSON Lines with: runs of
/// whole lines counted on the calling thread or on workers; counts and errors are those of one
/// `JSONLinesParser` reading every line, and agree with `forEachValue`'s JSON Lines, whatever the
/// chunks.
@Suite struct LineCountingTests {
    /// The counts, or the error with every field (its excerpt too).
    /// - Parameter lineByLine: Instead, the reference: every line through one `JSONLinesParser`
    ///   on the calling thread, as `forEachValue` reads JSON Lines, with no runs and no counting
    ///   from YAJL's callbacks.
    static func count(
        _ text: String, framing: JSONFraming = .jsonLines, workers: Int, runBytes: Int = 256 << 10, chunkSize: Int? = nil,
        lineByLine: Bool = false
    ) -> String {
        var input = JSONInput.data(Data(text.utf8))
        if chunkSize != nil {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("count-lines-\(UUID().uuidString).jsonl")
            try! Data(text.utf8).write(to: url)
            input = .file(url)
        }
        defer { if case .file(let url) = input { try? FileManager.default.removeItem(at: url) } }
        var options = StreamingOptions(chunkSize: chunkSize ?? 64 << 10, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        do {
            if lineByLine {
                let counter = ValueCounter()
                let lines = JSONLinesParser(handler: counter, options: options.parsing, separator: framing.separator)
                try translatingInputErrors(options) {
                    try translatingLinesParserErrors(
                        framing: framing, wrapping: false, lineNumber: { lines.lineNumber }
                    ) {
                        try readChunks(of: input, options: options, until: { false }) { try lines.feed($0) }
                        try lines.finish()
                    }
                }
                return "\(lines.valueCount) lines, \(counter.count) values"
            }
            let counts = try countLines(in: input, framing: framing, options: options)
            return "\(counts.lines) lines, \(counts.values) values"
        } catch let error as JSONSyntaxError {
            return "\(error.kind) at \(error.line):\(error.column) (byte \(error.byteOffset)): \(error.message) near \(error.excerpt.debugDescription)"
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    static let texts = [
        "1\n2\n", "[1] 2\n", "\n\n  \n", "{\"a\":1}\r\n[]\r\n", "1\n\u{FEFF}2", "\u{FEFF}1\n2\n", "tr\nue", "\"a\nb\"",
        "[1,\n2]", "1 // c\n", "  7  ", "\r", "\"\\u2028\"\n", "{\"a\":1}\n\n \t\r\n[1,\"x\\ny\"]\n\"tail\"",
        "1\n2\n  [1,,2]\n", "{\"a\": {\"b\": [1, 2, {\"c\": null}]}}\n" + String(repeating: "[true, false, \"s\"]\n", count: 40),
        String(repeating: "{\"k\": 1}\n", count: 30) + "{\"k\": x}\n" + String(repeating: "{\"k\": 1}\n", count: 30) + "]",
    ]

    /// Two and four workers, runs of 1, 7 and 64 bytes, chunks of 1, 3 and 4096 bytes: the same
    /// counts, or the same error, as one thread.
    @Test(arguments: texts)
    func workersCountAsOneThread(text: String) {
        for chunkSize in [1, 3, 4096] {
            let one = Self.count(text, workers: 1, chunkSize: chunkSize)
            let reference = Self.count(text, workers: 1, chunkSize: chunkSize, lineByLine: true)
            #expect(one == reference, "\(text.debugDescription): chunks of \(chunkSize)")
            for workers in [2, 4] {
                for runBytes in [1, 7, 64] {
                    let many = Self.count(text, workers: workers, runBytes: runBytes, chunkSize: chunkSize)
                    #expect(many == one, "\(text.debugDescription): \(workers) workers, runs of \(runBytes), chunks of \(chunkSize)")
                }
            }
        }
    }

    /// The library's JSON Lines reader and the count agree on which line is invalid, and on how
    /// many lines hold values.
    @Test(arguments: texts)
    func agreesWithForEachValue(text: String) {
        var lines = 0
        var readerLine: Int?
        do {
            try ElevateJSON.forEachValue(
                from: .data(Data(text.utf8)), framing: .jsonLines, as: JSON.self,
                options: StreamingOptions(wrapsErrorsInParserError: false)
            ) { _ in lines += 1 }
        } catch let error as JSONSyntaxError {
            readerLine = error.line
        } catch {
            Issue.record("\(error)")
        }
        let counted = Self.count(text, workers: 1)
        if let readerLine {
            #expect(counted.contains(" at \(readerLine):"), "\(text.debugDescription): \(counted)")
        } else {
            #expect(counted.hasPrefix("\(lines) lines"), "\(text.debugDescription): \(counted)")
        }
    }

    /// A byte order mark starts the input only; later, it is an error on its line, whatever the
    /// chunks (the tool's validator's test, on the library's count).
    @Test func aByteOrderMarkOnlyOnTheFirstLine() {
        #expect(Self.count("\u{FEFF}1\n2\n", workers: 1) == "2 lines, 2 values")
        for chunkSize in 1...5 {
            for workers in [1, 2] {
                #expect(Self.count("1\n\u{FEFF}2\n", workers: workers, runBytes: 1, chunkSize: chunkSize).contains(" at 2:1 "))
            }
        }
    }

    /// A line longer than a run may hold on (32 runs' length) is read by the calling thread, and
    /// the lines after it are cut into runs again: counts and errors stay one thread's, before
    /// it, in it, after it, and after the next one.
    @Test(arguments: [JSONFraming.jsonLines, .jsonTextSequence])
    func aLineLongerThanARunHoldsIsReadOnTheCallingThread(framing: JSONFraming) {
        let long = "[" + Array(repeating: "\"abcdefgh\"", count: 400).joined(separator: ",") + "]"
        // Records start with a separator and may span input lines.
        let (start, shortLine) = framing == .jsonLines ? ("", "{\"k\": [1, 2]}\n") : ("\u{1E}", "\u{1E}{\"k\":\n [1, 2]}\n")
        let short = String(repeating: shortLine, count: 50)
        let longLine = start + long
        let texts = [
            short + longLine + "\n" + short,
            short + longLine,
            short + longLine.dropLast() + ",x]\n" + short,
            short + start + "{\"k\": x}\n" + longLine + "\n",
            short + longLine + "\n" + short + start + "[1,,2]\n" + short,
            longLine + "\n" + longLine + "\n" + longLine,
            longLine + "\n" + short + longLine + "\n" + short + start + "{\"k\": [1 2]}\n" + short,
            short + longLine + "\n" + short + longLine.dropLast() + ",x]\n" + short,
            short + longLine + "\n" + longLine + "\n" + short + start + "tru\n",
        ]
        for text in texts {
            for chunkSize in [1, 100, 4096] where chunkSize > 1 || text.utf8.count < 20_000 {
                let one = Self.count(text, framing: framing, workers: 1, chunkSize: chunkSize)
                let reference = Self.count(text, framing: framing, workers: 1, chunkSize: chunkSize, lineByLine: true)
                #expect(one == reference, "chunks of \(chunkSize): \(text.prefix(40))")
                for runBytes in [1, 16, 64] {
                    let two = Self.count(text, framing: framing, workers: 2, runBytes: runBytes, chunkSize: chunkSize)
                    #expect(two == one, "runs of \(runBytes), chunks of \(chunkSize): \(text.prefix(40))")
                }
            }
        }
    }
}
