/// Writes the values at a key path inside each top-level value of a stream of values (JSON Lines,
/// concatenated JSON, a JSON text sequence) to `emitter`, one after another, as jq prints a path
/// of each value: what `elevate extract --framing` does. Nothing is built, so a value of any size
/// passes (see ``ValueSequencePass``).
///
/// JSON Lines and JSON text sequences with ``StreamingOptions/concurrency`` above 1 are split as
/// ``countLines(in:framing:options:)`` splits them (a text sequence's records as lines): the calling thread cuts the input into runs of whole lines (``LinesRunCutter``);
/// each worker reads a run through a ``ValueSequencePass`` of its own, which writes the run's values
/// into memory in `emitter`'s style; the calling thread hands each run's text to `emitter`, in
/// document order. The output, the summary and the first error are one thread's:
/// - A run starts at a line start, where the stream's pass stands between two values; its lines
///   parser resumes at the run's line and offset, so errors carry the input's positions (see
///   ``SplitLinesRun/read(into:)``).
/// - On a run's error, the values completed before it are written (those of the failing line
///   too, with a wildcard path), then the error is thrown, as one thread writes them.
/// - A worker holds each value whole until it completes, where `emitter` writes a value longer
///   than its memory limit through before it completes (and leaves it cut if the input then fails
///   inside it). A run with a line long enough to hold such a value (half the limit: escapes at
///   most double a line's text) is handed back to the calling thread, which writes it itself
///   with a pass of its own, in its turn. Pretty-printed output, whose indentation has no such
///   bound, is written by one thread.
/// - A line longer than ``StreamingOptions/splitLongestHeld`` the calling thread reads itself,
///   so that a line of any length is never held; the cutting resumes at the next line.
///
/// Concatenated values (without comments) are split the same way into runs of whole values
/// (``readValueRuns(of:options:rest:whenInputWaits:work:take:)``), each read by a worker's pass
/// from where one thread's stands between two values (see ``ValuesRunParser``); a run as long as
/// half the emitter's limit goes back to the calling thread, which writes it itself.
/// - Parameters:
///   - input: Where the values come from.
///   - framing: `.jsonLines`, `.concatenated` or `.jsonTextSequence`.
///   - keyPath: The value inside each top-level value to write; `""` for the whole.
///   - wildcard: A key path component that matches every member and element, or nil.
///   - emitter: Where the values' text goes.
///   - makeHandler: The handler that forwards a value's events to the emitter given (the stream's,
///     or a worker's): the emitter itself, or a ``JSONLinesSplitter`` in front of it.
///   - options: Parsing options, limits, read size, progress, error wrapping and workers.
/// - Returns: How many top-level values there were, and in how many the key path led nowhere.
/// - Throws: As ``ValueSequencePass/run(_:options:)``, after writing the values completed before
///   the error; or what the emitter's output or the handler throws.
package func writeValues(
    from input: JSONInput, framing: JSONFraming, atKeyPath keyPath: String, wildcard: String?,
    to emitter: JSONTextEmitter, through makeHandler: @escaping @Sendable (JSONTextEmitter) -> any JSONEventHandler,
    options: StreamingOptions
) throws -> ValueSequenceSummary {
    var summary = ValueSequenceSummary()
    // Split, the pass reads the long lines (or values) between runs: its values before the stretch
    // it reads now, which its indexes count too.
    var passValuesBefore = 0
    let pass = ValueSequencePass(framing: framing, keyPath: keyPath, wildcard: wildcard, to: makeHandler(emitter)) {
        var end = $0
        end.index -= passValuesBefore
        summary.note(end)
    }
    // A live input's values come out as its lines arrive, not when the emitter's buffer fills.
    let whenInputWaits = { try emitter.flushCompleteValues() }
    let splitsValues = framing == .concatenated && ValuesRunCutter.canCut(options.parsing)
    guard framing != .concatenated || splitsValues, options.concurrency > 1, !emitter.prettyPrinted else {
        pass.afterEachChunk = { if input.wouldWaitForInput { try whenInputWaits() } }
        _ = try pass.run(input, options: options)
        return summary
    }
    var runs = ValueSequenceSummary()
    let write = { (written: WrittenValues) throws in
        if let run = written.handedBack {
            let (own, error) = run.readValues(atKeyPath: keyPath, wildcard: wildcard, to: makeHandler(emitter))
            runs.append(own)
            if let error { throw error }
            return
        }
        try written.text.withUnsafeBytes { try emitter.writeCompleteValues($0, count: written.count) }
        runs.append(written.summary)
        if let error = written.error { throw error }
    }
    let style = emitter.style
    // A line (or a run of concatenated values) at least this long may hold a value that `emitter`
    // writes through.
    let handedBackFrom = max(emitter.memoryLimit / 2 - 1, 0)
    let work = { (run: any ValueRun) in
        guard !run.mayHoldValue(atLeast: handedBackFrom) else { return WrittenValues(handedBack: run) }
        return run.writeValues(atKeyPath: keyPath, wildcard: wildcard, style: style, through: makeHandler)
    }
    // A line or value longer than a run may hold, the stream's own pass reads, with what follows
    // it up to where the cutting resumes; the runs before it were taken, those after come next.
    let passEnded = {
        runs.append(summary)
        passValuesBefore += summary.values
        summary = ValueSequenceSummary()
    }
    if splitsValues {
        do {
            try readValueRuns(
                of: input, options: options,
                rest: { piece in
                    ValuesRunParser(piece, options: options) { pass.makeValuesParser(options: options, skipsByteOrderMark: $0) }
                }, whenInputWaits: whenInputWaits, restEnded: passEnded, work: work, take: write)
        } catch let error as SplitValueTooLarge {
            // Named by its index among all the values: those of the runs and of the rest before it.
            throw ParserError.validation(
                failureReason: FailureText.valueTooLarge(index: runs.values + summary.values, limit: error.limit))
        }
    } else {
        try readLineRuns(
            of: input, framing: framing, options: options, rest: pass.makeLinesParser(options: options),
            whenInputWaits: whenInputWaits, longLineEnded: passEnded, work: work, take: write)
    }
    // The runs came first; the stream's pass read what followed them.
    runs.append(summary)
    return runs
}

