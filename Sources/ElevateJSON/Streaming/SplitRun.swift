/// One run of whole elements of an array, cut by ``SplitArrayReader`` for a worker to parse.
struct SplitRun: @unchecked Sendable {
    /// The error for an element over ``StreamingOptions/maximumElementSize``, given its index and
    /// the input offset where the parse stopped.
    typealias TooLarge = @Sendable (_ index: Int, _ limit: Int, _ offset: Int) -> any Error

    /// How the worker's parse of a run ends.
    enum Closing {
        /// With a `]` (an object's `}`) of its own: the run ends before a comma, for which the
        /// bracket stands (YAJL accepts both after a value or member, and rejects both with the
        /// same message wherever else they come: where a value, a key or a colon must).
        case synthetic
        /// With the run's last byte, the array's real closing bracket.
        case included
        /// With the input's end: the array was cut short.
        case none
        /// Never: the run starts a long element read on the calling thread (see ``SplitTail``).
        case tail
    }

    let bytes: [UInt8]
    /// Whether it begins the array (and so with an element, not a comma).
    let isFirst: Bool
    /// Whether the container cut is an object (its runs hold members) rather than an array.
    let isObject: Bool
    let closing: Closing
    /// Where its first byte is in the input.
    let start: Int
    let line: Int
    let column: Int
    let firstIndex: Int
    let expectedCount: Int
    /// The containers open around the array.
    let nestedInside: Int

    /// What an error's excerpt shows of the input around the run, as the sequential parse shows
    /// it: the 16 bytes before, and after the byte in error up to the end of its chunk.
    struct Context {
        var before: [UInt8]
        /// The bytes after the run, up to 16 and to the end of the chunk the run ends in.
        var after: [UInt8]
        /// The absolute offsets where input chunks end inside the run.
        var chunkEnds: [Int]
    }
    let context: Context
    let options: StreamingOptions
    let tooLarge: TooLarge

