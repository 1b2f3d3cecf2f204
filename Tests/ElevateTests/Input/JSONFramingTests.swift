import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Any JSON value, as the decoder was handed it.
private struct AnyJSON: Elevate.Decodable {
    let value: Any
    init(json: Any) throws { value = json }
}

/// Whether a decoder was handed JSON's null (a view, or `NSNull`).
private func isNull(_ value: Any) -> Bool {
    (value as? JSONValue)?.isNull ?? (value is NSNull)
}

/// JSON Lines and concatenated values: empty input, `null`, the writer's output read back. (What
/// `elevate validate --json-lines` counts with, `countLines`: `LineCountingTests`.)
@Suite struct JSONFramingTests {
    @Test(arguments: [JSONFraming.jsonLines, .concatenated], ["", " ", "\n\n", " \r\n\t"])
    func emptyInputHasNoValues(framing: JSONFraming, text: String) throws {
        let count = try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: framing, as: Int.self) { _ in
            Issue.record("a value")
        }
        #expect(count == 0)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-empty-\(UUID()).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try Elevate.forEachValue(from: .file(url), framing: framing, as: Int.self) { _ in } == 0)
    }

    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func emptyAsyncInputHasNoValues(framing: JSONFraming) async throws {
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield([])
        continuation.yield(Array("  ".utf8))
        continuation.finish()
        var count = 0
        for try await _ in chunks.decodedValues(framing: framing, as: Int.self) { count += 1 }
        #expect(count == 0)
    }

    /// A truncated value is still an error, empty input or not.
    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func aCutValueIsStillAnError(framing: JSONFraming) {
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(from: .data(Data(" \"abc".utf8)), framing: framing, as: String.self) { _ in }
        }
    }

    /// Every value the writer accepts, at the top level, reads back from its JSON Lines output.
    /// One framing enum for both sides: whatever the writer writes, the reader of the same framing
    /// reads back, value for value.
    @Test(arguments: [JSONFraming.array, .jsonLines, .concatenated, .jsonTextSequence])
    func theWritersOutputReadsBack(framing: JSONFraming) throws {
        let values: [Any] = [
            NSNull(), Optional<Int>.none as Any, 1, -2.5, "text\nwith\u{2028}breaks", true, false, [1, NSNull()],
            ["k": NSNull(), "n": [String: Any]()], [Any](), JSONLargeNumber(text: "123456789012345678901234567890"),
            Double.greatestFiniteMagnitude, Int.min, UInt.max,
        ]
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: framing, options: .init(prettyPrinted: true)) {
            output.append(contentsOf: $0)
        }
        for value in values { try writer.write(value) }
        try writer.finish()
        var read: [Any] = []
        let count = try Elevate.forEachValue(from: .data(Data(output)), framing: framing, as: AnyJSON.self) {
            read.append($0.value)
        }
        #expect(count == values.count)
        #expect(read.count == values.count)
        #expect(read.first.map(isNull) == true)
    }

    /// `null` at the root of a line goes to the decoder, as an array element would; a type that
    /// cannot be null says so, naming the line. At a key path, null is a missing value.
    @Test func nullIsHandedToTheDecoder() throws {
        let text = "1\nnull\n3\n"
        var seen: [Bool] = []
        #expect(
            try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .jsonLines, as: AnyJSON.self) {
                seen.append(isNull($0.value))
            } == 3)
        #expect(seen == [false, true, false])
        do {
            try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .jsonLines, as: Int.self) { _ in }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason == "Error parsing line 2 with parser [Int]\nJSON object was not of type: Int\n--")
        }
        do {
            try Elevate.forEachValue(
                from: .data(Data("{\"a\": 1}\n{\"a\": null}\n".utf8)), framing: .jsonLines, atKeyPath: "a", as: Int.self
            ) { _ in }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.contains("Required key path [a] was missing or null"))
            #expect(reason.contains("line 2"))
        }
    }

    /// A syntax error in JSON Lines reads as every other syntax error does (Elevate's prefix, then
    /// the line and column of the line and the byte offset in the input); it lacked both.
    @Test func aJSONLinesSyntaxErrorIsWordedAsAnyOther() throws {
        let text = "{\"a\":1}\n[2]\n {x}\n"
        #expect {
            try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .jsonLines, as: AnyJSON.self) { _ in }
        } throws: { error in
            guard case ParserError.deserialization(let reason) = error else { return false }
            return reason.hasPrefix(#"JSON data deserialization failed with error: "Invalid JSON at line 3, column 3 (byte offset 14): "#)
        }
    }
}
