#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Where each element of the array an ``ElementStream`` cuts starts, and on which line, for
/// ``StreamingOptions/elementPositions``. Made only when positions are asked for.
///
/// An element's end is the parser's offset at its last event, but its start is not always known
/// from its events: a string's event holds its text with the escapes resolved, not the length of
/// its token. So the start is found in the input: it is the first byte after the gap that follows
/// the array's `[` or the element before (whitespace, comments when allowed, and one `,`), scanned
/// with the parser's own ``JSONEventParser/Gap``. That gap can lie in chunks parsed earlier (an
/// element spans chunks; the parser holds chunks back while a long token is open, and delivers
/// their events later), so the bytes from the gap's start on are kept until the next element's
/// start is found: one element and its gap at most, as the selector keeps. Lines are counted as the
/// bytes are let go of, each byte once.
///
/// Offsets here are the parser's: for a resumed stream, they include the prefix it is fed first.
final class ElementStartFinder {
    private let allowsComments: Bool
    /// The input's bytes from `retainedStart` up to the chunk being parsed.
    private var retained: [UInt8] = []
    private var retainedStart = 0
    /// The chunk being parsed (empty between parses), and its offset.
    private var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    private var chunkStart = 0
    /// Where the gap before the next element begins: the end of the array's `[` or of the element
    /// before; nil outside the array.
    private var gapStart: Int?
    /// Whether that gap may hold a `,` (it follows an element).
    private var gapFollowsElement = false
    /// How many newlines come before `countedEnd` (at most the start of the bytes still at hand).
    private var newlines = 0
    private var countedEnd = 0

    init(allowsComments: Bool) {
        self.allowsComments = allowsComments
    }

    /// Runs `parse` (the parser's parse of `bytes`), the next bytes of the input; then keeps what
    /// the start of an element not yet delivered may lie in.
    /// - Parameter parsedEnd: The parser's count of bytes accepted, once `parse` returned: bytes
    ///   past it are held back, their events still to come.
    func parsing(
        _ bytes: UnsafeRawBufferPointer, parsedEnd: () -> Int, _ parse: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        chunk = bytes
        chunkStart = retainedStart + retained.count
        defer {
            keep(from: min(gapStart ?? .max, parsedEnd()))
            chunk = UnsafeRawBufferPointer(start: nil, count: 0)
        }
        try parse(bytes)
    }

    /// The array begins: its `[` ends at `end`.
    func arrayStarted(at end: Int) {
        gapStart = end
        gapFollowsElement = false
    }

    /// The array ended: nothing more need be kept.
    func arrayEnded() {
        gapStart = nil
    }

    /// The element that ended at `end` (just now, so all of it was fed): its start and line.
    func elementEnded(at end: Int) -> (start: Int, line: Int) {
        var gap = JSONEventParser.Gap()
        gap.separator = gapFollowsElement ? UInt8(ascii: ",") : 0
        let from = gapStart ?? end
        var start: Int?
        if from - retainedStart < retained.count {
            start = retained.withUnsafeBytes {
                gap.skip($0, from: from - retainedStart, base: retainedStart, allowsComments: allowsComments)
            }
        }
        if start == nil {
            start = gap.skip(chunk, from: max(from - chunkStart, 0), base: chunkStart, allowsComments: allowsComments)
        }
        // The element's first byte was fed: found unless the input disagrees with the parser.
        let elementStart = min(start ?? end, end)
        countNewlines(upTo: elementStart)
        gapStart = end
        gapFollowsElement = true
        return (elementStart, newlines + 1)
    }

    /// Lets go of the bytes before `offset` (within those at hand), counting their newlines.
    private func keep(from offset: Int) {
        let chunkEnd = chunkStart + chunk.count
        let keptStart = min(max(offset, retainedStart), chunkEnd)
        countNewlines(upTo: keptStart)
        if keptStart >= chunkStart {
            retained.removeAll(keepingCapacity: retained.capacity <= 1 << 20)
            retained.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[(keptStart - chunkStart)...]))
        } else {
            // While an element spans chunks, its gap's start stays put: nothing moves then.
            if keptStart > retainedStart { retained.removeFirst(keptStart - retainedStart) }
            retained.append(contentsOf: chunk)
        }
        retainedStart = keptStart
    }

    /// Counts the newlines up to `offset` (one of the bytes at hand) not counted yet.
    private func countNewlines(upTo offset: Int) {
        guard offset > countedEnd else { return }
        let from = max(countedEnd, retainedStart)
        if from - retainedStart < retained.count {
            let end = min(offset - retainedStart, retained.count)
            newlines += retained.withUnsafeBytes {
                NewlineCount(in: UnsafeRawBufferPointer(rebasing: $0[(from - retainedStart)..<end])).count
            }
        }
        if offset > chunkStart {
            let chunkFrom = max(from - chunkStart, 0)
            let chunkTo = min(offset - chunkStart, chunk.count)
            if chunkFrom < chunkTo {
                newlines += NewlineCount(in: UnsafeRawBufferPointer(rebasing: chunk[chunkFrom..<chunkTo])).count
            }
        }
        countedEnd = offset
    }
}
