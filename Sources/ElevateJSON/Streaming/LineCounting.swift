/// Counts the values of JSON Lines (the lines that hold one) and every value inside them (nested
/// ones included, keys not), checking each line as ``forEachValue`` reads it: what `elevate
/// validate` and `elevate count` do with `--json-lines`. Nothing is built, so a line of any length
/// passes.
///
/// The calling thread cuts the input into runs of whole lines (``LinesRunCutter``), and each run
/// is counted straight from YAJL's callbacks where its lines are surely valid (see
/// ``CallbackValueCounter/countLines(_:options:)``), else line by line through the event layer.
/// With ``StreamingOptions/concurrency`` above 1 workers count the runs, as ``SplitLinesReader``
/// splits the lines it decodes; with 1 the calling thread counts each run as it is cut. The counts
/// and the first error are one thread's.
/// - Returns: The lines that hold a value, and the values in all of them.
/// - Throws: As ``forEachValue`` for bad input: with ``StreamingOptions/wrapsErrorsInParserError``
///   false, a ``JSONSyntaxError`` whose line and column are the input's, or a ``JSONInputError``.
package func countLines(in input: JSONInput, options: StreamingOptions) throws -> (lines: Int, values: Int) {
    typealias Counts = (lines: Int, values: Int)
    let parallel =
        options.concurrency > 1
        ? ParallelElementDecoder<Counts>(workers: options.concurrency, decode: { _ in (0, 0) }) : nil
    defer { parallel?.cancel() }
    var totals: Counts = (0, 0)
    let add = { (counts: Counts) in
        totals.lines += counts.lines
        totals.values += counts.values
    }
    /// Whether a run's error (the first, in document order) was thrown already.
    var runFailed = false
    let drain = { (untilAllDone: Bool) throws in
        guard let parallel else { return }
        do {
            try parallel.drain(untilAllDone: untilAllDone, to: .borrowing(add))
        } catch {
            runFailed = true
            throw error
        }
    }
    let dispatch = { (piece: LinesRunCutter.Piece) throws in
        let run = SplitLinesRun(piece, keyPath: KeyPath(""), options: options)
        guard let parallel else {
            switch run.count() {
            case .success(let counts): add(counts)
            case .failure(let error):
                runFailed = true
                throw error
            }
            return
        }
        parallel.submitWork { run.count() }
        try drain(false)
    }
    // From a line longer than a run may hold on, the calling thread reads the rest of the input
    // itself, after the runs before it (their counts, and their first error, come first).
    let counter = ValueCounter()
    let rest = JSONLinesParser(handler: counter, options: options.parsing)
    var cutter = LinesRunCutter(options: options, longLineLimit: options.splitLongestHeld) { line in
        try drain(true)
        if let error = SplitLinesRun(line, keyPath: KeyPath(""), options: options).read(into: rest) { throw error }
    }
    try translatingInputErrors(options) {
        do {
            try translatingLinesParserErrors(
                framing: .jsonLines, wrapping: options.wrapsErrorsInParserError, lineNumber: { rest.lineNumber }
            ) {
                try readChunks(of: input, options: options, until: { false }) { chunk in
                    if cutter.handedOver { return try rest.feed(chunk) }
                    try cutter.feed(chunk, isStopped: { false }, dispatch)
                }
                if cutter.handedOver { try rest.finish() }
            }
            try cutter.finish(dispatch)
        } catch {
            // An input error comes after the lines read before it: an error of theirs comes first.
            if !runFailed { try drain(true) }
            throw error
        }
        // The runs' errors in document order: the first is one thread's first.
        try drain(true)
    }
    return (totals.lines + rest.valueCount, totals.values + counter.count)
}
