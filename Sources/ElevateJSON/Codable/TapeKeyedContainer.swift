import Foundation

/// A keyed container over an object on the tape, as the standard library's
/// `KeyedDecodingContainer` boxes it: every read is the ``TapeKeyedReader``'s.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: TapeKeyedReader

    var codingPath: [any CodingKey] { reader.codingPath }

    var allKeys: [Key] {
        var keys: [Key] = []
        // Two JSON keys that the key strategy maps onto one name are one key, as in Foundation.
        var names = Set<String>()
        let tape = reader.decoder.tape
        let end = tape.end(of: reader.object)
        var position = reader.object + 1
        while position < end {
            let name = reader.decoder.keyName(at: position, reader.site)
            if !tape.isShadowed(position), names.insert(name).inserted, let key = Key(stringValue: name) {
                keys.append(key)
            }
            position = tape.end(of: position + 1)
        }
        if let plan = reader.plan {
            // Mapped keys are present when their key path leads somewhere or they have a default.
            keys.removeAll { plan.routes[$0.stringValue] != nil }
            for name in plan.mappedNames {
                let present =
                    plan.defaults[name] != nil
                    || plan.routes[name].flatMap { $0.resolve(on: tape, in: reader.object) } != nil
                    || reader.decoder.member(named: name, in: reader.object, reader.site) != nil
                if present, !keys.contains(where: { $0.stringValue == name }), let key = Key(stringValue: name) {
                    keys.append(key)
                }
            }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { reader.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try reader.decodeNil(forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.decode(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.decode(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.decode(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader.decode(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader.decode(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader.decode(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader.decode(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader.decode(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader.decode(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader.decode(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader.decode(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader.decode(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader.decode(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader.decode(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try reader.decode(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try reader.decode(type, forKey: key) }
    func decode<T: Swift.Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try reader.decode(type, forKey: key)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent<T: Swift.Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try reader.decodeIfPresent(type, forKey: key)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    { try reader.nestedContainer(keyedBy: type, forKey: key) }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try reader.nestedUnkeyedContainer(forKey: key)
    }
    func superDecoder() throws -> any Swift.Decoder { try reader.superDecoder() }
    func superDecoder(forKey key: Key) throws -> any Swift.Decoder { try reader.superDecoder(forKey: key) }
}
