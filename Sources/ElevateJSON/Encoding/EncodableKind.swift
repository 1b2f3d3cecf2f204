import Foundation

/// The types an encoder writes itself rather than through their `encode(to:)`: the fixed-width
/// numbers, the types with strategies, `URL`, `Decimal` and `[String: T]` — what `JSONEncoder`
/// special-cases, so that the output is the same.
enum EncodableKind {
    case ordinary
    case int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float
    case url, decimal, date, data
    case stringKeyedDictionary

    /// The kind of `type`. Metatype comparisons cost next to nothing; the conformance check for
    /// `[String: T]` is the runtime's (which caches it), and runs only for types none of the others
    /// match.
    static func of(_ type: Any.Type) -> EncodableKind {
        if type == Int64.self { return .int64 }
        if type == UInt64.self { return .uint64 }
        if type == Float.self { return .float }
        if type == Int32.self { return .int32 }
        if type == UInt.self { return .uint }
        if type == Int8.self { return .int8 }
        if type == Int16.self { return .int16 }
        if type == UInt8.self { return .uint8 }
        if type == UInt16.self { return .uint16 }
        if type == UInt32.self { return .uint32 }
        if type == Date.self { return .date }
        if type == Data.self { return .data }
        if type == URL.self { return .url }
        if type == Decimal.self { return .decimal }
        if type is any StringKeyedEncodableDictionary.Type { return .stringKeyedDictionary }
        return .ordinary
    }
}

/// `[String: Value]`, which Foundation's encoder writes member by member with the keys as they are
/// (no key strategy), rather than through `Dictionary`'s own `encode(to:)`.
protocol StringKeyedEncodableDictionary {
    /// Writes the members straight through the stream.
    func encodeMembers(to stream: EncodingStream) throws
    /// The members as a buffered object.
    func encodedObject(in context: EncodingContext, codingPath: [any CodingKey]) throws -> EncodedObject
}

extension Dictionary: StringKeyedEncodableDictionary where Key == String, Value: Swift.Encodable {
    func encodeMembers(to stream: EncodingStream) throws {
        try stream.output.openObject()
        for (key, value) in self {
            try stream.output.generator.key(key)
            try stream.encodeValue(value, at: .key(StringCodingKey(key)))
        }
        try stream.output.closeObject()
    }

    func encodedObject(in context: EncodingContext, codingPath: [any CodingKey]) throws -> EncodedObject {
        let object = EncodedObject()
        for (key, value) in self {
            object.set(key, try BufferedEncoding.value(value, in: context, codingPath: codingPath + [StringCodingKey(key)]))
        }
        return object
    }
}
