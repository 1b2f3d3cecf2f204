import Foundation

/// Runs `body` on a thread of its own with a stack of `stackSize` bytes and returns what it
/// returned: the stack-depth tests run decodes on the 512 KiB stacks of secondary threads, and the
/// deep-value tests on very large ones.
///
/// With `seconds`, waits at most that long and returns nil when `body` has not returned (a test of
/// a hang then fails instead of hanging the suite; the stuck thread is left behind).
public func runOnThread<T: Sendable>(
    stackSize: Int, waitingAtMost seconds: Double? = nil, _ body: @escaping @Sendable () -> T
) -> T? {
    let box = ThreadResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    if let seconds {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    } else {
        done.wait()
    }
    return box.value
}

private final class ThreadResultBox<T>: @unchecked Sendable {
    // Written by the thread before it signals the semaphore, read only after the wait returns.
    var value: T?
}
