/// Writes what `extract` takes of the elements of a split array: each element on a line
/// (`--json-lines`), what a wildcard path leads to in each (`items.*.name`), a value per line, or
/// the elements in place inside the array being written (a whole value). A worker parses each run
/// and writes its text into memory with an emitter of its own
/// (``SplitRun/emitLines(style:selection:)``), and the calling thread hands it to the stream's
/// emitter in document order. An element too long to hold for a worker is read on by a tail on
/// the calling thread, written straight to the stream's emitter once the runs before it are.
///
/// The output is one thread's: the same lines, and on an error the complete values before it,
/// then the error, in the input's terms.
final class SplitElementLinesWriter: SplitRunConsumer {
    /// What is written of each element of the split array.
    enum Selection: Sendable {
        /// The element itself (`extract --json-lines`).
        case elements
        /// The values the key path leads to past its first wildcard, which matches each element
        /// (`extract --key-path 'items.*.name'`), each sent to the emitter through `through` (a
        /// ``JSONLinesSplitter`` for `--json-lines`).
        case matches(keyPath: String, wildcard: String, through: @Sendable (JSONTextEmitter) -> any JSONEventHandler)
        /// The elements with their separators, as the stream's emitter writes them inside the
        /// array it has open at `depth` containers (`extract` of a whole value, in which each
        /// array is split in turn). The writer takes the depth from that emitter, which gets no
        /// event while the array's runs are read.
        case inPlace(depth: Int)

        /// The emitter a worker writes a run's selection with, into `output`.
        func makeEmitter(output: MemoryTextOutput, style: JSONTextEmitter.Style, runIsFirst: Bool) -> JSONTextEmitter {
            guard case .inPlace(let depth) = self else { return JSONTextEmitter(output: output, style: style) }
            return JSONTextEmitter(output: output, style: style, insideArrayAt: depth, afterElements: !runIsFirst)
        }

        /// The handler of a parser of a run's text (`[`, the elements, `]`) that writes the
        /// selection to `emitter`, and the selector that finds the matches (nil for `.elements`).
        /// - Parameter skipsFirstElement: Whether the array's first element is a run's placeholder.
        func makeHandler(writingTo emitter: JSONTextEmitter, skipsFirstElement: Bool)
            -> (JSONLinesSplitter, KeyPathSelector?)
        {
            switch self {
            case .elements, .inPlace:
                return (JSONLinesSplitter(forwardingTo: emitter, skipsFirstElement: skipsFirstElement), nil)
            case .matches(let keyPath, let wildcard, let through):
                // Each element, a top-level value of its own, is searched as the path's wildcard
                // finds it in the document.
                let selector = ForwardingPass.makeElementSelector(
                    keyPath: keyPath, wildcard: wildcard, handler: through(emitter))
                return (JSONLinesSplitter(forwardingTo: selector, skipsFirstElement: skipsFirstElement), selector)
            }
        }
    }

    private let parallel: ParallelElementDecoder<SplitRun.Lines>
    private let emitter: JSONTextEmitter
    private let selection: Selection
    /// The values sent by the runs written and the tail, not yet taken (see ``takeMatches()``).
    private var matches = 0
    /// The tail's selector, while a tail reads the array.
    private var tailSelector: KeyPathSelector?
    /// Whether runs were taken since the last ``settle()``.
    private var hasRunsTaken = false

    /// - Parameters:
    ///   - emitter: The stream's emitter, which the lines go to.
    ///   - workers: How many runs are parsed at once, the calling thread's included.
    ///   - selection: What is written of each element.
    init(emitter: JSONTextEmitter, workers: Int, selection: Selection) {
        self.emitter = emitter
        self.selection = selection
        parallel = ParallelElementDecoder(workers: workers, decode: { _ in SplitRun.Lines(text: [], count: 0) })
    }

    func take(_ run: SplitRun) throws {
        hasRunsTaken = true
        let style = emitter.style
        var selection = selection
        if case .inPlace = selection { selection = .inPlace(depth: emitter.depth) }
        parallel.submitWork { .success(run.emitLines(style: style, selection: selection)) }
        try parallel.drain(untilAllDone: false, to: .borrowing(write))
    }

    func startTail(from run: SplitRun) -> SplitTail {
        let (splitter, selector) = selection.makeHandler(writingTo: emitter, skipsFirstElement: !run.isFirst)
        // The tail's first event is its run's synthetic `[`: the runs before it are written first.
        // Their error is in the input's terms already: carried through the tail's parser so that
        // it is not moved again as an error of the tail's own text.
        splitter.arrayStarted = { [unowned self] in
            do {
                try settle()
            } catch {
                throw SplitTail.EarlierRunFailed(error: error)
            }
        }
        let tail = run.startTail(sendingTo: splitter)
        selector?.refusedKeyError = { [unowned parser = tail.parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        tailSelector = selector
        return tail
    }

    var countsOnly: Bool { false }

    func noteStandIn() {}

    func endTail(_ tail: SplitTail, of run: SplitRun) {
        matches += tailSelector?.forwardCount ?? 0
        tailSelector = nil
    }

    /// Waits for every run taken and writes its lines.
    /// - Throws: The first run's error, in document order, after the lines before it.
    func settle() throws {
        try parallel.drain(untilAllDone: true, to: .borrowing(write))
        hasRunsTaken = false
    }

    /// ``settle()``, when runs were taken since the last: at the end of every array of a value
    /// written in place, most of which were not split.
    func settleTakenRuns() throws {
        if hasRunsTaken { try settle() }
    }

    /// The values a wildcard path's selection sent in the runs written and the tail since the
    /// last call: what the stream's selector adds once the split array ends.
    func takeMatches() -> Int {
        defer { matches = 0 }
        return matches
    }

    /// Stops the workers, writing nothing more.
    func cancel() {
        parallel.cancel()
    }

    private func write(_ lines: SplitRun.Lines) throws {
        matches += lines.matches
        if case .inPlace = selection {
            try lines.text.withUnsafeBytes { try emitter.writeElements($0) }
        } else {
            try lines.text.withUnsafeBytes { try emitter.writeCompleteValues($0, count: lines.count) }
        }
        if let error = lines.error { throw error }
    }
}
