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
