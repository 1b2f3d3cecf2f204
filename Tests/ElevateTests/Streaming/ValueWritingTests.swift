import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `writeValues(from:framing:atKeyPath:wildcard:to:through:options:)`, what `elevate extract
/// --framing` writes with: JSON Lines on workers write exactly what one thread writes (the text,
/// the values the key path led nowhere in, the first error with every field), whatever the runs,
/// chunks, output and memory limit.
@Suite struct ValueWritingTests {
    /// An output that a failure can truncate, as a regular file.
    final class TruncatableOutput: JSONTextOutput {
        private(set) var bytes: [UInt8] = []
        var isTruncatable: Bool { true }
        func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
        func nextWriteOffset() throws -> Int64 { Int64(bytes.count) }
        func truncate(to offset: Int64) throws { bytes.removeSubrange(Int(offset)...) }
    }

    /// How the values are written: the key path, and what forwards them to the emitter.
    struct Shape: CustomStringConvertible {
        var keyPath: String
        var splitsArrays = false
        var rawStrings = false
        var description: String { "\(keyPath)\(splitsArrays ? " --json-lines" : "")\(rawStrings ? " -r" : "")" }
    }

    static let shapes = [
        Shape(keyPath: ""), Shape(keyPath: "a"), Shape(keyPath: "a", rawStrings: true), Shape(keyPath: "a.*"),
        Shape(keyPath: "*.b"), Shape(keyPath: "a", splitsArrays: true),
    ]

    /// What was written, the summary and the error (every field), as one string to compare.
    static func write(
        _ text: String, _ shape: Shape, workers: Int, runBytes: Int = 256 << 10, chunkSize: Int = 64 << 10,
        memoryLimit: Int = JSONTextEmitter.defaultMemoryLimit, truncatable: Bool = false,
        framing: JSONFraming = .jsonLines
    ) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("write-values-\(UUID().uuidString).jsonl")
        try! Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        let memory = MemoryTextOutput()
        let file = TruncatableOutput()
        let emitter = JSONTextEmitter(
            output: truncatable ? file : memory, bufferSize: 4096, memoryLimit: memoryLimit,
            rawTopLevelStrings: shape.rawStrings)
        let splitsArrays = shape.splitsArrays
        var outcome: String
        do {
            let summary = try writeValues(
                from: .file(url), framing: framing, atKeyPath: shape.keyPath, wildcard: "*", to: emitter,
                through: { splitsArrays ? JSONLinesSplitter(forwardingTo: $0) as any JSONEventHandler : $0 }, options: options)
            outcome = "\(summary.values) values, \(summary.missing) missing, first \(String(describing: summary.firstMissing))"
        } catch let error as JSONSyntaxError {
            outcome = "\(error.kind) at \(error.line):\(error.column) (byte \(error.byteOffset)): \(error.message) near \(error.excerpt.debugDescription)"
        } catch {
            outcome = "\(type(of: error)): \(error)"
        }
        try! emitter.finishCompleteValues()
        let written = String(decoding: truncatable ? file.bytes : memory.bytes, as: UTF8.self)
        return "\(outcome)\ncut: \(emitter.leftCutValue)\n\(written)"
    }

    static let texts = [
        "{\"a\":1}\n{\"a\":[1,2]}\n", "{\"b\":1}\n\n  \n{\"a\":\"x\\ny\"}\r\n", "{\"a\":1,\"a\":2}\n", "{\"a\":[1,{\"b\":2}]}\n{\"a\":3",
        "\u{FEFF}{\"a\":1}\n\u{FEFF}{\"a\":2}\n", "{\"a\":\"\\u2028\"}\n[1,\n2]\n", "{\"a\":[true]} {\"a\":1}\n", "{\"a\":\"tail\"}",
        String(repeating: "{\"a\": [1, \"s\"], \"x\": {\"b\": null}}\n", count: 30) + "{\"a\": x}\n"
            + String(repeating: "{\"x\": {\"b\": 2}}\n", count: 30),
        String(repeating: "{\"a\": {\"c\": [1, 2]}, \"z\": {\"b\": \"q\"}}\n", count: 40) + "{\"a\": 4}\n[1,,2]\n",
    ]

    /// Two and four workers, runs of 1, 7 and 64 bytes, chunks of 1, 3 and 4096 bytes: what one
    /// thread writes.
    @Test(arguments: texts)
    func workersWriteWhatOneThreadWrites(text: String) {
        for shape in Self.shapes {
            for chunkSize in [1, 3, 4096] where chunkSize > 1 || text.utf8.count < 200 {
                let one = Self.write(text, shape, workers: 1, chunkSize: chunkSize)
                for workers in [2, 4] {
                    for runBytes in [1, 7, 64] {
                        let many = Self.write(text, shape, workers: workers, runBytes: runBytes, chunkSize: chunkSize)
                        #expect(many == one, "\(text.debugDescription) \(shape): \(workers) workers, runs of \(runBytes), chunks of \(chunkSize)")
                    }
                }
            }
        }
    }

    /// The same lines as the records of a JSON text sequence (each after a record separator), in
    /// 4 KiB chunks: workers write what one thread writes.
    @Test(arguments: texts)
    func workersWriteTheRecordsOneThreadWrites(text: String) {
        let records = Self.records(text)
        for shape in Self.shapes {
            let one = Self.write(records, shape, workers: 1, chunkSize: 4096, framing: .jsonTextSequence)
            for runBytes in [1, 7, 64] {
                let two = Self.write(
                    records, shape, workers: 2, runBytes: runBytes, chunkSize: 4096, framing: .jsonTextSequence)
                #expect(two == one, "\(records.debugDescription) \(shape): runs of \(runBytes)")
            }
        }
    }

    /// The same lines as concatenated values (JSON Lines are concatenated JSON too), in 4 KiB
    /// chunks and in chunks of 3 bytes: workers write what one thread writes.
    @Test(arguments: texts)
    func workersWriteTheConcatenatedValuesOneThreadWrites(text: String) {
        for shape in Self.shapes {
            for chunkSize in [3, 4096] {
                let one = Self.write(text, shape, workers: 1, chunkSize: chunkSize, framing: .concatenated)
                for runBytes in [1, 7, 64] {
                    let two = Self.write(
                        text, shape, workers: 2, runBytes: runBytes, chunkSize: chunkSize, framing: .concatenated)
                    #expect(two == one, "\(text.debugDescription) \(shape): runs of \(runBytes), chunks of \(chunkSize)")
                }
            }
        }
    }

    /// A top-level token of 64 KiB or more, whose chunks the parser holds back, then values and
    /// errors: workers write what one thread writes (a run ending among held chunks lost its
    /// values).
    @Test func aLongTopLevelTokenIsWrittenAsOneThreadWritesIt() {
        let long = "\"" + String(repeating: "y", count: 70_000) + "\""
        for text in [long + " {\"a\": 1} [2]", long + " {\"a\": [1 2]}", long + " 3 {\"a\": 4}"] {
            for shape in [Shape(keyPath: ""), Shape(keyPath: "a")] {
                let one = Self.write(text, shape, workers: 1, chunkSize: 4096, framing: .concatenated)
                for runBytes in [1, 4096] {
                    let two = Self.write(text, shape, workers: 2, runBytes: runBytes, chunkSize: 4096, framing: .concatenated)
                    #expect(two == one, "\(text.suffix(20).debugDescription) \(shape), runs of \(runBytes)")
                }
            }
        }
    }

    /// Each line of `text` made a record: a record separator before it.
    static func records(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "\u{1E}" + $0 }.joined(separator: "\n")
    }

    /// A value longer than the emitter's memory limit, into an output that cannot be truncated,
    /// is written through before it completes, and left cut where the input fails inside it: the
    /// lines that could hold one are the calling thread's, so the text stays one thread's, into
    /// a file too.
    @Test func aValueLongerThanTheMemoryLimitIsWrittenAsOneThreadWritesIt() {
        // U+2028 doubles as it is escaped: lines under half the limit, and over.
        let separators = { (count: Int) in "{\"a\": \"" + String(repeating: "\u{2028}", count: count) + "\"}" }
        let short = String(repeating: "{\"a\": [1, 2]}\n", count: 20)
        let texts = [
            short + separators(600) + "\n" + short,
            short + separators(1_500) + "\n" + short,
            short + separators(1_500).dropLast(2) + " x\"}\n" + short,
            short + "{\"a\": [" + String(repeating: "\"\u{2028}\u{2028}\",", count: 400) + "x]}\n" + short,
            short + separators(2_000) + "\n" + short + "[1,,2]\n",
        ]
        for text in texts {
            for truncatable in [false, true] {
                for shape in [Shape(keyPath: "a"), Shape(keyPath: "a", splitsArrays: true), Shape(keyPath: "a", rawStrings: true)] {
                    for framing in [JSONFraming.jsonLines, .concatenated] {
                        let one = Self.write(
                            text, shape, workers: 1, memoryLimit: 4096, truncatable: truncatable, framing: framing)
                        for runBytes in [16, 256] {
                            let two = Self.write(
                                text, shape, workers: 2, runBytes: runBytes, memoryLimit: 4096, truncatable: truncatable,
                                framing: framing)
                            #expect(
                                two == one,
                                "\(text.prefix(60)) \(shape), \(framing), runs of \(runBytes), truncatable \(truncatable)")
                        }
                    }
                }
            }
        }
    }

    /// Lines (or values) longer than a run may hold (32 runs' length) are read by the calling
    /// thread, and what follows each by workers again: the text, the summary (the first value the
    /// key path led nowhere in, by its line or index, after several of them) and the error stay
    /// one thread's.
    @Test(arguments: [JSONFraming.jsonLines, .jsonTextSequence, .concatenated])
    func longLinesBetweenRunsAreWrittenAsOneThreadWritesThem(framing: JSONFraming) {
        let long = "{\"a\": [" + Array(repeating: "\"abcdefgh\"", count: 100).joined(separator: ",") + "]}"
        let short = String(repeating: "{\"a\": [1, 2]}\n", count: 20)
        let missing = "{\"b\": 1}\n"
        let texts = [
            short + long + "\n" + short + missing + short,
            short + long + "\n" + long + "\n" + missing + short + long + "\n" + missing,
            missing + long + "\n" + short + long + "\n" + short + "{\"a\": x}\n",
            short + long + "\n" + short + long.dropLast() + " x\n" + short,
            long + "\n" + short + missing + long + "\n" + short + "[1,,2]\n",
        ]
        for text in texts {
            let input = framing == .jsonTextSequence ? Self.records(text) : text
            for shape in [Shape(keyPath: "a"), Shape(keyPath: "a.*"), Shape(keyPath: "")] {
                let one = Self.write(input, shape, workers: 1, chunkSize: 100, framing: framing)
                for runBytes in [8, 16] {
                    let two = Self.write(input, shape, workers: 2, runBytes: runBytes, chunkSize: 100, framing: framing)
                    #expect(two == one, "\(input.prefix(60)) \(shape), runs of \(runBytes)")
                }
            }
        }
    }

    /// Generated lines, some damaged by a random edit: two and three workers write what one does.
    @Test(arguments: 0..<12)
    func generatedLinesAgree(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let values = ["1", "\"s\"", "[1, \"x\\\"]\"]", "{\"b\": [true, null]}", "{}", "[]", "-0.5e3", "\"\\u00e9\u{2028}\""]
        var lines: [String] = []
        for _ in 0..<200 {
            var members: [String] = []
            for key in ["a", "b", "c"] where Int.random(in: 0..<3, using: &random) > 0 {
                members.append("\"\(key)\": \(values.randomElement(using: &random)!)")
            }
            lines.append("{" + members.joined(separator: ", ") + "}")
        }
        var text = Array(lines.joined(separator: "\n").utf8)
        if seed % 2 == 1 {
            let edits: [UInt8] = Array("{}[],:\"\\x \n".utf8)
            text[Int.random(in: 0..<text.count, using: &random)] = edits.randomElement(using: &random)!
        }
        let string = String(decoding: text, as: UTF8.self)
        for shape in Self.shapes {
            let one = Self.write(string, shape, workers: 1, chunkSize: 97)
            for workers in [2, 3] {
                let many = Self.write(string, shape, workers: workers, runBytes: 100, chunkSize: 97)
                #expect(many == one, "seed \(seed) \(shape), \(workers) workers")
            }
            // As records.
            let records = Self.records(string)
            let oneRecord = Self.write(records, shape, workers: 1, chunkSize: 97, framing: .jsonTextSequence)
            let twoRecords = Self.write(records, shape, workers: 2, runBytes: 100, chunkSize: 97, framing: .jsonTextSequence)
            #expect(twoRecords == oneRecord, "seed \(seed) \(shape), records")
            // As concatenated values, some lines joined with no separator.
            let joined = String(decoding: text.enumerated().compactMap { $0.offset % 3 == 0 && $0.element == 0x0A ? nil : $0.element }, as: UTF8.self)
            let oneJoined = Self.write(joined, shape, workers: 1, chunkSize: 97, framing: .concatenated)
            let twoJoined = Self.write(joined, shape, workers: 2, runBytes: 100, chunkSize: 97, framing: .concatenated)
            #expect(twoJoined == oneJoined, "seed \(seed) \(shape), concatenated")
        }
    }
}
