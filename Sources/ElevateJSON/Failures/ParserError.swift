/// The error Elevate throws: the bytes are not JSON (`deserialization`), or the JSON does not
/// match the schema (`validation`).
///
/// The texts are Elevate's, so code that matches on them keeps working:
///
/// ```swift
/// do {
///     let person: Person = try Elevate.decodeObject(from: data, atKeyPath: "person")
/// } catch let error as ParserError {
///     print(error.description)  // "Parser Validation Error - Required key path [name] was missing or null"
/// }
/// ```
public enum ParserError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The data is not valid JSON; the reason gives the byte offset, line and column.
    case deserialization(failureReason: String)
    /// The JSON does not match what the schema or a decoder expects.
    case validation(failureReason: String)

    /// Why parsing failed.
    public var failureReason: String {
        switch self {
        case .deserialization(let reason), .validation(let reason):
            return reason
        }
    }

    /// `"Parser Deserialization Error - …"` or `"Parser Validation Error - …"`.
    public var description: String {
        switch self {
        case .deserialization(let reason):
            return "Parser Deserialization Error - \(reason)"
        case .validation(let reason):
            return "Parser Validation Error - \(reason)"
        }
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }

    /// Wraps a syntax error from the event layer.
    init(_ syntaxError: JSONSyntaxError) {
        self = .deserialization(reason: "Invalid JSON at \(syntaxError.description)")
    }

    /// A deserialization error in Elevate's words: `JSON data deserialization failed with error: "…"`,
    /// the quoted part being this library's description (with the byte offset, line and column).
    static func deserialization(reason: String) -> ParserError {
        .deserialization(failureReason: "JSON data deserialization failed with error: \"\(reason)\"")
    }
}
