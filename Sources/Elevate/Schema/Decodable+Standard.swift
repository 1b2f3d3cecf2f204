/// The error a primitive's `init(json:)` throws for a value of another type, in Elevate's words.
private func incorrectType(_ value: Any, expected: Any.Type) -> ParserError {
    .validation(failureReason: "JSON object was not of type: \(expected)")
}

extension String: Decodable {
    /// The string itself; anything else is a validation error.
    /// - Parameter json: A JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` (`JSON object was not of type: …`) for any other value.
    public init(json: Any) throws {
        guard let value = StrictConversion.string(json) else { throw incorrectType(json, expected: String.self) }
        self = value
    }
}

extension Int: Decodable {
    /// An integer in `Int`'s range; fractions, out-of-range numbers and non-numbers are validation errors.
    /// - Parameter json: A JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` (`JSON object was not of type: …`) for any other value.
    public init(json: Any) throws {
        guard let value = StrictConversion.int(json) else { throw incorrectType(json, expected: Int.self) }
        self = value
    }
}

extension UInt: Decodable {
    /// A non-negative integer up to `UInt.max`; anything else is a validation error.
    /// - Parameter json: A JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` (`JSON object was not of type: …`) for any other value.
    public init(json: Any) throws {
        guard let value = StrictConversion.uint(json) else { throw incorrectType(json, expected: UInt.self) }
        self = value
    }
}

extension Float: Decodable {
    /// A number within `Float`'s range; anything else is a validation error.
    /// - Parameter json: A JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` (`JSON object was not of type: …`) for any other value.
    public init(json: Any) throws {
        guard let value = StrictConversion.float(json) else { throw incorrectType(json, expected: Float.self) }
        self = value
    }
}

extension Double: Decodable {
    /// A number within `Double`'s range; anything else is a validation error.
    /// - Parameter json: A JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` (`JSON object was not of type: …`) for any other value.
    public init(json: Any) throws {
        guard let value = StrictConversion.double(json) else { throw incorrectType(json, expected: Double.self) }
        self = value
    }
}

extension Bool: Decodable {
    /// `true` or `false`; numbers and strings are validation errors.
    /// - Parameter json: A JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` (`JSON object was not of type: …`) for any other value.
    public init(json: Any) throws {
        guard let value = StrictConversion.bool(json) else { throw incorrectType(json, expected: Bool.self) }
        self = value
    }
}

extension Dictionary: Decodable {
    /// A JSON object whose keys and values have this dictionary's types; anything else is a
    /// validation error.
    /// - Parameter json: A JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` (`JSON object was not of type: …`) for any other value.
    public init(json: Any) throws {
        if let value = json as? [Key: Value] {
            self = value
            return
        }
        guard let object = StrictConversion.dictionary(json), let value = object as? [Key: Value] else {
            throw incorrectType(json, expected: [Key: Value].self)
        }
        self = value
    }
}

/// Arrays of decodables: `decodeObject` reads them as arrays rather than objects.
protocol DecodableArray {}

extension Array: DecodableArray where Element: Decodable {}

extension Array: Decodable where Element: Decodable {
    /// A JSON array whose every element decodes as `Element`; all failing elements are reported
    /// together, in Elevate's words for array elements.
    /// - Parameter json: A JSON array.
    /// - Throws: ``ParserError/validation(failureReason:)`` for a value that is not an array, listing every
    ///   failing element.
    public init(json: Any) throws {
        if let view = JSONValue.exactly(json), view.isArray {
            ViewHandOff.markRead(view)
            // Elements on a document tape, each handed as a view or scalar.
            try self.init(decodingEach: view.elements!, count: view.count) { try decodeElement($0, as: Element.self) }
            return
        }
        guard let elements = StrictConversion.array(json) else {
            throw incorrectType(json, expected: [Element].self)
        }
        try self.init(decodingEach: elements, count: elements.count) { try Element(json: $0) }
    }
}

extension Array where Element: Decodable {
    /// Decodes every element with `decode`, recording the failing ones (see ``ElementFailures``)
    /// and throwing them together at the end.
    fileprivate init<Elements: Sequence>(
        decodingEach elements: Elements, count: Int, _ decode: (Elements.Element) throws -> Element
    ) throws {
        var decoded: [Element] = []
        decoded.reserveCapacity(count)
        var failures = ElementFailures(limit: ElementFailures.schemaLimit)
        for (index, element) in elements.enumerated() {
            do {
                decoded.append(try NestedFailures.decode { try decode(element) })
            } catch ParserError.validation(let reason) {
                failures.addElement(index, of: "", methodName: "\(Element.self)", reason: reason)
            }
        }
        if !failures.isEmpty { throw failures.error() }
        self = decoded
    }
}
