import Foundation

/// Elevate's `Parser` over an input: one pass captures the values a schema names.
extension Parser {
    /// Parses JSON data and validates it against the schema the closure builds.
    ///
    /// Only the values the schema names are materialized; the rest of the document is skipped
    /// as YAJL's events stream past. Each captured value is held to `StreamingOptions`' default
    /// maximum element size (64 MiB).
    /// - Parameters:
    ///   - data: The JSON data; its root must be an object or an array (or any value, when the
    ///     schema's only key path is `""`).
    ///   - closure: Adds the properties to validate to the schema it is given.
    /// - Returns: The entity: each property's key path mapped to its converted value; missing or
    ///   `null` optional properties are absent.
    /// - Throws: `ParserError.deserialization(failureReason:)` when the data is not JSON (with the
    ///   byte offset, line and column); `ParserError.validation(failureReason:)` when it does
    ///   not match the schema.
    public static func parseEntity(data: Data, closure: (Schema) -> Void) throws -> [String: Any] {
        try parseEntity(.data(data), closure: closure)
    }

    /// `parseEntity(data:closure:)` for any input, files and standard input included.
    static func parseEntity(
        _ input: JSONInput, options: StreamingOptions = StreamingOptions(),
        closure: (Schema) -> Void
    ) throws -> [String: Any] {
        let schema = Schema()
        closure(schema)
        return try entity(
            schema, from: CapturedValues(input: input, paths: schema.storage.map(\.path), options: options.forElevate))
    }

    /// `parseEntity(data:closure:)` of an asynchronous sequence of chunks.
    static func parseEntity<Chunks: AsyncSequence>(
        _ chunks: Chunks, options: StreamingOptions = StreamingOptions(), closure: (Schema) -> Void
    ) async throws -> [String: Any] where Chunks.Element: Sequence<UInt8> {
        let schema = Schema()
        closure(schema)
        let captured = try await CapturedValues(chunks: chunks, paths: schema.storage.map(\.path), options: options.forElevate)
        return try entity(schema, from: captured)
    }

    /// The entity of `schema` over the values one pass captured for its key paths.
    static func entity(_ schema: Schema, from captured: CapturedValues) throws -> [String: Any] {
        if captured.rootIsScalar { try EntityValidator.rejectScalarRoot(of: schema) }
        if captured.rootIsArray { try EntityValidator.checkArrayRoot(schema.storage) }
        return try EntityValidator.validate(schema.storage) { captured.value(at: KeyPath($0)) }
    }
}
