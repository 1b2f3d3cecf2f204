/// Where a delivered element lies in the input: its index, the bytes it spans, and the line it
/// starts on. Ask for positions with ``StreamingOptions/elementPositions``, to point back into
/// the file from a record (a search index, an error report, a later seek to re-read one element).
///
/// The range is the element's text exactly: from its first byte (`{`, `[`, `"`, a digit, `-`,
/// `t`, `f` or `n`) to just past its last, without the whitespace, separators or comments around
/// it; for JSON Lines, the value on its line without the line's leading or trailing whitespace,
/// its `\r` or its newline. Slicing the input with it gives text that parses to the element.
///
/// ```swift
/// var options = StreamingOptions()
/// options.elementPositions = { position in index.note(position.index, at: position.byteRange) }
/// try forEachElement(from: .file(url), atKeyPath: "items", as: Item.self, options: options) { item in
///     try store(item)
/// }
/// ```
public struct ElementPosition: Sendable, Hashable {
    /// The element's index in its array, or the value's index among a JSON Lines stream's values,
    /// counting from 0; a resumed stream goes on from its checkpoint's index.
    public var index: Int
    /// The offsets of the element's first byte and of the byte just past its last, in the input
    /// (for gzip input, in its inflated text, as ``StreamCheckpoint`` offsets are), also when the
    /// stream was resumed from a checkpoint.
    public var byteRange: Range<Int>
    /// The line of the element's first byte, counting from 1; nil when it is not known (a stream
    /// resumed from an asynchronous sequence, whose bytes before the checkpoint are not at hand).
    public var line: Int?

    /// A position.
    /// - Parameters:
    ///   - index: The element's index.
    ///   - byteRange: The offsets of its first byte and of the byte just past its last.
    ///   - line: The line of its first byte, from 1, if known.
    public init(index: Int, byteRange: Range<Int>, line: Int? = nil) {
        self.index = index
        self.byteRange = byteRange
        self.line = line
    }
}
