import Foundation

/// A value that is only reached while holding the lock that guards it, modelled on swift-nio's
/// `NIOLockedValueBox`: the guard is the type, not a comment next to a `var`.
///
/// ```swift
/// private let cache = LockedBox([String: Int]())
/// let count = cache.withLock { $0.count }
/// ```
///
/// Built on `NSLock` because the package supports macOS 13: the standard library's
/// `Synchronization.Mutex` needs macOS 15. Every class of the library that shares mutable state
/// between threads keeps it in one of these (a struct of fields when there are several) instead of
/// guarding stored `var`s by hand, so that such a class can be plain `Sendable` and this type holds
/// the one `@unchecked Sendable` that a lock needs. `package`, not public: the tool and the benchmark
/// kit of this package use it too, and no user sees it.
package final class LockedBox<Value> {
    private let lock = NSLock()
    // Read and written only inside `withLock`, with `lock` held.
    private var value: Value

    /// A box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held, and returns what it returns. `body` must not
    /// call `withLock` on the same box (`NSLock` is not recursive).
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Sound because the value is only ever reached through `withLock`, that is with `lock` held, so no
/// two threads touch it at once; the value itself must be `Sendable`, since `withLock` can hand a
/// copy of it (or of its parts) to the calling thread, as `NIOLockedValueBox` requires too.
extension LockedBox: @unchecked Sendable where Value: Sendable {}
