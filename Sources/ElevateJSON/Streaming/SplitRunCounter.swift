/// Counts the values of split arrays' runs on workers, building nothing (see
/// ``SplitArrayReader``): what `elevate validate` and `elevate count` share across cores.
final class SplitRunCounter: SplitRunConsumer {
    /// What a counter counts of its runs, besides their values.
    enum Counting {
        /// Only values: the containers `count` validates around and inside the one at its key
        /// path (see ``validatingOnly()``).
        case values
        /// The elements too: the array at `count`'s key path, or every array `validate` splits.
        case elements
        /// The keys of the members, each once: the map at `count`'s key path (see ``keyCounter()``).
        case keys
    }

    /// The runs' queue and the totals, shared by the counters of one pass (see
    /// ``validatingOnly()`` and ``keyCounter()``), so that their runs are counted on the same
    /// workers and delivered, the first error included, in document order.
    private final class Queue {
        let parallel: ParallelElementDecoder<SplitRun.Counts>
        /// The values and elements of the runs counted so far, in document order.
        var totals = SplitRun.Counts()
        /// The keys of the runs of a ``Counting/keys`` counter so far.
        var keys = KeyBytesSet()
        /// The runs handed to the workers so far.
        var runsTaken = 0

        init(workers: Int) {
            parallel = ParallelElementDecoder(workers: workers, decode: { _ in SplitRun.Counts() })
        }

        func add(_ counts: SplitRun.Counts) {
            totals.add(counts)
            if let runKeys = counts.keys { keys.formUnion(runKeys) }
        }
    }

    private let queue: Queue
    private let counting: Counting
    /// The values and elements of the runs counted so far, in document order (those of every
    /// counter sharing this one's queue; the elements of those that count them).
    var totals: SplitRun.Counts { queue.totals }
    /// The distinct keys of the runs of the ``Counting/keys`` counter sharing this one's queue.
    var keysCounted: Int { queue.keys.count }
    /// The runs handed to the workers so far, by every counter sharing this one's queue.
    var runsTaken: Int { queue.runsTaken }

    /// A counter of values and elements (``Counting/elements``).
    /// - Parameter workers: How many runs are counted at once, the calling thread's included.
    init(workers: Int) {
        queue = Queue(workers: workers)
        counting = .elements
    }

    private init(queue: Queue, counting: Counting) {
        self.queue = queue
        self.counting = counting
    }

    /// A counter of other arrays, whose runs go to this counter's workers and whose values are
    /// added to its totals, but not their elements: `count` validates the containers around and
    /// inside the one at its key path, whose elements alone it counts.
    func validatingOnly() -> SplitRunCounter {
        SplitRunCounter(queue: queue, counting: .values)
    }

    /// A counter of the map at `count`'s key path, whose runs go to this counter's workers, which
    /// keep the keys of their members (in a set each, hashed there); the calling thread adds them
    /// to one set, in which a repeated key counts once (``keysCounted``).
    func keyCounter() -> SplitRunCounter {
        SplitRunCounter(queue: queue, counting: .keys)
    }

    /// Not the map whose keys are counted: a huge member of it is read by a tail, whose keys it
    /// keeps, rather than by the stream's parser, whose selector has no part of the map's keys.
    var countsOnly: Bool { counting != .keys }

    func take(_ run: SplitRun) throws {
        let counting = counting
        queue.runsTaken += 1
        queue.parallel.submitWork { run.count(keepingKeys: counting == .keys).map { Self.kept($0, counting) } }
        try queue.parallel.drain(untilAllDone: false, to: .borrowing(queue.add))
    }

    /// What a counter adds of a run's `counts` to the totals: its elements only when it counts
    /// them (the totals' elements are those of the array at a key path), its keys only when it
    /// keeps them.
    private static func kept(_ counts: SplitRun.Counts, _ counting: Counting) -> SplitRun.Counts {
        switch counting {
        case .values: SplitRun.Counts(values: counts.values)
        case .elements: counts
        case .keys: SplitRun.Counts(values: counts.values, keys: counts.keys)
        }
    }

    func noteStandIn() {
        assert(counting != .keys, "a map whose keys are counted is not put off")
        queue.add(SplitRun.Counts(values: -1, elements: counting == .elements ? -1 : 0))
    }

    /// The tail's counter, by its parser (one tail at a time).
    private var tailCounter: DepthCounter?

    func startTail(from run: SplitRun) -> SplitTail {
        let counter = run.counter(keepingKeys: counting == .keys)
        tailCounter = counter
        return run.startTail(counting: counter)
    }

    func endTail(_ tail: SplitTail, of run: SplitRun) {
        guard let counter = tailCounter else { return }
        queue.add(Self.kept(run.counts(of: counter), counting))
        tailCounter = nil
    }

    /// Waits for every run taken and adds its counts.
    /// - Throws: The first run's error, in document order.
    func settle() throws {
        try queue.parallel.drain(untilAllDone: true, to: .borrowing(queue.add))
    }

    /// Stops the workers, counting nothing more.
    func cancel() {
        queue.parallel.cancel()
    }
}

/// Counts every value of a document (nested ones included, keys not), as `elevate validate` does,
/// with ``StreamingOptions/concurrency`` workers: every array is split (see
/// ``SplitArrayReader``), and every object of many short members, the containers inside an
/// array's huge elements included, and the runs counted on the workers, so the first error
/// and the count are one thread's.
/// - Returns: The number of values.
/// - Throws: As ``summarizeValue(from:atKeyPath:options:)``.
package func countValues(in input: JSONInput, options: StreamingOptions) throws -> Int {
    let counter = ValueCounter()
    let parser = JSONEventParser(handler: counter, options: options.parsing)
    guard options.concurrency > 1, SplitArrayReader.applies(to: options) else {
        try translatingInputErrors(options) {
            try parser.parseAll(input, chunkSize: options.chunkSize, progress: options.progress)
        }
        return counter.count
    }
    let runs = SplitRunCounter(workers: options.concurrency)
    defer { runs.cancel() }
    let split = SplitArrayReader(
        parser: parser, options: options, everyArray: runs, splitsObjects: !options.parsing.rejectsDuplicateKeys)
    do {
        try readChunks(of: input, options: options, until: { false }, beforeInputFailure: split.inputFailed, split.feed)
        try split.finish()
        try parser.finish()
    } catch {
        // The runs lie before where the stream's parser stopped: an error of theirs comes first.
        try runs.settle()
        throw wrapped(error, options)
    }
    try runs.settle()
    return counter.count + runs.totals.values
}

/// ``countValues(in:options:)`` for the split parse's fuzz target, a package of its own, which
/// compares its counts and errors at several ``StreamingOptions/concurrency`` settings.
/// - Parameters:
///   - input: The document.
///   - options: How to read it.
/// - Returns: The number of values.
/// - Throws: As ``countValues(in:options:)``.
@_spi(Testing) public func countedValues(in input: JSONInput, options: StreamingOptions) throws -> Int {
    try countValues(in: input, options: options)
}

/// Runs `body`, wrapping the event and input layers' errors in ``ParserError`` as `options` say.
func translatingInputErrors(_ options: StreamingOptions, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        throw wrapped(error, options)
    }
}

/// `error` as the options want it: a syntax or input error wrapped in ``ParserError``, or itself.
private func wrapped(_ error: any Error, _ options: StreamingOptions) -> any Error {
    guard options.wrapsErrorsInParserError else { return error }
    switch error {
    case let error as JSONSyntaxError: return ParserError(error)
    case let error as JSONInputError: return ParserError.deserialization(reason: error.description)
    default: return error
    }
}
