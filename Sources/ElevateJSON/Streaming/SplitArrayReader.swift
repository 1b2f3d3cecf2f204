/// The split parse of the array at a key path, for a stream with several workers: the calling
/// thread no longer parses the array, it only cuts it. A ``StructuralScanner`` finds commas
/// between elements (strings, escapes and nesting only, no values), and each run of whole
/// elements, about ``StreamingOptions/splitBatchByteCount`` bytes, goes to a worker, which parses
/// it with its own YAJL parser, builds its elements' tapes and decodes them. Everything outside
/// the array is parsed by the stream's own parser, which is fed the document up to the array's
/// `[`, passes over its content, and is fed again from its `]` on.
///
/// Results and the first error are those of the sequential parse, on any input:
/// - A worker parses `[` (for the first run) or `[null` (for the others, which begin with the
///   comma before their first element) followed by the run's bytes and `]`, so every byte of
///   the array, separators and whitespace included, is read by YAJL with the stream's options.
///   Its depth limit counts the containers open around the array (``JSONEventParser/startNested(inside:)``).
/// - By induction on the runs: when every run before one parsed without error, the parser state
///   at its first byte (after a value, inside the array) is the one the worker starts from, so
///   its first error is the sequential parse's. A run cut where the scanner misread invalid
///   input ends in a state that does not accept the closing `]`; that error lies at the run's
///   end, the next run's comma, which the sequential parse rejects with the same message, as
///   YAJL rejects `,` and `]` alike wherever a value must come.
/// - Errors are moved from the worker's text to the input (offset, line, column) with the lines
///   the scanner counted before the run.
/// - Runs are delivered in order, the elements before a run's error first.
///
/// When counting values, an object of many short members (a map of records, at the root or at any
/// depth), and when streaming members, such an object at the key path, is cut the same way, into
/// runs of members (see ``isMap(openedAt:in:)``): a worker parses `{` or `{"":null` followed by
/// the run and `}`, and YAJL rejects a `}` wherever it rejects a `,` in an object, with the same
/// message, so the argument above holds for it too.
///
/// An array that ends within its first run is not shared: it is fed to the stream's parser, as
/// one thread reads it. A run that grows past 32 runs' length without the end of an element is
/// read on by a ``SplitTail`` on the calling thread, so that a huge element is never held whole
/// for a worker, up to the next comma between elements that a short element follows: its parser,
/// having read every byte up to there without an error, stands between two elements, as the
/// scanner does, and the cutting resumes at that comma. When values or elements are counted, an
/// array with an element that long (or a map with a member whose value is, unless its keys are
/// counted), an object or array, has its cutting put off instead while the stream's parser reads
/// the element (brought first to the comma before it), so that the long containers inside it are
/// split, and resumed after it (see ``descendIntoLongElement(of:)``); an array whose first element
/// is a long object or array, at once (see ``startsWithLongContainer(after:in:cutFor:)``).
final class SplitArrayReader: SplitFeeding {
    private enum Phase {
        /// Before the array: the stream's parser reads the input, fed up to each `[` in turn (or,
        /// when any container may be split, up to each long one's `[` or `{`, and to the end of a
        /// long element being read, see ``descendIntoLongElement(of:)``), so that it stops right
        /// after the split container's opening byte.
        case prefix
        /// In the array: the scanner cuts runs.
        case array
        /// In the array, a long element read on the calling thread from a run that grew too long
        /// (see ``SplitTail``).
        case tail(SplitTail, SplitRun)
        /// After the array (or when it never started): the stream's parser reads the rest.
        case rest
    }

    private let parser: JSONEventParser
    /// Where the runs go: set when the array starts.
    private var consumer: (any SplitRunConsumer)?
    private let options: StreamingOptions
    private let tooLarge: TooLarge
    typealias TooLarge = SplitRun.TooLarge
    private var phase = Phase.prefix
    private var scanner = StructuralScanner()
    /// The absolute offset of the next chunk's first byte.
    private var inputOffset = 0

    /// Set by the stream when its parser delivered the start of the array at the key path: where
    /// its runs go.
    var startedArray: (any SplitRunConsumer)?
    /// Set by `count` when its parser delivered the start of the object at the key path, whose
    /// keys it counts, and by a stream of members at the start of the object whose members it
    /// delivers: where its runs of members go when it is a long map (see
    /// ``isMap(openedAt:in:)``); forgotten at the next long object's `{`, which is that one (and,
    /// by its setter, at the object's end, when it was too short to be that one).
    var startedMap: (any SplitRunConsumer)?
    /// When only the array named in ``startedArray`` is split: how many of the containers open
    /// where the stream's parser stopped cannot hold that array (see
    /// ``KeyPathSelector/containersOffTargets``), so that the `[`s in them are not stopped at.
    private let containersOffSplit: (() -> Int)?
    /// How many containers the prefix's scan is passing over (see ``containersOffSplit``), still
    /// open where it stopped; 0 when it stops at every `[`.
    private var containersPassedOver = 0
    /// Where the runs of every array go, when any array may be split (validating, counting
    /// values): each array that starts outside the arrays already split is.
    private let everyArray: (any SplitRunConsumer)?
    /// Asked at each long container's opening byte, once the stream's parser has delivered it,
    /// whether ``everyArray`` may have it (cut into runs, or probed for a map); nil when it may
    /// have any. Not asked of the array in ``startedArray``. A container it may not have is read
    /// by the stream's parser, and the long containers inside it are asked in turn: `count` keeps
    /// the containers on its key path, and the one there (cut, when it is, by the consumer that
    /// ``startedArray`` or ``startedMap`` names).
    private let mayCut: (() -> Bool)?
    /// ``everyArray`` when it may have the container whose opening byte the stream's parser just
    /// read (see ``mayCut``).
    private var everyArrayHere: (any SplitRunConsumer)? {
        guard let everyArray, mayCut?() ?? true else { return nil }
        return everyArray
    }
    /// Asked at each array's `[`, once the stream's parser has delivered it, where that array's
    /// runs go, or nil not to split it: each array may be split in turn (`extract` of a whole
    /// value).
    private let chooser: (() -> (any SplitRunConsumer)?)?
    /// Whether any array may be split, not only the one the stream names in ``startedArray``: an
    /// array that ends within its first run's length, which the stream's parser reads whole
    /// anyway, is then read with what comes before the next one, without stopping the parser at
    /// its `[` (a document of many short arrays paid two parser calls and a run's set-up each).
    private var splitsAnyArray: Bool { everyArray != nil || chooser != nil }
    /// Whether an object of many short members is cut into runs of members, as an array is into
    /// runs of elements (counting values: its runs go to ``everyArray``).
    private let splitsObjects: Bool
    /// How many more long objects may be probed for short members (see ``isMap(openedAt:in:)``):
    /// each probe reads up to a window, and long objects nested in each other would otherwise
    /// each pay one over the same bytes.
    private var objectProbesLeft = 16
    /// How many arrays' cutting may be put off at once while the stream's parser reads a long
    /// element of each, one inside another (see ``descendIntoLongElement(of:)``): each found by
    /// its run reads that run's bytes again, the first 8 MiB of its element (a long first element
    /// is not, see ``startsWithLongContainer(after:in:cutFor:)``); long elements side by side read
    /// each their own once.
    private static let deepestPutOff = 16
    /// The arrays and maps whose cutting was put off while the stream's parser reads a long
    /// element or member of theirs, innermost last: their depths (as
    /// ``JSONEventParser/containerDepth`` counts them), whether each is a map, and where its runs go.
    private var putOff: [(depth: Int, isObject: Bool, consumer: any SplitRunConsumer)] = []
    /// Whether the body stopped the stream while runs were delivered.
    private(set) var isStopped = false
    /// Elements of the array so far: cut into runs, or read by tails that ended before it did.
    private(set) var elementCount = 0
    /// Those read by tails.
    private(set) var elementsReadByTails = 0
    /// Input bytes read a second time: a long element's run (see ``descendIntoLongElement(of:)``),
    /// the rest of a chunk after a map probe (see ``BraceAwaitingWindow``).
    private(set) var bytesReadAgain = 0
    /// Whether the tail under way holds an element before its first comma (a first run of
    /// whitespace alone does not).
    private var tailStartsWithElement = false

