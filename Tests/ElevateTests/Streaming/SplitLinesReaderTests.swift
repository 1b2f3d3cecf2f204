import ElevateSampleData
import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// JSON Lines split over workers (`SplitLinesReader`): with several workers, the input is cut into
/// runs of whole lines that the workers parse; results and errors are those of one thread.
@Suite struct SplitLinesReaderTests {
    struct Outcome: Equatable, CustomStringConvertible {
        var values: [String] = []
        var returned: Int?
        var error: String?
        var description: String { "\(values) returned \(returned.map(String.init) ?? "-") error \(error ?? "none")" }
    }

    /// An error as text, every field of a syntax error included (its excerpt too).
    static func describe(_ error: any Error) -> String {
        if let syntax = error as? JSONSyntaxError {
            return "JSONSyntaxError.\(syntax.kind) at \(syntax.line):\(syntax.column) (byte \(syntax.byteOffset)): "
                + "\(syntax.message) near \(syntax.excerpt.debugDescription)"
        }
        return "\(type(of: error)): \(error)"
    }

    /// `forEachValue` of `text` as JSON Lines (or `framing`), decoding each value to its `JSON`
    /// text; from a file read in chunks of `chunkSize` bytes when it is given (`Data` is read in
    /// one piece).
    static func read(
        _ text: String, framing: JSONFraming = .jsonLines, keyPath: String = "", workers: Int, runBytes: Int = 1,
        skipping: Bool = false, wrapping: Bool = false, elementSize: Int? = nil, stopAt: Int? = nil,
        chunkSize: Int? = nil
    ) -> Outcome {
        var input = JSONInput.data(Data(text.utf8))
        if chunkSize != nil {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("split-lines-\(UUID().uuidString).jsonl")
            try! Data(text.utf8).write(to: url)
            input = .file(url)
        }
        defer { if case .file(let url) = input { try? FileManager.default.removeItem(at: url) } }
        var options = StreamingOptions(chunkSize: chunkSize ?? 64 << 10, wrapsErrorsInParserError: wrapping)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        options.skipsInvalidElements = skipping
        if let elementSize { options.maximumElementSize = elementSize }
        var outcome = Outcome()
        do {
            outcome.returned = try forEachValue(
                from: input, framing: framing, atKeyPath: keyPath, as: JSON.self, options: options
            ) { value in
                if let stopAt, outcome.values.count == stopAt { throw JSONEventParser.Stop() }
                outcome.values.append("\(value)")
            }
        } catch {
            outcome.error = describe(error)
        }
        return outcome
    }

    /// Reads `text` with one worker, then with 2 and 4 workers and runs of 1, 5 and 4096 bytes;
    /// every outcome must equal the first, which is returned.
    @discardableResult
    static func same(
        _ text: String, framing: JSONFraming = .jsonLines, keyPath: String = "", skipping: Bool = false,
        wrapping: Bool = false, elementSize: Int? = nil, stopAt: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome {
        let reference = read(
            text, framing: framing, keyPath: keyPath, workers: 1, skipping: skipping, wrapping: wrapping,
            elementSize: elementSize, stopAt: stopAt)
        for workers in [2, 4] {
            for runBytes in [1, 5, 4096] {
                let got = read(
                    text, framing: framing, keyPath: keyPath, workers: workers, runBytes: runBytes, skipping: skipping,
                    wrapping: wrapping, elementSize: elementSize, stopAt: stopAt)
                #expect(
                    got == reference, "\(workers) workers, runs of \(runBytes): \(got) vs \(reference)",
                    sourceLocation: sourceLocation)
            }
        }
        return reference
    }

