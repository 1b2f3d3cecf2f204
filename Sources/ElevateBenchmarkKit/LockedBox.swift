import Foundation

/// A value reached only while holding the lock that guards it: this module's copy of the Elevate
/// library's internal `LockedBox` (modelled on swift-nio's `NIOLockedValueBox`), which stays
/// internal there so that it is no part of the library's public API. `NSLock`, because the package
/// supports macOS 13 and `Synchronization.Mutex` needs macOS 15.
final class LockedBox<Value> {
    private let lock = NSLock()
    // Read and written only inside `withLock`, with `lock` held.
    private var value: Value

    /// A box holding `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held (not recursive: `body` must not call `withLock`
    /// on the same box), and returns what it returns.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Sound because the value is only reached with `lock` held; it must be `Sendable` itself, since
/// `withLock` can hand copies of it to the calling thread.
extension LockedBox: @unchecked Sendable where Value: Sendable {}
