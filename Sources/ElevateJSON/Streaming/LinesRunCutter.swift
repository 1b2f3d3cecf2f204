import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Cuts JSON Lines into runs of whole lines for workers (issue #30): a raw newline cannot occur
/// inside a JSON value, so every `\n` ends a line, whatever the bytes around it. A run is cut just
/// past the first `\n` at or after its length (``StreamingOptions/splitRunLength(afterRuns:)``,
/// found with `memchr`), its bytes copied, and its newlines counted (``NewlineCount``), so that
/// each run knows the number of its first line. Shared by ``SplitLinesReader`` (values decoded on workers) and
/// ``countLines(in:framing:options:)`` (lines counted and checked on workers).
///
/// JSON text sequences are cut the same way just past a record separator (`0x1E`, which no more
/// than a raw newline can occur inside a value): a "line" is then a record, numbered from 0 before
/// the first separator, as ``JSONLinesParser`` numbers them, and each run also knows the input's
/// line and column where it starts, for a record may span lines.
struct LinesRunCutter {
    /// A run of whole lines, with what a worker needs to parse it as one thread would.
    struct Piece {
        /// Its bytes; give them back to `buffers` once parsed.
        var bytes: [UInt8]
        /// Where its first byte is in the input: a line's start.
        var start: Int
        /// The number of its first line (or record).
        var firstLine: Int
        /// Records: the input's line where it starts, and the bytes before it on that line.
        var inputLine: Int
        var inputColumnOffset: Int
        /// The absolute offsets where input chunks end inside it.
        var chunkEnds: [Int]
        /// Whether it ends the input (its last line may have no newline).
        var isLast: Bool
        /// Where its buffer goes back.
        var buffers: RunBuffers
    }

    private let options: StreamingOptions
    /// What ends a line: `\n`, or `0x1E` for records.
    private let separator: JSONLinesParser.Separator
    /// The longest a line may grow in the run before it is handed over whole to `longLine`: a
    /// line of any length must not be held (nil: no limit).
    private let longLineLimit: Int?
    /// Told of a line longer than `longLineLimit`, with the line's bytes so far (the complete
    /// lines before it went to `dispatch` first): its owner reads the line itself.
    var longLine: ((Piece) throws -> Void)?
    /// Told of the rest of a long line, chunk by chunk, up to and including its separator (the
    /// last piece, where `endsLine` is true); the cutting then resumes at the next line, so that
    /// one long line does not leave the rest of the input to one thread. Nil: the cutter takes no
    /// more input after the first long line (its owner stops there, the line being an error).
    var restOfLongLine: ((UnsafeRawBufferPointer, _ endsLine: Bool) throws -> Void)?
    /// Whether a long line was handed to `longLine` and has not ended: its bytes are its owner's.
    private(set) var isInLongLine = false
    /// Where the run's last line (not yet ended by a newline) starts in `run`.
    private var lineStartInRun = 0
    /// The run being cut: its bytes, its offset in the input, its first line's number, the newlines
    /// in it, and the absolute offsets where input chunks end inside it.
    private var run: [UInt8] = []
    private var runStart = 0
    private var runFirstLine: Int
    private var newlinesInRun = 0
    /// Records: the newlines before the run, and the offset just after the last of them.
    private var newlinesBeforeRun = 0
    private var lineStartBeforeRun = 0
    /// Records: the newlines in the run, and where the line after the last starts in it.
    private var inputNewlinesInRun = 0
    private var inputLineStartInRun: Int?
    private var chunkEndsInRun: [Int] = []
    /// The absolute offset of the next chunk's first byte.
    private var inputOffset = 0
    /// Runs handed over so far.
    private var runCount = 0
    /// The buffers of runs parsed, for the next runs: a new buffer of a few hundred KiB for each
    /// run, freed on a worker, cost page faults (thousands per 64 MB) as the heap grew and shrank.
    private let buffers = RunBuffers()
    /// The length from which the run may be cut.
    private var runByteCount: Int { options.splitRunLength(afterRuns: runCount) }

    /// - Parameters:
    ///   - options: The run lengths (``StreamingOptions/splitRunLength(afterRuns:)``).
    ///   - longLineLimit: The longest line held in a run; nil for no limit.
    ///   - longLine: Told of each line longer than `longLineLimit` (see ``isInLongLine``).
    ///   - separator: What ends a line: `\n` (JSON Lines), or `0x1E` (records of a text sequence).
    ///   - restOfLongLine: Told of the rest of each long line (see ``restOfLongLine``).
    init(
        options: StreamingOptions, longLineLimit: Int? = nil, separator: JSONLinesParser.Separator = .newline,
        longLine: ((Piece) throws -> Void)? = nil,
        restOfLongLine: ((UnsafeRawBufferPointer, _ endsLine: Bool) throws -> Void)? = nil
    ) {
        self.options = options
        self.separator = separator
        // Lines count from 1; records from 0, before the first separator.
        runFirstLine = separator == .newline ? 1 : 0
        self.longLineLimit = longLineLimit
        self.longLine = longLine
        self.restOfLongLine = restOfLongLine
    }

    /// Reads the next chunk of input, handing every run it completes to `dispatch`.
    /// - Parameter isStopped: Whether to stop cutting (the consumer stopped the stream).
    mutating func feed(
        _ chunk: UnsafeRawBufferPointer, isStopped: () -> Bool, _ dispatch: (Piece) throws -> Void
    ) throws {
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
        defer { inputOffset += chunk.count }
        var position = 0
        if isInLongLine {
            guard let restOfLongLine else { return }
            position = try passLongLine(chunk, to: restOfLongLine)
        }
        while position < chunk.count, !isStopped() {
            let cutFrom = max(position, runStart + runByteCount - inputOffset)
            guard cutFrom < chunk.count,
                let newline = memchr(base + cutFrom, Int32(separator.rawValue), chunk.count - cutFrom)
            else {
                append(UnsafeRawBufferPointer(rebasing: chunk[position...]))
                chunkEndsInRun.append(inputOffset + chunk.count)
                if let longLineLimit, run.count - lineStartInRun > longLineLimit { try handOverLongLine(dispatch) }
                return
            }
            let end = UnsafeRawPointer(newline) - base + 1
            append(UnsafeRawBufferPointer(rebasing: chunk[position..<end]))
            try dispatch(takeRun(isLast: false))
            position = end
        }
    }

    /// Hands the long line's bytes in `chunk` to `restOfLongLine`, up to and including its
    /// separator, and resumes the cutting after it.
    /// - Returns: Where the cutting resumes in `chunk`; its count when the line goes on past it.
    private mutating func passLongLine(
        _ chunk: UnsafeRawBufferPointer, to restOfLongLine: (UnsafeRawBufferPointer, Bool) throws -> Void
    ) throws -> Int {
        let separatorAt = memchr(chunk.baseAddress!, Int32(separator.rawValue), chunk.count)
        let end = separatorAt.map { UnsafeRawPointer($0) - chunk.baseAddress! + 1 } ?? chunk.count
        let line = UnsafeRawBufferPointer(rebasing: chunk[..<end])
        try restOfLongLine(line, separatorAt != nil)
        // The next run starts after these bytes, as it would after a run of them.
        if separator != .newline {
            let newlines = NewlineCount(in: line)
            if let start = newlines.lastLineStart { lineStartBeforeRun = runStart + start }
            newlinesBeforeRun += newlines.count
        }
        runStart += line.count
        if separatorAt != nil {
            runFirstLine += 1
            isInLongLine = false
        }
        return end
    }

    /// Hands the whole lines of the run being cut to `dispatch` now, before the run is long
    /// enough: a live source's complete lines are then not held back. The rest stays.
    mutating func cutCompleteLines(_ dispatch: (Piece) throws -> Void) throws {
        guard !isInLongLine, lineStartInRun > 0 else { return }
        try dispatch(takeCompleteLines())
    }

    /// The run's complete lines, as a run; the line they leave (no newline yet) starts the next.
    private mutating func takeCompleteLines() -> Piece {
        let rest = Array(run[lineStartInRun...])
        let restStart = runStart + lineStartInRun
        let restChunkEnds = chunkEndsInRun.filter { $0 > restStart }
        run.removeSubrange(lineStartInRun...)
        chunkEndsInRun.removeAll { $0 >= restStart }
        // The rest holds no separator: every one counted is in the lines handed over. A record's
        // rest may hold newlines, which are counted again on either side.
        recountInputLines()
        let piece = takeRun(isLast: false)
        run = rest
        chunkEndsInRun = restChunkEnds
        recountInputLines()
        return piece
    }

    /// Records: counts the input's newlines in the run again.
    private mutating func recountInputLines() {
        guard separator != .newline else { return }
        let newlines = run.withUnsafeBytes { NewlineCount(in: $0) }
        inputNewlinesInRun = newlines.count
        inputLineStartInRun = newlines.lastLineStart
    }

    /// Hands the complete lines to `dispatch` and the long line that follows them to `longLine`.
    private mutating func handOverLongLine(_ dispatch: (Piece) throws -> Void) throws {
        if lineStartInRun > 0 { try dispatch(takeCompleteLines()) }
        isInLongLine = true
        let line = takeRun(isLast: false)
        try longLine?(line)
    }

    /// The input failed (a read error, damaged gzip): everything held, the start of a line
    /// included, goes to `dispatch` as a run that does not end the input, so that its lines are
    /// judged before the failure, as one thread, fed those bytes, judges them.
    mutating func cutAllHeld(_ dispatch: (Piece) throws -> Void) throws {
        if !isInLongLine, !run.isEmpty { try dispatch(takeRun(isLast: false)) }
    }

    /// Ends the input: the last run, whose last line may have no newline, goes to `dispatch`.
    mutating func finish(_ dispatch: (Piece) throws -> Void) throws {
        if !isInLongLine, !run.isEmpty { try dispatch(takeRun(isLast: true)) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if run.isEmpty { run.reserveCapacity(runByteCount + 4096) }
        if separator == .newline {
            let newlines = NewlineCount(in: bytes)
            if let start = newlines.lastLineStart { lineStartInRun = run.count + start }
            newlinesInRun += newlines.count
        } else {
            let newlines = NewlineCount(in: bytes)
            if let start = newlines.lastLineStart { inputLineStartInRun = run.count + start }
            inputNewlinesInRun += newlines.count
            // The records' separators: few, found one by one.
            guard let base = bytes.baseAddress else { return }
            var from = 0
            while from < bytes.count, let found = memchr(base + from, Int32(separator.rawValue), bytes.count - from) {
                let end = UnsafeRawPointer(found) - base + 1
                lineStartInRun = run.count + end
                newlinesInRun += 1
                from = end
            }
        }
        run.append(contentsOf: bytes)
    }

    /// The run cut so far; the next one starts after it.
    private mutating func takeRun(isLast: Bool) -> Piece {
        let piece = Piece(
            bytes: run, start: runStart, firstLine: runFirstLine, inputLine: newlinesBeforeRun + 1,
            inputColumnOffset: runStart - lineStartBeforeRun, chunkEnds: chunkEndsInRun, isLast: isLast,
            buffers: buffers)
        newlinesBeforeRun += inputNewlinesInRun
        if let start = inputLineStartInRun { lineStartBeforeRun = runStart + start }
        inputNewlinesInRun = 0
        inputLineStartInRun = nil
        runStart += run.count
        runFirstLine += newlinesInRun
        newlinesInRun = 0
        lineStartInRun = 0
        run = buffers.take()
        chunkEndsInRun.removeAll()
        runCount += 1
        return piece
    }
}
