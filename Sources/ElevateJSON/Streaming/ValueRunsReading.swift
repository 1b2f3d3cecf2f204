/// Reads concatenated JSON as runs of whole values (``ValuesRunCutter``), the split parse of
/// ``countConcatenatedValues(in:options:)`` and ``writeValues(from:framing:atKeyPath:wildcard:to:through:options:)``,
/// as ``readLineRuns(of:framing:options:rest:whenInputWaits:work:take:)`` reads JSON Lines: each run
/// goes to `work`, on a worker when ``StreamingOptions/concurrency`` is above 1 (else on the
/// calling thread, as it is cut), and its outcome to `take`, on the calling thread, in document
/// order. From a value longer than a run may hold on (``StreamingOptions/splitLongestHeld``), the
/// calling thread reads the input itself, after taking every run before it, with the parser
/// `makeRest` makes from where it starts, up to the next top-level value that ends with a bracket
/// or brace and that a short value follows (see ``ValuesRunCutter/endOfRest(in:)``); `restEnded`
/// is told then, and the cutting resumes.
///
/// `take` throws a run's error; the first thrown, in document order, is the one of the whole
/// read, and it comes before an input error met later (the runs lie before it). The input must be
/// one that can be cut (``ValuesRunCutter/canCut(_:)``).
///
/// With `whenInputWaits`, before a read that would wait (``JSONInput/wouldWaitForInput``), every
/// complete value is cut and taken, and `whenInputWaits` called.
/// - Throws: A run's error (through `take`), or the rest's and the input's, wrapped as `options` say.
func readValueRuns<Outcome>(
    of input: JSONInput, options: StreamingOptions, rest makeRest: @escaping (ValuesRunCutter.Piece) -> ValuesRunParser,
    whenInputWaits: (() throws -> Void)? = nil, restEnded: (() throws -> Void)? = nil,
    work: @escaping (SplitValuesRun) -> Outcome, take: @escaping (Outcome) throws -> Void
) throws {
    precondition(ValuesRunCutter.canCut(options.parsing), "the pre-scan does not read comments")
    let runs = RunOutcomes(options: options, take: take)
    defer { runs.cancel() }
    let dispatch = { (piece: ValuesRunCutter.Piece) throws in
        let run = SplitValuesRun(piece, keyPath: KeyPath(""), options: options)
        try runs.submit { work(run) }
    }
    var cutter = ValuesRunCutter(options: options)
    /// While the cutter stopped: the parser of the rest.
    var rest: ValuesRunParser?
    /// Reads one chunk: feeds `rest` what is its, and cuts the runs of the rest of the chunk.
    let read = { (chunk: UnsafeRawBufferPointer) throws in
        // Where the cutting starts in the chunk; nil when the rest goes on past it.
        var start: Int? = 0
        if let parser = rest {
            start = cutter.endOfRest(in: chunk)
            if let error = parser.read(restOf: Array(chunk), endingAt: start) { throw error }
            if start != nil {
                rest = nil
                try restEnded?()
            }
        }
        if let start, try !cutter.feed(chunk, from: start, isStopped: { false }, dispatch) {
            let piece = try cutter.takeRest(dispatch)
            // The runs before the rest come first, their errors too.
            try runs.drain(untilAllDone: true)
            let parser = makeRest(piece)
            rest = parser
            if let error = parser.read(piece) { throw error }
        }
        guard let whenInputWaits, input.wouldWaitForInput else { return }
        if rest == nil { try cutter.cutCompleteValues(dispatch) }
        try runs.drain(untilAllDone: true)
        try whenInputWaits()
    }
    try translatingInputErrors(options) {
        do {
            // An input failure comes after the values read before it: those held for a run are
            // judged first.
            try readChunks(
                of: input, options: options, until: { false },
                beforeInputFailure: { if rest == nil { try cutter.cutAllHeld(dispatch) } }, read)
            if let rest {
                if let error = rest.read([], chunkEnds: [], finishing: true) { throw error }
            } else {
                try cutter.finish(dispatch)
            }
        } catch {
            // An error of the runs read before it (their first, in document order) comes first.
            try runs.drainBeforeError()
            throw error
        }
        // The runs' errors in document order: the first is one thread's first.
        try runs.drain(untilAllDone: true)
    }
}
