/// A type that builds itself from a JSON value (`[String: Any]`, `[Any]`, `String`, a number,
/// `Bool` or `NSNull`), usually with ``Parser/parseEntity(json:closure:)``.
///
/// Write `Elevate.Decodable` where Swift's own `Decodable` is also in scope.
///
/// ```swift
/// extension Address: Elevate.Decodable {
///     init(json: Any) throws {
///         let entity = try Parser.parseEntity(json: json) { schema in
///             schema.addProperty(keyPath: "street", type: .string)
///             schema.addProperty(keyPath: "city", type: .string)
///         }
///         self.street = entity <-! "street"
///         self.city = entity <-! "city"
///     }
/// }
/// ```
public protocol Decodable {
    /// Creates an instance from a JSON value.
    /// - Throws: ``ParserError/validation(failureReason:)`` when the value does not fit.
    /// - Parameter json: A JSON value: a ``JSONValue`` view of an object or array (see
    ///   ``Parser/parseEntity(json:closure:)``), or a `[String: Any]`, `[Any]`, `String`, number, `Bool` or
    ///   `NSNull`.
    init(json: Any) throws
}
