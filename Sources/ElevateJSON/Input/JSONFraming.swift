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
    /// JSON text sequences (RFC 7464, `application/json-seq`): each value preceded by a record
    /// separator (`0x1E`) and followed by a newline. A writer writes exactly that
    /// (``JSONWriter/Options/prettyPrinted`` applies: a record may span lines); a reader splits the
    /// input at record separators and reads each record as exactly one value, skipping empty ones.
    /// The input must start with a separator; a record whose value is a number not followed by
    /// whitespace is refused as possibly cut short, as the RFC asks; and a record that is not one
    /// valid value is an error naming the record (the RFC lets a reader skip it; this one does not
    /// guess). Positions in errors are the input's lines and columns.
    case jsonTextSequence
}
