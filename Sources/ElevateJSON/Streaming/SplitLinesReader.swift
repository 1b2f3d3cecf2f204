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
/// JSON text sequences are split the same way into runs of whole records, cut just past a record
/// separator; each run's parser starts at its record's number and the input's line and column.
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
    /// JSON Lines, or a JSON text sequence.
    private let framing: JSONFraming
    /// Cuts the input into runs of whole lines.
    private var cutter: LinesRunCutter

    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`).
    var isStopped: Bool { delivery.stoppedOutsideParser }

    init(
        keyPath: String, methodName: String, framing: JSONFraming = .jsonLines, options: StreamingOptions,
        decode: @escaping (JSONValue) throws -> T, deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = KeyPath(keyPath)
        self.options = options
        self.framing = framing
        // A line longer than a value may be is an error (``JSONLinesParser/LineTooLong``, or a
        // syntax error before the limit): the run that holds its first bytes past the limit is
        // the last one a worker gets, and the rest of the input is not held.
        let limit = options.maximumElementSize
        cutter = LinesRunCutter(
            options: options, longLineLimit: limit < Int.max ? max(limit, 0) : nil, separator: framing.separator)
        delivery = ValueSequenceReader<T>.makeDelivery(
            keyPath: keyPath, methodName: methodName, framing: framing, options: options, indexBase: 0,
            decode: decode, deliver: deliver)
        cutter.longLine = { [unowned self] line in try dispatch(line) }
    }

    /// Reads the next chunk of input: cuts every run it completes.
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try cutter.feed(chunk, isStopped: { isStopped }) { try dispatch($0) }
    }

    /// Hands a run to the workers.
    private func dispatch(_ piece: LinesRunCutter.Piece) throws {
        let text = SplitLinesRun(piece, keyPath: keyPath, framing: framing, options: options)
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
        if !isStopped { try cutter.cutCompleteLines { try dispatch($0) } }
        try delivery.deliverCompleted(isStopped: isStopped)
    }

    /// The input failed: the lines held for a run, the start of a line included, are parsed (as
    /// one thread has parsed them when it meets the failure), and everything the workers hold is
    /// delivered.
    func deliverBeforeInputFailure() throws {
        if !isStopped { try cutter.cutAllHeld { try dispatch($0) } }
        try delivery.deliverRest(isStopped: isStopped)
    }

    /// Ends the input: the last run, whose last line may have no newline, is parsed to the end;
    /// then everything the workers hold is delivered.
    func finish() throws -> Int {
        if !isStopped { try cutter.finish { try dispatch($0) } }
        try delivery.deliverRest(isStopped: isStopped)
        try delivery.throwSkippedFailures()
        return delivery.deliveredCount
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
    /// The number of its first line (or record).
    let firstLine: Int
    /// JSON Lines, or a JSON text sequence (whose runs start at a record: see ``LinesRunCutter``).
    let framing: JSONFraming
    /// Records: the input's line where the run starts, and the bytes before it on that line.
    let inputLine: Int
    let inputColumnOffset: Int
    /// The absolute offsets where input chunks end inside it.
    let chunkEnds: [Int]
    /// Whether it ends the input (its last line may have no newline).
    let isLast: Bool
    let keyPath: KeyPath
    let options: StreamingOptions
    private let buffers: RunBuffers

    init(_ piece: LinesRunCutter.Piece, keyPath: KeyPath, framing: JSONFraming = .jsonLines, options: StreamingOptions) {
        bytes = piece.bytes
        start = piece.start
        firstLine = piece.firstLine
        self.framing = framing
        inputLine = piece.inputLine
        inputColumnOffset = piece.inputColumnOffset
        chunkEnds = piece.chunkEnds
        isLast = piece.isLast
        buffers = piece.buffers
        self.keyPath = keyPath
        self.options = options
    }

    /// Parses the run (on a worker), handing each value (nil: missing at the key path) and its
    /// line to `each` as it is parsed, until `each` returns false.
    /// - Returns: The error that ended the parse, in the input's terms.
    func parse(_ each: (JSONValue?, Int?) -> Bool) -> (any Error)? {
        defer { buffers.giveBack(&bytes) }
        return withoutActuallyEscaping(each) { each in parse(escaping: each) }
    }

    private func parse(escaping each: @escaping (JSONValue?, Int?) -> Bool) -> (any Error)? {
        // As `ValueSequenceReader` reads JSON Lines.
        let capture = ValueCapture(keyPath: keyPath)
        let selector = capture.makeSelector()
        selector.maximumCaptureSize = options.maximumElementSize
        let lines = JSONLinesParser(
            handler: selector, options: options.parsing, maximumLineLength: options.maximumElementSize,
            separator: framing.separator
        ) { line in
            guard each(capture.take(), line) else { throw JSONEventParser.Stop() }
        }
        selector.currentOffset = { [unowned lines] in lines.currentByteOffset }
        return read(into: lines)
    }

    /// Parses the run (on a worker) and counts its values, building nothing: the lines that hold
    /// a value, and every value in them (nested ones included, keys not).
    func count() -> Result<(lines: Int, values: Int), any Error> {
        defer { buffers.giveBack(&bytes) }
        // Straight from YAJL's callbacks when the lines are surely valid; else (rarely) line by
        // line through the event layer, which finds the first error as one thread would.
        if framing == .jsonLines,
            let counts = bytes.withUnsafeBytes({ CallbackValueCounter.countLines($0, options: options.parsing) })
        {
            return .success(counts)
        }
        let counter = ValueCounter()
        let lines = JSONLinesParser(handler: counter, options: options.parsing, separator: framing.separator)
        if let error = read(into: lines) { return .failure(error) }
        return .success((lines.valueCount, counter.count))
    }

    /// Whether a line (or record) of the run, its separator aside, is `length` bytes long or longer.
    func hasLine(atLeast length: Int) -> Bool {
        guard bytes.count >= length else { return false }
        return bytes.withUnsafeBytes { run in
            guard let base = run.baseAddress else { return false }
            var lineStart = 0
            while lineStart < run.count {
                guard let newline = memchr(base + lineStart, Int32(framing.separator.rawValue), run.count - lineStart) else {
                    return run.count - lineStart >= length
                }
                let lineEnd = UnsafeRawPointer(newline) - base
                if lineEnd - lineStart >= length { return true }
                lineStart = lineEnd + 1
            }
            return false
        }
    }

    /// ``read(into:)``, then gives the run's buffer back: the only read of the run.
    func readOnce(into lines: JSONLinesParser) -> (any Error)? {
        defer { buffers.giveBack(&bytes) }
        return read(into: lines)
    }

    /// Feeds the run to `lines` as one thread would have fed it, from the run's line and offset;
    /// ends the input when the run is the last.
    /// - Returns: The error that ended the parse, in the input's terms.
    func read(into lines: JSONLinesParser) -> (any Error)? {
        // The first run starts the input, where a byte order mark may come.
        if start > 0 {
            if framing == .jsonTextSequence {
                lines.resume(
                    atRecord: firstLine, offset: start, inputLine: inputLine, inputColumnOffset: inputColumnOffset)
            } else {
                lines.resume(atLine: firstLine, offset: start)
            }
        }
        do {
            try translatingLinesParserErrors(
                framing: framing, wrapping: options.wrapsErrorsInParserError, lineNumber: { lines.lineNumber }
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
