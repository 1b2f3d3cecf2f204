/// A document that parses as JSON but that the document layer will not accept.
///
/// Syntax errors are ``JSONSyntaxError``s; this error is about what the syntax allows but the
/// options or the representation do not.
public struct JSONDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// A key occurs twice in one object and ``JSONDocumentOptions/rejectsDuplicateKeys`` is set.
        case duplicateKey
        /// The document needs more than 2³² tape entries or 64 GiB of text.
        case documentTooLarge
    }

    /// What is wrong.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String
    /// The duplicate key, for ``Kind-swift.enum/duplicateKey``.
    public var key: String?
    /// The Elevate key path of the object holding the duplicate (`"response.items.3"`, `""` for the
    /// root), for ``Kind-swift.enum/duplicateKey``.
    public var keyPath: String?
    /// The zero-based offset just past the later occurrence of the key, or -1 when unknown (events
    /// that did not come from a ``JSONEventParser``).
    public var byteOffset: Int
    /// The one-based line of ``byteOffset`` (lines end with `\n`), when known: always for data and
    /// strings; for files and streams, when the key lies in the chunk being read as its object
    /// ends (the check runs at the end of each object, and earlier chunks are gone by then).
    public var line: Int?
    /// The one-based column of ``byteOffset``, in bytes from the start of its line, when known
    /// (see ``line``).
    public var column: Int?

    /// Creates an error; the document builder does this for you.
    /// - Parameters:
    ///   - kind: What is wrong.
    ///   - message: What is wrong, in words.
    ///   - key: The duplicate key.
    ///   - keyPath: Where the object holding it is.
    ///   - byteOffset: Where the later occurrence ends, or -1.
    ///   - line: The line of `byteOffset`, when known.
    ///   - column: The column of `byteOffset`, when known.
    public init(
        kind: Kind, message: String, key: String? = nil, keyPath: String? = nil, byteOffset: Int = -1,
        line: Int? = nil, column: Int? = nil
    ) {
        self.kind = kind
        self.message = message
        self.key = key
        self.keyPath = keyPath
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    /// `"line 3, column 9 (byte offset 41): duplicate key "name" in the object at key path "user""`,
    /// without the line and column when they are not known.
    public var description: String {
        guard byteOffset >= 0 else { return message }
        guard let line, let column else { return "byte offset \(byteOffset): \(message)" }
        return "line \(line), column \(column) (byte offset \(byteOffset)): \(message)"
    }
}
