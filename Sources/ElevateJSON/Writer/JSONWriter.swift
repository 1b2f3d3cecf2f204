import struct Foundation.Data

/// Writes a tree of values as JSON text, with YAJL's generator.
///
/// ```swift
/// let value: [String: Any] = ["name": "Ada", "born": 1815, "tags": ["math", "engines"]]
/// let data = try JSONWriter.data(for: value)
/// let text = try JSONWriter.string(for: value, options: .init(prettyPrinted: true, sortedKeys: true))
/// ```
///
/// Accepted values: `[String: Any]` (and `[AnyHashable: Any]` with string keys), `[Any]`,
/// `String`, `Substring`, `Bool`, every `Int` and `UInt` width, `Float`, `Double`, `Decimal`,
/// `NSNumber`, `NSNull`, `nil`, `URL` (its `absoluteString`), ``JSONLargeNumber`` (its text, as is)
/// and any `Encodable` (its `Encodable.json`). Anything else — `Date`, `Data` — is a
/// ``JSONWriterError`` that names the type and the path to it, as is a NaN or infinite number.
///
/// Numbers: a `Double` is written as the shortest text that reads back as the same `Double`
/// (`0.1`, `1e-05`, `5.0`), a `Float` as the shortest text that reads back as the same `Float`
/// (`Float(0.1)` is written `0.1`), whatever the C locale. Strings are escaped as RFC 8259 requires;
/// non-ASCII text is written as UTF-8, and U+2028/U+2029 are escaped (see
/// ``Options/escapesLineSeparators``).
///
/// Nesting is checked against ``Options/maximumDepth`` before anything reaches YAJL, whose
/// generator stops at 127 levels; deeper values are still written correctly.
public enum JSONWriter {
    /// Writes `value` as one JSON text, in UTF-8.
    ///
    /// ```swift
    /// let data = try JSONWriter.data(for: ["id": 7, "ok": true])  // {"id":7,"ok":true} (any key order)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The top-level value; any accepted type, not only a container.
    ///   - options: How to format the text.
    /// - Returns: The JSON text.
    /// - Throws: ``JSONWriterError`` for a value JSON cannot represent.
    public static func data(for value: Any, options: Options = .default) throws -> Data {
        Data(try bytes(for: value, options: options))
    }

    /// Writes `value` as one JSON text.
    ///
    /// ```swift
    /// let text = try JSONWriter.string(for: [1, 2.5, "three", nil] as [Any?])  // [1,2.5,"three",null]
    /// ```
    ///
    /// - Parameters:
    ///   - value: The top-level value; any accepted type, not only a container.
    ///   - options: How to format the text.
    /// - Returns: The JSON text.
    /// - Throws: ``JSONWriterError`` for a value JSON cannot represent.
    public static func string(for value: Any, options: Options = .default) throws -> String {
        String(decoding: try bytes(for: value, options: options), as: UTF8.self)
    }

    /// Writes `value` as one JSON text, in UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - value: The top-level value; any accepted type, not only a container.
    ///   - options: How to format the text.
    /// - Returns: The JSON text.
    /// - Throws: ``JSONWriterError`` for a value JSON cannot represent.
    public static func bytes(for value: Any, options: Options = .default) throws -> [UInt8] {
        let generator = JSONGenerator(options: options)
        try generator.write(value)
        return generator.output
    }
}
