import Foundation

/// Where a tape entry's token is in the input, found after the fact.
///
/// The tape keeps no byte offsets (they would add a word per entry to every parse for the benefit
/// of the rare failing decode). Entries are written one per event, in event order, so an entry's
/// ordinal among the events is known from the tape alone; parsing the input again up to that event
/// gives its offset. This runs only when a decode fails.
struct TapePosition {
    /// The offset just past the value's first token (its `{`, `[`, or the scalar itself).
    var byteOffset: Int
    /// The one-based line of `byteOffset`.
    var line: Int
    /// The one-based column of `byteOffset`, in bytes.
    var column: Int

    static func locate(entry: Int, on tape: JSONTape, source: DecodingSource, options: JSONParsingOptions)
        -> TapePosition?
    {
        // With several top-level values the tape holds only the last, so ordinals would not match.
        guard !options.allowsMultipleValues, entry < tape.wordCount else { return nil }
        var ordinal = 0
        var position = 0
        while position < entry {
            switch tape.kind(at: position) {
            case .int64, .uint64, .double64: position += 2
            default: position += 1
            }
            ordinal += 1
        }
        let bytes: Data
        switch source {
        case .data(let data): bytes = data
        }
        let finder = EventFinder(target: ordinal)
        let parser = JSONEventParser(handler: finder, options: options)
        finder.parser = parser
        _ = try? parser.parse(bytes)
        guard let offset = finder.offset else { return nil }
        return bytes.withUnsafeBytes { raw in
            let (newlines, lineStart) = InputLayout.lines(in: raw, upTo: offset)
            return TapePosition(byteOffset: offset, line: newlines + 1, column: offset - (lineStart ?? 0) + 1)
        }
    }
}

/// Counts the events that make tape entries and notes the offset of the `target`th.
private final class EventFinder: JSONEventHandler {
    let target: Int
    var seen = 0
    var offset: Int?
    weak var parser: JSONEventParser?

    init(target: Int) { self.target = target }

    private func event() throws {
        if seen == target {
            offset = parser?.currentByteOffset
            throw JSONEventParser.Stop()
        }
        seen += 1
    }

    func startObject() throws { try event() }
    func key(_ key: JSONText) throws { try event() }
    func startArray() throws { try event() }
    func string(_ value: JSONText) throws { try event() }
    func number(_ value: JSONNumberText) throws { try event() }
    func bool(_ value: Bool) throws { try event() }
    func null() throws { try event() }
}
