import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Every input form (`JSONInput.data`, a file, a pipe, an asynchronous sequence of chunks) and
/// every chunking gives exactly the result or the error (type, message, byte offset, line, column,
/// element index) of the whole `Data` parsed at once, for every reader of a stream.
@Suite struct JSONInputTests {
    /// One reader of a stream, run on an input or on chunks.
    enum Reader: CaseIterable {
        case elements, lines, concatenated, summary, events

        func callAsFunction(_ input: JSONInput, _ options: StreamingOptions) -> String {
            var values: [String] = []
            do {
                switch self {
                case .elements:
                    try Elevate.forEachElement(from: input, atKeyPath: "a.b", as: StreamOutcome.Echo.self, options: options) {
                        values.append($0.text)
                    }
                case .lines, .concatenated:
                    try Elevate.forEachValue(
                        from: input, framing: self == .lines ? .jsonLines : .concatenated, as: StreamOutcome.Echo.self,
                        options: options
                    ) { values.append($0.text) }
                case .summary:
                    values = ["\(String(describing: try Elevate.summarizeValue(from: input, atKeyPath: "a", options: options)))"]
                case .events:
                    let recorder = Recorder()
                    let found = try Elevate.forEachEvent(from: input, atKeyPath: "a", to: recorder, options: options)
                    values = recorder.events + ["found: \(found)"]
                }
                return StreamOutcome.outcome(values, nil)
            } catch {
                return StreamOutcome.outcome(values, error)
            }
        }

        func callAsFunction<Chunks: AsyncSequence>(_ chunks: Chunks, _ options: StreamingOptions) async -> String
        where Chunks.Element: Sequence<UInt8> {
            var values: [String] = []
            do {
                switch self {
                case .elements:
                    for try await value in chunks.decodedElements(atKeyPath: "a.b", as: StreamOutcome.Echo.self, options: options) {
                        values.append(value.text)
                    }
                case .lines, .concatenated:
                    let framing: JSONFraming = self == .lines ? .jsonLines : .concatenated
                    for try await value in chunks.decodedValues(framing: framing, as: StreamOutcome.Echo.self, options: options) {
                        values.append(value.text)
                    }
                case .summary:
                    values = ["\(String(describing: try await chunks.summarizeValue(atKeyPath: "a", options: options)))"]
                case .events:
                    let recorder = Recorder()
                    let found = try await chunks.forEachEvent(atKeyPath: "a", to: recorder, options: options)
                    values = recorder.events + ["found: \(found)"]
                }
                return StreamOutcome.outcome(values, nil)
            } catch {
                return StreamOutcome.outcome(values, error)
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
    static let corpus: [[UInt8]] = [
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
            var options = StreamOutcome.unwrapped()
            options.skipsInvalidElements = skipping
            for bytes in Self.corpus {
                let expected = reader(.data(Data(bytes)), options)
                let name = String(decoding: bytes, as: UTF8.self).debugDescription
                for workers in [1, 2] {
                    options.concurrency = workers
                    var cuts = (0...bytes.count).map { [$0] } + [1, 2, 3, 7].map { Array(stride(from: $0, to: bytes.count, by: $0)) }
                    cuts += (0..<4).map { _ in (0..<5).map { _ in Int.random(in: 0...bytes.count, using: &generator) } }
                    for points in cuts {
                        let outcome = await reader(ByteChunks(bytes, cutAt: points), options)
                        #expect(StreamOutcome.same(outcome, expected), "\(name) cut at \(points): \(outcome), not \(expected)")
                    }
                }
                options.concurrency = 1
                let piped = StreamOutcome.throughPipe(bytes, writes: Array(repeating: 1, count: bytes.count)) { reader($0, options) }
                #expect(StreamOutcome.same(piped, expected), "\(name) through a pipe: \(piped), not \(expected)")
            }
        }
    }
}
