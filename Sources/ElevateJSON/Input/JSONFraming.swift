/// How several JSON values follow each other in one input or output: the elements of one array,
/// one value per line, or values one after another.
///
/// The same framing names what ``JSONStreamWriter`` writes and what
/// `forEachValue(from:framing:atKeyPath:as:options:_:)` and
/// `AsyncSequence.decodedValues(framing:atKeyPath:as:options:)` read back:
///
/// ```swift
/// let writer = JSONStreamWriter(fileHandle: handle, framing: .jsonLines)
/// // …
/// try Elevate.forEachValue(from: .file(url), framing: .jsonLines, as: Event.self) { handle($0) }
/// ```
public enum JSONFraming: Sendable, Hashable {
    /// One JSON array. A writer writes `[` first, values separated by commas, and `]` at
    /// ``JSONStreamWriter/finish()`` (with ``JSONWriter/Options/prettyPrinted``, one indented
    /// element per line); a reader reads the elements of the top-level array.
    case array
    /// JSON Lines (`.jsonl`, NDJSON): one value per line. A writer writes each value compact on its
    /// own line, ending with `\n` (``JSONWriter/Options/prettyPrinted`` is ignored); a reader skips
    /// blank lines, and a line holding anything but exactly one value is an error naming the line.
    case jsonLines
    /// Values one after another (`{…}{…}` or `1 2`). A writer separates them with a newline, so
    /// that two numbers cannot run together (``JSONWriter/Options/prettyPrinted`` applies); a reader
    /// accepts them with or without whitespace between them.
    case concatenated
}
