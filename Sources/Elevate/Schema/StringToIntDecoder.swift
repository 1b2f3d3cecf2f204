/// Decodes a string holding a decimal integer (`"42"`) to an `Int`.
///
/// ```swift
/// schema.addProperty(keyPath: "count", type: .string, decoder: StringToIntDecoder())
/// ```
public struct StringToIntDecoder: Decoder, Sendable {
    /// Creates the decoder.
    public init() {}

    /// The `Int` the string spells.
    /// - Parameter object: A JSON string such as `"42"`.
    /// - Returns: The `Int`.
    /// - Throws: `ParserError.validation(failureReason:)` when the value is not such a string.
    public func decode(_ object: Any) throws -> Any {
        if let string = StrictConversion.string(object), let value = Int(string) {
            return value
        }
        throw ParserError.validation(failureReason: "Could not convert String to Int")
    }
}

extension StringToIntDecoder: CustomStringConvertible {
    /// `Elevate.StringToIntDecoder`: how Elevate's error texts name it (`Error parsing array object at
    /// index 1 with parser [Elevate.StringToIntDecoder]`). Elevate's decoder is a class, which prints
    /// with its module; this struct would print as `StringToIntDecoder()` (found by the differential
    /// tests against Elevate 4.0.0).
    public var description: String { "Elevate.StringToIntDecoder" }
}