    /// What the worker's parser reads before the run: the container's start, and for a run that
    /// begins with a comma, a placeholder element (or member) before it.
    private var prefix: [UInt8] {
        switch (isObject, isFirst) {
        case (false, true): [UInt8(ascii: "[")]
        case (false, false): Array("[null".utf8)
        case (true, true): [UInt8(ascii: "{")]
        case (true, false): Array(#"{"":null"#.utf8)
        }
    }

    /// What closes the container when the run ends before a comma (``Closing/synthetic``).
    private var closingByte: UInt8 { isObject ? UInt8(ascii: "}") : UInt8(ascii: "]") }

    /// Parses the run (on a worker), handing each element to `each` as it is parsed, on a tape
    /// the next element writes over, until `each` returns false.
    /// - Returns: The error that ended the parse, moved to the input.
    func parse(_ each: (JSONValue) -> Bool) -> (any Error)? {
        withoutActuallyEscaping(each) { each in parse(escaping: each) }
    }

    private func parse(escaping each: @escaping (JSONValue) -> Bool) -> (any Error)? {
        let progress = Progress()
        let parser = elementParser { element in
            progress.count += 1
            guard each(element) else {
                progress.stopped = true
                throw JSONEventParser.Stop()
            }
        }
        do {
            try read(with: parser)
        } catch let error as JSONSyntaxError {
            return moved(error, excerptEnd: parser.lastExcerptEnd)
        } catch let error as KeyPathSelector.CaptureTooLarge {
            let offset = start + max(0, parser.currentByteOffset - prefix.count)
            return tooLarge(firstIndex + progress.count, error.limit, offset)
        } catch {
            return error
        }
        guard progress.count == expectedCount || progress.stopped else {
            // The scanner and YAJL disagree about a run YAJL accepted: a defect, not the input's.
            return ParserError.deserialization(
                reason: "internal error: the split parse counted \(expectedCount) elements at byte offset "
                    + "\(start) where the parser found \(progress.count)")
        }
        return nil
    }

    /// What ``parse(_:)`` counts in the parser's callbacks. A class of its own rather than
    /// variables the callback captures: those are boxed, and every access to them checked for
    /// exclusivity at run time (an access-set insertion per element).
    private final class Progress {
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var stopped = false
    }

    /// A parser of the run's elements (of a map's run, its members, each a `[key, value]` pair as
    /// ``KeyPathSelector/Mode/members`` captures them), each handed to `each` as it is parsed (the
    /// placeholder before a run's comma is not).
    /// - Parameter reusesTapes: Whether an element's tape is written over for the next one once
    ///   nothing holds it: not when the elements go to other threads (a tail's go to the workers),
    ///   whose reads the uniqueness check does not order before the next writes.
    private func elementParser(
        reusesTapes: Bool = true, _ each: @escaping (JSONValue) throws -> Void
    ) -> JSONEventParser {
        let skipped = isFirst ? 0 : 1
        var callbacks = KeyPathSelector.Callbacks()
        callbacks.element = { _, index, element in
            if index >= skipped { try each(element) }
        }
        let selector = KeyPathSelector(
            targets: [KeyPathSelector.Target].candidates(for: KeyPath(""), mode: isObject ? .members : .elements),
            callbacks: callbacks)
        selector.reusesTapes = reusesTapes
        let parser = JSONEventParser(handler: selector, options: options.parsing)
        selector.maximumCaptureSize = options.maximumElementSize
        selector.currentOffset = { [unowned parser] in parser.currentByteOffset }
        selector.refusedKeyError = { [unowned parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        return parser
    }

    /// Starts a tail on the calling thread (see ``SplitTail``): a parser that has read the run and
    /// reads on as the input comes, handing each element to `each`.
    func startTail(elements each: @escaping (_ index: Int, _ element: JSONValue) throws -> Void) -> SplitTail {
        var count = 0
        let parser = elementParser(reusesTapes: false) { element in
            defer { count += 1 }
            try each(firstIndex + count, element)
        }
        return SplitTail(run: self, parser: parser) { [unowned parser] error in
            guard let error = error as? KeyPathSelector.CaptureTooLarge else { return nil }
            let offset = start + max(0, parser.currentByteOffset - prefix.count)
            return tooLarge(firstIndex + count, error.limit, offset)
        }
    }

    /// The lines a worker wrote for a run's elements (see ``emitLines(style:selection:)``): the
    /// text of the complete values before an error, and the error.
    struct Lines: Sendable {
        var text: [UInt8]
        var count: Int
        var error: (any Error)?
        /// How many values a wildcard path's selection sent (see ``KeyPathSelector/forwardCount``).
        var matches = 0
    }

    /// Parses the run (on a worker) and writes what `selection` takes of each element, as the
    /// stream's emitter writes in `style`; a value the run's error cuts short is not written,
    /// except in place (``SplitElementLinesWriter/Selection/inPlace(depth:)``), where the text
    /// goes on to the error, as the stream's emitter has it when one thread meets the error.
    func emitLines(style: JSONTextEmitter.Style, selection: SplitElementLinesWriter.Selection) -> Lines {
        let output = MemoryTextOutput()
        let emitter = selection.makeEmitter(output: output, style: style, runIsFirst: isFirst)
        let (splitter, selector) = selection.makeHandler(writingTo: emitter, skipsFirstElement: !isFirst)
        let parser = JSONEventParser(handler: splitter, options: options.parsing)
        selector?.refusedKeyError = { [unowned parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        var failure: (any Error)?
        do {
            try read(with: parser)
        } catch let error as JSONSyntaxError {
            failure = moved(error, excerptEnd: parser.lastExcerptEnd)
        } catch {
            failure = error
        }
        do {
            if case .inPlace = selection { try emitter.flush() } else { try emitter.finishCompleteValues() }
        } catch {
            failure = failure ?? error
        }
        return Lines(
            text: output.bytes, count: emitter.completedValueCount, error: failure,
            matches: selector?.forwardCount ?? 0)
    }

    /// Starts a tail on the calling thread, its events sent to `splitter`, which drops the
    /// placeholder element of a run that is not the first.
    func startTail(sendingTo splitter: JSONLinesSplitter) -> SplitTail {
        SplitTail(run: self, parser: JSONEventParser(handler: splitter, options: options.parsing)) { _ in nil }
    }

    /// A counter of the run's parse, which keeps the keys of its members when `keepsKeys`: not
    /// the placeholder's, before a run's first comma (see `prefix`).
    func counter(keepingKeys keepsKeys: Bool) -> DepthCounter {
        DepthCounter(keepsKeys: keepsKeys, passingOver: isObject && !isFirst ? 1 : 0)
    }

    /// Starts a tail on the calling thread, counting its values into `counter` (see
    /// ``counter(keepingKeys:)``).
    func startTail(counting counter: DepthCounter) -> SplitTail {
        SplitTail(run: self, parser: JSONEventParser(handler: counter, options: options.parsing)) { _ in nil }
    }

    /// The counts of a tail read by `counter` (see ``startTail(counting:)``).
    func counts(of counter: DepthCounter) -> Counts {
        var counts = ownCounts(values: counter.values, elements: counter.elements)
        counts.keys = counter.keys
        return counts
    }

    /// The run's own counts from those of a parse of its text: less the parser's own array, and
    /// the placeholder element before a comma.
    private func ownCounts(values: Int, elements: Int) -> Counts {
        let placeholder = isFirst ? 0 : 1
        return Counts(values: values - 1 - placeholder, elements: elements - placeholder)
    }

    /// The length of the prefix and the run, as `start(_:)` feeds them.
    var prefixedCount: Int { prefix.count + bytes.count }

    /// Feeds `parser` the prefix, then the run's bytes in the pieces the input's chunks cut them
    /// into, as one thread's parser is fed them: an error is met in the piece, and its excerpt
    /// ends with the chunk, where one thread's meets it and ends it (a long token's chunks are held
    /// back alike, see ``JSONEventParser/parse(_:)-(UnsafeRawBufferPointer)``).
    func start(_ parser: JSONEventParser) throws {
        parser.startNested(inside: nestedInside)
        try parser.parse(prefix)
        try bytes.withUnsafeBytes { bytes in
            var pieceStart = start
            for chunkEnd in context.chunkEnds where chunkEnd > pieceStart && chunkEnd < start + bytes.count {
                try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[(pieceStart - start)..<(chunkEnd - start)]))
                pieceStart = chunkEnd
            }
            try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[(pieceStart - start)...]))
        }
    }

    /// Feeds `parser` the prefix and the run (see ``start(_:)``), and the closing bracket it
    /// needs, and finishes it.
    private func read(with parser: JSONEventParser) throws {
        try start(parser)
        if closing == .synthetic { try parser.parse([closingByte]) }
        try parser.finish()
    }

    /// A syntax error of the worker's parse as the stream reports it: moved to the input, and
    /// wrapped as the options say.
    /// - Parameter excerptEnd: Where the parser's excerpt of the error ended, in its own text
    ///   (``JSONEventParser/lastExcerptEnd``).
    func moved(_ error: JSONSyntaxError, excerptEnd: Int) -> any Error {
        let moved = positionedInInput(error, excerptEnd: excerptEnd)
        return options.wrapsErrorsInParserError ? ParserError(moved) : moved
    }

    /// What a run holds: its values (nested ones included) and its elements, and, when asked,
    /// the keys of its members (see ``count(keepingKeys:)``).
    struct Counts: Sendable {
        var values = 0
        var elements = 0
        var keys: KeyBytesSet?

        mutating func add(_ other: Counts) {
            values += other.values
            elements += other.elements
        }
    }

    /// Parses the run (on a worker) and counts its values, building nothing; with `keepsKeys`,
    /// keeps the keys of its members too, each once.
    func count(keepingKeys keepsKeys: Bool = false) -> Result<Counts, any Error> {
        if !keepsKeys, let counts = countedInCallbacks() { return .success(counts) }
        // Not surely valid (or keys wanted, which YAJL's callbacks do not keep): the event layer
        // reads it, and names its error.
        let counter = counter(keepingKeys: keepsKeys)
        let parser = JSONEventParser(handler: counter, options: options.parsing)
        do {
            try read(with: parser)
        } catch let error as JSONSyntaxError {
            return .failure(moved(error, excerptEnd: parser.lastExcerptEnd))
        } catch {
            return .failure(error)
        }
        return .success(counts(of: counter))
    }

    /// The run's counts straight from YAJL's callbacks (see ``CallbackValueCounter``), when it
    /// ends with a bracket and is surely valid; nil otherwise.
    private func countedInCallbacks() -> Counts? {
        guard closing == .synthetic || closing == .included else { return nil }
        let counts = prefix.withUnsafeBytes { prefix in
            bytes.withUnsafeBytes { bytes in
                withUnsafeBytes(of: closingByte) { bracket in
                    CallbackValueCounter.count(
                        closing == .synthetic ? [prefix, bytes, bracket] : [prefix, bytes],
                        nestedInside: nestedInside, options: options.parsing)
                }
            }
        }
        return counts.map { ownCounts(values: $0.values, elements: $0.elements) }
    }

    /// An error of the worker's parse, moved from its text (the prefix, then the run) to the input.
    /// - Parameter excerptEnd: Where the parser's excerpt ended, in its own text (see
    ///   ``excerpt(around:parsedEnd:)``).
    private func positionedInInput(_ error: JSONSyntaxError, excerptEnd: Int) -> JSONSyntaxError {
        var error = error
        let intoRun = max(0, error.byteOffset - prefix.count)
        error.byteOffset = start + intoRun
        if error.line == 1 {
            // On the run's first line, which begins `column - 1` bytes into the input's line.
            (error.line, error.column) = (line, column + intoRun)
        } else {
            error.line += line - 1
        }
        // Past the run (the tail's input, see `SplitTail`), the parser's own excerpt is the input's.
        if closing != .tail || error.byteOffset < start + bytes.count {
            error.excerpt = excerpt(around: error.byteOffset, parsedEnd: start + excerptEnd - prefix.count)
        }
        return error
    }

    /// The excerpt of the sequential parse around absolute offset `offset`: up to 16 bytes
    /// before it, and up to 16 from it, up to where the parser's excerpt ended, `parsedEnd` (the
    /// end of the input chunk the error is in, or of the one that ends a token carried from an
    /// earlier chunk: the run is fed in the input's pieces, see ``start(_:)``), or, where that is
    /// the run's end, to the end of the input chunk the bytes after the run are in: unless an
    /// input chunk ends with the run too, and the error was met in it, not in the bytes after it
    /// (a token open at the run's end, met when the closing bracket came).
    private func excerpt(around offset: Int, parsedEnd: Int) -> String {
        let end = start + bytes.count
        let endsWithAChunk = context.chunkEnds.last == end
        let chunkEnd = parsedEnd < end || (parsedEnd == end && endsWithAChunk) ? parsedEnd : end + context.after.count
        var window: [UInt8] = []
        for position in max(offset - 16, start - context.before.count)..<min(offset + 16, chunkEnd) {
            if position < start {
                window.append(context.before[context.before.count - (start - position)])
            } else if position < end {
                window.append(bytes[position - start])
            } else {
                window.append(context.after[position - end])
            }
        }
        return JSONSyntaxError.excerptText(window)
    }
}