/// A run of a split stream of values whose values a worker writes (see
/// ``writeValues(from:framing:atKeyPath:wildcard:to:through:options:)``): whole lines or records
/// (``SplitLinesRun``), or whole concatenated values (``SplitValuesRun``).
protocol ValueRun: AnyObject, Sendable {
    /// Reads the run as ``ValueSequencePass`` reads its framing, sending the events of the values
    /// at `keyPath` to `handler`: on a worker, or on the calling thread for a run handed back.
    /// - Returns: The run's values and those the key path led nowhere in, and the error that ended
    ///   the run, in the input's terms.
    func readValues(atKeyPath keyPath: String, wildcard: String?, to handler: any JSONEventHandler)
        -> (ValueSequenceSummary, (any Error)?)

    /// Whether the run may hold a value `length` bytes long or longer.
    func mayHoldValue(atLeast length: Int) -> Bool
}

extension SplitLinesRun: ValueRun {
    func mayHoldValue(atLeast length: Int) -> Bool { hasLine(atLeast: length) }
}

extension SplitValuesRun: ValueRun {
    func mayHoldValue(atLeast length: Int) -> Bool { hasValue(atLeast: length) }
}

/// What a worker wrote of a run's values (see
/// ``writeValues(from:framing:atKeyPath:wildcard:to:through:options:)``).
struct WrittenValues {
    /// The complete values' text, as the stream's emitter writes them: separated by newlines,
    /// none after the last.
    var text: [UInt8] = []
    /// How many complete values `text` holds.
    var count = 0
    /// The run's top-level values, and those the key path led nowhere in.
    var summary = ValueSequenceSummary()
    /// The error that ended the run, in the input's terms.
    var error: (any Error)?
    /// The run, unread, when the calling thread must write it (a line may hold a value longer
    /// than the stream's emitter holds).
    var handedBack: (any ValueRun)?
}

extension ValueRun {
    /// Reads the run (on a worker) as ``ValueSequencePass`` reads its framing, writing the values
    /// at `keyPath` in `style` into memory; a value the run's error cuts short is not written.
    func writeValues(
        atKeyPath keyPath: String, wildcard: String?, style: JSONTextEmitter.Style,
        through makeHandler: (JSONTextEmitter) -> any JSONEventHandler
    ) -> WrittenValues {
        let output = MemoryTextOutput()
        let emitter = JSONTextEmitter(output: output, style: style)
        var written = WrittenValues()
        (written.summary, written.error) = readValues(atKeyPath: keyPath, wildcard: wildcard, to: makeHandler(emitter))
        do {
            try emitter.finishCompleteValues()
        } catch {
            written.error = written.error ?? error
        }
        written.text = output.bytes
        written.count = emitter.completedValueCount
        return written
    }
}

extension SplitLinesRun {
    /// Reads the run as ``ValueSequencePass`` reads JSON Lines (or records), sending the events of the values
    /// at `keyPath` to `handler`: on a worker, or on the calling thread for a run handed back.
    /// - Returns: The run's values and those the key path led nowhere in, and the error that ended
    ///   the run, in the input's terms.
    func readValues(atKeyPath keyPath: String, wildcard: String?, to handler: any JSONEventHandler)
        -> (ValueSequenceSummary, (any Error)?)
    {
        var summary = ValueSequenceSummary()
        let pass = ValueSequencePass(framing: framing, keyPath: keyPath, wildcard: wildcard, to: handler) {
            summary.note($0)
        }
        let error = readOnce(into: pass.makeLinesParser(options: options))
        return (summary, error)
    }
}
