import Elevate
import Foundation
import Testing

/// A type that is both Elevate.Encodable and Swift.Encodable, with different representations.
struct DualPerson: Elevate.Encodable, Swift.Encodable {
    var name: String
    var json: Any { ["elevate": name] }
    enum CodingKeys: String, CodingKey { case name }
}

struct Event: Codable, Equatable {
    var id: Int
    var at: Date
    var tags: [String]
}

@Suite struct JSONStreamWriterCodableTests {
    static func written(
        framing: JSONFraming, options: JSONWriter.Options = .default, _ body: (JSONStreamWriter) throws -> Void
    ) throws -> String {
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: framing, options: options) { output.append(contentsOf: $0) }
        try body(writer)
        try writer.finish()
        return String(decoding: output, as: UTF8.self)
    }

    @Test func codableValuesAreWrittenThroughEncodeTo() throws {
        let encoder = ElevateJSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = try Self.written(framing: .jsonLines) { writer in
            try writer.write(Event(id: 1, at: Date(timeIntervalSince1970: 10), tags: ["a/b"]), encoder: encoder)
            try writer.write(Event(id: 2, at: Date(timeIntervalSince1970: 0.5), tags: []), encoder: encoder)
        }
        #expect(text == "{\"id\":1,\"at\":10,\"tags\":[\"a/b\"]}\n{\"id\":2,\"at\":0.5,\"tags\":[]}\n")
        let decoder = ElevateJSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let events = try text.split(separator: "\n").map { try decoder.decode(Event.self, from: Data($0.utf8)) }
        #expect(events == [
            Event(id: 1, at: Date(timeIntervalSince1970: 10), tags: ["a/b"]),
            Event(id: 2, at: Date(timeIntervalSince1970: 0.5), tags: []),
        ])
    }

    @Test func bothProtocolsUseElevatesRepresentation() throws {
        let text = try Self.written(framing: .array) { writer in
            try writer.write(DualPerson(name: "Ada"))
            try writer.write("plain")
        }
        #expect(text == #"[{"elevate":"Ada"},"plain"]"#)
    }

    @Test func prettyArrayIndentsCodableValuesLikeOthers() throws {
        let options = JSONWriter.Options(prettyPrinted: true, sortedKeys: true)
        let codable = try Self.written(framing: .array, options: options) { writer in
            try writer.write(Event(id: 1, at: Date(timeIntervalSince1970: 0), tags: ["x"]))
        }
        let any = try Self.written(framing: .array, options: options) { writer in
            try writer.write(["id": 1, "at": -978307200, "tags": ["x"]] as [String: Any])
        }
        #expect(codable == any)
    }

    struct Failing: Swift.Encodable {
        func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.container(keyedBy: TestKey.self)
            try container.encode(1, forKey: TestKey("a"))
            try container.encode(Double.nan, forKey: TestKey("b"))
        }
    }

    @Test func failedValueLeavesTheStreamUnchanged() throws {
        let text = try Self.written(framing: .array) { writer in
            try writer.write([1])
            #expect(throws: EncodingError.self) { try writer.write(Failing()) }
            try writer.write([2])
        }
        #expect(text == "[[1],[2]]")
    }

    @Test func jsonValuesKeepTheirNumbersExact() throws {
        let json: JSON = [
            "big": JSON(JSONNumber.large("123456789012345678901234567890")), "u": JSON(UInt.max), "d": 0.1,
            "i": JSON(Int.min), "nested": [[], [:], nil, true],
        ]
        let options = JSONWriter.Options(sortedKeys: true)
        let expected =
            #"{"big":123456789012345678901234567890,"d":0.1,"i":-9223372036854775808,"nested":[[],{},null,true],"u":18446744073709551615}"#
        #expect(try JSONWriter.string(for: json, options: options) == expected)
        #expect(String(decoding: try JSONWriter.bytes(for: json, options: options), as: UTF8.self) == expected)
        #expect(try JSONWriter.data(for: json, options: options) == Data(expected.utf8))
        #expect(try JSONWriter.string(for: ["inside": json] as [String: Any], options: options) == #"{"inside":\#(expected)}"#)
        let streamed = try Self.written(framing: .jsonLines, options: options) { try $0.write(json) }
        #expect(streamed == expected + "\n")
        #expect(try JSON(JSONValue(parsing: Data(expected.utf8))) == json)
    }

    @Test func jsonValueErrorsNameThePath() {
        let json: JSON = ["a": [1, JSON(Double.nan)]]
        #expect {
            try JSONWriter.data(for: json)
        } throws: { error in
            (error as? JSONWriterError)?.path == "a[1]" && (error as? JSONWriterError)?.kind == .nonFiniteNumber
        }
    }

    @Test func deepJSONValue() throws {
        var json: JSON = 1
        for _ in 0..<300 { json = [json] }
        let text = try JSONWriter.string(for: json, options: .init(maximumDepth: 400))
        #expect(text == String(repeating: "[", count: 300) + "1" + String(repeating: "]", count: 300))
    }
}
