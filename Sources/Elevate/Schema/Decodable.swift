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
///
/// The `json` an `init(json:)` is handed for an object or array is a read-only view of the parsed
/// document, which ``Parser/parseEntity(json:closure:)`` reads without building a dictionary. Code
/// that casts `json` itself (`json as? [String: Any]`) gets what Elevate documented instead: the
/// first time a type's `init(json:)` returns or throws without reading its view through this
/// library, it runs again on the `[String: Any]` or `[Any]`, and that type is handed such values for
/// the rest of the call (`decodeObject`, `decodeArray`, `forEachElement`, …). So an `init(json:)`
/// that casts runs twice for the first value of each call, and once for the others; one that uses
/// `parseEntity` runs once for every value. Keep `init(json:)` free of side effects other than
/// building the value. Wrap a call in ``withFoundationValues(_:)`` to hand every type Foundation values.
public protocol Decodable {
    /// Creates an instance from a JSON value.
    /// - Throws: `ParserError.validation(failureReason:)` when the value does not fit.
    /// - Parameter json: A JSON value: a `JSONValue` view of an object or array (see
    ///   ``Parser/parseEntity(json:closure:)``), or a `[String: Any]`, `[Any]`, `String`, number, `Bool` or
    ///   `NSNull`.
    init(json: Any) throws

    /// Makes an array of this type, boxed in `Any`, for the library's own use when it decodes an
    /// array property; leave it to its default implementation.
    ///
    /// The library decodes arrays in code generic over a type it knows only at run time, where
    /// making an array and boxing it look four types' metadata up (about 1,300 instructions per
    /// array); the default implementation is compiled where the conformance is, for the concrete
    /// type. The storage is passed untyped so that a non-final class can conform.
    /// - Parameters:
    ///   - capacity: The most elements the array holds.
    ///   - initializer: Given the array's storage (room for `capacity` values of this type; nil
    ///     when `capacity` is 0), initializes elements at its start and sets how many it
    ///     initialized, as for `Array.init(unsafeUninitializedCapacity:initializingWith:)`.
    /// - Returns: The `[Self]` made.
    static func _makeElevateArray(
        capacity: Int, initializingWith initializer: (UnsafeMutableRawPointer?, inout Int) throws -> Void
    ) rethrows -> Any
}

extension Decodable {
    /// Makes an array with `Array.init(unsafeUninitializedCapacity:initializingWith:)`.
    /// - Parameters:
    ///   - capacity: The most elements the array holds.
    ///   - initializer: Initializes elements at the start of the storage it is given and sets the
    ///     count it initialized.
    /// - Returns: The `[Self]` made.
    @inlinable
    public static func _makeElevateArray(
        capacity: Int, initializingWith initializer: (UnsafeMutableRawPointer?, inout Int) throws -> Void
    ) rethrows -> Any {
        guard capacity > 0 else {
            // `Array(unsafeUninitializedCapacity: 0)` stores its count into the storage every
            // empty array shares: workers making empty arrays at once are a data race to
            // ThreadSanitizer (found by a parallel decoding test, elements with `"tags": []`).
            var initialized = 0
            try initializer(nil, &initialized)
            return [Self]()
        }
        return try [Self](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            try initializer(buffer.baseAddress.map { UnsafeMutableRawPointer($0) }, &initialized)
        }
    }
}
