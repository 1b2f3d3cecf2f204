/// Counts the top-level values of concatenated JSON and every value inside them (nested ones
/// included, keys not), checking each as ``ValueSequencePass`` reads them: what `elevate validate`
/// and `elevate count` do with `--framing concatenated` and several jobs. Nothing is built, so a
/// value of any size passes.
///
/// The calling thread cuts the input into runs of whole values (``ValuesRunCutter``), which the
/// workers count (``SplitValuesRun/count()``), the calling thread among them when it is ahead.
/// From a value longer than a run may hold on (``StreamingOptions/splitLongestHeld``), the calling
/// thread counts the rest itself, after the runs before it. The counts and the first error are
/// one thread's, as ``SplitValuesReader`` makes the values' (comments must not be allowed: see
/// ``SplitValuesReader/applies(to:)``).
/// - Returns: The top-level values, and the values in all of them.
/// - Throws: As ``forEachValue`` for bad input: with ``StreamingOptions/wrapsErrorsInParserError``
///   false, a ``JSONSyntaxError`` whose position is the input's, or a ``JSONInputError``.
package func countConcatenatedValues(in input: JSONInput, options: StreamingOptions) throws -> (
    values: Int, nested: Int
) {
    precondition(!options.parsing.allowsComments, "the pre-scan does not read comments")
    let parallel = ParallelElementDecoder<SplitRun.Counts>(
        workers: max(options.concurrency, 1), decode: { _ in preconditionFailure("runs are submitted as work") })
    defer { parallel.cancel() }
    var totals = SplitRun.Counts()
    /// Whether a run's error (the first, in document order) was thrown already.
    var runFailed = false
    let drain = { (untilAllDone: Bool) throws in
        do {
            try parallel.drain(untilAllDone: untilAllDone, to: .borrowing { totals.add($0) })
        } catch {
            runFailed = true
            throw error
        }
    }
    let dispatch = { (piece: ValuesRunCutter.Piece) throws in
        let run = SplitValuesRun(piece, keyPath: KeyPath(""), options: options)
        parallel.submitWork { run.count() }
        try drain(false)
    }
    var cutter = ValuesRunCutter(options: options)
    /// Once the cutter stopped: the rest's parser and what it counts.
    var rest: (parser: ValuesRunParser, counter: DepthCounter)?
    let read = { (chunk: UnsafeRawBufferPointer) throws in
        if let rest {
            if let error = rest.parser.read(Array(chunk), chunkEnds: [], finishing: false) { throw error }
            return
        }
        guard try !cutter.feed(chunk, isStopped: { false }, dispatch) else { return }
        let piece = try cutter.takeRest(dispatch)
        // The runs before the rest come first, their errors too.
        try drain(true)
        let counter = DepthCounter(countedDepth: 0)
        let parser = ValuesRunParser(piece, handler: counter, options: options)
        rest = (parser, counter)
        if let error = parser.read(piece) { throw error }
    }
    try translatingInputErrors(options) {
        do {
            // An input failure comes after the values read before it: those held for a run are
            // judged first.
            try readChunks(
                of: input, options: options, until: { false },
                beforeInputFailure: { if rest == nil { try cutter.cutAllHeld(dispatch) } }, read)
            if let rest {
                if let error = rest.parser.read([], chunkEnds: [], finishing: true) { throw error }
            } else {
                try cutter.finish(dispatch)
            }
        } catch {
            // An error of the runs read before it (their first, in document order) comes first.
            if !runFailed { try drain(true) }
            throw error
        }
        try drain(true)
    }
    if let rest { totals.add(SplitRun.Counts(values: rest.counter.values, elements: rest.counter.elements)) }
    return (totals.elements, totals.values)
}
