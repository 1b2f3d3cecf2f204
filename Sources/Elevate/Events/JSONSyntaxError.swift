/// Input that is not acceptable JSON, with where it went wrong.
///
/// ``ParserError`` wraps it as `.deserialization` at the Elevate boundary; the streaming and
/// event APIs throw it directly.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem stopped the parse.
    public enum Kind: Sendable, Hashable {
        /// A token YAJL's grammar rejects.
        case syntax
        /// The input ended inside a value.
        case truncated
        /// A string holds bytes that are not valid UTF-8 (including overlong forms, encoded
        /// surrogates and code points above U+10FFFF).
        case invalidUTF8
        /// A `\u` escape names half of a surrogate pair without the other half.
        case unpairedSurrogate
        /// A form feed or vertical tab outside a string, which RFC 8259 does not count as whitespace.
        case invalidWhitespace
        /// Arrays and objects nest deeper than ``JSONParsingOptions/maximumDepth``.
        case depthLimitExceeded
        /// One token is larger than ``JSONParsingOptions/maximumTokenSize``.
        case tokenTooLarge
    }

    /// What kind of problem stopped the parse.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String
    /// The zero-based offset from the start of the input where parsing stopped: the offending
    /// byte itself for whitespace and nesting errors and for invalid UTF-8 in unescaped text
    /// within one chunk, just past the offending token otherwise (YAJL's position), the end of
    /// the input for truncation.
    public var byteOffset: Int
    /// The one-based line of ``byteOffset`` (lines end with `\n`).
    public var line: Int
    /// The one-based column of ``byteOffset``, in bytes from the start of its line.
    public var column: Int
    /// A short printable extract of the input around the offending byte.
    public var excerpt: String

    /// Creates an error; the parser does this for you.
    public init(kind: Kind, message: String, byteOffset: Int, line: Int, column: Int, excerpt: String) {
        self.kind = kind
        self.message = message
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.excerpt = excerpt
    }

    /// `"line 3, column 7 (byte offset 41): invalid char in json text near "…""`.
    public var description: String {
        var text = "line \(line), column \(column) (byte offset \(byteOffset)): \(message)"
        if !excerpt.isEmpty { text += " near \"\(excerpt)\"" }
        return text
    }
}
