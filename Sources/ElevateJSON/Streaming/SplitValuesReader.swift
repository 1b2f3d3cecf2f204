/// Concatenated JSON split over workers (``StreamingOptions/concurrency`` above 1, issue #30): the
/// calling thread only cuts the input into runs of whole top-level values (``ValuesRunCutter``),
/// and each run goes to a worker, which parses it with a parser and ``KeyPathSelector`` of its own,
/// set up as ``ValueSequenceReader`` sets up its one (``ValueCapture/makeValuesParser(for:options:skipsByteOrderMark:valueEnded:)``),
/// decodes each value as soon as it is parsed, and hands the outcomes back in order.
///
/// Results and the first error are those of one thread, on any input:
/// - A run is cut just after a bracket or brace that ends a top-level value, as the scanner
///   reads strings and nesting. By induction on the runs: when every run before one parsed
///   without error, the scanner read their strings and brackets as the parser did, so the run
///   starts where the sequential parser is between values and holds nothing, which is where a
///   new parser starts; its first error is then the sequential parse's. (A run cut where the
///   scanner misread invalid text holds that text, so its parse fails there or before.)
/// - The worker's parser passes over the input before the run (``JSONEventParser/pass(over:newlines:lastLineStart:lastBytes:)``),
///   so that its errors carry the input's offsets, lines, columns and excerpt; it is fed the
///   run in the pieces the input's chunks cut it into, and an excerpt that would go on past the
///   run takes the bytes after it. Only the first run may skip a byte order mark.
/// - Only the last run ends the input; one that holds nothing but whitespace after a value
///   ends it as the sequential parser ends it there, without an error.
/// - A value over the size limit is named by its index among all the values, counted as the
///   outcomes come back (``SplitValueTooLarge``).
///
/// Top-level numbers, strings and literals need no bracket, so they never end a run; a run that
/// grows past ``StreamingOptions/splitLongestHeld`` without the end of a value (one value of many
/// megabytes, or a stream of scalars) stops the cutting, and the input is read by one parser, a
/// chunk at a time, each chunk's values decoded as it is read, as one thread does, up to where
/// the cutting resumes (``ValuesRunCutter/endOfRest(in:)``).
final class SplitValuesReader<T> {
    /// Whether concatenated JSON read with these options is split: several workers, and a
    /// grammar whose strings and brackets the scanner reads as the parser does (no comments).
    static func applies(to options: StreamingOptions) -> Bool {
        options.concurrency > 1 && ValuesRunCutter.canCut(options.parsing)
    }

