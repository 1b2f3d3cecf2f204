import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

private typealias Item = NamedItem

private func temporaryFile(_ contents: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-\(UUID().uuidString).json")
    try Data(contents.utf8).write(to: url)
    return url
}

/// JSON Lines and concatenated values (`forEachValue` and `decodedValues` with `.jsonLines` or
/// `.concatenated`): one value per line, blank lines and a byte order mark, errors that name their
/// line, the line length limit, and the value at a key path inside each.
@Suite struct JSONLinesTests {
    /// Found by FuzzJSONLines (a gap in its own oracle, not in the reader): a line of a carriage
    /// return and spaces (`\r  `) is JSON whitespace only, so it holds no value; a top-level `null`
    /// line is a value handed to the decoder. The reader reads this input as three values.
    @Test func aWhitespaceLineWithACarriageReturnIsBlank() throws {
        let data = try Fixtures.data("fuzz", "json-lines-whitespace-line-with-carriage-return.jsonl")
        struct AnyValue: Elevate.Decodable {
            let json: Any
            init(json: Any) { self.json = json }
        }
        for chunkSize in [1, 3, data.count] {
            var options = StreamingOptions()
            options.chunkSize = chunkSize
            var count = 0
            try Elevate.forEachValue(from: .data(data), framing: .jsonLines, as: AnyValue.self, options: options) { _ in
                count += 1
            }
            #expect(count == 3, "chunks of \(chunkSize)")
        }
    }

