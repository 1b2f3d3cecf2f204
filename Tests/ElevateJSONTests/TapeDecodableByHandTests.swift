import ElevateJSON
import Foundation
import Testing

/// A `TapeDecodable` conformance written by hand, as a type with needs beyond the macro's writes it:
/// what the container offers besides `decode` and `decodeIfPresent`.
private struct Envelope: Codable, TapeDecodable, Equatable {
    var kind: String
    var count: Int
    var path: String
    var base: Base

    init(fromTape value: TapeDecodingValue) throws {
        let container = try value.container(keyedBy: CodingKeys.self)
        kind = container.contains(.kind) ? try container.decode(String.self, forKey: .kind) : "none"
        count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 0
        path = container.codingPath.map(\.stringValue).joined(separator: ".")
        // A base type's `init(from:)`, on the same value, as a subclass hands its decoder up.
        base = try Base(from: value.standardDecoder)
    }
}

private struct Base: Codable, Equatable {
    var kind: String?
}

/// A class conforming by hand, decoded through its base's metatype: `init(from:)` is called on
/// the metatype given (a subclass is built as itself), so `init(fromTape:)`, which is called on
/// the static type, is not used for classes.
private class Animal: Codable, TapeDecodable {
    var name: String

    init(name: String) { self.name = name }

    required init(fromTape value: TapeDecodingValue) throws {
        name = try value.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name) + " (fromTape)"
    }

    private enum CodingKeys: String, CodingKey { case name }
}

private final class Dog: Animal {}

@Suite struct TapeDecodableByHandTests {
    @Test func aClassIsBuiltAsTheMetatypeGiven() throws {
        let metatype: Animal.Type = Dog.self
        let decoded = try ElevateJSONDecoder().decode(metatype, from: Data(#"{"name": "Rex"}"#.utf8))
        #expect(decoded is Dog)
        #expect(decoded.name == "Rex")
    }

    @Test func theContainerAndTheStandardDecoder() throws {
        let data = Data(#"{"items": [{"kind": "a", "count": 2, "x": 1}, {"count": null}]}"#.utf8)
        let items = try ElevateJSONDecoder().decode([Envelope].self, from: data, atKeyPath: "items")
        #expect(items.count == 2)
        #expect(items[0].kind == "a" && items[0].count == 2 && items[0].base.kind == "a")
        #expect(items[0].path == "items.Index 0")
        #expect(items[1].kind == "none" && items[1].count == 0 && items[1].base.kind == nil)
        #expect(items[1].path == "items.Index 1")
    }

    /// Other decoders know nothing of `TapeDecodable`: Foundation's uses `init(from:)`.
    @Test func foundationUsesInitFrom() throws {
        let data = Data(#"{"kind": "a", "count": 2, "path": "p", "base": {}}"#.utf8)
        let envelope = try JSONDecoder().decode(Envelope.self, from: data)
        #expect(envelope.path == "p" && envelope.base.kind == nil)
    }

    @Test func aValueThatIsNoObjectFailsAsInitFrom() {
        let data = Data(#"[1]"#.utf8)
        #expect(throws: DecodingError.self) { try ElevateJSONDecoder().decode(Envelope.self, from: data) }
    }
}