    // The array being cut.
    /// How deep the array is in the document (1 at the root).
    private var arrayDepth = 1
    /// Whether it is an object, cut into runs of members (see ``splitsObjects``).
    private var containerIsObject = false
    /// The absolute offset just past its `[`, and the scanner's state there (after a long element
    /// the stream's parser read, the comma after that element: see ``longElementEnded(at:in:from:)``).
    private var contentStart = 0
    private var scannerAtContentStart = StructuralScanner()
    /// Whether the stream's parser read an element of it (a long one): it then stands after that
    /// element, at ``contentStart``, rather than after the `[`.
    private var parserReadAnElement = false
    /// The run being cut, its absolute offset, line and column, and whether it is the first.
    private var run: [UInt8] = []
    private var runStart = 0
    private var runLine = 1
    private var runColumn = 1
    private var runIsFirst = true
    /// The absolute offset where the run's first line starts.
    private var runLineStart: Int { runStart - (runColumn - 1) }
    /// Runs handed over so far.
    private var runCount = 0
    /// The length from which the run may be cut.
    private var runByteCount: Int { options.splitRunLength(afterRuns: runCount) }
    /// The scanner's count of top-level commas before the run's first byte.
    private var commasBeforeRun = 0
    /// The scanner's count of newlines before the array.
    private var newlinesBeforeArray = 0
    /// The last bytes (up to 16) of the chunks before the current one, for excerpts.
    private var earlierBytes: [UInt8] = []
    /// The 16 input bytes before the run, and where the chunks end inside it, for its excerpts.
    private var bytesBeforeRun: [UInt8] = []
    private var chunkEndsInRun: [Int] = []

    /// - Parameters:
    ///   - parser: The stream's parser, which reads everything but the split array's content.
    ///   - options: The stream's options.
    ///   - containersOffSplit: Asked where the stream's parser stopped at a `[` that is not the
    ///     split array's, how many of the containers open there cannot hold that array; nil to
    ///     stop at every `[` before it. Not asked when any array may be split.
    ///   - everyArray: Where the runs of every array go, when any may be split; nil to split only
    ///     the array set in ``startedArray``.
    ///   - mayCut: Asked at each long container whether `everyArray` may have it (see
    ///     ``mayCut``); nil when it may have any.
    ///   - chooser: Asked at each array's `[` where its runs go, or nil not to split it; nil to
    ///     split only the array set in ``startedArray`` (or, with `everyArray`, every one).
    ///   - splitsObjects: Whether an object of many short members is split too, its runs going to
    ///     `everyArray` (see ``isMap(openedAt:in:)``): not when its keys must be told apart
    ///     (duplicate keys rejected), as no worker sees another's.
    ///   - tooLarge: The error for an element over ``StreamingOptions/maximumElementSize``; by
    ///     default the one of a value (a count captures no element, and never reports it).
    init(
        parser: JSONEventParser, options: StreamingOptions, containersOffSplit: (() -> Int)? = nil,
        everyArray: (any SplitRunConsumer)? = nil, mayCut: (() -> Bool)? = nil,
        chooser: (() -> (any SplitRunConsumer)?)? = nil, splitsObjects: Bool = false,
        tooLarge: @escaping TooLarge = { _, limit, offset in
            ParserError.validation(failureReason: PassParser.tooLargeText(limit: limit, offset: offset))
        }
    ) {
        self.parser = parser
        self.options = options
        self.containersOffSplit = containersOffSplit
        self.everyArray = everyArray
        self.mayCut = mayCut
        self.chooser = chooser
        self.splitsObjects = splitsObjects && everyArray != nil
        self.tooLarge = tooLarge
    }

    /// Whether a stream with these options can be split: several workers, and a grammar whose
    /// strings and brackets the scanner reads as the parser does (no comments, one value).
    static func applies(to options: StreamingOptions) -> Bool {
        options.concurrency > 1 && !options.parsing.allowsComments && !options.parsing.allowsMultipleValues
    }

