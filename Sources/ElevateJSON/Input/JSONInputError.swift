/// A file that could not be opened or read, or gzip input that could not be inflated.
///
/// A read the system refused carries the system's explanation alone. Gzip input (recognised by
/// its first two bytes, see ``JSONInput``) that is damaged also says what is wrong with it,
/// ``gzipProblem``, and where, ``compressedByteOffset``:
///
/// ```swift
/// let options = StreamingOptions(wrapsErrorsInParserError: false)
/// do {
///     print(try summarizeValue(from: .file(url), atKeyPath: "items", options: options)?.count ?? 0)
/// } catch let error as JSONInputError where error.gzipProblem == .truncated {
///     print("the download stopped at compressed byte \(error.compressedByteOffset ?? 0)")
/// }
/// ```
public struct JSONInputError: Error, Sendable, CustomStringConvertible {
    /// The path, or `standard input`.
    public var path: String
    /// The system's explanation, or what is wrong with gzip input and where.
    public var reason: String
    /// What is wrong with gzip input that could not be inflated; nil for a file that could not be
    /// opened or read.
    public var gzipProblem: GzipProblem?
    /// For ``gzipProblem``, the offset in the compressed bytes, counting from 0, at which the
    /// problem was found: the input's length when it is truncated, the first byte after the last
    /// member for trailing data, and for corrupt data the first byte zlib had not taken when it
    /// refused (just past a bad header field or checksum). nil for other errors.
    public var compressedByteOffset: Int?

    /// What is wrong with gzip input.
    public enum GzipProblem: Sendable, Hashable {
        /// The input ends inside a member (its header, its data, or its eight-byte trailer): a
        /// download or copy that stopped early.
        case truncated
        /// A member's bytes are not gzip: an unknown method or header flag, invalid deflate data,
        /// or a CRC-32 or length in the trailer that does not match the inflated text.
        case corrupt
        /// After the last whole member, bytes that do not start another one. (Several members one
        /// after another, `cat a.gz b.gz`, are read as one text, as `zcat` reads them.)
        case trailingData
    }

    /// Creates the error, as the readers of a ``JSONInput`` throw it (for tests and for code that
    /// reports its own input failures the same way).
    /// - Parameters:
    ///   - path: The path, or `standard input`.
    ///   - reason: The system's explanation, or what is wrong with gzip input.
    ///   - gzipProblem: See ``gzipProblem``; nil, the default, for a read that failed.
    ///   - compressedByteOffset: See ``compressedByteOffset``.
    public init(path: String, reason: String, gzipProblem: GzipProblem? = nil, compressedByteOffset: Int? = nil) {
        self.path = path
        self.reason = reason
        self.gzipProblem = gzipProblem
        self.compressedByteOffset = compressedByteOffset
    }

    /// `"<path>: <reason>"`.
    public var description: String { "\(path): \(reason)" }
}
