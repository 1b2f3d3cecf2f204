import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Tries to break what the streaming input paths promise: for the same bytes, every input form
/// (data, a file, a pipe, an asynchronous sequence of chunks) and every chunking gives exactly the
/// result or the error (type, message, byte offset, line, column, element index) of the whole
/// `Data` parsed at once. The reference is always `.data(bytes)` read by the same call.
@Suite struct StreamingAdversarialTests {
    // MARK: Input forms

    /// The given byte chunks, in order, as an asynchronous sequence (deterministic, unlike a pipe).
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = [UInt8]
        let pieces: [[UInt8]]

        struct AsyncIterator: AsyncIteratorProtocol {
            var pieces: ArraySlice<[UInt8]>
            mutating func next() async -> [UInt8]? { pieces.popFirst() }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pieces: pieces[...]) }

        /// `bytes` cut at each of `points` (out-of-range and repeated points are ignored).
        init(_ bytes: [UInt8], cutAt points: [Int]) {
            var pieces: [[UInt8]] = []
            var start = 0
            for point in points.sorted() where point > start && point < bytes.count {
                pieces.append(Array(bytes[start..<point]))
                start = point
            }
            pieces.append(Array(bytes[start...]))
            self.pieces = pieces
        }

        /// `bytes` in chunks of `size`.
        init(_ bytes: [UInt8], size: Int) {
            self.init(bytes, cutAt: Array(stride(from: size, to: bytes.count, by: size)))
        }
    }

    /// Runs `body` on the read end of a pipe into which a thread writes `bytes` in writes of the
    /// given sizes (the reader sees them as they come, so the chunking varies from run to run).
    private static func throughPipe<R>(_ bytes: [UInt8], writes sizes: [Int], _ body: (JSONInput) -> R) -> R {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let thread = Thread {
            var start = 0
            var sizes = sizes[...]
            while start < bytes.count {
                let end = min(start + (sizes.popFirst() ?? bytes.count), bytes.count)
                writer.write(Data(bytes[start..<end]))
                start = end
            }
            try? writer.close()
        }
        thread.start()
        let result = body(.fileHandle(pipe.fileHandleForReading))
        // Read what the call left (after a stop or an error), so that the writer always ends.
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        return result
    }

    // MARK: Outcomes

    /// Any value, as canonical text (object keys sorted); the strings `"bad"` and objects with a
    /// `bad` key are invalid elements.
    private struct Echo: Elevate.Decodable, Sendable {
        let text: String
        init(json: Any) throws {
            // A view, or (for types that cast their value, as this one does) a Foundation value.
            let value = (json as? JSONValue)?.foundationValue ?? json
            if value as? String == "bad" || (value as? [String: Any])?["bad"] != nil {
                throw ParserError.validation(failureReason: "bad value")
            }
            text = Self.canonical(value)
        }

        static func canonical(_ value: Any) -> String {
            switch value {
            case let object as [String: Any]:
                "{" + object.keys.sorted().map { "\($0.debugDescription): \(canonical(object[$0]!))" }
                    .joined(separator: ", ") + "}"
            case let array as [Any]: "[" + array.map(canonical).joined(separator: ", ") + "]"
            case let string as String: string.debugDescription
            case is NSNull: "null"
            default: "\(value)"
            }
        }
    }

    /// What a call delivered and how it ended, as text that compares exactly: a syntax error with
    /// all its fields, any other error with its type and description.
    private static func outcome(_ delivered: [String], _ error: (any Error)?) -> String {
        let values = "[" + delivered.joined(separator: ", ") + "]"
        switch error {
        case nil:
            return "delivered \(values)"
        case let syntax as JSONSyntaxError:
            return "delivered \(values), then \(syntax.kind) at \(syntax.line):\(syntax.column) "
                + "(byte \(syntax.byteOffset)): \(syntax.message) near <\(syntax.excerpt)>"
        case let error?:
            return "delivered \(values), then \(type(of: error)): \(error)"
        }
    }

    /// Whether two outcomes are the same, but for an excerpt cut short after the offending byte
    /// where the input had not arrived yet (as ``JSONSyntaxError/excerpt`` says it may be).
    private static func same(_ got: String, _ expected: String) -> Bool {
        guard got != expected else { return true }
        guard let cut = got.range(of: " near <"), let expectedCut = expected.range(of: " near <"),
            got[..<cut.lowerBound] == expected[..<expectedCut.lowerBound]
        else { return false }
        let excerpt = got[cut.upperBound...].dropLast()
        return !excerpt.isEmpty && expected[expectedCut.upperBound...].dropLast().hasPrefix(excerpt)
    }

    private static func unwrapped(_ workers: Int = 1) -> StreamingOptions {
        var options = StreamingOptions(wrapsErrorsInParserError: false)
        options.concurrency = workers
        return options
    }

    /// JSON Lines read with `forEachValue`, each value as its text.
    private static func lines(_ input: JSONInput, _ options: StreamingOptions = unwrapped()) -> String {
        var values: [String] = []
        do {
            try Elevate.forEachValue(from: input, framing: .jsonLines, as: Echo.self, options: options) {
                values.append($0.text)
            }
            return outcome(values, nil)
        } catch {
            return outcome(values, error)
        }
    }

    /// JSON Lines read with `decodedValues`.
    private static func lines(_ chunks: Chunks, _ options: StreamingOptions = unwrapped()) async -> String {
        var values: [String] = []
        do {
            for try await value in chunks.decodedValues(framing: .jsonLines, as: Echo.self, options: options) {
                values.append(value.text)
            }
            return outcome(values, nil)
        } catch {
            return outcome(values, error)
        }
    }

    // MARK: JSON Lines: errors at the end of a line

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
                #expect(await Self.lines(Chunks(bytes, size: size)) == expected, "chunks of \(size)")
            }
            #expect(Self.throughPipe(bytes, writes: Array(repeating: 3000, count: 40)) { Self.lines($0) } == expected)
        }
    }

    // MARK: JSON Lines: the line length limit

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
        var options = Self.unwrapped()
        options.maximumElementSize = 40
        let bytes = Array(text.utf8)
        let expected = Self.lines(.data(Data(bytes)), options)
        #expect(expected.hasPrefix("delivered [1], then "), "\(expected)")
        #expect(expected.contains(failure), "\(expected)")
        for size in [1, 3, 7, 30, 41] {
            let outcome = await Self.lines(Chunks(bytes, size: size), options)
            #expect(Self.same(outcome, expected), "chunks of \(size): \(outcome)")
        }
        for point in 0...bytes.count {
            let outcome = await Self.lines(Chunks(bytes, cutAt: [point]), options)
            #expect(Self.same(outcome, expected), "cut at \(point): \(outcome)")
        }
        let piped = Self.throughPipe(bytes, writes: Array(repeating: 5, count: 30)) { Self.lines($0, options) }
        #expect(Self.same(piped, expected), "\(piped)")
    }

    // MARK: Every input form and every cut agree (regression guard)

    /// One reader of a stream, run on an input or on chunks.
    enum Reader: CaseIterable {
        case elements, lines, concatenated, summary, events

        func callAsFunction(_ input: JSONInput, _ options: StreamingOptions) -> String {
            var values: [String] = []
            do {
                switch self {
                case .elements:
                    try Elevate.forEachElement(atKeyPath: "a.b", from: input, as: Echo.self, options: options) {
                        values.append($0.text)
                    }
                case .lines, .concatenated:
                    try Elevate.forEachValue(
                        from: input, framing: self == .lines ? .jsonLines : .concatenated, as: Echo.self,
                        options: options
                    ) { values.append($0.text) }
                case .summary:
                    values = ["\(String(describing: try Elevate.summarizeValue(atKeyPath: "a", from: input, options: options)))"]
                case .events:
                    let recorder = Recorder()
                    let found = try Elevate.forEachEvent(atKeyPath: "a", from: input, to: recorder, options: options)
                    values = recorder.events + ["found: \(found)"]
                }
                return StreamingAdversarialTests.outcome(values, nil)
            } catch {
                return StreamingAdversarialTests.outcome(values, error)
            }
        }

        func callAsFunction(_ chunks: Chunks, _ options: StreamingOptions) async -> String {
            var values: [String] = []
            do {
                switch self {
                case .elements:
                    for try await value in chunks.decodedElements(atKeyPath: "a.b", as: Echo.self, options: options) {
                        values.append(value.text)
                    }
                case .lines, .concatenated:
                    let framing: JSONFraming = self == .lines ? .jsonLines : .concatenated
                    for try await value in chunks.decodedValues(framing: framing, as: Echo.self, options: options) {
                        values.append(value.text)
                    }
                case .summary:
                    values = ["\(String(describing: try await chunks.summarizeValue(atKeyPath: "a", options: options)))"]
                case .events:
                    let recorder = Recorder()
                    let found = try await chunks.forEachEvent(atKeyPath: "a", to: recorder, options: options)
                    values = recorder.events + ["found: \(found)"]
                }
                return StreamingAdversarialTests.outcome(values, nil)
            } catch {
                return StreamingAdversarialTests.outcome(values, error)
            }
        }
    }

    private final class Recorder: JSONEventHandler {
        var events: [String] = []
        func startObject() { events.append("{") }
        func key(_ key: JSONText) { events.append("key \(key.string.debugDescription)") }
        func endObject() { events.append("}") }
        func startArray() { events.append("[") }
        func endArray() { events.append("]") }
        func string(_ value: JSONText) { events.append(value.string.debugDescription) }
        func number(_ value: JSONNumberText) { events.append(value.text) }
        func bool(_ value: Bool) { events.append("\(value)") }
        func null() { events.append("null") }
    }

    /// Documents whose every byte is a place to cut: multi-byte UTF-8, escapes and surrogate pairs,
    /// numbers and literals, a byte order mark, CRLF, blank lines, a last line without a newline,
    /// invalid elements, repeated keys, and errors of every kind, early and late.
    private static let corpus: [[UInt8]] = [
        #"{"a": {"b": [1, "é😀", "\u00e9\ud83d\ude00", -0.5e-3, true, null, {"c": [1]}, 123456789012345678901]}}"#,
        "\u{FEFF}{\"a\": {\"b\": [1, \"bad\", 3]}}",
        #"{"a": {"b": [1]}, "a": {"b": [2, {"bad": 1}]}}"#,
        #"{"a": {"b": [1, "\ud83d\u0041"]}}"#,
        #"{"a": {"b": [1, tru"#,
        #"{"a": {"b": [1, 2.]}}"#,
        "{\"a\": {\"b\": [1, \"x\u{0C}\"]}}",
        "1\r\n\"bad\"\n\n  \t\r\n{\"a\": [2]}\n3",
        "\u{FEFF}1\n\u{FEFF}2\n",
        "1\n{\"a\":\n2\n",
        #""a""b" 1 2 [3]{"a":4} 5-6"#,
        "[1] \"x",
    ].map { Array($0.utf8) } + [
        Array(#"{"a": {"b": ["a"#.utf8) + [0xF0, 0x9F, 0x98] + Array(#"", 1]}}"#.utf8),
        Array("1\n ".utf8) + [0xEF, 0xBB, 0xBF] + Array("2\n".utf8),
        [0x20, 0xBB, 0xBF, 0x0A, 0x31, 0x0A],
    ]

    @Test(arguments: Reader.allCases)
    func everyCutOfEveryDocumentReadsAsTheWholeData(reader: Reader) async {
        var generator = SeededGenerator(state: 2024)
        for skipping in [false, true] {
            var options = Self.unwrapped()
            options.skipsInvalidElements = skipping
            for bytes in Self.corpus {
                let expected = reader(.data(Data(bytes)), options)
                let name = String(decoding: bytes, as: UTF8.self).debugDescription
                for workers in [1, 2] {
                    options.concurrency = workers
                    var cuts = (0...bytes.count).map { [$0] } + [1, 2, 3, 7].map { Array(stride(from: $0, to: bytes.count, by: $0)) }
                    cuts += (0..<4).map { _ in (0..<5).map { _ in Int.random(in: 0...bytes.count, using: &generator) } }
                    for points in cuts {
                        let outcome = await reader(Chunks(bytes, cutAt: points), options)
                        #expect(Self.same(outcome, expected), "\(name) cut at \(points): \(outcome), not \(expected)")
                    }
                }
                options.concurrency = 1
                let piped = Self.throughPipe(bytes, writes: Array(repeating: 1, count: bytes.count)) { reader($0, options) }
                #expect(Self.same(piped, expected), "\(name) through a pipe: \(piped), not \(expected)")
            }
        }
    }
}
