/// The runs of a split read of a stream of values (``readLineRuns(of:framing:options:rest:whenInputWaits:work:take:)``,
/// ``readValueRuns(of:options:rest:whenInputWaits:work:take:)``): each run's work goes to a worker
/// when ``StreamingOptions/concurrency`` is above 1 (else it is done at once, on the calling thread),
/// and its outcome to `take`, on the calling thread, in document order. The first error `take`
/// throws is the read's.
final class RunOutcomes<Outcome> {
    private let parallel: ParallelElementDecoder<Outcome>?
    private let take: (Outcome) throws -> Void
    /// Whether a run's error (the first, in document order) was thrown already.
    private var failed = false

    init(options: StreamingOptions, take: @escaping (Outcome) throws -> Void) {
        parallel =
            options.concurrency > 1
            ? ParallelElementDecoder<Outcome>(
                workers: options.concurrency,
                decode: { _ in preconditionFailure("runs are submitted as work, not elements") })
            : nil
        self.take = take
    }

    /// Hands `work` to a worker and takes the outcomes finished so far; or, with one worker, does
    /// it and takes its outcome.
    func submit(_ work: @escaping () -> Outcome) throws {
        guard let parallel else {
            try taking { try take(work()) }
            return
        }
        parallel.submitWork { .success(work()) }
        try drain(untilAllDone: false)
    }

    /// Takes the outcomes finished so far, or (`untilAllDone`) every one, waiting for them.
    func drain(untilAllDone: Bool) throws {
        guard let parallel else { return }
        try taking { try parallel.drain(untilAllDone: untilAllDone, to: .borrowing(take)) }
    }

    /// Before an error of the read's own, met after the runs: their first error comes first.
    func drainBeforeError() throws {
        if !failed { try drain(untilAllDone: true) }
    }

    /// Stops the workers; nothing more is taken.
    func cancel() {
        parallel?.cancel()
    }

    private func taking(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            failed = true
            throw error
        }
    }
}
