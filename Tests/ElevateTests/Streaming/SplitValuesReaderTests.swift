import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// Concatenated JSON split over workers (`SplitValuesReader`): with several workers the input is
/// cut, just after a bracket or brace that ends a top-level value, into runs that the workers
/// parse; values, counts and errors (their excerpts included) are those of one thread. Each case
/// is read with one worker, then with 2 and 4 and runs of 1, 5 and 4096 bytes
/// (`SplitLinesReaderTests.same`): runs of one byte hold at most 32 bytes of a value before the
/// rest of the input goes to one parser, so the short values here take both paths.
@Suite struct SplitValuesReaderTests {
    static func same(
        _ text: String, keyPath: String = "", skipping: Bool = false, wrapping: Bool = false, elementSize: Int? = nil,
        stopAt: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> SplitLinesReaderTests.Outcome {
        SplitLinesReaderTests.same(
            text, framing: .concatenated, keyPath: keyPath, skipping: skipping, wrapping: wrapping,
            elementSize: elementSize, stopAt: stopAt, sourceLocation: sourceLocation)
    }

    static func read(_ text: String, workers: Int, runBytes: Int = 1, chunkSize: Int? = nil)
        -> SplitLinesReaderTests.Outcome
    {
        SplitLinesReaderTests.read(text, framing: .concatenated, workers: workers, runBytes: runBytes, chunkSize: chunkSize)
    }

    @Test func valuesTouchingOrApart() {
        #expect(Self.same(#"{"a":1}{"a":2}[3]"#).values == [#"{"a":1}"#, #"{"a":2}"#, "[3]"])
        #expect(Self.same("{}\n\n[]\r\n {\"b\":[{}]}  ").values == ["{}", "[]", #"{"b":[{}]}"#])
        #expect(Self.same("1 2 [3] \"4\" {} true null").values == ["1", "2", "[3]", #""4""#, "{}", "true", "null"])
        #expect(Self.same(#"{"s":"}]{["}{"t":"\"}"}"#).values == [#"{"s":"}]{["}"#, #"{"t":"\"}"}"#])
        #expect(Self.same(#""a""b"[]1"#).values == [#""a""#, #""b""#, "[]", "1"])
    }

    @Test func nothingButWhitespaceOrAMarkHoldsNoValues() {
        for text in ["", " ", "\n\n", "\u{FEFF}", "\u{FEFF} \n"] {
            let outcome = Self.same(text)
            #expect(outcome.values.isEmpty && outcome.error == nil && outcome.returned == 0, "\(text.debugDescription)")
        }
        #expect(Self.same("\u{EF}").error != nil)
        #expect(Self.same("\u{EF}\u{BB}").error != nil)
    }

    @Test func aByteOrderMarkAtTheStartOnly() {
        #expect(Self.same("\u{FEFF}{\"a\":1}{\"a\":2}").values == [#"{"a":1}"#, #"{"a":2}"#])
        // An excerpt that reaches back to the input's start leaves out the mark, as one thread's does.
        let near = Self.same("\u{FEFF}{}\n{\"a\":2}\n\u{FEFF}{\"a\":3}")
        #expect(near.values.count == 2 && near.error?.contains("(byte 14)") == true, "\(near)")
        #expect(near.error?.contains("near \"{}") == true, "\(near)")
        let later = Self.same("{}[]\u{FEFF}{}")
        #expect(later.values == ["{}", "[]"])
        #expect(later.error?.contains("(byte 4)") == true, "\(later)")
    }

    @Test(arguments: [
        "{} x", "{}}", "]{}", "{}]", "{},{}", "{} {", #"{"a":1}{"a":"#, #"{}"abc"#, "truefalse", "1 2x", "{}1-",
        #"{"a":1,}{}"#, #"{"a" 1}"#, #"[1,,2]{}"#, "{}\u{0}{}", "[\"a\u{1}\"]{}", #"{"a":tru}{"b":2}"#,
        #"[1][2][3"#, #"{"a":[}]}"#, #"{"k":"\x"}{}"#, "[1]\n[2]\n\n{\"a\":\n1\n,}",
    ])
    func invalidTextFailsAsOnOneThread(_ text: String) {
        for wrapping in [false, true] {
            let outcome = Self.same(text, wrapping: wrapping)
            #expect(outcome.error != nil, "\(text.debugDescription): \(outcome)")
        }
    }

    /// An error a few bytes before a run's end: one thread's excerpt goes on into the next values,
    /// to the end of the chunk; so must a worker's, which has only the run.
    @Test func anExcerptGoesOnPastTheRun() {
        let values = (0..<40).map { #"{"n":\#($0)}"# }
        var damaged = values
        damaged[17] = #"{"n":tru}"#
        let outcome = Self.same(damaged.joined())
        #expect(outcome.values.count == 17)
        #expect(outcome.error?.contains(#"tru}{\"n\":18}"#) == true, "\(outcome)")
        // In 4 KiB chunks, an error near a chunk's end keeps the chunk's end as one thread does.
        let text = String(repeating: #"{"a":[1,2]} "#, count: 340) + #"{"a":[1,x,3]}{"a":[4]}"# + "\n"
        let reference = Self.read(text, workers: 1, chunkSize: 4096)
        #expect(reference.error != nil)
        for runBytes in [1, 5, 100, 5000] {
            #expect(Self.read(text, workers: 2, runBytes: runBytes, chunkSize: 4096) == reference)
        }
    }

    @Test func aValueOverTheSizeLimitIsNamedByItsIndex() {
        let big = "[" + String(repeating: "1,", count: 30) + "1]"
        let outcome = Self.same("{}[1]\n\(big) {}", elementSize: 20)
        #expect(outcome.values == ["{}", "[1]"])
        #expect(outcome.error?.contains("Value 2 is larger than the maximum element size of 20 bytes") == true, "\(outcome)")
        // At a key path, only the value there is held to the limit.
        let atPath = Self.same(#"{"k":1,"x":\#(big)}{"k":\#(big)}"#, keyPath: "k", elementSize: 20)
        #expect(atPath.values == ["1"])
        #expect(atPath.error?.contains("Value 1 is larger") == true, "\(atPath)")
    }

    @Test func aValueMissingAtTheKeyPathNamesItsIndex() {
        let text = #"{"a":1}{"b":2}{"a":null}{"a":3}"#
        let first = Self.same(text, keyPath: "a")
        #expect(first.values == ["1"])
        #expect(first.error?.contains("value 1") == true, "\(first)")
        let all = Self.same(text, keyPath: "a", skipping: true)
        #expect(all.values == ["1", "3"])
        #expect(all.error?.contains("value 1") == true && all.error?.contains("value 2") == true, "\(all)")
    }

    @Test func aBodyThatStopsEndsTheStream() {
        let text = (0..<100).map { "[\($0)]" }.joined() + "x"
        let stopped = Self.same(text, stopAt: 30)
        #expect(stopped.values == (0..<30).map { "[\($0)]" })
        #expect(stopped.returned == 31 && stopped.error == nil, "\(stopped)")
    }

    /// Top-level numbers and strings have no bracket to end them, and a value may be longer than
    /// a run may hold: the rest of the input is read by one parser, with the same outcome.
    @Test func scalarsAndLongValuesAreReadOnByOneParser() {
        let numbers = (0..<500).map(String.init).joined(separator: " ")
        #expect(Self.same(numbers).values.count == 500)
        #expect(Self.same(numbers + " 1x").values.count == 501)
        let long = "[" + Array(repeating: #""abcdefgh""#, count: 400).joined(separator: ",") + "]"
        let short = String(repeating: #"{"k": [1, 2]}"#, count: 50)
        for text in [short + long + short, short + long + short + "]", short + "[1,,\n" + long] {
            let reference = Self.read(text, workers: 1, chunkSize: 100)
            for runBytes in [1, 64, 4096] {
                #expect(Self.read(text, workers: 2, runBytes: runBytes, chunkSize: 100) == reference, "runs of \(runBytes)")
            }
        }
    }

    /// After a value longer than a run may hold, the cutting resumes at the next value that ends
    /// with a bracket or brace: values, counts and errors (their lines and excerpts) stay one
    /// thread's, after several long values, between runs and scalars.
    @Test func theCuttingResumesAfterALongValue() {
        let long = "[" + Array(repeating: #""abcdefgh""#, count: 400).joined(separator: ",") + "]"
        let short = String(repeating: "{\"k\": [1,\n 2]}", count: 50)
        let texts = [
            short + long + short + long + short,
            long + long + " 1 2 " + short + "{\"k\": x}" + short,
            short + long + "\n" + short + long.dropLast() + ",x]" + short,
            short + long + " 3 \"s\" " + long + short + "[1,,2]",
            long + "\n\n" + short + long + "{\"k\":\n[1 2]}",
        ]
        for text in texts {
            let reference = Self.read(text, workers: 1, chunkSize: 100)
            for runBytes in [1, 16] {
                #expect(Self.read(text, workers: 2, runBytes: runBytes, chunkSize: 100) == reference, "runs of \(runBytes)")
            }
            let counted = Self.counted(Array(text.utf8), workers: 1, chunkSize: 100, rejectsDuplicates: false)
            for runBytes in [1, 16] {
                let split = Self.counted(Array(text.utf8), workers: 2, runBytes: runBytes, chunkSize: 100, rejectsDuplicates: false)
                #expect(split == counted, "counted, runs of \(runBytes): \(text.prefix(30))")
            }
        }
    }

    /// An error just before a chunk's end, some chunks after a token of 64 KiB or more: its
    /// excerpt and the count before it are one thread's (found by review: one thread's parser
    /// held the chunks after the token back until as much had come, met the error only then, in
    /// one piece, and its excerpt went on past the chunk's end).
    @Test func anErrorAfterALongTokenIsOneThreads() {
        let long = #"{"s": ""# + String(repeating: "x", count: 70_000) + #""}"#
        let short = String(repeating: #"{"k": [1, 2]} "#, count: 1_500)
        // A chunk boundary some way into the values after the long one, in 4 KiB chunks.
        let boundary = (long.utf8.count / 4096 + 3) * 4096
        for distance in [1, 2, 5, 9, 15, 16, 17] {
            let errorAt = boundary - distance - long.utf8.count
            var text = Array((long + short).utf8)
            text[long.utf8.count + errorAt] = UInt8(ascii: "x")
            let json = String(decoding: text, as: UTF8.self)
            let reference = Self.read(json, workers: 1, chunkSize: 4096)
            for runBytes in [1, 1024] {
                #expect(
                    Self.read(json, workers: 2, runBytes: runBytes, chunkSize: 4096) == reference,
                    "\(distance) bytes before a chunk's end, runs of \(runBytes)")
                let counted = Self.counted(text, workers: 1, chunkSize: 4096, rejectsDuplicates: false)
                let split = Self.counted(text, workers: 2, runBytes: runBytes, chunkSize: 4096, rejectsDuplicates: false)
                #expect(split == counted, "counted, \(distance) bytes before a chunk's end, runs of \(runBytes)")
            }
        }
    }

    /// `elevate count --framing concatenated`: with one job a `ValueSequencePass` counts; with
    /// several, the workers count runs of whole values (`countConcatenatedValues`). The counts
    /// and the first error (its excerpt included) must agree.
    static func counted(_ bytes: [UInt8], workers: Int, runBytes: Int = 1, chunkSize: Int, rejectsDuplicates: Bool)
        -> String
    {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("split-count-\(UUID().uuidString).json")
        try! Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
        options.parsing.rejectsDuplicateKeys = rejectsDuplicates
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        do {
            if workers == 1 {
                let counter = ValueCounter()
                let values = try ValueSequencePass(framing: .concatenated, keyPath: "", to: counter)
                    .run(.file(url), options: options)
                return "\(values) values, \(counter.count) in all"
            }
            let counts = try countConcatenatedValues(in: .file(url), options: options)
            return "\(counts.values) values, \(counts.nested) in all"
        } catch {
            return SplitLinesReaderTests.describe(error)
        }
    }

    @Test(arguments: [
        #"{"a":1}{"a":[2,{"b":null}]} [3] "s" 4 true"#, "", " \n", "\u{FEFF}[1]", "{} x", "{}}", "]{}", "{} {",
        #"{}"abc"#, "truefalse", #"{"a":1,"a":2}{}"#, #"[{"k":1}] {"k":[],"k":{}}"#, "{}\u{FEFF}{}", "\u{EF}",
        #"[1][2][3"#, #"{"a":tru}{"b":2}"#,
    ])
    func countsAsOneThread(_ text: String) {
        for rejectsDuplicates in [false, true] {
            let one = Self.counted(Array(text.utf8), workers: 1, chunkSize: 4096, rejectsDuplicates: rejectsDuplicates)
            for runBytes in [1, 5, 4096] {
                let two = Self.counted(
                    Array(text.utf8), workers: 2, runBytes: runBytes, chunkSize: 4096, rejectsDuplicates: rejectsDuplicates)
                #expect(two == one, "\(text.debugDescription), runs of \(runBytes)")
            }
        }
    }

    /// Generated values of every scenario of the differential tests, counted in 4 KiB chunks.
    @Test(arguments: SplitParseDifferentialTests.generatedSeeds)
    func generatedValuesCountAsOnOneThread(seed: Int) {
        let scenarios = SplitParseDifferentialTests.Scenario.allCases
        let scenario = scenarios[seed % scenarios.count]
        guard scenario != .comments else { return }
        let document = GeneratedDocument(
            seed: UInt64(seed) &+ 3_000_017, scenario: scenario, nested: false, lines: true, concatenated: true)
        let duplicates = document.options.parsing.rejectsDuplicateKeys
        let one = Self.counted(document.bytes, workers: 1, chunkSize: 4096, rejectsDuplicates: duplicates)
        for runBytes in [1, 97] {
            let two = Self.counted(
                document.bytes, workers: 2, runBytes: runBytes, chunkSize: 4096, rejectsDuplicates: duplicates)
            #expect(two == one, "seed \(seed) (\(scenario)), runs of \(runBytes)")
        }
    }

    /// Found by an attacker's run of the tool: the parser holds chunks back while a token of
    /// 64 KiB or more is open, and parses them once as much has arrived; a run that ended among
    /// held chunks lost the values in them (`"x…" [1] 2` counted 1 value, and `"x…" [1 2]` was
    /// valid). A run now parses what it holds at its end.
    @Test func aLongTopLevelTokenLosesNoValues() {
        for length in [65_535, 70_000, 140_000] {
            for tail in [" [1] 2", " [1] {\"a\": 2} [3]", " [1 2]", " [1,]", " ]"] {
                let text = "\"" + String(repeating: "x", count: length) + "\"" + tail
                // The long value shortened, so that a failure's message stays readable.
                let short = { (outcome: SplitLinesReaderTests.Outcome) -> String in
                    "\(outcome.values.map { $0.prefix(12) }) returned \(outcome.returned ?? -1) error \(outcome.error?.prefix(200) ?? "none")"
                }
                for chunkSize in [4096, 65_536] {
                    let reference = short(Self.read(text, workers: 1, chunkSize: chunkSize))
                    for runBytes in [1, 4096, 1 << 20] {
                        #expect(
                            short(Self.read(text, workers: 2, runBytes: runBytes, chunkSize: chunkSize)) == reference,
                            "\(length) x, then \(tail.debugDescription), chunks of \(chunkSize), runs of \(runBytes)")
                    }
                    let bytes = Array(text.utf8)
                    let counted = Self.counted(bytes, workers: 1, chunkSize: chunkSize, rejectsDuplicates: false)
                    for workers in [1, 2] {
                        // One job of the split count too: it counts each run as it is cut.
                        var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
                        options.concurrency = workers
                        let split: String
                        do {
                            let url = FileManager.default.temporaryDirectory
                                .appendingPathComponent("long-token-\(UUID().uuidString).json")
                            try Data(bytes).write(to: url)
                            defer { try? FileManager.default.removeItem(at: url) }
                            let counts = try countConcatenatedValues(in: .file(url), options: options)
                            split = "\(counts.values) values, \(counts.nested) in all"
                        } catch {
                            split = SplitLinesReaderTests.describe(error)
                        }
                        #expect(split == counted, "\(length) x, then \(tail.debugDescription), \(workers) workers")
                    }
                }
            }
        }
    }

    /// The cutter, read on its own: every byte once, in order, in a run or the rest; each run
    /// knows its offset, line and the bytes before it; and runs are cut again after each long
    /// value.
    @Test func theCutterResumesAfterTheRest() throws {
        var options = StreamingOptions()
        options.splitBatchByteCount = 16
        var cutter = ValuesRunCutter(options: options)
        let long = "[" + Array(repeating: "\"ab\ncd\"", count: 200).joined(separator: ",") + "]"
        let short = String(repeating: "{\"k\":\n[1]} ", count: 30)
        let text = Array((short + long + short + long + long + " 7 " + short).utf8)
        var runs: [ValuesRunCutter.Piece] = []
        var rests: [(start: Int, bytes: [UInt8])] = []
        var fed = 0
        while fed < text.count {
            let end = min(fed + 100, text.count)
            try text[fed..<end].withUnsafeBytes { chunk in
                var start = 0
                if cutter.handedOver {
                    let restEnd = cutter.endOfRest(in: chunk)
                    rests.append((fed, Array(chunk[..<(restEnd ?? chunk.count)])))
                    guard let restEnd else { return }
                    start = restEnd
                }
                if try !cutter.feed(chunk, from: start, isStopped: { false }, { runs.append($0) }) {
                    let rest = try cutter.takeRest { runs.append($0) }
                    rests.append((rest.start, rest.bytes))
                }
            }
            fed = end
        }
        try cutter.finish { runs.append($0) }
        // Every byte once, in order.
        let pieces = (runs.map { ($0.start, $0.bytes) } + rests.map { ($0.start, $0.bytes) }).sorted { $0.0 < $1.0 }
            .filter { !$0.1.isEmpty }
        #expect(pieces.flatMap(\.1) == text)
        var offset = 0
        for piece in pieces {
            #expect(piece.0 == offset)
            offset += piece.1.count
        }
        for run in runs where !run.bytes.isEmpty {
            let before = text[..<run.start]
            #expect(run.newlinesBefore == before.filter { $0 == 0x0A }.count, "run at \(run.start)")
            if run.newlinesBefore > 0 { #expect(run.lastLineStart == before.lastIndex(of: 0x0A)! + 1) }
            #expect(run.bytesBefore == Array(before.suffix(16)), "run at \(run.start)")
        }
        // Runs after the first long value, and after the last (the scalar between does not end a rest).
        let firstLongEnd = short.utf8.count + long.utf8.count
        #expect(runs.contains { $0.start >= firstLongEnd && $0.start < firstLongEnd + short.utf8.count })
        #expect(runs.contains { $0.start >= text.count - short.utf8.count + 10 })
        #expect(rests.count > 4)
    }

    /// The cutter never holds more of one value than a run may: past it, the rest is the owner's.
    @Test func theCutterStopsHoldingALongValue() throws {
        var options = StreamingOptions()
        options.splitBatchByteCount = 64
        var cutter = ValuesRunCutter(options: options)
        var runs: [ValuesRunCutter.Piece] = []
        let text = Array((#"{"a":1} [2]"# + "[" + String(repeating: "1,", count: 5000) + "1]").utf8)
        var fed = 0
        var kept = true
        while kept, fed < text.count {
            let end = min(fed + 100, text.count)
            kept = try text[fed..<end].withUnsafeBytes { chunk in
                try cutter.feed(chunk, isStopped: { false }) { runs.append($0) }
            }
            fed = end
        }
        #expect(!kept && fed < text.count, "stopped after \(fed) of \(text.count) bytes")
        #expect(fed <= 11 + 32 * 64 + 100)
        let rest = try cutter.takeRest { runs.append($0) }
        #expect(runs.map { String(decoding: $0.bytes, as: UTF8.self) }.joined() == #"{"a":1} [2]"#)
        #expect(rest.start == 11 && rest.bytes == Array(text[11..<fed]))
    }
}
