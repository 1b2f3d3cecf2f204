import Foundation

/// A `Decodable` value straight from a ``JSON`` value, without writing it out as text: typed reads
/// of any `Decodable` type that say where they failed.
extension JSON {
    /// Decodes the value at `path` as `T`, with an ``ElevateJSONDecoder``'s settings.
    ///
    /// ```swift
    /// let payments = try json.decode([Payment].self, at: "payments")
    /// let total: Decimal = try json.decode(at: "summary", "total")
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - path: Keys and indices from this value; none for this value itself.
    ///   - decoder: The settings: strategies, user info.
    /// - Returns: The value.
    /// - Throws: ``AccessError`` when nothing is at `path`; the `DecodingError` that decoding raised,
    ///   its coding path starting with `path`'s steps, or what an `init(from:)` threw.
    public func decode<T: Swift.Decodable>(
        _ type: T.Type = T.self, at path: JSONPathComponent..., decoder: ElevateJSONDecoder = ElevateJSONDecoder()
    ) throws -> T {
        try decode(type, atPath: path, decoder: decoder)
    }

    /// Decodes the value at `path` as `T`, or gives nil when nothing or `null` is there, as Lift's
    /// optional reads do; a value of another type, there or on the way (a key looked up in a
    /// number), is still an error. An index beyond an array's end is missing, so nil (Lift throws).
    ///
    /// ```swift
    /// let nickname: String? = try json.decodeIfPresent(at: "user", "nickname")
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - path: Keys and indices from this value.
    ///   - decoder: The settings: strategies, user info.
    /// - Returns: The value, or nil.
    /// - Throws: ``AccessError`` for a value on the way that is not the container the next step
    ///   needs; the `DecodingError` that decoding raised, its coding path starting with `path`'s
    ///   steps, or what an `init(from:)` threw.
    public func decodeIfPresent<T: Swift.Decodable>(
        _ type: T.Type = T.self, at path: JSONPathComponent..., decoder: ElevateJSONDecoder = ElevateJSONDecoder()
    ) throws -> T? {
        let value: JSON
        do {
            value = try self.value(atPath: path)
        } catch let error as AccessError where error.reason == .missing {
            return nil
        }
        guard !value.isNull else { return nil }
        return try value.decode(type, atPath: [], decoder: decoder, prefix: path)
    }

    private func decode<T: Swift.Decodable>(
        _ type: T.Type, atPath path: [JSONPathComponent], decoder: ElevateJSONDecoder,
        prefix: [JSONPathComponent] = []
    ) throws -> T {
        let value = try value(atPath: path)
        let document = try value.document()
        do {
            return try ElevateJSONDecoder.decode(
                type, in: document, atKeyPath: "", settings: decoder.currentSettings, source: nil)
        } catch let error as DecodingError {
            let steps = prefix + path
            guard !steps.isEmpty else { throw error }
            throw error.prefixingCodingPath(
                steps.map { step -> any CodingKey in
                    switch step {
                    case .key(let key): StringCodingKey(key)
                    case .index(let index): IndexCodingKey(index)
                    }
                })
        }
    }

    /// This value on a tape of its own, for the tape decoder: built from events, never from text,
    /// with an explicit stack, so that nesting costs heap, not call stack.
    func document() throws -> JSONValue {
        let builder = JSONTapeBuilder()
        var open: [OpenContainer] = []
        var pending: JSON? = self
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: try builder.null()
                case .bool(let flag): try builder.bool(flag)
                case .string(var string):
                    try string.withUTF8 { try builder.string(JSONText(bytes: UnsafeRawBufferPointer($0))) }
                case .number(let number):
                    guard var text = Self.numberText(number) else {
                        throw AccessError(path: "", reason: .unsupportedType("\(number) (not a JSON number)"))
                    }
                    try text.withUTF8 { try builder.number(JSONNumberText(bytes: UnsafeRawBufferPointer($0))) }
                case .array(let elements):
                    try builder.startArray()
                    open.append(.array(elements, next: 0))
                case .object(let object):
                    try builder.startObject()
                    // Sorted, so that a value decodes alike whatever order its dictionary has.
                    open.append(.object(object.sorted { $0.key < $1.key }, next: 0))
                }
            }
            guard let top = open.popLast() else { break }
            switch top {
            case .array(let elements, let next) where next < elements.count:
                open.append(.array(elements, next: next + 1))
                pending = elements[next]
            case .array:
                try builder.endArray()
            case .object(let members, let next) where next < members.count:
                open.append(.object(members, next: next + 1))
                var key = members[next].key
                try key.withUTF8 { try builder.key(JSONText(bytes: UnsafeRawBufferPointer($0))) }
                pending = members[next].value
            case .object:
                try builder.endObject()
            }
        }
        return builder.takeValue() ?? JSONValue(tape: .null(), index: 0)
    }

    /// A number's JSON text; nil for an infinite or NaN `Double`, which JSON has no text for.
    private static func numberText(_ number: JSONNumber) -> String? {
        switch number {
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value): return value.isFinite ? "\(value)" : nil
        case .large(let text): return text
        }
    }
}