    @Test func splitsOnlyJSONLinesWithWorkersAndNoCheckpoints() {
        func reader(_ framing: JSONFraming, _ change: (inout StreamingOptions) -> Void) -> any ChunkDecoder {
            var options = StreamingOptions()
            options.concurrency = 2
            change(&options)
            return makeValueReader(
                framing: framing, keyPath: "", methodName: "JSON", options: options, decode: { $0 }, deliver: { _ in })
        }
        #expect(reader(.jsonLines) { _ in } is SplitLinesReader<JSONValue>)
        #expect(reader(.jsonLines) { $0.concurrency = 1 } is ValueSequenceReader<JSONValue>)
        #expect(reader(.jsonLines) { $0.checkpoints = { _ in } } is ValueSequenceReader<JSONValue>)
        #expect(
            reader(.jsonLines) { $0.resumingFrom = StreamCheckpoint(index: 1, byteOffset: 2) }
                is ValueSequenceReader<JSONValue>)
        #expect(reader(.jsonTextSequence) { _ in } is SplitLinesReader<JSONValue>)
        #expect(reader(.jsonTextSequence) { $0.concurrency = 1 } is ValueSequenceReader<JSONValue>)
        #expect(reader(.concatenated) { _ in } is SplitValuesReader<JSONValue>)
        #expect(reader(.concatenated) { $0.parsing.allowsComments = true } is ValueSequenceReader<JSONValue>)
        #expect(reader(.concatenated) { $0.concurrency = 1 } is ValueSequenceReader<JSONValue>)
    }

    @Test func byteOrderMarkAtTheStartOnly() {
        let start = Self.same("\u{FEFF}{\"a\":1}\n{\"a\":2}\n")
        #expect(start.values == [#"{"a":1}"#, #"{"a":2}"#] && start.error == nil)
        // A mark alone on the first line is a blank line.
        #expect(Self.same("\u{FEFF}\n1\n2").values == ["1", "2"])
        // At a later line's start it is an error on that line.
        let later = Self.same("1\n2\n\u{FEFF}3\n4\n")
        #expect(later.values == ["1", "2"])
        #expect(later.error?.contains(" at 3:1 (byte 4)") == true, "\(later)")
        // The first bytes of a mark alone.
        #expect(Self.same("\u{EF}").error != nil)
    }

    @Test func carriageReturnsBlankLinesAndALastLineWithoutNewline() {
        #expect(Self.same("1\r\n2\r\n\r\n3").values == ["1", "2", "3"])
        #expect(Self.same("\n\n1\n  \n\t\r\n2\n\n").values == ["1", "2"])
        #expect(Self.same("").values.isEmpty)
        #expect(Self.same("\n").values.isEmpty)
        let noNewline = Self.same("[1]\n{\"b\":2}")
        #expect(noNewline.values == ["[1]", #"{"b":2}"#] && noNewline.returned == 2)
        // A last line cut short, and a number that ends the input.
        #expect(Self.same("1\n{\"b\":").error?.contains(" at 2:6 (byte 7)") == true)
        #expect(Self.same("1\n\n23").values == ["1", "23"])
        // A carriage return alone inside a line is whitespace; one before `\n` too.
        #expect(Self.same("1 \r 2\r\n").error != nil)
    }

    @Test func aValueMissingAtTheKeyPathNamesItsLine() {
        let lines = "{\"a\":1}\n\n{\"b\":2}\n{\"a\":null}\n{\"a\":3}\n"
        let first = Self.same(lines, keyPath: "a")
        #expect(first.values == ["1"])
        #expect(first.error?.contains("line 3") == true, "\(first)")
        let all = Self.same(lines, keyPath: "a", skipping: true)
        #expect(all.values == ["1", "3"])
        #expect(all.error?.contains("line 3") == true && all.error?.contains("line 4") == true, "\(all)")
    }

    @Test func anInvalidLineInTheMiddle() {
        var lines = (1...40).map { "{\"n\":\($0),\"s\":\"\(String(repeating: "x", count: $0))\"}" }
        lines[24] = "{\"n\":25,\"s\":tru}"
        let text = lines.joined(separator: "\n") + "\n"
        for wrapping in [false, true] {
            let outcome = Self.same(text, wrapping: wrapping)
            #expect(outcome.values.count == 24)
            #expect(outcome.error?.contains(wrapping ? "line 25" : " at 25:") == true, "\(outcome)")
        }
        // Read in 4 KiB chunks and runs of one byte: the lines are fed in the chunks' pieces.
        let reference = Self.read(text, workers: 1, chunkSize: 4096)
        #expect(Self.read(text, workers: 2, runBytes: 1, chunkSize: 4096) == reference)
    }

    /// An error a few bytes before the end of a 4 KiB chunk: one thread's excerpt stops at the
    /// chunk's end, and so must the workers' (each line is fed in the chunks' pieces).
    @Test func anErrorNearAChunkEndKeepsItsExcerpt() {
        let text = String(repeating: "1234567\n", count: 511) + "[1,x,3,4,5,6,7,8,9,10,11,12,13,14]\n5\n"
        let reference = Self.read(text, workers: 1, chunkSize: 4096)
        #expect(reference.error?.contains("(byte 4091)") == true, "\(reference)")
        for runBytes in [1, 100, 5000] {
            #expect(Self.read(text, workers: 2, runBytes: runBytes, chunkSize: 4096) == reference)
        }
    }

    @Test func linesOverTheElementSize() {
        let text = "[1,2]\n\"" + String(repeating: "a", count: 40) + "\"\n3\n"
        let outcome = Self.same(text, elementSize: 20)
        #expect(outcome.values == ["[1,2]"])
        #expect(outcome.error?.contains("Line 2 is longer than the maximum element size of 20 bytes") == true, "\(outcome)")
        Self.same("{\"k\":[" + String(repeating: "1,", count: 30) + "1]}\n", elementSize: 20)
    }

    @Test func aBodyThatStopsEndsTheStream() {
        // The invalid line after the stop is never reported.
        let text = (0..<100).map(String.init).joined(separator: "\n") + "\nx\n"
        let stopped = Self.same(text, stopAt: 30)
        #expect(stopped.values == (0..<30).map(String.init))
        // The count returned includes the value the body stopped at, as with one thread.
        #expect(stopped.returned == 31 && stopped.error == nil, "\(stopped)")
        // Stopped at the last value: nothing is left to deliver.
        let last = Self.same("1\n2\n3", stopAt: 2)
        #expect(last.values == ["1", "2"] && last.returned == 3)
    }

    /// JSON text sequences are cut just past a record separator: a record may span lines, so each
    /// run starts at its record's number and at the input's line and column, which errors name.
    @Test func recordsOfATextSequence() {
        let rs = "\u{1E}"
        let records = Self.same(rs + "{\"a\":1}\n" + rs + "[1,\n 2]\n" + rs + "\"x\"\n" + rs + "\n" + rs + "3\n", framing: .jsonTextSequence)
        #expect(records.values == [#"{"a":1}"#, "[1,2]", #""x""#, "3"] && records.error == nil, "\(records)")
        // An error in a record that spans lines, at its second line; one at a record's start
        // after a separator in mid-line.
        let spanning = Self.same(rs + "1\n" + rs + "[1,\n  x]\n" + rs + "2\n", framing: .jsonTextSequence)
        #expect(spanning.values == ["1"])
        #expect(spanning.error?.contains(" at 3:3 (byte 10)") == true, "\(spanning)")
        let midLine = Self.same(rs + "[1] " + rs + "tru\n" + rs + "2\n", framing: .jsonTextSequence)
        #expect(midLine.values == ["[1]"])
        #expect(midLine.error?.contains("record 2") == true && midLine.error?.contains(" at 1:7 (byte 6)") == true, "\(midLine)")
        // Nothing before the first separator; a number that ends its record without whitespace.
        #expect(Self.same("1\n" + rs + "2\n", framing: .jsonTextSequence).error != nil)
        let cut = Self.same(rs + "1\n" + rs + "2" + rs + "3\n", framing: .jsonTextSequence)
        #expect(cut.values == ["1"] && cut.error?.contains("cut short") == true, "\(cut)")
        for wrapping in [false, true] {
            Self.same(rs + "{\"a\":\n1,}\n" + rs + "2\n", framing: .jsonTextSequence, wrapping: wrapping)
        }
    }

    /// Both counts (the AVX2 pass, where the processor has it, and the portable one) against the
    /// bytes themselves, around each block length of either.
    @Test func newlinesAreCountedExactly() {
        var generator = SplitMix64(seed: randomTestSeed)
        let lengths = [0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000]
        for length in lengths + (0..<200).map({ _ in Int.random(in: 0...300, using: &generator) }) {
            let sparse = Int.random(in: 0...1, using: &generator) == 0
            let bytes = (0..<length).map { _ in
                sparse && Int.random(in: 0..<40, using: &generator) != 0
                    ? UInt8(ascii: "a") : [0x0A, 0x0B, 0x8A, 0x09, 0x00, 0xFF].randomElement(using: &generator)!
            }
            let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
            let (counted, portable) = bytes.withUnsafeBytes { (NewlineCount(in: $0), NewlineCount(portable: $0)) }
            let seed = "ELEVATE_TEST_SEED=\(randomTestSeed)"
            for found in [counted, portable] {
                #expect(found.count == newlines.count, "\(bytes), \(seed)")
                #expect(found.lastLineStart == newlines.last.map { $0 + 1 }, "\(bytes), \(seed)")
            }
        }
    }

    /// A line longer than a value may be fails as with one worker, and the cutter stops holding
    /// the input there (it held every byte of the line before: a 1 GB line, 1 GB).
    @Test func aLineLongerThanTheElementSizeFailsAsWithOneWorker() {
        let long = "[" + Array(repeating: "\"abcdefgh\"", count: 400).joined(separator: ",") + "]"
        let short = String(repeating: "{\"k\": [1, 2]}\n", count: 50)
        for text in [short + long + "\n" + short, short + long, short + "[1,,\n" + long] {
            for chunkSize in [100, 4096] {
                let one = Self.read(text, workers: 1, elementSize: 1000, chunkSize: chunkSize)
                #expect(one.error != nil)
                for runBytes in [1, 64, 4096] {
                    let two = Self.read(text, workers: 2, runBytes: runBytes, elementSize: 1000, chunkSize: chunkSize)
                    #expect(two == one, "runs of \(runBytes), chunks of \(chunkSize)")
                }
            }
        }
    }
}
