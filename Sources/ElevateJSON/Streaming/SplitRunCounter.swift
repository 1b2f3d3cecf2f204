/// Counts the values of split arrays' runs on workers, building nothing (see
/// ``SplitArrayReader``): what `elevate validate` and `elevate count` share across cores.
final class SplitRunCounter: SplitRunConsumer {
    /// The runs' queue and the totals, shared by the counters of one pass (see
    /// ``validatingOnly()``), so that their runs are counted on the same workers and delivered,
    /// the first error included, in document order.
    private final class Queue {
        let parallel: ParallelElementDecoder<SplitRun.Counts>
        /// The values and elements of the runs counted so far, in document order.
        var totals = SplitRun.Counts()
        /// The runs handed to the workers so far.
        var runsTaken = 0

        init(workers: Int) {
            parallel = ParallelElementDecoder(workers: workers, decode: { _ in SplitRun.Counts() })
        }

        func add(_ counts: SplitRun.Counts) {
            totals.add(counts)
        }
    }

    private let queue: Queue
    /// Whether the elements of this counter's runs are counted, or only their values (see
    /// ``validatingOnly()``).
    private let countsElements: Bool
    /// The values and elements of the runs counted so far, in document order (those of every
    /// counter sharing this one's queue; the elements of those that count them).
    var totals: SplitRun.Counts { queue.totals }
    /// The runs handed to the workers so far, by every counter sharing this one's queue.
    var runsTaken: Int { queue.runsTaken }

    /// - Parameter workers: How many runs are counted at once, the calling thread's included.
    init(workers: Int) {
        queue = Queue(workers: workers)
        countsElements = true
    }

    private init(queue: Queue) {
        self.queue = queue
        countsElements = false
    }

    /// A counter of other arrays, whose runs go to this counter's workers and whose values are
    /// added to its totals, but not their elements: `count` validates the containers around and
    /// inside the one at its key path, whose elements alone it counts.
    func validatingOnly() -> SplitRunCounter {
        SplitRunCounter(queue: queue)
    }

    var countsOnly: Bool { true }

    func take(_ run: SplitRun) throws {
        let countsElements = countsElements
        queue.runsTaken += 1
        queue.parallel.submitWork { run.count().map { countsElements ? $0 : SplitRun.Counts(values: $0.values) } }
        try queue.parallel.drain(untilAllDone: false, to: .borrowing(queue.add))
    }

    func noteStandIn() {
        queue.add(SplitRun.Counts(values: -1, elements: countsElements ? -1 : 0))
    }

    /// The tail's counter, by its parser (one tail at a time).
    private var tailCounter: DepthCounter?

    func startTail(from run: SplitRun) -> SplitTail {
        let counter = DepthCounter()
        tailCounter = counter
        return run.startTail(counting: counter)
    }

    func endTail(_ tail: SplitTail, of run: SplitRun) {
        guard let counter = tailCounter else { return }
        let counts = run.counts(of: counter)
        queue.add(countsElements ? counts : SplitRun.Counts(values: counts.values))
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
