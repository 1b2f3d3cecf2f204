/// Cuts concatenated JSON into runs of whole top-level values for workers (issue #30): a
/// ``StructuralScanner`` follows strings and nesting, and a run is cut just past the first bracket
/// or brace at or after its length (``StreamingOptions/splitRunLength(afterRuns:)``) that ends a
/// top-level value. There the parser of one thread is between values, holding nothing of the
/// text before, so a worker's parser that starts there reads on as it would. Each run carries
/// what that parser needs to report errors in the input's terms: where it starts, its line and
/// where that line starts, and the bytes around it for excerpts. Used by ``SplitValuesReader``.
///
/// A value whose end the scanner does not find within ``StreamingOptions/splitLongestHeld``
/// bytes (a value of many megabytes, or top-level numbers and strings, which have no bracket to
/// end them) is never held whole: ``takeRest(_:)`` then gives the input to the owner,
/// until a top-level value ends with a bracket or brace in it and a short one follows
/// (``endOfRest(in:)``), where the cutting resumes.
struct ValuesRunCutter {
    /// Whether concatenated JSON read with these options can be cut: the scanner reads strings
    /// and brackets as the parser does only when comments are not allowed (a comment may hold
    /// either).
    static func canCut(_ parsing: JSONParsingOptions) -> Bool {
        !parsing.allowsComments
    }

    /// A run of whole values, with what a worker needs to parse it as one thread would.
    struct Piece {
        /// Its bytes; give them back to `buffers` once parsed.
        var bytes: [UInt8]
        /// Where its first byte is in the input: just after a value, or the input's start.
        var start: Int
        /// The newlines before it, and the offset just after the last of them (0 when none).
        var newlinesBefore: Int
        var lastLineStart: Int
        /// Up to 16 input bytes before it and after it (within the chunk it ends in), for an
        /// error's excerpt.
        var bytesBefore: [UInt8]
        var bytesAfter: [UInt8]
        /// The absolute offsets where input chunks end inside it.
        var chunkEnds: [Int]
        /// Whether it ends the input (it may end inside a value).
        var isLast: Bool
        /// Whether it ends just after a value (a run cut from the values; not the last, nor one
        /// cut before an input failure or before the rest of the input).
        var endsAfterValue: Bool
        /// Where its buffer goes back.
        var buffers: RunBuffers
    }

    private let options: StreamingOptions
    private var scanner = StructuralScanner()
    /// The run being cut, and where it starts in the input.
    private var run: [UInt8] = []
    private var runStart = 0
    /// The newlines before the run, and where the line after the last of them starts.
    private var newlinesBeforeRun = 0
    private var lastLineStartBeforeRun = 0
    private var bytesBeforeRun: [UInt8] = []
    private var chunkEndsInRun: [Int] = []
    /// The absolute offset of the next chunk's first byte.
    private var inputOffset = 0
    /// Runs handed over so far.
    private var runCount = 0
    /// Whether the input is the owner's, from ``takeRest(_:)`` to the ``endOfRest(in:)`` found.
    private(set) var handedOver = false
    /// Buffers of runs parsed, for the next runs.
    private let buffers = RunBuffers()
    /// The length from which the run may be cut.
    private var runByteCount: Int { options.splitRunLength(afterRuns: runCount) }

    init(options: StreamingOptions) {
        self.options = options
        scanner.depth = 0
    }

    /// Reads the next chunk of input from `start` (after the end of the rest in it, see
    /// ``endOfRest(in:)``), handing every run it completes to `dispatch`.
    /// - Returns: false when the run being cut grew past what may be held without the end of a
    ///   value: the bytes from the last value's end on, this chunk's included, are then to be
    ///   taken with ``takeRest(_:)``, and nothing more is cut until the rest ends.
    /// - Parameter isStopped: Whether to stop cutting (the consumer stopped the stream).
    mutating func feed(
        _ chunk: UnsafeRawBufferPointer, from start: Int = 0, isStopped: () -> Bool, _ dispatch: (Piece) throws -> Void
    ) throws -> Bool {
        guard !chunk.isEmpty, !handedOver else { return !handedOver }
        defer { inputOffset += chunk.count }
        var position = start
        while position < chunk.count, !isStopped() {
            let cutFrom = max(position, runStart + runByteCount - inputOffset)
            guard case .at(let close) = scanner.scan(
                chunk, from: position, base: inputOffset, mode: .splitValues(cutFrom: cutFrom))
            else {
                append(chunk[position...])
                chunkEndsInRun.append(inputOffset + chunk.count)
                return inputOffset + chunk.count - max(scanner.lastValueEnd, runStart) <= options.splitLongestHeld
            }
            let end = close + 1
            append(chunk[position..<end])
            try dispatch(
                takeRun(upTo: runStart + run.count, after: chunk[end..<min(end + 16, chunk.count)], endsAfterValue: true))
            position = end
        }
        return true
    }

