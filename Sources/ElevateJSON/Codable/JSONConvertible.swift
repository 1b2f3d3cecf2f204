import Foundation

/// A value that goes into a ``JSON`` as it is: in a literal, through a subscript, with
/// ``JSON/append(_:)-(JSONConvertible)`` or ``JSON/init(_:)-(JSONConvertible)``, as Lift's
/// `JarRepresentable` does.
///
/// ```swift
/// struct Payment: JSONConvertible {
///     var id: Int
///     var amount: Decimal
///     var jsonRepresentation: JSON { ["id": id, "amount": amount] }
/// }
///
/// let payment = Payment(id: 7, amount: 12.5)
/// let note: String? = nil
/// let request: JSON = ["payment": payment, "note": note, "tags": ["refund", 2]]
/// // {"payment":{"amount":12.5,"id":7},"tags":["refund",2]}: a nil member is left out
/// ```
///
/// The library's scalars conform (`String`, `Bool`, every integer type, `Double`, `Float`,
/// `Decimal`, ``JSONNumber``, ``JSONValue``), and so do ``JSON``, `Optional` (nil is `null`), and
/// the arrays and dictionaries a literal makes of them. A typed array or dictionary
/// (`[Payment]`, `[String: Int]`) goes in through its ``Swift/Sequence/jsonRepresentation``, or
/// `JSON(payments)`.
///
/// For a `Codable` type, ``JSON/init(encoding:encoder:)`` gives its ``JSON`` without this
/// conformance (it can throw; this conversion cannot).
public protocol JSONConvertible {
    /// This value as JSON.
    var jsonRepresentation: JSON { get }
}

extension JSON: JSONConvertible {
    /// The value itself.
    public var jsonRepresentation: JSON { self }
}

extension JSONValue: JSONConvertible {
    /// A copy of the parsed value (see ``JSON/init(_:)-(JSONValue)``).
    public var jsonRepresentation: JSON { JSON(self) }
}

extension JSONNumber: JSONConvertible {
    /// The number, exactly.
    public var jsonRepresentation: JSON { .number(self) }
}

extension String: JSONConvertible {
    /// The string.
    public var jsonRepresentation: JSON { .string(self) }
}

extension Substring: JSONConvertible {
    /// The string.
    public var jsonRepresentation: JSON { .string(String(self)) }
}

extension Bool: JSONConvertible {
    /// The Boolean.
    public var jsonRepresentation: JSON { .bool(self) }
}

extension Int: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(self)) }
}

extension Int8: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(Int(self))) }
}

extension Int16: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(Int(self))) }
}

extension Int32: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(Int(self))) }
}

extension Int64: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(Int(self))) }
}

extension UInt: JSONConvertible {
    /// The integer (an `Int` when it fits, as ``JSON/init(_:)-(UInt)`` stores it).
    public var jsonRepresentation: JSON { JSON(self) }
}

extension UInt8: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(Int(self))) }
}

extension UInt16: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(Int(self))) }
}

extension UInt32: JSONConvertible {
    /// The integer.
    public var jsonRepresentation: JSON { .number(.int(Int(self))) }
}

extension UInt64: JSONConvertible {
    /// The integer (an `Int` when it fits).
    public var jsonRepresentation: JSON { JSON(UInt(self)) }
}

extension Double: JSONConvertible {
    /// The number; JSON has no NaN or infinity, and writers reject them.
    public var jsonRepresentation: JSON { .number(.double(self)) }
}

extension Float: JSONConvertible {
    /// The number as its shortest text reads back (`0.1` stays `0.1`, not the `Double`
    /// `0.10000000149011612` that widening gives), as `JSONEncoder` writes a `Float`.
    public var jsonRepresentation: JSON {
        guard isFinite else { return .number(.double(Double(self))) }
        return .number(JSON.number(exactText: description))
    }
}

extension Decimal: JSONConvertible {
    /// The number with every digit the `Decimal` has (kept as text when a `Double` would lose
    /// some), as ``JSON/init(encoding:encoder:)`` keeps it; NaN, which has no JSON form, is `null`.
    public var jsonRepresentation: JSON {
        guard !isNaN else { return .null }
        return .number(JSON.number(exactText: description))
    }
}

extension Date: JSONConvertible {
    /// The date as RFC 3339 text in UTC with milliseconds (`"2026-11-27T15:14:08.123Z"`), Lift's
    /// default; a ``JSON`` subscript reads it back as a `Date` (to the millisecond).
    public var jsonRepresentation: JSON { .string(formatted(JSON.dateStyle)) }
}

