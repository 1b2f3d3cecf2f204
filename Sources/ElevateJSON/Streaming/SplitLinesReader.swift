import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// JSON Lines split over workers (``StreamingOptions/concurrency`` above 1, issue #30): the calling
/// thread no longer parses the lines, it only cuts the input into runs of whole lines, about
/// ``StreamingOptions/splitBatchByteCount`` bytes each, and counts their newlines. A raw newline
/// cannot occur inside a JSON value, so every `\n` ends a line, whatever the bytes around it: a run
/// is cut just past the first `\n` at or after its length (`memchr`), and its bytes are copied.
/// Each run goes to a worker, which parses its lines with a ``JSONLinesParser`` and
/// ``KeyPathSelector`` of its own, set up as ``ValueSequenceReader`` sets up its own, decodes each
/// value as soon as it is parsed, and hands the outcomes back in order.
///
/// Results and the first error are those of one thread, on any input:
/// - A run starts at a line start, where the sequential parser holds nothing of earlier lines:
///   the worker's parser starts there (``JSONLinesParser/resume(atLine:offset:)``) with the line's
///   number, counted from the newlines before the run, and the run's offset, so that its errors
///   carry the input's lines and offsets (a column counts from its line's start already). A
///   byte order mark is skipped at the input's start only: the first run begins there, the
///   others on a later line.
/// - The worker feeds its parser the run in the pieces the input's chunks cut it into, so that
///   each line is parsed in the same pieces as one thread parses it (an error's excerpt, and
///   when a token too long to hold is reported, depend on them).
/// - Only the last run ends the input (a last line without `\n`).
/// - A value's failure names its line (carried with its outcome, see
///   ``ElementDelivery/takeLines(missing:parse:)``); the values before a run's error are delivered
///   first, and a body's stop ends the stream with nothing after it delivered.
///
/// Streams with checkpoints or element positions, or resumed from a checkpoint, keep ``ValueSequenceReader``.
final class SplitLinesReader<T> {
    /// Whether JSON Lines read with these options are split: several workers, no checkpoints, no
    /// element positions and no resumption.
    static func applies(to options: StreamingOptions) -> Bool {
        options.concurrency > 1 && options.checkpoints == nil && options.elementPositions == nil
            && options.resumingFrom == nil
    }

