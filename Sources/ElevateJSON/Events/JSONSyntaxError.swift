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
        /// A raw form feed or vertical tab: RFC 8259 does not count them as whitespace, and a string
        /// must escape them. (YAJL takes them for whitespace; the parser finds them before it reads.)
        case invalidWhitespace
        /// Arrays and objects nest deeper than ``JSONParsingOptions/maximumDepth``.
        case depthLimitExceeded
        /// One token is larger than ``JSONParsingOptions/maximumTokenSize``.
        case tokenTooLarge
        /// A key repeats in one object and ``JSONParsingOptions/rejectsDuplicateKeys`` is set, or a
        /// streaming call's key path repeats after the value of its first occurrence was handed
        /// out; the position is the repeated key's opening quote.
        case duplicateKey
        /// The document needs more than a ``JSONValue`` holds (2³² entries or 64 GiB of text); the
        /// position is where it ran out.
        case documentTooLarge
    }

    /// What kind of problem stopped the parse.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String
    /// The zero-based offset from the start of the input of the offending byte, the same
    /// however the input was split into chunks:
    ///
    /// - for ``Kind-swift.enum/syntax``, ``Kind-swift.enum/tokenTooLarge`` and
    ///   ``Kind-swift.enum/depthLimitExceeded``, the first byte of the offending token (`x` in
    ///   `[1,2,x]`, the second `,` in `[1,,2]`, `2` in `{"a" 2}`, the `[` one level too deep);
    /// - for ``Kind-swift.enum/invalidUTF8``, the first byte of the invalid sequence;
    /// - for ``Kind-swift.enum/unpairedSurrogate``, the backslash of the bad `\u` escape;
    /// - for ``Kind-swift.enum/invalidWhitespace``, the form feed or vertical tab;
    /// - for ``Kind-swift.enum/duplicateKey``, the repeated key's opening quote;
    /// - for ``Kind-swift.enum/truncated``, the end of the input.
    public var byteOffset: Int
    /// The one-based line of ``byteOffset`` (lines end with `\n`).
    public var line: Int
    /// The one-based column of ``byteOffset``, in bytes from the start of its line: `[1,2,x]`
    /// fails at column 6.
    public var column: Int
    /// A short printable extract of the input around the offending byte: up to 16 bytes before
    /// it, then it and up to 15 bytes after it as far as the input had arrived. Printable ASCII
    /// shows as it is; a backslash is doubled, and other bytes are escaped (`\n`, `\t`, `\r`,
    /// `\xBF`).
    public var excerpt: String

    /// Creates an error; the parser does this for you.
    /// - Parameters:
    ///   - kind: See ``kind``.
    ///   - message: See ``message``.
    ///   - byteOffset: See ``byteOffset``.
    ///   - line: See ``line``.
    ///   - column: See ``column``.
    ///   - excerpt: See ``excerpt``.
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

/// A handler's report that the document outgrew what it can hold; the parser throws it as a
/// ``JSONSyntaxError`` of kind ``JSONSyntaxError/Kind-swift.enum/documentTooLarge`` at the position of
/// the event being delivered, which the handler does not know.
package struct DocumentTooLarge: Error {
    package let message: String

    package init(message: String) { self.message = message }
}

extension JSONSyntaxError {
    /// The text of an ``excerpt``: printable ASCII as it is, except a backslash, which is doubled
    /// so that the escapes of other bytes (`\n`, `\xBF`) cannot be mistaken for input.
    /// - Parameter window: The input bytes around the error.
    package static func excerptText(_ window: some Sequence<UInt8>) -> String {
        var text = ""
        for byte in window {
            switch byte {
            case 0x5C: text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x0A: text += "\\n"
            case 0x09: text += "\\t"
            case 0x0D: text += "\\r"
            default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return text
    }
}