    private let delivery: ElementDelivery<T>
    private let keyPath: KeyPath
    private let options: StreamingOptions
    private var cutter: ValuesRunCutter
    /// While the cutter is stopped (see ``ValuesRunCutter/takeRest(_:)``): the parser that reads
    /// the input.
    private var rest: ValuesRunParser?

    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`).
    var isStopped: Bool { delivery.stoppedOutsideParser }

    init(
        keyPath: String, methodName: String, options: StreamingOptions, decode: @escaping (JSONValue) throws -> T,
        deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = KeyPath(keyPath)
        self.options = options
        cutter = ValuesRunCutter(options: options)
        delivery = ValueSequenceReader<T>.makeDelivery(
            keyPath: keyPath, methodName: methodName, framing: .concatenated, options: options, indexBase: 0,
            decode: decode, deliver: deliver)
    }

    /// Reads the next chunk of input: reads on the rest as far as it goes in it, and cuts every
    /// run the rest of the chunk completes.
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        guard !isStopped else { return }
        try namingValues {
            var start = 0
            if let rest {
                let end = cutter.endOfRest(in: chunk)
                let bytes = Array(chunk)
                try takingRun { each in rest.read(restOf: bytes, endingAt: end, each) }
                try delivery.deliverCompleted(isStopped: isStopped)
                guard let end, !isStopped else { return }
                self.rest = nil
                start = end
            }
            guard try !cutter.feed(chunk, from: start, isStopped: { isStopped }, { try dispatch($0) }), !isStopped
            else { return }
            let piece = try cutter.takeRest { try dispatch($0) }
            guard !isStopped else { return }
            let parser = ValuesRunParser.capturing(piece, keyPath: keyPath, options: options)
            rest = parser
            try read(piece.bytes, chunkEnds: piece.chunkEnds, into: parser)
        }
    }

    /// Hands a run to the workers.
    private func dispatch(_ piece: ValuesRunCutter.Piece) throws {
        let run = SplitValuesRun(piece, keyPath: keyPath, options: options)
        try takingRun { each in run.parse(each) }
    }

    /// Reads `bytes` (the start of a rest, see ``ValuesRunCutter/takeRest(_:)``) with `parser`,
    /// on a worker or here, and waits for it: the rest is read by one parser, its chunks in turn.
    /// - Parameters:
    ///   - chunkEnds: Where input chunks end inside `bytes` (absolute offsets).
    ///   - finishing: Whether the input ends after `bytes`.
    private func read(_ bytes: [UInt8], chunkEnds: [Int], finishing: Bool = false, into parser: ValuesRunParser)
        throws
    {
        try takingRun { each in parser.read(bytes, chunkEnds: chunkEnds, finishing: finishing, each) }
        try delivery.deliverCompleted(isStopped: isStopped)
    }

    private func takingRun(_ parse: @escaping ParallelElementDecoder<T>.ParseLines) throws {
        do {
            try delivery.takeLines(missing: FailureText.missing(keyPath.text), parse: parse)
        } catch is JSONEventParser.Stop {
            delivery.noteStopOutsideParser()
        }
    }

    /// A value over the size limit named by its index among all the values: the outcomes taken
    /// before a run's error are the values before the one it was reading.
    private func namingValues(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SplitValueTooLarge {
            throw ParserError.validation(
                failureReason: FailureText.valueTooLarge(index: delivery.outcomesTaken, limit: error.limit))
        }
    }

    /// Delivers every value completed so far (see ``ChunkDecoder/deliverCompleted()``): the run's
    /// whole values go to the workers first, so that a live source's are not held back.
    func deliverCompleted() throws {
        try namingValues {
            if !isStopped, rest == nil { try cutter.cutCompleteValues { try dispatch($0) } }
            try delivery.deliverCompleted(isStopped: isStopped)
        }
    }

    /// The input failed: what is held for a run, the start of a value included, is parsed (as
    /// one thread has parsed it when it meets the failure), and everything the workers hold is
    /// delivered.
    func deliverBeforeInputFailure() throws {
        try namingValues {
            if !isStopped { try cutter.cutAllHeld { try dispatch($0) } }
            try delivery.deliverRest(isStopped: isStopped)
        }
    }

    /// Ends the input: the last run is parsed to the end; then everything the workers hold is
    /// delivered.
    func finish() throws -> Int {
        try namingValues {
            if !isStopped {
                if let rest {
                    try read([], chunkEnds: [], finishing: true, into: rest)
                } else {
                    try cutter.finish { try dispatch($0) }
                }
            }
            try delivery.deliverRest(isStopped: isStopped)
        }
        try delivery.throwSkippedFailures()
        return delivery.deliveredCount
    }
}

extension SplitValuesReader: ChunkDecoder {}

/// A value of a split concatenated stream larger than ``StreamingOptions/maximumElementSize``: a
/// worker does not know the value's index among all the values, which the reader puts in the
/// error it reports.
struct SplitValueTooLarge: Error {
    var limit: Int
}

/// A run of whole concatenated values, cut by ``ValuesRunCutter`` for a worker to parse.
final class SplitValuesRun: @unchecked Sendable {
    private var piece: ValuesRunCutter.Piece
    private let keyPath: KeyPath
    private let options: StreamingOptions

    init(_ piece: ValuesRunCutter.Piece, keyPath: KeyPath, options: StreamingOptions) {
        self.piece = piece
        self.keyPath = keyPath
        self.options = options
    }

    /// Parses the run (on a worker), handing each value (nil: missing at the key path) to
    /// `each` as it is parsed, until `each` returns false.
    /// - Returns: The error that ended the parse, in the input's terms.
    func parse(_ each: (JSONValue?, Int?) -> Bool) -> (any Error)? {
        defer { piece.buffers.giveBack(&piece.bytes) }
        let parser = ValuesRunParser.capturing(piece, keyPath: keyPath, options: options)
        return parser.read(piece, each)
    }

    /// Reads the run as ``ValueSequencePass`` reads concatenated JSON, sending the events of the
    /// values at `keyPath` to `handler`: on a worker, or on the calling thread for a run handed back.
    /// - Returns: The run's values and those the key path led nowhere in, and the error that ended
    ///   the run, in the input's terms.
    func readValues(atKeyPath keyPath: String, wildcard: String?, to handler: any JSONEventHandler)
        -> (ValueSequenceSummary, (any Error)?)
    {
        defer { piece.buffers.giveBack(&piece.bytes) }
        var summary = ValueSequenceSummary()
        let pass = ValueSequencePass(framing: .concatenated, keyPath: keyPath, wildcard: wildcard, to: handler) {
            summary.note($0)
        }
        let parser = ValuesRunParser(piece, options: options) {
            pass.makeValuesParser(options: options, skipsByteOrderMark: $0)
        }
        let error = parser.read(piece)
        return (summary, error)
    }

    /// Whether the run is `length` bytes long or longer (and so may hold a value that long).
    func hasValue(atLeast length: Int) -> Bool { piece.bytes.count >= length }

    /// Parses the run (on a worker) and counts its values, building nothing: its top-level
    /// values, and every value in them (nested ones included, keys not).
    func count() -> Result<SplitRun.Counts, any Error> {
        defer { piece.buffers.giveBack(&piece.bytes) }
        let counter = DepthCounter(countedDepth: 0)
        let parser = ValuesRunParser(piece, handler: counter, options: options)
        if let error = parser.read(piece) { return .failure(error) }
        return .success(SplitRun.Counts(values: counter.values, elements: counter.elements))
    }
}

/// The parser of a run of concatenated values, started where the run starts in the input, as one
/// thread's parser is there: a worker's for one run, or the one that reads a rest of the input
/// a chunk at a time (see ``SplitValuesReader``), on one thread at a time. Its errors are the
/// input's: offsets, lines, columns and excerpts.
final class ValuesRunParser: @unchecked Sendable {
    private var parser: JSONEventParser!
    private let options: StreamingOptions
    /// Whether anything but whitespace (and, at the input's start, a byte order mark) was read.
    private var content: LeadingContent
    /// Where the run starts in the input, and how many bytes were fed from there.
    private let start: Int
    private var fedCount = 0
    /// Where the values of the read under way go, when the parser captures them (``capturing(_:keyPath:options:)``).
    private var each: (JSONValue?, Int?) -> Bool = { _, _ in true }

    /// A parser whose events go to `handler`.
    convenience init(_ piece: ValuesRunCutter.Piece, handler: some JSONEventHandler, options: StreamingOptions) {
        self.init(piece, options: options) { _, startsInput in
            var parsing = options.parsing
            parsing.allowsMultipleValues = true
            return JSONEventParser(handler: handler, options: parsing, skipsByteOrderMark: startsInput)
        }
    }

    /// The parser `makeParser` makes, given whether it starts the input (and so may skip a byte
    /// order mark); it must allow several values.
    convenience init(
        _ piece: ValuesRunCutter.Piece, options: StreamingOptions,
        parser makeParser: (_ skipsByteOrderMark: Bool) -> JSONEventParser
    ) {
        self.init(piece, options: options) { _, startsInput in makeParser(startsInput) }
    }

    /// A parser that captures the value at `keyPath` in each top-level value, as
    /// ``ValueSequenceReader`` does, for the `each` of ``read(_:_:)``.
    static func capturing(_ piece: ValuesRunCutter.Piece, keyPath: KeyPath, options: StreamingOptions)
        -> ValuesRunParser
    {
        ValuesRunParser(piece, options: options) { run, startsInput in
            let capture = ValueCapture(keyPath: keyPath)
            let selector = capture.makeSelector()
            selector.maximumCaptureSize = options.maximumElementSize
            return ValueCapture.makeValuesParser(
                for: selector, options: options.parsing, skipsByteOrderMark: startsInput
            ) { [unowned run] in
                guard run.each(capture.take(), nil) else { throw JSONEventParser.Stop() }
            }
        }
    }

    /// - Parameter makeParser: Makes the parser, given this run parser and whether it starts the
    ///   input (and so may skip a byte order mark); it sets several values allowed.
    private init(
        _ piece: ValuesRunCutter.Piece, options: StreamingOptions,
        makeParser: (ValuesRunParser, _ startsInput: Bool) -> JSONEventParser
    ) {
        self.options = options
        start = piece.start
        content = LeadingContent(atInputStart: piece.start == 0)
        parser = makeParser(self, piece.start == 0)
        if piece.start > 0 {
            parser.pass(
                over: piece.start, newlines: piece.newlinesBefore,
                lastLineStart: piece.newlinesBefore > 0 ? piece.lastLineStart : nil, lastBytes: piece.bytesBefore)
            parser.startAfterValue()
        }
    }

    /// Reads a whole run: its bytes, in the input's pieces, then the input's end when it is the last.
    func read(_ piece: ValuesRunCutter.Piece, _ each: (JSONValue?, Int?) -> Bool = { _, _ in true }) -> (any Error)? {
        read(
            piece.bytes, chunkEnds: piece.chunkEnds, finishing: piece.isLast, endsAfterValue: piece.endsAfterValue,
            after: piece.bytesAfter, each)
    }

    /// Feeds `bytes`, in the pieces `chunkEnds` cut them into, handing each value captured to
    /// `each`; ends the input when `finishing`.
    /// - Parameters:
    ///   - endsAfterValue: Whether `bytes` end just after a value, and no more input comes to this
    ///     parser: what it holds back for a long token (see ``JSONEventParser/parseHeld()``) is
    ///     parsed then, as one thread's parser parses it once more input has come.
    ///   - after: The input's bytes after `bytes` in their chunk (up to 16), for the excerpt of an
    ///     error near their end.
    /// - Returns: The error that ended the parse, in the input's terms.
    func read(
        _ bytes: [UInt8], chunkEnds: [Int], finishing: Bool, endsAfterValue: Bool = false, after: [UInt8] = [],
        _ each: (JSONValue?, Int?) -> Bool = { _, _ in true }
    ) -> (any Error)? {
        withoutActuallyEscaping(each) { each in
            self.each = each
            defer { self.each = { _, _ in true } }
            return read(bytes, chunkEnds: chunkEnds, finishing: finishing, endsAfterValue: endsAfterValue, after: after)
        }
    }

    private func read(_ bytes: [UInt8], chunkEnds: [Int], finishing: Bool, endsAfterValue: Bool, after: [UInt8])
        -> (any Error)?
    {
        var inLastPiece = false
        do {
            try bytes.withUnsafeBytes { bytes in
                var pieceStart = 0
                let base = start + fedCount
                for chunkEnd in chunkEnds where chunkEnd - base < bytes.count && chunkEnd > base {
                    guard !parser.isStopped else { return }
                    try feed(UnsafeRawBufferPointer(rebasing: bytes[pieceStart..<(chunkEnd - base)]))
                    pieceStart = chunkEnd - base
                }
                guard !parser.isStopped else { return }
                inLastPiece = true
                try feed(UnsafeRawBufferPointer(rebasing: bytes[pieceStart...]))
                // The held chunks end with the last piece: an error among them is near its end
                // (the rare excerpt that one thread's larger held piece carries past the chunk
                // the run ends in is cut at that chunk's end).
                if endsAfterValue { try parser.parseHeld() }
            }
            inLastPiece = false
            // After a value, nothing but whitespace ends the input as the sequential parser ends
            // it there; at the input's start, the parser judges a mark or whitespace alone as
            // one thread's reader does.
            if finishing, content.needsParse || parser.isStopped { try parser.finish() }
        } catch var error as JSONSyntaxError {
            // The sequential excerpt goes on past the run, to the end of the chunk.
            let more = error.byteOffset + 16 - (start + fedCount)
            if inLastPiece, more > 0 { error.excerpt += JSONSyntaxError.excerptText(after.prefix(more)) }
            return options.wrapsErrorsInParserError ? ParserError(error) : error
        } catch let error as KeyPathSelector.CaptureTooLarge {
            return SplitValueTooLarge(limit: error.limit)
        } catch {
            return error
        }
        return nil
    }

    /// Reads the rest's bytes in `chunk` (see ``ValuesRunCutter/endOfRest(in:)``): all of them, or
    /// those up to `end`, just past the value that ends the rest, where no more input comes to
    /// this parser (the chunk's bytes after it go on an error's excerpt).
    /// - Returns: The error that ended the parse, in the input's terms.
    func read(restOf chunk: [UInt8], endingAt end: Int?, _ each: (JSONValue?, Int?) -> Bool = { _, _ in true })
        -> (any Error)?
    {
        guard let end else { return read(Array(chunk), chunkEnds: [], finishing: false, each) }
        return read(
            Array(chunk[..<end]), chunkEnds: [], finishing: false, endsAfterValue: true,
            after: Array(chunk[end..<min(end + 16, chunk.count)]), each)
    }

    private func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        content.note(bytes)
        fedCount += bytes.count
        try parser.parse(bytes)
    }
}