    private let delivery: ElementDelivery<T>
    private let keyPath: KeyPath
    private let options: StreamingOptions
    /// The run being cut: its bytes, its offset in the input, its first line's number, the newlines
    /// in it, and the absolute offsets where input chunks end inside it.
    private var run: [UInt8] = []
    private var runStart = 0
    private var runFirstLine = 1
    private var newlinesInRun = 0
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

    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`).
    var isStopped: Bool { delivery.stoppedOutsideParser }

    init(
        keyPath: String, methodName: String, options: StreamingOptions, decode: @escaping (JSONValue) throws -> T,
        deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = KeyPath(keyPath)
        self.options = options
        delivery = ValueSequenceReader<T>.makeDelivery(
            keyPath: keyPath, methodName: methodName, framing: .jsonLines, options: options, indexBase: 0,
            decode: decode, deliver: deliver)
    }

    /// Reads the next chunk of input: cuts every run it completes.
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
        defer { inputOffset += chunk.count }
        var position = 0
        while position < chunk.count, !isStopped {
            let cutFrom = max(position, runStart + runByteCount - inputOffset)
            guard cutFrom < chunk.count, let newline = memchr(base + cutFrom, 0x0A, chunk.count - cutFrom) else {
                append(UnsafeRawBufferPointer(rebasing: chunk[position...]))
                chunkEndsInRun.append(inputOffset + chunk.count)
                return
            }
            let end = UnsafeRawPointer(newline) - base + 1
            append(UnsafeRawBufferPointer(rebasing: chunk[position..<end]))
            try dispatchRun(isLast: false)
            position = end
        }
    }

    private func append(_ bytes: UnsafeRawBufferPointer) {
        if run.isEmpty { run.reserveCapacity(runByteCount + 4096) }
        run.append(contentsOf: bytes)
        newlinesInRun += Self.newlines(in: bytes)
    }

    /// Hands the run cut so far to the workers, and starts the next one after it.
    private func dispatchRun(isLast: Bool) throws {
        let text = SplitLinesRun(
            bytes: run, start: runStart, firstLine: runFirstLine, chunkEnds: chunkEndsInRun, isLast: isLast,
            keyPath: keyPath, options: options, buffers: buffers)
        runStart += run.count
        runFirstLine += newlinesInRun
        newlinesInRun = 0
        run = buffers.take()
        chunkEndsInRun.removeAll()
        runCount += 1
        do {
            try delivery.takeLines(missing: FailureText.missing(keyPath.text)) { each in text.parse(each) }
        } catch is JSONEventParser.Stop {
            delivery.noteStopOutsideParser()
        }
    }

    /// Delivers every value completed so far (see ``ChunkDecoder/deliverCompleted()``): the run's
    /// whole lines go to the workers first, so that a live source's complete lines are not held
    /// back until the run is long enough.
    func deliverCompleted() throws {
        if !isStopped, let last = run.lastIndex(of: 0x0A) {
            let rest = Array(run[(last + 1)...])
            let restStart = runStart + last + 1
            let restChunkEnds = chunkEndsInRun.filter { $0 > restStart }
            run.removeSubrange((last + 1)...)
            chunkEndsInRun.removeAll { $0 >= restStart }
            // The rest holds no newline: every one counted is in the lines handed over.
            try dispatchRun(isLast: false)
            run = rest
            chunkEndsInRun = restChunkEnds
        }
        try delivery.deliverCompleted(isStopped: isStopped)
    }

    /// Ends the input: the last run, whose last line may have no newline, is parsed to the end;
    /// then everything the workers hold is delivered.
    func finish() throws -> Int {
        if !isStopped, !run.isEmpty { try dispatchRun(isLast: true) }
        try delivery.deliverRest(isStopped: isStopped)
        try delivery.throwSkippedFailures()
        return delivery.deliveredCount
    }

    /// The number of `\n` bytes in `bytes`, eight at a time.
    static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            // A byte of `word` is zero exactly where the input's is a newline; its high bit in
            // `nonZero` is set where it is not zero (no carry crosses bytes: at most 0x7F + 0x7F).
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ newlines
            let nonZero = ((word & lowBits) &+ lowBits) | word
            count &+= (~nonZero & ~lowBits).nonzeroBitCount
            index &+= 8
        }
        while index < bytes.count {
            if base.load(fromByteOffset: index, as: UInt8.self) == 0x0A { count &+= 1 }
            index &+= 1
        }
        return count
    }
}

extension SplitLinesReader: ChunkDecoder {}

/// Empty buffers for runs, given back by the workers once a run is parsed.
final class RunBuffers: @unchecked Sendable {
    private let lock = NSLock()
    private var spare: [[UInt8]] = []

    /// A buffer to fill, empty (with its capacity when it was a run's).
    func take() -> [UInt8] {
        lock.withLock { spare.popLast() } ?? []
    }

    /// Takes `bytes` over, leaving it empty, for a later run (a few are kept).
    func giveBack(_ bytes: inout [UInt8]) {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        taken.removeAll(keepingCapacity: true)
        lock.withLock {
            if spare.count < 16 { spare.append(taken) }
        }
    }
}

/// A run of whole lines of JSON Lines, cut by ``SplitLinesReader`` for a worker to parse.
final class SplitLinesRun: @unchecked Sendable {
    /// Its bytes, given back to `buffers` once parsed.
    private var bytes: [UInt8]
    /// Where its first byte is in the input: a line's start.
    let start: Int
    /// The number of its first line.
    let firstLine: Int
    /// The absolute offsets where input chunks end inside it.
    let chunkEnds: [Int]
    /// Whether it ends the input (its last line may have no newline).
    let isLast: Bool
    let keyPath: KeyPath
    let options: StreamingOptions
    private let buffers: RunBuffers

    init(
        bytes: [UInt8], start: Int, firstLine: Int, chunkEnds: [Int], isLast: Bool, keyPath: KeyPath,
        options: StreamingOptions, buffers: RunBuffers
    ) {
        self.bytes = bytes
        self.start = start
        self.firstLine = firstLine
        self.chunkEnds = chunkEnds
        self.isLast = isLast
        self.keyPath = keyPath
        self.options = options
        self.buffers = buffers
    }

    /// Parses the run (on a worker), handing each value (nil: missing at the key path) and its
    /// line to `each` as it is parsed, until `each` returns false.
    /// - Returns: The error that ended the parse, in the input's terms.
    func parse(_ each: (JSONValue?, Int) -> Bool) -> (any Error)? {
        defer { buffers.giveBack(&bytes) }
        return withoutActuallyEscaping(each) { each in parse(escaping: each) }
    }

    private func parse(escaping each: @escaping (JSONValue?, Int) -> Bool) -> (any Error)? {
        // As `ValueSequenceReader` reads JSON Lines.
        let capture = ValueCapture(keyPath: keyPath)
        let selector = capture.makeSelector()
        selector.maximumCaptureSize = options.maximumElementSize
        let lines = JSONLinesParser(
            handler: selector, options: options.parsing, maximumLineLength: options.maximumElementSize,
            separator: .newline
        ) { line in
            guard each(capture.take(), line) else { throw JSONEventParser.Stop() }
        }
        selector.currentOffset = { [unowned lines] in lines.currentByteOffset }
        // The first run starts the input, where a byte order mark may come.
        if start > 0 { lines.resume(atLine: firstLine, offset: start) }
        do {
            try translatingLinesParserErrors(
                framing: .jsonLines, wrapping: options.wrapsErrorsInParserError, lineNumber: { lines.lineNumber }
            ) {
                try bytes.withUnsafeBytes { bytes in
                    var pieceStart = 0
                    for chunkEnd in chunkEnds where chunkEnd - start < bytes.count {
                        guard !lines.isStopped else { return }
                        let pieceEnd = chunkEnd - start
                        try lines.feed(UnsafeRawBufferPointer(rebasing: bytes[pieceStart..<pieceEnd]))
                        pieceStart = pieceEnd
                    }
                    guard !lines.isStopped else { return }
                    try lines.feed(UnsafeRawBufferPointer(rebasing: bytes[pieceStart...]))
                }
                if isLast { try lines.finish() }
            }
        } catch {
            return error
        }
        return nil
    }
}
