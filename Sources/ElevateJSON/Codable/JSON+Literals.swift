/// Literals: `let json: JSON = ["a": 1, "b": [true, nil], "c": 2.5, "d": "x"]`, with values of any
/// ``JSONConvertible`` type among them (`["name": name, "payment": payment]`).
extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    /// - Parameter nilLiteral: The literal, `()`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    /// - Parameter value: The literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    /// - Parameter value: The literal.
    public init(integerLiteral value: Int) { self = .number(.int(value)) }
    /// A floating-point number.
    /// - Parameter value: The literal.
    public init(floatLiteral value: Double) { self = .number(.double(value)) }
    /// A string.
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array; a nil element is `null` (an element's position is kept).
    /// - Parameter elements: The elements: literals, ``JSON`` values, or any ``JSONConvertible``.
    public init(arrayLiteral elements: (any JSONConvertible)?...) {
        self = .array(elements.map { $0?.jsonRepresentation ?? .null })
    }
    /// An object; a member whose value is nil (a nil optional, or `nil`) is left out, as in Lift
    /// (`JSON.null` writes `null`); a repeated key keeps its last value.
    ///
    /// ```swift
    /// let nickname: String? = nil
    /// let json: JSON = ["name": "Ada", "nickname": nickname, "manager": JSON.null]
    /// // {"manager":null,"name":"Ada"}
    /// ```
    /// - Parameter elements: The members: literals, ``JSON`` values, or any ``JSONConvertible``.
    public init(dictionaryLiteral elements: (String, (any JSONConvertible)?)...) {
        var object: [String: JSON] = Dictionary(minimumCapacity: elements.count)
        for (key, value) in elements {
            if let value { object[key] = value.jsonRepresentation } else { object.removeValue(forKey: key) }
        }
        self = .object(object)
    }
}
