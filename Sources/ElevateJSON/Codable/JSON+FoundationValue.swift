import Foundation

/// Conversion from and to the trees `JSONSerialization` builds and `JSONWriter` writes.
extension JSON {
    /// The value as `[String: Any]`, `[Any]`, `String`, `Int`, `UInt`, `Double`, `Bool`, `NSNull`
    /// or ``JSONLargeNumber`` — the shape `JSONSerialization` and `JSONWriter` use.
    ///
    /// ```swift
    /// let data = try JSONWriter.data(for: json.foundationValue)
    /// ```
    public var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .string(let value): return value
        case .number(let number): return JSONValueBuilder.value(of: number)
        case .array(let array): return array.map(\.foundationValue)
        case .object(let object): return object.mapValues(\.foundationValue)
        }
    }

    /// Converts a `JSONSerialization`-shaped tree: dictionaries with string keys, arrays, strings,
    /// numbers (`NSNumber` and every Swift integer and floating-point type, `Decimal`,
    /// ``JSONLargeNumber``), Booleans, `NSNull` and `nil`.
    ///
    /// ```swift
    /// let json = try JSON(foundationValue: JSONSerialization.jsonObject(with: data))
    /// ```
    /// - Parameter value: The tree.
    /// - Throws: ``AccessError`` with ``AccessError/Reason/unsupportedType(_:)`` and the path of the
    ///   first value that has no JSON form, such as a `Date`, a NaN or infinite number, or a
    ///   non-string key.
    public init(foundationValue value: Any) throws {
        self = try Self.convert(value, path: [])
    }

    private static func convert(_ value: Any, path: [JSONPathComponent]) throws -> JSON {
        if let bool = boolean(value) { return .bool(bool) }
        switch value {
        case is NSNull: return .null
        case let json as JSON: return json
        case let string as String: return .string(string)
        case let string as Substring: return .string(String(string))
        case let large as JSONLargeNumber: return .number(JSONNumber.parseText(large.text))
        case let dictionary as [String: Any]:
            var object: [String: JSON] = Dictionary(minimumCapacity: dictionary.count)
            for (key, member) in dictionary { object[key] = try convert(member, path: path + [.key(key)]) }
            return .object(object)
        case let dictionary as [AnyHashable: Any]:
            var object: [String: JSON] = Dictionary(minimumCapacity: dictionary.count)
            for (key, member) in dictionary {
                guard let key = key.base as? String else {
                    throw AccessError(
                        path: JSONPathComponent.text(path), reason: .unsupportedType("\(type(of: key.base)) key"))
                }
                object[key] = try convert(member, path: path + [.key(key)])
            }
            return .object(object)
        case let array as [Any]:
            var elements: [JSON] = []
            elements.reserveCapacity(array.count)
            for (index, element) in array.enumerated() { elements.append(try convert(element, path: path + [.index(index)])) }
            return .array(elements)
        default: break
        }
        if let number = number(value) { return .number(number) }
        // An Optional inside Any: nil is null, some is its wrapped value.
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return try convert(wrapped, path: path)
        }
        throw AccessError(path: JSONPathComponent.text(path), reason: .unsupportedType("\(type(of: value))"))
    }

    /// The number a Foundation or Swift numeric value holds, exactly; Booleans are not numbers.
    private static func number(_ value: Any) -> JSONNumber? {
        switch FoundationNumber(value) {
        case .bool: return nil
        // Foundation gives an NSDecimalNumber for a number a Double or Int64 cannot hold exactly:
        // its digits, not its (rounded) `doubleValue`.
        case .decimal(let decimal): return decimalNumber(decimal)
        case .float(let float): return float.isFinite ? .double(FoundationNumber.double(float)) : nil
        case .double(let double): return double.isFinite ? .double(double) : nil
        case .unsigned(let uint): return uint <= UInt64(Int.max) ? .int(Int(uint)) : .uint(UInt(uint))
        case .signed(let int): return .int(Int(int))
        case nil: break
        }
        switch value {
        case let int as Int: return .int(int)
        case let int as Int8: return .int(Int(int))
        case let int as Int16: return .int(Int(int))
        case let int as Int32: return .int(Int(int))
        case let int as Int64: return .int(Int(int))
        case let uint as UInt: return uint <= UInt(Int.max) ? .int(Int(uint)) : .uint(uint)
        case let uint as UInt8: return .int(Int(uint))
        case let uint as UInt16: return .int(Int(uint))
        case let uint as UInt32: return .int(Int(uint))
        case let uint as UInt64: return uint <= UInt64(Int.max) ? .int(Int(uint)) : .uint(UInt(uint))
        case let double as Double: return double.isFinite ? .double(double) : nil
        case let float as Float: return float.isFinite ? .double(FoundationNumber.double(float)) : nil
        case let decimal as Decimal: return decimalNumber(decimal)
        default: return nil
        }
    }

    /// A `Decimal`'s exact value; nil for NaN, which has no JSON form (its text read as `0`).
    private static func decimalNumber(_ decimal: Decimal) -> JSONNumber? {
        let text = decimal.description
        guard !decimal.isNaN, JSONNumberFormat.isValid(text.utf8) else { return nil }
        return JSONNumber.parseText(text)
    }
}

extension JSON {
    /// A Foundation Boolean (`Bool`, or an `NSNumber` made from one) as `.bool`.
    fileprivate static func boolean(_ value: Any) -> Bool? {
        if type(of: value) == Bool.self { return value as? Bool }
        if case .bool(let bool) = FoundationNumber(value) { return bool }
        return nil
    }
}

extension JSONNumber {
    /// Classifies number text (`Decimal` and ``JSONLargeNumber`` texts are valid JSON numbers).
    static func parseText(_ text: String) -> JSONNumber {
        var text = text
        return text.withUTF8 { JSONNumber.parse(UnsafeRawBufferPointer($0)) }
    }
}
