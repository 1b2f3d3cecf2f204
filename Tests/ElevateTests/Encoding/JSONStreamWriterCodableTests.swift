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

    @Test func streamWriterWritesCodableAndJSONValuesLikeTheEncoder() throws {
        var random = SeededGenerator(state: 0xC0DE)
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: .jsonLines) { output.append(contentsOf: $0) }
        var trees: [Any] = []
        for index in 0..<300 {
            let tree = WriterSamples.randomTree(&random, maximumDepth: 4)
            trees.append(tree)
            let json = try JSON(foundationValue: tree)
            switch index % 3 {
            case 0: try writer.write(json)
            case 1: try writer.write(WriterSamples.Tree(json), encoder: nil)
            default: try writer.write(WriterSamples.Tree(json), encoder: ElevateJSONEncoder())
            }
        }
        try writer.finish()
        let values = try WriterSamples.readBack(output, framing: .jsonLines)
        for (index, (value, tree)) in zip(values, trees).enumerated() {
            if index % 3 == 0 {
                #expect(treesEqual(value, tree), "\(index)")
            } else {
                // Through Codable, doubles that are integers lose their ".0", as with JSONEncoder.
                #expect(treesEqual(WriterSamples.numbersAsDoubles(value), WriterSamples.numbersAsDoubles(tree)), "\(index)")
            }
        }
    }

    /// Codable values in a pretty stream are indented like any other value, empty containers
    /// included: `[]` and `{}`, as the writer's options promise, not YAJL's `[`, a line holding
    /// only the stream's indentation, and `]`.
    @Test(arguments: [JSONFraming.array, .concatenated])
    func prettyStreamWritesEmptyCodableContainersCompact(framing: JSONFraming) throws {
        struct Holder: Swift.Encodable {
            var list: [Int] = []
            var map: [String: Int] = [:]
            var empty = WriterSamples.Empty()
            var nested: [[String: [Int]]] = [[:], ["x": []]]
        }
        let options = JSONWriter.Options(prettyPrinted: true, sortedKeys: true)
        var codable: [UInt8] = []
        let codableWriter = JSONStreamWriter(framing: framing, options: options) { codable.append(contentsOf: $0) }
        try codableWriter.write(Holder(), encoder: nil)
        try codableWriter.write([Int](), encoder: nil)
        try codableWriter.write([String: WriterSamples.Empty](), encoder: nil)
        try codableWriter.finish()
        var plain: [UInt8] = []
        let plainWriter = JSONStreamWriter(framing: framing, options: options) { plain.append(contentsOf: $0) }
        try plainWriter.write(
            ["list": [Any](), "map": [String: Any](), "empty": [String: Any](), "nested": [[String: Any](), ["x": [Any]()]]]
                as [String: Any])
        try plainWriter.write([Any]())
        try plainWriter.write([String: Any]())
        try plainWriter.finish()
        #expect(String(decoding: codable, as: UTF8.self) == String(decoding: plain, as: UTF8.self))
    }
}
