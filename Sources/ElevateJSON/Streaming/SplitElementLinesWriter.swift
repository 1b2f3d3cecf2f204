/// Writes the elements of a split array as lines (`extract --json-lines` with several workers):
/// a worker parses each run and writes its elements' lines into memory with an emitter of its own
/// (``SplitRun/emitLines(rawStrings:)``), and the calling thread hands them to the stream's
/// emitter in document order. An element too long to hold for a worker is read on by a tail on
/// the calling thread, written straight to the stream's emitter once the runs before it are.
///
/// The output is one thread's: the same lines, and on an error the complete elements before it,
/// then the error, in the input's terms.
final class SplitElementLinesWriter: SplitRunConsumer {
    private let parallel: ParallelElementDecoder<SplitRun.Lines>
    private let emitter: JSONTextEmitter
    private let rawStrings: Bool

    /// - Parameters:
    ///   - emitter: The stream's emitter, which the lines go to.
    ///   - workers: How many runs are parsed at once, the calling thread's included.
    ///   - rawStrings: Whether a string element is written as its text (`extract -r`), as
    ///     `emitter` writes top-level strings.
    init(emitter: JSONTextEmitter, workers: Int, rawStrings: Bool) {
        self.emitter = emitter
        self.rawStrings = rawStrings
        parallel = ParallelElementDecoder(workers: workers, decode: { _ in SplitRun.Lines(text: [], count: 0) })
    }

    func take(_ run: SplitRun) throws {
        let rawStrings = rawStrings
        parallel.submitWork { .success(run.emitLines(rawStrings: rawStrings)) }
        try parallel.drain(untilAllDone: false, to: .borrowing(write))
    }

    func startTail(from run: SplitRun) -> SplitTail {
        let splitter = JSONLinesSplitter(forwardingTo: emitter, skipsFirstElement: !run.isFirst)
        // The tail's first event is its run's synthetic `[`: the runs before it are written first.
        // Their error is in the input's terms already: carried through the tail's parser so that
        // it is not moved again as an error of the tail's own text.
        splitter.arrayStarted = { [unowned self] in
            do {
                try settle()
            } catch {
                throw EarlierRunFailed(error: error)
            }
        }
        return run.startTail(sendingTo: splitter) { ($0 as? EarlierRunFailed)?.error }
    }

    /// An error of a run before the tail, thrown from the tail's parser.
    private struct EarlierRunFailed: Error {
        var error: any Error
    }

    func endTail(_ tail: SplitTail, of run: SplitRun) {}

    /// Waits for every run taken and writes its lines.
    /// - Throws: The first run's error, in document order, after the lines before it.
    func settle() throws {
        try parallel.drain(untilAllDone: true, to: .borrowing(write))
    }

    /// Stops the workers, writing nothing more.
    func cancel() {
        parallel.cancel()
    }

    private func write(_ lines: SplitRun.Lines) throws {
        try lines.text.withUnsafeBytes { try emitter.writeCompleteValues($0, count: lines.count) }
        if let error = lines.error { throw error }
    }
}
