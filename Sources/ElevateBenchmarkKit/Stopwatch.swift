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
        // One piece taking turns with no other is timed run after run.
        try withoutActuallyEscaping(body) { try bestTakingTurns(of: runs, [$0])[0] }
    }

    /// Times several pieces of work against each other: each runs once to warm up, then `runs`
    /// rounds each time every piece once, in turn, and each piece keeps its fastest run. Each
    /// round starts one piece further on, so that no piece always follows the same neighbour.
    ///
    /// Taking turns is what makes the pieces' ratios worth reading on a shared machine: noise
    /// comes in bursts of seconds, and a burst that slowed every run of one piece (timed one
    /// after another) would shift the ratio; with turns it slows a round of all of them, and
    /// every piece's best still comes from a quiet round.
    /// - Parameters:
    ///   - runs: The number of rounds; at least one is made.
    ///   - bodies: The pieces of work; what each returns must be the same on every run.
    /// - Returns: One timing per piece, in the order given.
    /// - Throws: What a body throws, or ``InconsistentResult`` when two runs of one piece return
    ///   different results.
    public static func bestTakingTurns(of runs: Int, _ bodies: [() throws -> Int]) throws -> [Timing] {
        var timings = try bodies.map { Timing(seconds: .infinity, result: try $0()) }
        for round in 0..<max(runs, 1) {
            for turn in bodies.indices {
                let index = (round + turn) % bodies.count
                let body = bodies[index]
                let start = ContinuousClock.now
                let again = try body()
                let elapsed = ContinuousClock.now - start
                guard again == timings[index].result else {
                    throw InconsistentResult(first: timings[index].result, later: again)
                }
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                timings[index].seconds = min(timings[index].seconds, seconds)
            }
        }
        return timings
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