extension URL: JSONConvertible {
    /// The URL's absolute string, as `Codable` writes a URL.
    public var jsonRepresentation: JSON { .string(absoluteString) }
}

extension Optional: JSONConvertible where Wrapped: JSONConvertible {
    /// The wrapped value's JSON, or `null`. (In an object literal and through a subscript, a nil
    /// optional leaves the member out instead.)
    public var jsonRepresentation: JSON { self?.jsonRepresentation ?? .null }
}

/// The arrays an array literal inside a ``JSON`` literal makes, whatever its elements' types
/// (`["a", 1, nil, ["b": true]]`).
///
/// Declared for optional existential elements, not for `Element: JSONConvertible`, so that Swift
/// infers a nested literal's type from it: with the latter, `["a", 1]` inside a literal would be
/// an `[Any]` and not compile.
extension Array: JSONConvertible where Element == (any JSONConvertible)? {
    /// The elements' JSON, in order; nil is `null`.
    public var jsonRepresentation: JSON { .array(map { $0?.jsonRepresentation ?? .null }) }
}

/// The dictionaries a dictionary literal inside a ``JSON`` literal makes, whatever its values'
/// types (`["name": name, "age": 3]`).
extension Dictionary: JSONConvertible where Key == String, Value == (any JSONConvertible)? {
    /// The members' JSON; a nil member is left out, as in a ``JSON`` object literal.
    public var jsonRepresentation: JSON { .object(compactMapValues { $0?.jsonRepresentation }) }
}

extension Sequence where Element: JSONConvertible {
    /// The elements as a JSON array: a typed array (`[Payment]`, `[Int]`) in a ``JSON`` literal is
    /// written `"payments": payments.jsonRepresentation` (or `JSON(payments)`).
    public var jsonRepresentation: JSON { .array(map(\.jsonRepresentation)) }
}

extension Dictionary where Key == String, Value: JSONConvertible {
    /// The members as a JSON object.
    public var jsonRepresentation: JSON { .object(mapValues(\.jsonRepresentation)) }
}

extension JSON {
    /// An empty value, `null`, to be filled by subscripts or ``append(_:)-(JSON)``, as Lift's `Jar()`.
    ///
    /// ```swift
    /// var json = JSON()
    /// json["id"] = 7          // {"id":7}
    /// ```
    public init() { self = .null }

    /// The JSON of any convertible value: a custom type, a typed array, an optional (`null` when nil).
    ///
    /// ```swift
    /// let list = JSON([1, 2, 3])
    /// let members = JSON(["a": 1, "b": 2])
    /// ```
    /// - Parameter value: The value.
    public init(_ value: some JSONConvertible) { self = value.jsonRepresentation }

    /// Not available: `Data` has no JSON form of its own, and as a sequence of bytes it would
    /// silently become an array of numbers. Write its Base64 text, `JSON(data.base64EncodedString())`,
    /// or use ``init(encoding:encoder:)``, which encodes it as its strategy says (Base64 by default,
    /// as `JSONEncoder`).
    /// - Parameter data: The bytes.
    @available(*, unavailable, message: "write JSON(data.base64EncodedString()), or JSON(encoding: data)")
    public init(_ data: Data) {
        self = .string(data.base64EncodedString())
    }

    /// A JSON array of the elements.
    /// - Parameter elements: The elements, in order.
    public init<Elements: Sequence>(_ elements: Elements) where Elements.Element: JSONConvertible {
        self = elements.jsonRepresentation
    }

    /// A JSON object of the members.
    /// - Parameter members: The members.
    public init<Value: JSONConvertible>(_ members: [String: Value]) {
        self = members.jsonRepresentation
    }

    /// How a `Date` is written into a ``JSON`` and read back from one.
    static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The number that `text` (valid JSON number text, as `Decimal` and `Float` describe
    /// themselves) reads as, kept as text when a `Double` would not give its digits back (more than
    /// 15 of them): a `Decimal` of 19 digits stays exact.
    static func number(exactText text: String) -> JSONNumber {
        var copy = text
        let number = copy.withUTF8 { JSONNumber.parse(UnsafeRawBufferPointer($0)) }
        if case .double(let double) = number, text.utf8.count > 16, "\(double)" != text { return .large(text) }
        return number
    }
}
