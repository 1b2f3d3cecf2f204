/// Settings for parsing a document into a ``JSONValue``.
///
/// ```swift
/// let value = try JSONValue(parsing: data, options: JSONDocumentOptions(rejectsDuplicateKeys: true))
/// ```
public struct JSONDocumentOptions: Sendable, Hashable {
    /// The parser's settings: comments, multiple values, depth and token limits.
    public var parsing: JSONParsingOptions
    /// Whether a key that occurs twice in one object is a ``JSONDocumentError`` instead of the last
    /// occurrence replacing the earlier ones.
    public var rejectsDuplicateKeys: Bool

    /// Creates options.
    /// - Parameters:
    ///   - parsing: The parser's settings.
    ///   - rejectsDuplicateKeys: Whether a duplicate key is an error rather than replacing the earlier
    ///     occurrences whole.
    public init(parsing: JSONParsingOptions = .default, rejectsDuplicateKeys: Bool = false) {
        self.parsing = parsing
        self.rejectsDuplicateKeys = rejectsDuplicateKeys
    }

    /// Strict RFC 8259 parsing; a duplicate key's last occurrence wins.
    public static let `default` = JSONDocumentOptions()
}
