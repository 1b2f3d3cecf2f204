/// Where a long array or JSON Lines stream can be picked up again after a failure or a restart:
/// the index of the next element (or value) and the byte offset just past the last element
/// delivered (for JSON Lines, where the next line starts).
///
/// Ask for checkpoints with ``StreamingOptions/checkpoints`` and keep the latest (a file, a
/// database row: it is `Codable`); after a crash, pass it as ``StreamingOptions/resumingFrom`` to
/// the same call on the same input, and the stream goes on with the element after it, reading the
/// input from the checkpoint's offset:
///
/// ```swift
/// var options = StreamingOptions()
/// options.resumingFrom = try loadSavedCheckpoint()       // nil the first time
/// options.checkpoints = { checkpoint in saveEvery10000th(checkpoint) }
/// try Elevate.forEachElement(from: .file(url), atKeyPath: "items", as: Item.self, options: options) { item in
///     try store(item)
/// }
/// ```
///
/// What resuming validates: every byte from the checkpoint to the end of the array, as the first
/// run did (the elements, their separators, the closing bracket), and that the checkpoint's offset
/// ends an element (the byte before it closes a value, and a separator or the array's end comes
/// next). What it does not: the bytes before the offset, and the bytes after the array, are not
/// read again; the key path is not looked for (the offset says where the array is). A checkpoint
/// made up by hand, or kept from another version of the file, can pass these checks by chance
/// (inside a string that happens to hold `}, 1]`): resume only from checkpoints the library gave,
/// for the input it gave them for.
///
/// JSON Lines resumes at the line that starts at the checkpoint's offset (the byte before it must
/// be a newline) and reads to the end; the input's lines before it are counted again, once, so
/// that errors name the same lines as in the whole run.
public struct StreamCheckpoint: Sendable, Hashable, Codable {
    /// The index of the next element (or value): those before it were delivered (or skipped as invalid).
    public var index: Int
    /// The offset in the input just past the last element delivered; for JSON Lines, where the
    /// next line starts.
    public var byteOffset: Int

    /// A checkpoint.
    /// - Parameters:
    ///   - index: The index of the next element.
    ///   - byteOffset: The offset just past the element before it.
    public init(index: Int, byteOffset: Int) {
        self.index = index
        self.byteOffset = byteOffset
    }
}

extension StreamCheckpoint {
    /// Whether a stream could have given this checkpoint: one read back from storage is input like
    /// any other. Each element (or line) before the offset took at least a byte, so the index is
    /// at most the offset, and no input reaches half of `Int`'s range: numbers beyond these were
    /// never given, and would overflow where elements are numbered and placed from them (a trap).
    package var hasPossibleNumbers: Bool {
        index >= 0 && index <= byteOffset && byteOffset <= Int.max >> 1
    }
}