    /// Found by FuzzJSONLines: the input starts with `EF BB` and a newline, the first two bytes
    /// of a byte order mark. The reader counted them as a blank first line (a mark alone is one)
    /// and delivered the value on line 4, where parsing each line alone fails at line 1; the
    /// concatenated framing read the same bytes followed by whitespace as an empty input. Only a
    /// whole mark is blank now (see also `aPartialByteOrderMarkIsAnErrorNotABlankLine`).
    @Test func aPartialByteOrderMarkOnTheFirstLineIsInvalid() throws {
        let data = try Fixtures.data("fuzz", "json-lines-partial-byte-order-mark.jsonl")
        struct AnyValue: Elevate.Decodable {
            let json: Any
            init(json: Any) { self.json = json }
        }
        for chunkSize in [1, 2, 3, data.count] {
            var options = StreamingOptions()
            options.chunkSize = chunkSize
            var count = 0
            let error = #expect(throws: ParserError.self) {
                try Elevate.forEachValue(from: .data(data), framing: .jsonLines, as: AnyValue.self, options: options) {
                    _ in count += 1
                }
            }
            #expect(count == 0, "chunks of \(chunkSize)")
            #expect(error?.description.contains("line 1, column 1") == true, "chunks of \(chunkSize): \(String(describing: error))")
        }
    }

    /// The same gap with several values allowed: a string left open at the end of the input is
    /// a value cut short, not the end of the stream.
    @Test func anUnterminatedStringAtTheEndOfAStreamIsAnError() throws {
        struct AnyValue: Elevate.Decodable {
            let json: Any
            init(json: Any) { self.json = json }
        }
        for text in [#"1 "abc"#, #"{"a":1}{"b"#, #"[1]""#] {
            #expect(throws: ParserError.self, "\(text)") {
                try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .concatenated, as: AnyValue.self) { _ in }
            }
        }
    }

    /// JSON Lines and concatenated values read at a dotted key path prefer the literal root key,
    /// as the in-memory calls do; a repeat of the split path's key dropped the literal key's value
    /// (giving the repeat's value, or "missing").
    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func valuesKeepTheLiteralDottedKeyWhenTheSplitPathRepeats(_ framing: JSONFraming) throws {
        let lines = [
            (#"{"a.b":1,"a":{"b":2},"a":{"b":3}}"#, 1),
            (#"{"a.b":1,"a":1,"a":2}"#, 1),
            (#"{"a":{"b":2},"a.b":1,"a.b":5}"#, 5),
            (#"{"a":{"b":2},"a":{"b":3}}"#, 3),
        ]
        for (line, value) in lines {
            #expect(try JSONValue(parsing: line)[keyPath: "a.b"]?.int == value, "in memory: \(line)")
        }
        var values: [Int] = []
        let text = lines.map(\.0).joined(separator: "\n") + "\n"
        try forEachValue(from: .data(Data(text.utf8)), framing: framing, atKeyPath: "a.b", as: Int.self) {
            values.append($0)
        }
        #expect(values == lines.map(\.1))
    }

    /// JSON Lines read with `forEachValue`, each value as its text.
    private static func lines(_ input: JSONInput, _ options: StreamingOptions = StreamOutcome.unwrapped()) -> String {
        var values: [String] = []
        do {
            try Elevate.forEachValue(from: input, framing: .jsonLines, as: StreamOutcome.Echo.self, options: options) {
                values.append($0.text)
            }
            return StreamOutcome.outcome(values, nil)
        } catch {
            return StreamOutcome.outcome(values, error)
        }
    }

    /// JSON Lines read with `decodedValues`.
    private static func lines(_ chunks: ByteChunks, _ options: StreamingOptions = StreamOutcome.unwrapped()) async -> String {
        var values: [String] = []
        do {
            for try await value in chunks.decodedValues(framing: .jsonLines, as: StreamOutcome.Echo.self, options: options) {
                values.append(value.text)
            }
            return StreamOutcome.outcome(values, nil)
        } catch {
            return StreamOutcome.outcome(values, error)
        }
    }

    /// A line ends at its newline, which the line's parser is fed as a space. An error found at
    /// that space (a value cut short by the end of its line, the end of the input) was reported
    /// one byte too far, at the space: past the end of the input on a last line, on the next line's
    /// first byte otherwise; and its excerpt showed the space, which is not in the input.
    @Test(arguments: [
        // Cut short by the end of the input: the error is just past its last byte.
        ("1\n[2, \"abc", "truncated at 2:9 (byte 10)", #"[2, "abc"#),
        ("\"abc", "truncated at 1:5 (byte 4)", #""abc"#),
        // Cut short by a newline: the error is at the newline.
        ("1\n{\"a\":\n2\n", "truncated at 2:6 (byte 7)", #"{"a":"#),
        ("1\n[2,\r\n", "truncated at 2:5 (byte 6)", #"[2,\r"#),
        // A complete value and garbage after it, on the last line.
        ("1\n[1] \"x", "syntax at 2:5 (byte 6)", #"[1] "x"#),
    ])
    func jsonLinesErrorsAtTheEndOfALineNameAByteOfTheInput(text: String, position: String, excerpt: String) {
        let outcome = Self.lines(.data(Data(text.utf8)))
        #expect(outcome.contains(position), "\(outcome)")
        #expect(outcome.hasSuffix("near <\(excerpt)>"), "\(outcome)")
    }

    /// A line with a token over 64 KiB is held back by its parser until the line ends, so an
    /// error inside that token is found at the end of the line when the line comes in chunks, and
    /// while the line is fed when it comes whole: the excerpt was then one space longer.
    @Test func anErrorInALongLineIsTheSameHoweverTheLineIsChunked() async {
        let long = String(repeating: "abcdefgh", count: 10_000)
        for bad in [[0xC3, 0x28], Array(#"\ud800x"#.utf8)] {
            let bytes = Array("1\n[\"\(long)".utf8) + bad + Array("\", 2]\n3\n".utf8)
            let expected = Self.lines(.data(Data(bytes)))
            #expect(expected.hasPrefix("delivered [1], then "), "\(expected)")
            #expect(expected.hasSuffix(#"2]>"#), "\(expected)")
            for size in [1000, 4096, 65536] {
                #expect(await Self.lines(ByteChunks(bytes, size: size)) == expected, "chunks of \(size)")
            }
            #expect(StreamOutcome.throughPipe(bytes, writes: Array(repeating: 3000, count: 40)) { Self.lines($0) } == expected)
        }
    }

    /// A line longer than the element size limit is an error when its bytes cross the limit; a
    /// syntax error before that point comes first, as it would in a stream read byte by byte.
    /// The piece of input that crossed the limit was refused whole, unparsed, so which error a
    /// line got depended on where the chunks were cut: whole, `[x` and 60 spaces was too long;
    /// in chunks of up to 30 bytes, invalid at the `x`.
    @Test(arguments: [
        ("1\n[x" + String(repeating: " ", count: 60) + "]\n2\n", "syntax at 2:2 (byte 3)"),
        ("1\n[1, 2,   3, \u{FEFF}" + String(repeating: " ", count: 60) + "]\n", "syntax at 2:13 (byte 14)"),
        // Nothing wrong in the first 40 bytes: too long, however it is cut.
        ("1\n[1, 2,   3" + String(repeating: " ", count: 60) + "\n", "Line 2 is longer than the maximum element size of 40 bytes"),
        ("1\n[1, 2,   3" + String(repeating: " ", count: 35) + "x\n", "Line 2 is longer than the maximum element size of 40 bytes"),
    ])
    func aLineOverTheLimitFailsAtItsFirstProblemHoweverItIsCut(text: String, failure: String) async {
        var options = StreamOutcome.unwrapped()
        options.maximumElementSize = 40
        let bytes = Array(text.utf8)
        let expected = Self.lines(.data(Data(bytes)), options)
        #expect(expected.hasPrefix("delivered [1], then "), "\(expected)")
        #expect(expected.contains(failure), "\(expected)")
        for size in [1, 3, 7, 30, 41] {
            let outcome = await Self.lines(ByteChunks(bytes, size: size), options)
            #expect(StreamOutcome.same(outcome, expected), "chunks of \(size): \(outcome)")
        }
        for point in 0...bytes.count {
            let outcome = await Self.lines(ByteChunks(bytes, cutAt: [point]), options)
            #expect(StreamOutcome.same(outcome, expected), "cut at \(point): \(outcome)")
        }
        let piped = StreamOutcome.throughPipe(bytes, writes: Array(repeating: 5, count: 30)) { Self.lines($0, options) }
        #expect(StreamOutcome.same(piped, expected), "\(piped)")
    }

    @Test func jsonLinesNameTheLine() throws {
        let lines = "{\"id\": 1, \"name\": \"a\"}\n\n{\"id\": 2, \"name\": \"b\"}\r\n{\"id\": 3, \"name\": \"c\"}"
        var ids: [Int] = []
        let count = try Elevate.forEachValue(from: .data(Data(lines.utf8)), framing: .jsonLines, as: Item.self) {
            ids.append($0.id)
        }
        #expect(count == 3)
        #expect(ids == [1, 2, 3])

        let broken = "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"} {}\n"
        do {
            try Elevate.forEachValue(from: .data(Data(broken.utf8)), framing: .jsonLines, as: Item.self) { _ in }
            Issue.record("no error")
        } catch ParserError.deserialization(let reason) {
            #expect(reason.contains("line 2"))
        }
        let invalid = "{\"id\": 1, \"name\": \"a\"}\n{\"id\": \"2\", \"name\": \"b\"}\n"
        do {
            try Elevate.forEachValue(from: .data(Data(invalid.utf8)), framing: .jsonLines, as: Item.self) { _ in }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.contains("line 2"))
        }
    }

    @Test func jsonLinesAcrossChunks() throws {
        let lines = (0..<200).map { #"{"id": \#($0), "name": "n\#($0)"}"# }.joined(separator: "\n") + "\n"
        let url = try temporaryFile(lines)
        defer { try? FileManager.default.removeItem(at: url) }
        var ids: [Int] = []
        try Elevate.forEachValue(
            from: .file(url), framing: .jsonLines, as: Item.self, options: StreamingOptions(chunkSize: 13)
        ) { ids.append($0.id) }
        #expect(ids == Array(0..<200))
    }

    @Test func concatenatedValues() throws {
        let text = #"{"id": 1, "name": "a"}{"id": 2, "name": "b"} {"id": 3, "name": "c"}"#
        var ids: [Int] = []
        try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .concatenated, as: Item.self) {
            ids.append($0.id)
        }
        #expect(ids == [1, 2, 3])
    }

    @Test func jsonLinesAcceptExactlyOneValuePerLine() {
        var parsing = JSONParsingOptions()
        parsing.allowsMultipleValues = true
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(
                from: .data(Data("1 2\n".utf8)), framing: .jsonLines, as: Int.self,
                options: StreamingOptions(parsing: parsing)
            ) { _ in }
        }
    }

    @Test func jsonLinesFailuresCarryTheLine() {
        do {
            _ = try withValidationReport {
                try Elevate.forEachValue(from: .data(Data("1\n\"x\"\n".utf8)), framing: .jsonLines, as: Int.self) { _ in
                }
            }
            Issue.record("no error")
        } catch let report as ValidationReport {
            #expect(report.error.failureReason.hasPrefix("Error parsing line 2 with parser [Int]"))
            #expect(report.failures.first?.path == "[line 2]")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func asyncJSONLinesAndConcatenatedValues() async throws {
        let text = Array("{\"id\": 1}\n{\"id\": 2}\n\n{\"id\": 3}\n".utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: text.count, by: 4) {
                continuation.yield(Array(text[start..<min(start + 4, text.count)]))
            }
            continuation.finish()
        }
        var ids: [Int] = []
        for try await id in chunks.decodedValues(framing: .jsonLines, atKeyPath: "id", as: Int.self) {
            ids.append(id)
        }
        #expect(ids == [1, 2, 3])

        let concatenated = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("[1][2]".utf8))
            continuation.yield(Array(" [3]".utf8))
            continuation.finish()
        }
        var arrays: [[Int]] = []
        for try await array in concatenated.decodedValues(framing: .concatenated, as: [Int].self) {
            arrays.append(array)
        }
        #expect(arrays == [[1], [2], [3]])
    }

    @Test func jsonLinesLimitHoldsWhateverTheChunking() {
        let line = "[" + String(repeating: "1,", count: 70) + "1]\n"
        for chunkSize in [7, 64, 100, 1 << 20] {
            #expect(throws: ParserError.self, "chunk size \(chunkSize)") {
                try Elevate.forEachValue(
                    from: .data(Data(line.utf8)), framing: .jsonLines, as: [Int].self,
                    options: StreamingOptions(maximumElementSize: 100, chunkSize: chunkSize)
                ) { _ in }
            }
        }
    }

    @Test func byteOrderMarkOnlyAtTheStartOfJSONLines() throws {
        let first = [0xEF, 0xBB, 0xBF] + Array("1\n2\n".utf8)
        #expect(try Elevate.forEachValue(from: .data(Data(first)), framing: .jsonLines, as: Int.self) { _ in } == 2)
        let later = Array("1\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("2\n".utf8)
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(from: .data(Data(later)), framing: .jsonLines, as: Int.self) { _ in }
        }
    }

    /// Only a whole byte order mark may stand alone on the first line: the first bytes of one
    /// (a fuzz finding) are invalid text, not a blank line or an empty input, in every framing
    /// and however the input is split.
    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func aPartialByteOrderMarkIsAnErrorNotABlankLine(framing: JSONFraming) async throws {
        for mark in [[0xEF], [0xEF, 0xBB]] as [[UInt8]] {
            for rest in ["\n1\n", " \n", "\n", ""] {
                let bytes = mark + Array(rest.utf8)
                var error: ParserError?
                do {
                    try Elevate.forEachValue(from: .data(Data(bytes)), framing: framing, as: Int.self) { _ in }
                } catch let caught as ParserError {
                    error = caught
                }
                #expect(error?.description.contains("line 1, column 1") == true, "\(bytes) \(framing)")
                var chunkedError: (any Error)?
                do {
                    let chunks = AsyncStream<[UInt8]> { continuation in
                        for byte in bytes { continuation.yield([byte]) }
                        continuation.finish()
                    }
                    for try await _ in chunks.decodedValues(framing: framing, as: Int.self) {}
                } catch {
                    chunkedError = error
                }
                #expect(chunkedError is ParserError, "\(bytes) \(framing), one byte at a time")
            }
        }
        let whole = [0xEF, 0xBB, 0xBF] + Array("\n1\n".utf8)
        #expect(try Elevate.forEachValue(from: .data(Data(whole)), framing: framing, as: Int.self) { _ in } == 1)
    }

    /// Found in review: a first JSON Lines line of only a byte order mark was a syntax error,
    /// where the other framings read the same input as no value.
    @Test func aByteOrderMarkAloneOnTheFirstLineIsBlank() throws {
        for text in ["\u{FEFF}", "\u{FEFF}\n1\n", "\u{FEFF}\r\n1\n", "\u{FEFF}  \n"] {
            var values: [Int] = []
            try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .jsonLines, as: Int.self) { values.append($0) }
            #expect(values == (text.contains("1") ? [1] : []), "\(text.debugDescription)")
        }
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(from: .data(Data("1\n\u{FEFF}\n".utf8)), framing: .jsonLines, as: Int.self) { _ in }
        }
    }

    /// One byte order mark starts the input; a second one right after it is invalid text, as a
    /// mark anywhere but the start is (a fuzz finding: the fuzz target's model skipped both).
    @Test func aSecondByteOrderMarkAtTheStartIsInvalid() throws {
        let text = "\u{FEFF}\u{FEFF}{\"k\": 1}\n"
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .jsonLines, as: JSON.self) { _ in }
        }
        var values = 0
        try Elevate.forEachValue(from: .data(Data(text.utf8.dropFirst(3))), framing: .jsonLines, as: JSON.self) { _ in
            values += 1
        }
        #expect(values == 1)
    }
}