    /// Reads the next chunk of input.
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try readBraceAwaitingWindow(before: chunk)
        defer { advance(past: chunk) }
        try read(chunk)
    }

    /// After `chunk` was read: the next one follows it in the input.
    private func advance(past chunk: UnsafeRawBufferPointer) {
        inputOffset += chunk.count
        earlierBytes = Array((earlierBytes + chunk.suffix(16)).suffix(16))
    }

    /// Reads `chunk`, which starts at ``inputOffset``.
    private func read(_ chunk: UnsafeRawBufferPointer) throws {
        var position = 0
        while position < chunk.count, !isStopped, !parser.isStopped {
            switch phase {
            case .prefix:
                // Up to the next `[` (past the short arrays, when any array may be split, and up to
                // a long object's `{` when objects may be; past the containers where the array at
                // the key path cannot be, when only it may).
                var contentStart: Int?
                var scanFrom = position
                if splitsAnyArray {
                    // Inside the long element of an array whose cutting was put off, up to its end
                    // too (see ``descendIntoLongElement(of:)``).
                    let mode = StructuralScanner.Mode.findLongContainer(
                        within: runByteCount, objects: splitsObjects && objectProbesLeft > 0,
                        endDepth: putOff.last.map { $0.depth - parser.containerDepth })
                    if case .at(let stop) = scanner.scan(chunk, from: position, base: inputOffset, mode: mode) {
                        guard chunk[stop] | 0x20 == UInt8(ascii: "{") else {  // not `[` or `{`: the end
                            position = try longElementEnded(at: stop, in: chunk, from: position)
                            continue
                        }
                        contentStart = stop + 1
                    }
                } else if passOver(from: &scanFrom, in: chunk),
                    case .at(let bracket) = scanner.scan(chunk, from: scanFrom, base: inputOffset, mode: .findArrayStart)
                {
                    contentStart = bracket + 1
                }
                let end = contentStart ?? chunk.count
                try parsePiece(UnsafeRawBufferPointer(rebasing: chunk[position..<end]), endingIn: chunk, at: end)
                position = end
                guard contentStart != nil else { break }
                if chunk[end - 1] == UInt8(ascii: "{") {
                    // A long object: cut into runs of members when it is a map (the object at the
                    // key path whose keys are counted, see ``startedMap``, or any other);
                    // otherwise the scan goes on inside it, to the long containers it holds.
                    let counted = startedMap
                    startedMap = nil
                    guard let mapConsumer = counted ?? everyArrayHere else { continue }
                    switch isMap(openedAt: end - 1, in: chunk) {
                    case true?:
                        startArray(mapConsumer, at: inputOffset + end, in: chunk, isObject: true)
                    case false?:
                        break
                    case nil:
                        // Too near the chunk's end: the rest of the chunk waits for the next one.
                        braceAwaitingWindow = BraceAwaitingWindow(
                            bytes: Array(chunk[end...]), start: inputOffset + end,
                            before: inputBytes(before: end, in: chunk), scanner: scanner, consumer: mapConsumer)
                        return
                    }
                    continue
                }
                if let consumer = startedArray ?? everyArrayHere ?? chooser?() {
                    if startsWithLongContainer(after: end, in: chunk, cutFor: consumer) {
                        // Put off at once, as a long first element's array is (see
                        // ``descendIntoLongElement(of:)``), without first cutting a run of its 8 MiB.
                        startedArray = nil
                        putOff.append((parser.containerDepth, false, consumer))
                        continue
                    }
                    startArray(consumer, at: inputOffset + end, in: chunk)
                } else if !splitsAnyArray, let containersOffSplit {
                    containersPassedOver = containersOffSplit()
                }
            case .array:
                position = try cut(chunk, from: position)
            case .tail(let tail, let run):
                position = try readTail(tail, of: run, chunk, from: position)
            case .rest:
                try parser.parse(UnsafeRawBufferPointer(rebasing: chunk[position...]))
                position = chunk.count
            }
        }
    }

    /// Scans on from `start` over the rest of the containers that ``containersPassedOver`` counts,
    /// if any: their brackets are not stopped at, nor the stream's parser fed up to them.
    /// - Returns: Whether the scan got past them within `chunk` (`start` then just after the
    ///   bracket or brace that closes the outermost); false when the chunk ended first.
    private func passOver(from start: inout Int, in chunk: UnsafeRawBufferPointer) -> Bool {
        guard containersPassedOver > 0 else { return true }
        scanner.depth = containersPassedOver
        let stop = scanner.scan(chunk, from: start, base: inputOffset, mode: .splitArray(cutFrom: .max))
        guard case .at(let close) = stop else {
            containersPassedOver = scanner.depth
            start = chunk.count
            return false
        }
        containersPassedOver = 0
        start = close + 1
        return true
    }

    /// Whether the long object whose `{` is at `brace` in `chunk` is cut into runs of members: when
    /// its first members are many and short, at least 8 commas between members in the window
    /// after the brace (four runs' length, ``StreamingOptions/splitBatchByteCount``: 1 MiB by
    /// default, 128 bytes at least; or what the chunk and the next hold of it, 16 KiB at least: a
    /// pipe's read), the last within its last quarter, and no end. An object of few members, or of
    /// short ones and then a long one (`{"meta": …, "items": [huge]}`), is not: the scan goes on
    /// inside it, and its long array is split. (Short members for more than three quarters of the
    /// window and then a huge one cannot be told from a map: that member is read by one thread.
    /// So is a map whose window two chunks do not hold, and any after the first 16 probes.)
    /// - Returns: Nil when the chunk holds too little of the window: the probe is made over the
    ///   next chunk too (see ``BraceAwaitingWindow``).
    private func isMap(openedAt brace: Int, in chunk: UnsafeRawBufferPointer) -> Bool? {
        isMap(after: [UnsafeRawBufferPointer(rebasing: chunk[(brace + 1)...])], from: inputOffset + brace + 1)
    }

    /// ``isMap(openedAt:in:)`` over `pieces`, the bytes after an object's `{` from absolute offset
    /// `start` (the rest of a chunk and, when it held too little, the next chunk); nil when they
    /// hold less of the window than 16 KiB (or the whole window when it is shorter).
    private func isMap(after pieces: [UnsafeRawBufferPointer], from start: Int) -> Bool? {
        // Four runs' length, 128 bytes at least.
        let wanted = max(4 * options.splitBatchByteCount, 128)
        guard pieces.reduce(0, { $0 + $1.count }) >= min(wanted, 16 << 10) else { return nil }
        objectProbesLeft -= 1
        var probe = StructuralScanner()
        var base = start
        for piece in pieces where base < start + wanted {
            let window = UnsafeRawBufferPointer(rebasing: piece.prefix(start + wanted - base))
            let stop = probe.scan(window, from: 0, base: base, mode: .splitArray(cutFrom: .max))
            guard stop == .end else { return false }
            base += window.count
        }
        let length = base - start
        return probe.topLevelCommas >= 8 && probe.lastTopLevelComma >= start + length - length / 4
    }

    /// A long object's `{` that came too near its chunk's end for its window (see
    /// ``isMap(openedAt:in:)``): the rest of that chunk, unread, from absolute offset `start`, the
    /// 16 input bytes before it, the scanner's state there, and where the object's runs go if it
    /// is a map. When the next chunk comes (or the input ends), the object is probed over both,
    /// and the rest is read as the chunk it came from.
    private struct BraceAwaitingWindow {
        var bytes: [UInt8]
        var start: Int
        var before: [UInt8]
        var scanner: StructuralScanner
        var consumer: any SplitRunConsumer
    }
    private var braceAwaitingWindow: BraceAwaitingWindow?

    /// Probes the object whose `{` awaits its window (if one does) over the bytes after it and the
    /// first of `next` (nil at the input's end), then reads those bytes again as the piece of the
    /// chunk they came from: cut into runs of members when it is a map, scanned on inside it
    /// otherwise (where another `{` may come too near the end: its own, shorter, rest waits then).
    private func readBraceAwaitingWindow(before next: UnsafeRawBufferPointer?) throws {
        guard let awaiting = braceAwaitingWindow else { return }
        braceAwaitingWindow = nil
        bytesReadAgain += awaiting.bytes.count
        let holdsMap = awaiting.bytes.withUnsafeBytes { rest in
            isMap(after: [rest] + (next.map { [$0] } ?? []), from: awaiting.start) ?? false
        }
        try readAgain(
            awaiting.bytes[...], from: awaiting.start, chunkEnds: [], before: awaiting.before,
            scanner: awaiting.scanner, asMapContentOf: holdsMap ? awaiting.consumer : nil, then: next)
    }

    /// Reads `bytes` again, input from absolute offset `start` up to where the chunk being read
    /// starts, in the pieces the input's chunks cut them into (`chunkEnds`), each as the chunk it
    /// came from: from the scanner's state at `start` and the 16 input bytes before it, so that
    /// the stream's parser is fed what one thread's is, and errors and excerpts are its. With
    /// `asMapContentOf`, they begin a map's content, cut into runs of members that go there. A `{`
    /// that awaits its window at the end has `next` for the rest of it.
    private func readAgain(
        _ bytes: ArraySlice<UInt8>, from start: Int, chunkEnds: [Int], before: [UInt8],
        scanner state: StructuralScanner, asMapContentOf mapConsumer: (any SplitRunConsumer)? = nil,
        then next: UnsafeRawBufferPointer?
    ) throws {
        let chunkStart = inputOffset
        (scanner, inputOffset, earlierBytes) = (state, start, before)
        try bytes.withUnsafeBytes { bytes in
            var pieceStart = start
            for end in chunkEnds.filter({ $0 > start && $0 < chunkStart }) + [chunkStart] {
                let piece = UnsafeRawBufferPointer(rebasing: bytes[(pieceStart - start)..<(end - start)])
                try readBraceAwaitingWindow(before: piece)
                if let mapConsumer, pieceStart == start {
                    startArray(mapConsumer, at: start, in: piece, isObject: true)
                }
                try read(piece)
                advance(past: piece)
                pieceStart = end
            }
        }
        try readBraceAwaitingWindow(before: next)
        assert(inputOffset == chunkStart, "the pieces read again end where the chunk being read starts")
    }

    private func startArray(
        _ consumer: any SplitRunConsumer, at offset: Int, in chunk: UnsafeRawBufferPointer, isObject: Bool = false
    ) {
        startedArray = nil
        self.consumer = consumer
        containerIsObject = isObject
        phase = .array
        arrayDepth = parser.containerDepth
        contentStart = offset
        scannerAtContentStart = scanner
        parserReadAnElement = false
        newlinesBeforeArray = scanner.newlines
        scanner.depth = 1
        beginRun(at: offset, isFirst: true, in: chunk)
    }

    /// The 16 input bytes before `offset` of `chunk` (fewer at the input's start).
    private func inputBytes(before offset: Int, in chunk: UnsafeRawBufferPointer) -> [UInt8] {
        let inChunk = Array(chunk[max(0, offset - 16)..<offset])
        let window = inChunk.count == 16 ? inChunk : Array((earlierBytes + inChunk).suffix(16))
        return seen(window, endingAt: inputOffset + offset)
    }

    /// `window`, the input's bytes up to absolute offset `end`, without a byte order mark the
    /// parser skipped at the start: an excerpt that reaches back to the input's start leaves it
    /// out, as one thread's does.
    private func seen(_ window: [UInt8], endingAt end: Int) -> [UInt8] {
        let markBytes = parser.skippedByteOrderMarkLength - (end - window.count)
        return markBytes > 0 ? Array(window.dropFirst(markBytes)) : window
    }

    private func beginRun(at offset: Int, isFirst: Bool, in chunk: UnsafeRawBufferPointer) {
        bytesBeforeRun = inputBytes(before: offset - inputOffset, in: chunk)
        chunkEndsInRun.removeAll()
        runStart = offset
        runIsFirst = isFirst
        runLine = scanner.newlines + 1
        runColumn = offset - scanner.lastLineStart + 1
        // A run after the first begins at a comma the scanner just counted: it is the run's own.
        commasBeforeRun = scanner.topLevelCommas - (isFirst ? 0 : 1)
        run.reserveCapacity(runByteCount + 4096)
    }

    /// Scans the array's bytes in `chunk[from...]`, handing each run to the workers once it is
    /// long enough and ends before a comma, and the last at the array's end.
    /// - Returns: Where the reading of the chunk goes on.
    private func cut(_ chunk: UnsafeRawBufferPointer, from start: Int) throws -> Int {
        let cutFrom = max(0, runStart + runByteCount - inputOffset)
        // A run is held to 32 runs' length past where it may be cut (8 MiB by default), even in
        // one large chunk: an element longer than that is read on by a tail (see ``SplitTail``).
        let longest = runByteCount + options.splitLongestHeld
        let limit = min(chunk.count, start + max(1, longest + 1 - run.count))
        let scanned = UnsafeRawBufferPointer(rebasing: chunk[..<limit])
        let stop = scanner.scan(scanned, from: start, base: inputOffset, mode: .splitArray(cutFrom: cutFrom))
        guard case .at(let offset) = stop else {
            appendToRun(UnsafeRawBufferPointer(rebasing: chunk[start..<limit]), longest: longest)
            if limit == chunk.count { chunkEndsInRun.append(inputOffset + chunk.count) }
            guard run.count > longest else { return limit }
            if let consumer, mayPutOff(consumer), longElementIsContainer {
                return try descendIntoLongElement(of: chunk)
            }
            try startTail(after: chunk[limit..<min(chunk.count, limit + 16)])
            return limit
        }
        appendToRun(UnsafeRawBufferPointer(rebasing: chunk[start..<offset]), longest: longest)
        if chunk[offset] == UInt8(ascii: ",") {
            if runIsFirst, !run.contains(where: { !$0.isJSONWhitespace }) {
                // No element before the comma: the first run goes on, so that its worker meets the
                // comma right after `[`, where it is an error (a `]` would be an empty array).
                run.append(UInt8(ascii: ","))
                return offset + 1
            }
            // The comma just counted begins the next run.
            try dispatchRun(
                commas: scanner.topLevelCommas - commasBeforeRun - 1, closing: .synthetic,
                after: chunk[offset..<min(chunk.count, offset + 16)])
            guard !isStopped else { return chunk.count }
            beginRun(at: inputOffset + offset, isFirst: false, in: chunk)
            run.append(UInt8(ascii: ","))
            return offset + 1
        }
        if runIsFirst {
            // The array ended within its first run: too short to share, the stream's parser reads
            // it as the sequential parse does, in the same chunks.
            run.append(chunk[offset])
            try parseWhole(run, endingIn: chunk, at: offset + 1)
            arrayEnded()
            return offset + 1
        }
        // The array's end. The last run ends with the real closing byte (a `}` there is the
        // sequential parse's error, in the state the run leaves); the stream's parser passes
        // over the content and goes on from that byte.
        run.append(chunk[offset])
        try dispatchRun(
            commas: scanner.topLevelCommas - commasBeforeRun, closing: .included,
            after: chunk[(offset + 1)..<min(chunk.count, offset + 17)])
        guard !isStopped else { return chunk.count }
        passOverContent(to: inputOffset + offset, lastBytes: inputBytes(before: offset, in: chunk))
        return offset
    }

    /// Appends `bytes` to the run, whose buffer grows no further than `longest` bytes and one, the
    /// most a run holds (see `cut`): doubling, it took 17 MiB for the 8 MiB and a quarter of a long
    /// element's run, twice, when a long element's run is read again while the next one grows. A
    /// run that outgrows its buffer moves into one that a long element's run left (see
    /// ``spareLongRuns``), when one is large enough.
    private func appendToRun(_ bytes: UnsafeRawBufferPointer, longest: Int) {
        let needed = run.count + bytes.count
        if needed > run.capacity {
            // Past half the most, straight to the most: a buffer that doubled to just under it
            // grew once more by a few bytes (a copy of 8 MiB), and was then too small to be kept
            // as a spare (see ``spareLongRuns``).
            let doubled = max(needed, min(2 * run.capacity, longest + 1))
            let wanted = doubled > (longest + 1) / 2 ? max(needed, longest + 1) : doubled
            if let spare = spareLongRuns.lastIndex(where: { $0.capacity >= wanted }) {
                var buffer = spareLongRuns.remove(at: spare)
                buffer.append(contentsOf: run)
                run = buffer
            } else {
                run.reserveCapacity(wanted)
            }
        }
        run.append(contentsOf: bytes)
    }

    /// The buffers of the last long elements' runs that the stream's parser read (see
    /// ``descendIntoLongElement(of:)``), emptied, for the next runs that outgrow their own: each
    /// of a collection's huge features grew a buffer to 9 MiB anew, memory the system maps and
    /// zeroes page by page on first use, then takes back (38,778 page faults for `validate` of
    /// eight features of 9 MB among 4,000 small ones, against 1,108 on one thread). Two at most:
    /// a feature's polygon of one huge ring (`[[…]]`) is two long runs, one inside the other.
    private var spareLongRuns: [[UInt8]] = []

    /// Keeps `bytes`, a long element's run read again, among ``spareLongRuns``.
    private func keepAsSpare(_ bytes: consuming [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        spareLongRuns.append(bytes)
        let capacities = spareLongRuns.map(\.capacity)
        if capacities.count > 2, let smallest = capacities.indices.min(by: { capacities[$0] < capacities[$1] }) {
            spareLongRuns.remove(at: smallest)
        }
    }

    /// Before the input waits (a pipe, a socket, an async sequence): hands the workers the
    /// elements of the run being cut that are complete, up to the last comma between elements,
    /// so that they are delivered now rather than once the run is long enough.
    func handOverCompleteElements() throws {
        let comma = scanner.lastTopLevelComma
        guard case .array = phase, !isStopped, comma > runStart else { return }
        let split = comma - runStart
        // As in `cut`: a first run with no element before the comma goes on.
        if runIsFirst, !run[..<split].contains(where: { !$0.isJSONWhitespace }) { return }
        let rest = splitRun(at: split)
        let restChunkEnds = chunkEndsInRun.filter { $0 > comma }
        chunkEndsInRun.removeAll { $0 > comma }
        // Where the comma is: its line starts after the last newline before it, in the run or,
        // failing that, where the run's first line starts; the lines after it are the run's (the
        // scanner's since the run's first line) less those before it. Only the bytes before the
        // comma are counted: before a long element, `rest` is its 8 MiB, which a loop over its
        // bytes took 5 ms to count (6% of `validate` of GeoJSON features of 9 MB).
        let head = run.withUnsafeBytes { NewlineCount(in: $0) }
        let newlinesAfter = scanner.newlines - (runLine - 1) - head.count
        assert(newlinesAfter == rest.withUnsafeBytes { NewlineCount(in: $0).count }, "the scanner read the run")
        let lineStart = head.lastLineStart.map { runStart + $0 } ?? runLineStart
        let before = Array(run.suffix(16))
        // The excerpt after the run stops where the chunk holding the comma does.
        let afterCount = min(16, (restChunkEnds.first ?? .max) - comma)
        try dispatchRun(
            commas: scanner.topLevelCommas - commasBeforeRun - 1, closing: .synthetic, after: rest.prefix(afterCount))
        guard !isStopped else { return }
        bytesBeforeRun = before.count == 16 ? before : Array((bytesBeforeRun + before).suffix(16))
        runStart = comma
        runIsFirst = false
        runLine = scanner.newlines - newlinesAfter + 1
        runColumn = comma - lineStart + 1
        commasBeforeRun = scanner.topLevelCommas - 1
        run = rest
        chunkEndsInRun = restChunkEnds
    }

    /// Cuts the run at `split`: the run keeps the bytes before it, and those from it are returned.
    /// The shorter part is copied and the longer keeps the run's buffer: a long element's run
    /// (8 MiB) handed over with a few bytes before it was copied whole, and its buffer went to a
    /// worker with those few bytes in it.
    private func splitRun(at split: Int) -> [UInt8] {
        guard split < run.count / 2 else {
            defer { run.removeSubrange(split...) }
            return Array(run[split...])
        }
        let head = Array(run[..<split])
        run.removeSubrange(..<split)
        defer { run = head }
        return run
    }

    /// Feeds the stream's parser `bytes`, the first run of an array, which ends at offset `end`
    /// of `chunk`: in the pieces the chunks cut it into, so that an error's excerpt is the
    /// sequential parse's.
    private func parseWhole(_ bytes: [UInt8], endingIn chunk: UnsafeRawBufferPointer, at end: Int) throws {
        try bytes.withUnsafeBytes { bytes in
            var start = 0
            for chunkEnd in chunkEndsInRun {
                try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[start..<(chunkEnd - runStart)]))
                start = chunkEnd - runStart
            }
            try parsePiece(UnsafeRawBufferPointer(rebasing: bytes[start...]), endingIn: chunk, at: end)
        }
        run = []
    }

    /// Feeds the stream's parser `piece`, which ends at offset `end` of `chunk`; an error's excerpt
    /// goes on with the rest of the chunk, as the sequential parse's does.
    private func parsePiece(_ piece: UnsafeRawBufferPointer, endingIn chunk: UnsafeRawBufferPointer, at end: Int) throws
    {
        do {
            try parser.parse(piece)
        } catch var error as JSONSyntaxError {
            let more = chunk[end..<min(chunk.count, max(end, error.byteOffset + 16 - inputOffset))]
            error.excerpt += JSONSyntaxError.excerptText(more)
            throw error
        }
    }

    /// After the array split (or read whole): the stream's parser reads on, and looks for the next
    /// array to split when every array may be.
    private func arrayEnded() {
        phase = splitsAnyArray ? .prefix : .rest
        consumer = nil
    }

    /// Whether the cutting of an array whose runs go to `consumer` may be put off while the
    /// stream's parser reads a long element of it: its elements are counted, not delivered or
    /// written (see ``SplitRunConsumer/countsOnly``), and fewer than ``deepestPutOff`` arrays are
    /// put off already.
    private func mayPutOff(_ consumer: any SplitRunConsumer) -> Bool {
        everyArray != nil && consumer.countsOnly && putOff.count < Self.deepestPutOff
    }

    /// Whether the array whose content starts at `contentStart` in `chunk` would have its cutting
    /// put off at once for its first element (see ``descendIntoLongElement(of:)``): its runs are
    /// counted, and that element is an object or array that does not close within a full run's
    /// length (``StreamingOptions/splitBatchByteCount``) or, nearer the chunk's end, before it
    /// (16 KiB left at least; with fewer, the array is cut). A polygon of one huge ring (`[[…]]`)
    /// cut as any array grew a run of 8 MiB holding the ring alone, which was then read again to
    /// find the ring: once for each level of such nesting (four polygons of one 9 MB ring were no
    /// faster to validate with two jobs than with one). The stream's parser reads that element
    /// instead, and the cutting starts after it.
    private func startsWithLongContainer(
        after contentStart: Int, in chunk: UnsafeRawBufferPointer, cutFor consumer: any SplitRunConsumer
    ) -> Bool {
        guard mayPutOff(consumer), let first = chunk[contentStart...].firstIndex(where: { !$0.isJSONWhitespace }),
            chunk[first] | 0x20 == UInt8(ascii: "{")
        else { return false }
        let within = min(options.splitBatchByteCount, chunk.count - first - 1)
        guard within >= min(options.splitBatchByteCount, 16 << 10) else { return false }
        // From just inside the element's opening byte: depth 1, which its closing byte ends.
        return !StructuralScanner().stops(
            in: chunk, from: first + 1, within: within, base: inputOffset, mode: .splitArray(cutFrom: .max))
    }

    /// Whether the element that a run cannot hold, the one after the run's last comma between
    /// elements (or, in a first run without one, its first), is an object or array, after an
    /// element (else a first run's comma is an error, which a tail finds); in a map, whether the
    /// member's value is.
    private var longElementIsContainer: Bool {
        let comma = scanner.lastTopLevelComma
        // A first run's commas lie in it; an earlier comma (another container's) is none of its own.
        let elementFrom = comma >= runStart ? comma - runStart + 1 : 0
        if runIsFirst, elementFrom > 0, !run[..<(elementFrom - 1)].contains(where: { !$0.isJSONWhitespace }) {
            return false
        }
        guard var start = run[elementFrom...].firstIndex(where: { !$0.isJSONWhitespace }) else { return false }
        if containerIsObject {
            guard let value = Self.memberValue(in: run, key: start) else { return false }
            start = value
        }
        return run[start] | 0x20 == UInt8(ascii: "{")
    }

    /// Where the value of the member whose key's opening quote is at `key` in `bytes` starts: past
    /// the key (its escaped bytes included), whitespace, the colon and whitespace; nil when the
    /// bytes are not that (the text is invalid there, and a tail finds the error) or end first.
    private static func memberValue(in bytes: [UInt8], key: Int) -> Int? {
        guard bytes[key] == UInt8(ascii: "\"") else { return nil }
        var index = key + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
        return index < bytes.count ? index : nil
    }

    /// When the array's elements are counted (see ``SplitRunConsumer/countsOnly``) and one of them
    /// (or a map's member value), an object or array, is longer than a run may hold: rather than
    /// a tail reading the element on the calling thread (and with it every container inside it),
    /// the array's cutting is put off while the stream's parser reads the element, so that the
    /// long containers inside it are found and split in turn (a GeoJSON collection of huge
    /// features: their coordinates). The elements before it go to the workers; the stream's parser
    /// is brought to the comma before it (see ``standParser(atComma:bytesThrough:)``) and the
    /// reading starts again after that comma, or at the content's start for a first element. The
    /// run's bytes from earlier chunks are read again in the pieces those chunks gave, from the
    /// scanner's state there, so that the stream's parser is fed the same pieces as one thread's
    /// and errors and excerpts are the sequential parse's. The cutting resumes at the comma after
    /// the element (see ``longElementEnded(at:in:from:)``).
    /// - Returns: Where the reading of `chunk` goes on: the run's first byte in it, or its start.
    private func descendIntoLongElement(of chunk: UnsafeRawBufferPointer) throws -> Int {
        var state = scannerAtContentStart
        var before = bytesBeforeRun
        // The comma before the long element, which the stream's parser reads: not read again (not
        // removed from the run either, which moved its 8 MiB down a byte).
        var comma = 0
        if !runIsFirst || scanner.lastTopLevelComma >= runStart {
            if scanner.lastTopLevelComma > runStart {
                try handOverCompleteElements()
                guard !isStopped else { return chunk.count }
            }
            // The run is now the comma before the long element and what was cut of the element.
            before = Array((bytesBeforeRun + [UInt8(ascii: ",")]).suffix(16))
            try standParser(atComma: runStart, bytesThrough: before)
            state.newlines = runLine - 1
            state.lastLineStart = runLineStart
            comma = 1
            runStart += 1
        }
        // Set: only the array of a consumer that counts descends (see `cut`).
        putOff.append((arrayDepth, containerIsObject, consumer!))
        let chunkStart = inputOffset
        let (bytes, start, chunkEnds) = (run, runStart, chunkEndsInRun)
        bytesReadAgain += bytes.count - comma
        run = []
        chunkEndsInRun = []
        scanner = state
        arrayEnded()
        guard start < chunkStart else {
            keepAsSpare(consume bytes)
            return start - chunkStart
        }
        // Every chunk end inside the run was kept (see `cut`): the pieces lead back to `chunk`.
        try readAgain(bytes[comma...], from: start, chunkEnds: chunkEnds, before: before, scanner: state, then: chunk)
        keepAsSpare(consume bytes)
        return 0
    }

    /// Brings the stream's parser, which stands after the array's `[` or after the element it read
    /// last (at ``contentStart``), to absolute offset `comma`, a comma between elements after
    /// the runs given out, and has it read the comma: its lines and excerpt bytes are passed over,
    /// as at the array's end. A parser that has read no element of the array must stand after
    /// one, a state YAJL reaches only by reading a value: it reads `""` (in a map, a member,
    /// `"":""`), a stand-in placed just before the comma (which the consumer's count takes back,
    /// see ``SplitRunConsumer/noteStandIn()``, and no error can be met in). `bytesThrough` are the
    /// 16 input bytes up to the comma and it, which its excerpts show in the stand-in's place.
    private func standParser(atComma comma: Int, bytesThrough: [UInt8]) throws {
        let newlines = runLine - 1 - newlinesBeforeArray
        let lineStart = newlines > 0 ? runLineStart : nil
        let standIn: [UInt8] =
            parserReadAnElement ? [] : Array((containerIsObject ? #""":"""# : #""""#).utf8)
        // One byte back when the first element was one byte long (`[1,`) or the first member four
        // (`{"":1,`): the stand-in's bytes take the place of the bytes before the comma, which are
        // never looked at again.
        parser.pass(
            over: comma - standIn.count - contentStart, newlines: newlines, lastLineStart: lineStart, lastBytes: [])
        try parser.parse(standIn + [UInt8(ascii: ",")])
        parser.pass(over: 0, newlines: 0, lastLineStart: nil, lastBytes: bytesThrough)
        if !standIn.isEmpty { consumer?.noteStandIn() }
    }

    /// The long element of the innermost array whose cutting was put off (see
    /// ``descendIntoLongElement(of:)``) ended at `stop` in `chunk`, just before a comma between
    /// its elements or at a bracket that closes the array: the stream's parser is fed up to
    /// there, from `start`. At a comma it stands between two elements, as a tail's parser does,
    /// and the cutting of the array resumes there, the stream's parser later passing over the
    /// rest of its content from the comma. (The element, an object or array, ends with a
    /// bracket, which YAJL takes at once; when the parser has a token open or stands elsewhere,
    /// the text before the comma is invalid, and the parser reads on to find the error.)
    /// - Returns: Where the reading of `chunk` goes on.
    private func longElementEnded(at stop: Int, in chunk: UnsafeRawBufferPointer, from start: Int) throws -> Int {
        let (depth, isObject, putOffConsumer) = putOff.removeLast()
        guard chunk[stop] == UInt8(ascii: ",") else {
            try parsePiece(UnsafeRawBufferPointer(rebasing: chunk[start...stop]), endingIn: chunk, at: stop + 1)
            return stop + 1
        }
        try parsePiece(UnsafeRawBufferPointer(rebasing: chunk[start..<stop]), endingIn: chunk, at: stop)
        guard parser.bufferedByteCount == 0, parser.containerDepth == depth, !parser.isStopped else { return stop }
        consumer = putOffConsumer
        containerIsObject = isObject
        phase = .array
        arrayDepth = depth
        contentStart = inputOffset + stop
        scannerAtContentStart = scanner
        parserReadAnElement = true
        newlinesBeforeArray = scanner.newlines
        // The comma is the array's, and begins the next run (as in `cut`).
        scanner.depth = 1
        scanner.topLevelCommas += 1
        scanner.lastTopLevelComma = inputOffset + stop
        beginRun(at: inputOffset + stop, isFirst: false, in: chunk)
        run.append(UInt8(ascii: ","))
        return stop + 1
    }

    /// Reads the long element on the calling thread, from the run cut so far, and on to a comma
    /// that a short element follows (see ``readTail(_:of:_:from:)``): the run grew past 32 runs'
    /// length (8 MiB by default) without the end of an element, and holding more for a worker
    /// would hold as much as the element is long.
    /// - Parameter after: The bytes after the run in its chunk (up to 16), for the excerpt of an
    ///   error inside the run that the tail's parser finds only once they arrive.
    private func startTail(after: some Collection<UInt8>) throws {
        let text = SplitRun(
            bytes: run, isFirst: runIsFirst, isObject: containerIsObject, closing: .tail, start: runStart,
            line: runLine, column: runColumn,
            firstIndex: elementCount, expectedCount: 0, nestedInside: arrayDepth - 1,
            context: .init(before: bytesBeforeRun, after: Array(after), chunkEnds: chunkEndsInRun), options: options,
            tooLarge: tooLarge)
        tailStartsWithElement = !runIsFirst || run.contains { !$0.isJSONWhitespace }
        run = []
        guard let consumer else { return }
        let tail = consumer.startTail(from: text)
        phase = .tail(tail, text)
        try stoppingOnStop { try tail.start() }
    }

    /// Feeds the tail `chunk[start...]` up to the first comma between elements that a short
    /// element follows (one that ends within a run's length in the chunk), where the cutting
    /// resumes, or to the array's end, where the stream's parser takes over.
    /// - Returns: Where the reading of the chunk goes on.
    private func readTail(_ tail: SplitTail, of text: SplitRun, _ chunk: UnsafeRawBufferPointer, from start: Int) throws
        -> Int
    {
        let mode = StructuralScanner.Mode.splitArray(cutFrom: 0)
        var stop = scanner.scan(chunk, from: start, base: inputOffset, mode: mode)
        // Past the commas that a long element follows (or one that goes on past the chunk): the
        // tail reads those too. A tail per element would cost its parser's buffers anew each time
        // (`count` of an array of 9 MiB elements took 0.5 s at two jobs, 0.38 s at one).
        while case .at(let comma) = stop, chunk[comma] == UInt8(ascii: ","),
            !scanner.stops(in: chunk, from: comma + 1, within: runByteCount, base: inputOffset, mode: mode)
        {
            stop = scanner.scan(chunk, from: comma + 1, base: inputOffset, mode: mode)
        }
        guard case .at(let offset) = stop else {
            // Fed the whole chunk, as one thread's parser is, so that an error's excerpt is its.
            try stoppingOnStop { try tail.feed(UnsafeRawBufferPointer(rebasing: chunk[start...])) }
            return chunk.count
        }
        let isComma = chunk[offset] == UInt8(ascii: ",")
        let after = chunk[(offset + 1)..<min(chunk.count, offset + 17)]
        try stoppingOnStop {
            try tail.feed(UnsafeRawBufferPointer(rebasing: chunk[start...offset]), after: after)
            if isComma {
                try tail.endBeforeElement(after: after)
            } else {
                try tail.finish(after: after)
            }
        }
        guard !isStopped else { return chunk.count }
        consumer?.endTail(tail, of: text)
        // The tail's elements, counted as a run's are (see `dispatchRun`): the comma where the
        // cutting resumes is the next run's.
        let commas = scanner.topLevelCommas - commasBeforeRun - (isComma ? 1 : 0)
        let count = runIsFirst ? (tailStartsWithElement ? commas + 1 : 0) : commas
        elementCount += count
        elementsReadByTails += count
        guard isComma else {
            passOverContent(to: inputOffset + offset, lastBytes: inputBytes(before: offset, in: chunk))
            return offset
        }
        // The tail's parser read every byte up to the comma without an error: it stands between
        // two elements there, as the scanner does, and a worker's run can start at the comma.
        phase = .array
        beginRun(at: inputOffset + offset, isFirst: false, in: chunk)
        run.append(UInt8(ascii: ","))
        return offset + 1
    }

    /// Runs a step of the tail; a stop by the body (the tail's parser then ignores the rest)
    /// stops the stream.
    private func stoppingOnStop(_ body: () throws -> Void) throws {
        guard case .tail(let tail, _) = phase else { return try body() }
        try body()
        if tail.parser.isStopped { isStopped = true }
    }

    /// Tells the stream's parser of the array's content, from just past its `[` to `end`.
    private func passOverContent(to end: Int, lastBytes: [UInt8]) {
        parser.pass(
            over: end - contentStart, newlines: scanner.newlines - newlinesBeforeArray,
            lastLineStart: scanner.newlines > newlinesBeforeArray ? scanner.lastLineStart : nil,
            lastBytes: lastBytes)
        arrayEnded()
    }

    /// Hands the run cut so far to the workers.
    /// - Parameters:
    ///   - commas: The top-level commas inside it.
    ///   - closing: How the worker's parse ends.
    ///   - after: The input bytes after the run, up to 16 and to the chunk's end, for excerpts.
    private func dispatchRun(commas: Int, closing: SplitRun.Closing, after: some Collection<UInt8>) throws {
        // A run after the first begins with the comma before each of its elements; the first has
        // one element more than commas, unless it is an empty array's whitespace.
        let hasElement = commas > 0 || run.dropLast(closing == .included ? 1 : 0).contains { !$0.isJSONWhitespace }
        let count = runIsFirst ? (hasElement ? commas + 1 : 0) : commas
        let text = SplitRun(
            bytes: run, isFirst: runIsFirst, isObject: containerIsObject, closing: closing, start: runStart,
            line: runLine, column: runColumn,
            firstIndex: elementCount, expectedCount: count, nestedInside: arrayDepth - 1,
            context: .init(before: bytesBeforeRun, after: Array(after), chunkEnds: chunkEndsInRun), options: options,
            tooLarge: tooLarge)
        run = []
        runCount += 1
        elementCount += count
        do {
            try consumer?.take(text)
        } catch is JSONEventParser.Stop {
            isStopped = true
        }
    }

    /// The input failed: a run still being cut is read on as a tail, on the calling thread, as
    /// far as its bytes go (its elements, or an error in them, come before the failure, after the
    /// runs before it); a tail, and the stream's parser, have been fed every byte already.
    func inputFailed() throws {
        try readBraceAwaitingWindow(before: nil)
        guard case .array = phase, !isStopped, !run.isEmpty else { return }
        try startTail(after: [])
    }

    /// Ends the input: a run still being cut is an array the input cut short, which the stream's
    /// parser, told of the bytes it passed over, reports (the parser is not finished here).
    func finish() throws {
        try readBraceAwaitingWindow(before: nil)
        if case .tail(let tail, _) = phase, !isStopped {
            // The array never ended: the tail's parser reports the input cut short.
            try stoppingOnStop { try tail.finish() }
            return
        }
        guard case .array = phase, !isStopped else { return }
        // The array never ended: the run goes to a worker that reads it to the input's end, whose
        // error (the input cut short, where the sequential parse is) comes before the stream's own.
        try dispatchRun(commas: scanner.topLevelCommas - commasBeforeRun, closing: .none, after: [])
        guard !isStopped else { return }
        passOverContent(to: inputOffset, lastBytes: seen(earlierBytes, endingAt: inputOffset))
    }
}
