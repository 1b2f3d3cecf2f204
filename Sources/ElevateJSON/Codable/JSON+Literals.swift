/// Literals: `let json: JSON = ["a": 1, "b": [true, nil], "c": 2.5, "d": "x"]`.
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
    /// An array.
    /// - Parameter elements: The elements.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// An object; a repeated key keeps its last value.
    /// - Parameter elements: The members.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
