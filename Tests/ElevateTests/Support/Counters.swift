import Foundation

/// A thread-safe counter for chunk producers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() -> Int {
        lock.withLock {
            count += 1; return count
        }
    }
}

/// Collects progress reports, which arrive through a `@Sendable` closure.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [Int] = []
    var values: [Int] { lock.withLock { reports } }
    func append(_ bytesRead: Int) { lock.withLock { reports.append(bytesRead) } }
}
