import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

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
            case .int64, .uint64: position += 2
            case .double64: position += JSONTape.wordsOfDouble64(tape.words[position])
            default: position += 1
            }
            ordinal += 1
        }
        let finder = EventFinder(target: ordinal)
        let parser = JSONEventParser(handler: finder, options: options)
        finder.parser = parser
        switch source {
        case .data(let data) where data.startsWithGzipMagicBytes:
            // A failed inflate only leaves the position unknown: the error being reported stands.
            try? JSONInput.data(data).forEachChunk { chunk in
                guard (try? parser.parse(chunk)) != nil, !parser.isStopped else { throw JSONEventParser.Stop() }
            }
        case .data(let data):
            _ = try? parser.parse(data)
        case .file(let url, let identity):
            readAgain(url, identity, into: parser)
        }
        return finder.position
    }

    /// Feeds `parser` the file at `url` in chunks until its handler stops it, when the file is still
    /// the one identified by `identity`. Memory is one chunk, whatever the file's size. A gzip
    /// file is inflated again, as it was for the parse: positions are in its text.
    private static func readAgain(_ url: URL, _ identity: FileIdentity, into parser: JSONEventParser) {
        // Non-blocking: the path may name a pipe by now, whose `open` would wait for a writer
        // (forever) before the identity check below could refuse it. A regular file reads as ever.
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard FileIdentity(descriptor: descriptor) == identity else { return }
        // A read that fails only leaves the position unknown: the error being reported stands.
        _ = try? JSONInput.readChunks(of: descriptor, named: url.path, chunkSize: 1 << 20) { chunk in
            (try? parser.parse(chunk)) != nil && !parser.isStopped
        }
    }
}

/// Counts the events that make tape entries and notes where the `target`th is, while its chunk is
/// in the parser (lines of earlier chunks are counted as they pass, so no chunk is kept).
private final class EventFinder: JSONEventHandler {
    let target: Int
    var seen = 0
    var position: TapePosition?
    weak var parser: JSONEventParser?

    init(target: Int) { self.target = target }

    private func event() throws {
        if seen == target {
            if let parser, let (line, column) = parser.lineAndColumn(ofByteOffset: parser.currentByteOffset) {
                position = TapePosition(byteOffset: parser.currentByteOffset, line: line, column: column)
            }
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
