import Foundation

/// A sequence of byte chunks that announces every pull: each call of its iterator's `next()`
/// reports the pull's number before it waits for the chunk. A test awaits the pull it cares about
/// (``waitForPull(_:timeout:)``), such as the reader asking for a chunk its source does not have
/// yet, instead of sleeping and hoping the reader has got there by then.
struct AnnouncingChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == [UInt8] {
    typealias Element = [UInt8]

    let base: Base
    private let pulls: AsyncStream<Int>
    private let announce: AsyncStream<Int>.Continuation

    init(_ base: Base) {
        self.base = base
        (pulls, announce) = AsyncStream<Int>.makeStream()
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let announce: AsyncStream<Int>.Continuation
        var pulled = 0

        mutating func next() async throws -> [UInt8]? {
            pulled += 1
            announce.yield(pulled)
            return try await base.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), announce: announce) }

    /// Returns once a reader has asked for chunk `number` (1 for the first); throws ``TimedOut``
    /// if none has after `timeout`, which only a hang reaches.
    func waitForPull(_ number: Int, timeout: Duration = .seconds(60)) async throws {
        let pulls = self.pulls
        try await withTimeout(timeout) {
            for await pull in pulls where pull >= number { return }
        }
    }
}

/// A wait that reached its bound: what a test reports instead of hanging.
struct TimedOut: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "nothing happened within \(limit)" }
}

/// Runs `body`, throwing ``TimedOut`` if it has not finished within `limit`. The limit only bounds
/// a failure (a hang); the test still waits for the event `body` waits for.
func withTimeout(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            try await body()
            return true
        }
        group.addTask {
            try await Task.sleep(for: limit)
            return false
        }
        defer { group.cancelAll() }
        guard try await group.next() == true else { throw TimedOut(limit: limit) }
    }
}
