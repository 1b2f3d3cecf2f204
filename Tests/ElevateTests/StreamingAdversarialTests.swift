import Foundation
import Testing

@testable import Elevate

/// Tries to break what the streaming input paths promise: for the same bytes, every input form
/// (data, a file, a pipe, an asynchronous sequence of chunks) and every chunking gives exactly the
/// result or the error (type, message, byte offset, line, column, element index) of the whole
/// `Data` parsed at once. The reference is always `.data(bytes)` read by the same call.
@Suite struct StreamingAdversarialTests {
    // MARK: Input forms

    /// The given byte chunks, in order, as an asynchronous sequence (deterministic, unlike a pipe).
    private struct Chunks: AsyncSequence, Sendable {
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
}