    /// Hands the whole values of the run being cut to `dispatch` now, before the run is long
    /// enough: a live source's complete values are then not held back. The rest stays.
    mutating func cutCompleteValues(_ dispatch: (Piece) throws -> Void) throws {
        let end = scanner.lastValueEnd
        guard !handedOver, end > runStart else { return }
        // The excerpt of an error near the cut goes on to the end of the chunk the cut is in.
        let chunkEnd = chunkEndsInRun.first { $0 > end } ?? end
        let after = run[(end - runStart)..<(min(end + 16, chunkEnd) - runStart)]
        try dispatch(takeRun(upTo: end, after: after, endsAfterValue: true))
    }

    /// The input failed (a read error, damaged gzip): everything held, the start of a value
    /// included, goes to `dispatch` as a run that does not end the input, so that it is judged
    /// before the failure, as one thread, fed those bytes, judges them.
    mutating func cutAllHeld(_ dispatch: (Piece) throws -> Void) throws {
        if !handedOver, !run.isEmpty { try dispatch(takeRun(upTo: runStart + run.count, after: [])) }
    }

    /// Ends the input: the last run goes to `dispatch`, even when empty (the input's end is the
    /// parser's to judge).
    mutating func finish(_ dispatch: (Piece) throws -> Void) throws {
        if !handedOver { try dispatch(takeRun(upTo: runStart + run.count, after: [], isLast: true)) }
    }

    /// After ``feed(_:from:isStopped:_:)`` returned false: the whole values held go to `dispatch`,
    /// and the rest, from the last value's end on, is returned as a run for the owner to read
    /// on from, with the input after it up to ``endOfRest(in:)``.
    mutating func takeRest(_ dispatch: (Piece) throws -> Void) throws -> Piece {
        precondition(!handedOver, "one rest at a time")
        try cutCompleteValues(dispatch)
        handedOver = true
        return takeRun(upTo: runStart + run.count, after: [])
    }

    /// After ``takeRest(_:)``, while the owner reads the rest of the input: how much of `chunk`
    /// is the rest's. Where a top-level value ends with a bracket or brace in it and the next one
    /// is short, the rest ends just past it: one thread's parser, having read the rest without an
    /// error, stands between two values there, as the scanner does, and the cutting resumes with
    /// the chunk's bytes after it (``feed(_:from:isStopped:_:)``). Top-level numbers, strings and
    /// literals have no bracket to end them and leave the input to the owner.
    /// - Returns: The offset in `chunk` just past the value that ends the rest, or nil when the
    ///   whole chunk is the rest's.
    mutating func endOfRest(in chunk: UnsafeRawBufferPointer) -> Int? {
        precondition(handedOver, "the rest was taken")
        var position = 0
        let valueEnds = StructuralScanner.Mode.splitValues(cutFrom: 0)
        while case .at(let close) = scanner.scan(chunk, from: position, base: inputOffset, mode: valueEnds) {
            position = close + 1
            // Only where the next value is short (it ends within a run's length in the chunk):
            // a rest per long value would cost its parser's buffers anew each time (`count` of a
            // stream of 9 MiB values took 0.56 s at two jobs, 0.22 s at one).
            guard scanner.stops(in: chunk, from: position, within: runByteCount, base: inputOffset, mode: valueEnds)
            else { continue }
            // The chunk's offset stays, for the cutting of the bytes after the rest.
            advance(over: chunk[..<position])
            handedOver = false
            return position
        }
        advance(over: chunk[...])
        inputOffset += chunk.count
        return nil
    }

    private mutating func append(_ bytes: Slice<UnsafeRawBufferPointer>) {
        if run.isEmpty { run.reserveCapacity(runByteCount + 4096) }
        run.append(contentsOf: bytes)
    }

    /// The run cut up to absolute offset `end`; the next one starts there, with what is left.
    private mutating func takeRun(
        upTo end: Int, after: some Collection<UInt8>, isLast: Bool = false, endsAfterValue: Bool = false
    ) -> Piece {
        let count = end - runStart
        var rest = buffers.take()
        rest.append(contentsOf: run[count...])
        run.removeSubrange(count...)
        let piece = Piece(
            bytes: run, start: runStart, newlinesBefore: newlinesBeforeRun, lastLineStart: lastLineStartBeforeRun,
            bytesBefore: bytesBeforeRun, bytesAfter: Array(after), chunkEnds: chunkEndsInRun.filter { $0 < end },
            isLast: isLast, endsAfterValue: endsAfterValue, buffers: buffers)
        let taken = run
        taken.withUnsafeBytes { advance(over: $0[...]) }
        chunkEndsInRun.removeAll { $0 <= end }
        run = rest
        runCount += 1
        return piece
    }

    /// Moves the next run's start past `bytes`, which follow the current start: its line, where
    /// that line starts, and the bytes before it for excerpts.
    private mutating func advance(over bytes: Slice<UnsafeRawBufferPointer>) {
        let newlines = NewlineCount(in: UnsafeRawBufferPointer(rebasing: bytes))
        newlinesBeforeRun += newlines.count
        if let lineStart = newlines.lastLineStart { lastLineStartBeforeRun = runStart + lineStart }
        // What the parser has seen of the input: not a byte order mark it skips at the start.
        let seen = runStart == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
        bytesBeforeRun = seen.count >= 16 ? Array(seen.suffix(16)) : Array((bytesBeforeRun + seen).suffix(16))
        runStart += bytes.count
    }
}
