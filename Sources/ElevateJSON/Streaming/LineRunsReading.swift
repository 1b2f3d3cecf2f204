/// Reads JSON Lines (or the records of a JSON text sequence, with `framing`) as runs of whole
/// lines (``LinesRunCutter``), the split parse of
/// ``countLines(in:framing:options:)`` and ``writeValues(from:framing:atKeyPath:wildcard:to:through:options:)``:
/// each run goes to `work`, on a worker when ``StreamingOptions/concurrency`` is above 1 (else on
/// the calling thread, as it is cut), and its outcome to `take`, on the calling thread, in
/// document order. A line longer than a run may hold on (``StreamingOptions/splitLongestHeld``)
/// the calling thread feeds to `rest` itself, after taking every run before it, so that a line of
/// any length is never held; the cutting resumes at the next line.
///
/// `longLineEnded` is told when `rest` has read a long line to its end, before the runs after it
/// are taken.
///
/// `take` throws a run's error; the first thrown, in document order, is the one of the whole
/// read, and it comes before an input error met later (the runs lie before it).
///
/// With `whenInputWaits`, before a read that would wait (``JSONInput/wouldWaitForInput``), every
/// complete line is cut and taken, and `whenInputWaits` called: what a live input's lines give
/// comes out then, not when a run fills.
/// - Throws: A run's error (through `take`), or `rest`'s and the input's, wrapped as `options` say.
func readLineRuns<Outcome>(
    of input: JSONInput, framing: JSONFraming = .jsonLines, options: StreamingOptions, rest: JSONLinesParser,
    whenInputWaits: (() throws -> Void)? = nil, longLineEnded: (() throws -> Void)? = nil,
    work: @escaping (SplitLinesRun) -> Outcome, take: @escaping (Outcome) throws -> Void
) throws {
    let runs = RunOutcomes(options: options, take: take)
    defer { runs.cancel() }
    let dispatch = { (piece: LinesRunCutter.Piece) throws in
        let run = SplitLinesRun(piece, keyPath: KeyPath(""), framing: framing, options: options)
        try runs.submit { work(run) }
    }
    var cutter = LinesRunCutter(
        options: options, longLineLimit: options.splitLongestHeld, separator: framing.separator
    ) { line in
        try runs.drain(untilAllDone: true)
        if let error = SplitLinesRun(line, keyPath: KeyPath(""), framing: framing, options: options).read(into: rest) {
            throw error
        }
    } restOfLongLine: { bytes, endsLine in
        try rest.feed(bytes)
        if endsLine { try longLineEnded?() }
    }
    /// Reads one chunk: cuts its runs, and feeds a long line's bytes to `rest`.
    let read = { (chunk: UnsafeRawBufferPointer) throws in
        try cutter.feed(chunk, isStopped: { false }, dispatch)
        guard let whenInputWaits, input.wouldWaitForInput else { return }
        try cutter.cutCompleteLines(dispatch)
        try runs.drain(untilAllDone: true)
        try whenInputWaits()
    }
    try translatingInputErrors(options) {
        do {
            try translatingLinesParserErrors(
                framing: framing, wrapping: options.wrapsErrorsInParserError, lineNumber: { rest.lineNumber }
            ) {
                // An input failure comes after the lines read before it: those held for a run
                // are judged first.
                try readChunks(
                    of: input, options: options, until: { false }, beforeInputFailure: { try cutter.cutAllHeld(dispatch) },
                    read)
                if cutter.isInLongLine { try rest.finish() }
            }
            try cutter.finish(dispatch)
        } catch {
            // An error of the runs read before it (their first, in document order) comes first.
            try runs.drainBeforeError()
            throw error
        }
        // The runs' errors in document order: the first is one thread's first.
        try runs.drain(untilAllDone: true)
    }

}
