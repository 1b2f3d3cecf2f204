extension JSONWriter {
    /// Settings of ``JSONWriter`` and ``JSONStreamWriter``; the defaults write compact RFC 8259 JSON.
    ///
    /// ```swift
    /// let options = JSONWriter.Options(prettyPrinted: true, sortedKeys: true)
    /// let text = try JSONWriter.string(for: ["b": 1, "a": [true]], options: options)
    /// // {
    /// //   "a": [
    /// //     true
    /// //   ],
    /// //   "b": 1
    /// // }
    /// ```
    public struct Options: Sendable, Hashable {
        /// Writes one member or element per line, indented by two spaces, with `": "` after keys.
        ///
        /// Empty containers stay `{}` and `[]`, and no newline follows the value.
        public var prettyPrinted: Bool
        /// Writes object members in the order of their keys' UTF-8 bytes (which is Unicode code point
        /// order), so that equal values give equal text. Otherwise the order is the dictionary's.
        public var sortedKeys: Bool
        /// Writes `/` as `\/`, which lets JSON sit inside an HTML `<script>` element.
        public var escapesSlashes: Bool
        /// Writes U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR as `\u2028` and `\u2029`.
        ///
        /// Both are valid unescaped in JSON, but JavaScript before ES2019 ends a string literal at them,
        /// so escaping keeps the output safe to embed in a script. On by default; it costs nothing for
        /// strings that do not contain them.
        public var escapesLineSeparators: Bool
        /// The deepest nesting of arrays and objects written; deeper values are an error, not a crash.
        ///
        /// The writer recurses once per level, so keep this in the thousands at most.
        public var maximumDepth: Int

        /// Creates options; every parameter has a safe default.
        /// - Parameters:
        ///   - prettyPrinted: See ``prettyPrinted``.
        ///   - sortedKeys: See ``sortedKeys``.
        ///   - escapesSlashes: See ``escapesSlashes``.
        ///   - escapesLineSeparators: See ``escapesLineSeparators``.
        ///   - maximumDepth: See ``maximumDepth``.
        public init(
            prettyPrinted: Bool = false,
            sortedKeys: Bool = false,
            escapesSlashes: Bool = false,
            escapesLineSeparators: Bool = true,
            maximumDepth: Int = 512
        ) {
            self.prettyPrinted = prettyPrinted
            self.sortedKeys = sortedKeys
            self.escapesSlashes = escapesSlashes
            self.escapesLineSeparators = escapesLineSeparators
            self.maximumDepth = maximumDepth
        }

        /// Compact output, keys in dictionary order, nesting up to 512 levels.
        public static let `default` = Options()
    }
}
