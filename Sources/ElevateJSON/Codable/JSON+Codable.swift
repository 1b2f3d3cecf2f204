import Foundation

/// `Codable`: a ``JSON`` property decodes whatever JSON is there, and encodes as itself.
extension JSON: Codable {
    /// Decodes any JSON value. From ``ElevateJSONDecoder`` the value is copied off the tape with its
    /// numbers exact and without recursion; from another decoder, numbers are tried as `Int`, `UInt`,
    /// then `Double`. The keys of the objects inside are converted by a key decoding strategy, as
    /// `JSONDecoder` converts them (then nested containers are decoded one level per call).
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when the decoder holds no JSON-like value.
    public init(from decoder: any Swift.Decoder) throws {
        if let tapeDecoder = decoder as? TapeDecoder {
            let value = JSONValue(tape: tapeDecoder.tape, index: tapeDecoder.index)
            var convertsKeys = true
            if case .bytes = tapeDecoder.context.keyMode { convertsKeys = false }
            // With a key strategy, the keys of every object inside are converted, as `JSONDecoder`
            // converts them: containers then go through the containers below, whose members come
            // back here (scalars are still copied exactly).
            if !convertsKeys || !(value.isObject || value.isArray) {
                self = JSON(value)
                return
            }
            // The tape says which container it is: take it with `try`, so that what making it
            // throws (the stack guard's error on a small stack) is not swallowed by `try?` and
            // turned into a type mismatch for `String`.
            self = value.isObject ? try Self.object(from: decoder.container(keyedBy: StringCodingKey.self))
                : try Self.array(from: decoder.unkeyedContainer())
            return
        }
        if let keyed = try? decoder.container(keyedBy: StringCodingKey.self) {
            self = try Self.object(from: keyed)
            return
        }
        if let unkeyed = try? decoder.unkeyedContainer() {
            self = try Self.array(from: unkeyed)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? single.decode(Int.self) {
            self = .number(.int(int))
        } else if let uint = try? single.decode(UInt.self) {
            self = .number(.uint(uint))
        } else if let double = try? single.decode(Double.self) {
            self = .number(.double(double))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// The object of a keyed container's members, each decoded as ``JSON``.
    private static func object(from keyed: KeyedDecodingContainer<StringCodingKey>) throws -> JSON {
        var object: [String: JSON] = [:]
        for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSON.self, forKey: key) }
        return .object(object)
    }

    /// The array of an unkeyed container's elements, each decoded as ``JSON``.
    private static func array(from container: any UnkeyedDecodingContainer) throws -> JSON {
        var unkeyed = container
        var array: [JSON] = []
        while !unkeyed.isAtEnd { array.append(try unkeyed.decode(JSON.self)) }
        return .array(array)
    }

    /// Encodes the value. A number kept as text (``JSONNumber/large(_:)``) is written as that text
    /// by ``ElevateJSONEncoder`` (and ``JSONStreamWriter``), exactly as ``JSONWriter`` writes it,
    /// whatever its size; other encoders (`JSONEncoder`) are handed it as a `Decimal`.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws; `EncodingError.invalidValue` for number text that is not a
    ///   JSON number, and, with an encoder other than ``ElevateJSONEncoder``, for a large number a
    ///   `Decimal` cannot hold exactly (more than 38 digits, or an exponent beyond its range).
    public func encode(to encoder: any Swift.Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let number):
            var container = encoder.singleValueContainer()
            switch number {
            case .int(let value): try container.encode(value)
            case .uint(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .large(let text):
                if let exact = container as? any ExactNumberTextEncoding {
                    // This library's encoder writes the text itself, as `JSONWriter` does: a number
                    // beyond `Decimal` (`1e400`, 45 digits) round-trips instead of failing.
                    guard JSONNumberFormat.isValid(text.utf8) else {
                        throw EncodingError.invalidValue(
                            self,
                            EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "\(text) is not a JSON number."))
                    }
                    try exact.encodeNumberText(text)
                    return
                }
                guard let decimal = Decimal(exactly: text) else {
                    throw EncodingError.invalidValue(
                        self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "\(text) does not fit a Decimal."))
                }
                try container.encode(decimal)
            }
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: StringCodingKey.self)
            for (key, value) in object { try container.encode(value, forKey: StringCodingKey(key)) }
        }
    }
}
