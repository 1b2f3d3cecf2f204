/// Times a piece of work: one untimed warm-up run, then the best of several timed runs.
///
/// The best time, not the mean, because on a shared machine noise only ever adds time.
///
/// ```swift
/// let timing = try Stopwatch.best(of: 3) { try Contender.elevateValues.run(on: input) }
/// print(Double(input.data.count) / 1e6 / timing.seconds, "MB/s")
/// ```
public enum Stopwatch {
    /// The outcome of ``best(of:_:)``.
    public struct Timing: Sendable, Hashable {
        /// The fastest run, in seconds.
        public var seconds: Double
        /// What the warm-up run returned.
        public var result: Int
    }

    /// Runs `body` once to warm up, then `runs` more times, timing each.
    /// - Parameters:
    ///   - runs: The number of timed runs; at least one is made.
    ///   - body: The work; what it returns must be the same on every run.
    /// - Returns: The fastest timed run and the result.
    /// - Throws: What `body` throws, or ``InconsistentResult`` when two runs return different
    ///   results.
    public static func best(of runs: Int, _ body: () throws -> Int) throws -> Timing {
        let result = try body()
        var best = Double.infinity
        for _ in 0..<max(runs, 1) {
            let start = ContinuousClock.now
            let again = try body()
            let elapsed = ContinuousClock.now - start
            guard again == result else { throw InconsistentResult(first: result, later: again) }
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return Timing(seconds: best, result: result)
    }

    /// Two runs of the same work returned different results.
    public struct InconsistentResult: Error, Sendable, CustomStringConvertible {
        /// The warm-up's result.
        public var first: Int
        /// The differing later result.
        public var later: Int
        /// A sentence naming both.
        public var description: String { "runs returned different results: \(first), then \(later)" }
    }
}
