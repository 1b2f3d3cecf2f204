import ElevateJSON
import Foundation
import Testing

// Where ElevateJSONDecoder and ElevateJSONEncoder behaved otherwise than Foundation's JSONDecoder
// and JSONEncoder, each checked against Foundation on the same input. Written as Codable users
// write: `import ElevateJSON` only, Swift's own `Decodable` and `Encodable`.

private class Base: Codable {
    var name = "base"
    init() {}
    required init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
    var kind: String { "base" }
}

private final class Child: Base {
    override var kind: String { "child" }
}

/// Keeps its keyed container past `init(from:)`, to read from it later.
private struct Holder: Decodable {
    let container: KeyedDecodingContainer<StringKey>
    init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: StringKey.self) }
}

private struct StringKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Lists its container's keys.
private struct KeyLister: Decodable {
    let keys: [String]
    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: StringKey.self).allKeys.map(\.stringValue)
    }
}

/// Asks for a keyed and then an unkeyed container under one key.
private struct Conflicting: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StringKey.self)
        var keyed = container.nestedContainer(keyedBy: StringKey.self, forKey: StringKey("top"))
        try keyed.encode("first", forKey: StringKey("a"))
        var unkeyed = container.nestedUnkeyedContainer(forKey: StringKey("top"))
        try unkeyed.encode("second")
    }
}

@Suite struct FoundationParityTests {
    /// The metatype given is the type decoded, as in Foundation: a subclass through its base's
    /// metatype is built as the subclass.
    @Test func theMetatypeGivenIsTheTypeDecoded() throws {
        let type: Base.Type = Child.self
        let data = Data("{}".utf8)
        #expect(try JSONDecoder().decode(type, from: data).kind == "child")
        #expect(try ElevateJSONDecoder().decode(type, from: data).kind == "child")
        #expect(try ElevateJSONDecoder().decode([Base].self, from: Data("[{}]".utf8)).first?.kind == "base")
    }

    /// `Int128` and `UInt128`, exactly, both ways.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func int128AndUInt128() throws {
        let values: [Int128] = [0, 1, -1, Int128(Int64.max) + 1, Int128.max, Int128.min]
        let unsigned: [UInt128] = [0, 1, UInt128(UInt64.max) + 1, UInt128.max]
        let encoded = try ElevateJSONEncoder().encode(values)
        #expect(encoded == (try JSONEncoder().encode(values)))
        #expect(try ElevateJSONDecoder().decode([Int128].self, from: encoded) == values)
        let encodedUnsigned = try ElevateJSONEncoder().encode(unsigned)
        #expect(encodedUnsigned == (try JSONEncoder().encode(unsigned)))
        #expect(try ElevateJSONDecoder().decode([UInt128].self, from: encodedUnsigned) == unsigned)
        #expect(try ElevateJSONDecoder().decode(UInt128.self, from: Data("1".utf8)) == 1)
        struct Keyed: Codable, Equatable { var a: Int128; var b: UInt128?; var c: [Int128] }
        let keyed = Keyed(a: Int128.min, b: UInt128.max, c: [Int128.max])
        #expect(try ElevateJSONDecoder().decode(Keyed.self, from: ElevateJSONEncoder().encode(keyed)) == keyed)
        // Out of range, or not an integer: as Foundation, an error.
        for text in ["340282366920938463463374607431768211456", "1.5", "\"1\""] {
            #expect(throws: DecodingError.self) { try ElevateJSONDecoder().decode(UInt128.self, from: Data(text.utf8)) }
        }
        #expect(throws: DecodingError.self) { try ElevateJSONDecoder().decode(UInt128.self, from: Data("-1".utf8)) }
    }

    /// A top-level `Date` or `Data` whose `.custom` strategy writes nothing is `{}`, as in
    /// Foundation (and as an optional one already was).
    @Test func aCustomStrategyThatWritesNothingGivesAnEmptyObject() throws {
        let encoder = ElevateJSONEncoder()
        encoder.dateEncodingStrategy = .custom { _, _ in }
        encoder.dataEncodingStrategy = .custom { _, _ in }
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .custom { _, _ in }
        foundation.dataEncodingStrategy = .custom { _, _ in }
        for value in [Date(timeIntervalSince1970: 1) as any Encodable, Data([1, 2]) as any Encodable] {
            let ours = try encoder.encode(value)
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: try foundation.encode(value), as: UTF8.self))
            #expect(String(decoding: ours, as: UTF8.self) == "{}")
        }
    }

    /// Two JSON keys that the key strategy maps onto one key are one key in `allKeys`.
    @Test func allKeysListsAConvertedKeyOnce() throws {
        let data = Data(#"{"a_b": 1, "aB": 2, "c": 3}"#.utf8)
        let decoder = ElevateJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let ours = try decoder.decode(KeyLister.self, from: data).keys
        let theirs = try foundation.decode(KeyLister.self, from: data).keys
        #expect(ours.sorted() == ["aB", "c"])
        #expect(ours.sorted() == theirs.sorted())
    }

    /// A keyed container kept past its `init(from:)` reports errors at its own path.
    @Test func aKeptContainerKeepsItsPath() throws {
        let data = Data(#"[{"n":1},{"n":"x"}]"#.utf8)
        func path(_ holders: [Holder]) -> [String]? {
            do {
                _ = try holders[1].container.decode(Int.self, forKey: StringKey("n"))
                return nil
            } catch DecodingError.typeMismatch(_, let context) {
                return context.codingPath.map(\.stringValue)
            } catch {
                return nil
            }
        }
        let theirs = path(try JSONDecoder().decode([Holder].self, from: data))
        let ours = path(try ElevateJSONDecoder().decode([Holder].self, from: data))
        #expect(theirs == ["Index 1", "n"])
        #expect(ours == theirs)
    }

    /// A keyed and an unkeyed container asked for under one key: Foundation traps; this encoder
    /// throws, rather than keeping the last and silently dropping what went into the first.
    @Test func twoContainersUnderOneKeyThrow() throws {
        #expect(throws: EncodingError.self) { try ElevateJSONEncoder().encode(Conflicting()) }
    }

    /// `CodableWithConfiguration`, as Foundation's decoder and encoder take it.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func decodingAndEncodingWithConfiguration() throws {
        struct Scaled: DecodableWithConfiguration, EncodableWithConfiguration, Equatable {
            var value: Int
            init(value: Int) { self.value = value }
            init(from decoder: any Decoder, configuration: Int) throws {
                value = try decoder.singleValueContainer().decode(Int.self) * configuration
            }
            func encode(to encoder: any Encoder, configuration: Int) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value / configuration)
            }
        }
        enum Ten: DecodingConfigurationProviding, EncodingConfigurationProviding {
            static var decodingConfiguration: Int { 10 }
            static var encodingConfiguration: Int { 10 }
        }
        let data = Data("7".utf8)
        #expect(try ElevateJSONDecoder().decode(Scaled.self, from: data, configuration: 3) == Scaled(value: 21))
        #expect(try ElevateJSONDecoder().decode(Scaled.self, from: data, configuration: Ten.self) == Scaled(value: 70))
        #expect(try ElevateJSONEncoder().encode(Scaled(value: 70), configuration: 10) == Data("7".utf8))
        #expect(try ElevateJSONEncoder().encode(Scaled(value: 70), configuration: Ten.self) == Data("7".utf8))
        #expect(try JSONEncoder().encode(Scaled(value: 70), configuration: 10) == Data("7".utf8))
    }
}
