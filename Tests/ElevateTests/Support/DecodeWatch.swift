import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches the decodes of one call that decodes on worker threads, so that "nothing is decoded
/// once the call has returned" is checked on events instead of after a sleep.
///
/// A decoder calls ``decodeStarted()`` and ``decodeEnded()`` around each decode. The test calls
/// ``markReturned()`` when the call has returned (or its iteration has thrown): a decode still
/// running then, or one that starts afterwards, is counted. ``waitForWorkerThreadsToExit(timeout:)``
/// then waits for the real event that ends all doubt: every decoding-pool thread that decoded for
/// this call has exited (each thread registers a thread-specific value whose destructor runs as the
/// thread ends), after which none of them can decode again. The timeout only bounds a hang.
final class DecodeWatch: @unchecked Sendable {
    private let condition = NSCondition()
    // Behind `condition`.
    private var decodes = 0
    private var running = 0
    private var returned = false
    private var late = 0
    private var workerThreads = 0
    private var exitedThreads = 0

    /// How many decodes have started.
    var count: Int { condition.withLock { decodes } }

    /// How many decodes started after ``markReturned()``.
    var decodesAfterReturn: Int { condition.withLock { late } }

    /// The decoding-pool threads that have decoded for this call so far.
    var workerThreadCount: Int { condition.withLock { workerThreads } }

    func decodeStarted() {
        registerIfPoolThread()
        condition.withLock {
            decodes += 1
            running += 1
            if returned { late += 1 }
        }
    }

    func decodeEnded() {
        condition.withLock { running -= 1 }
    }

    /// Marks the call as returned: the decodes started so far, and those still running.
    func markReturned() -> (decoded: Int, running: Int) {
        condition.withLock {
            returned = true
            return (decodes, running)
        }
    }

    /// Waits until every decoding-pool thread that decoded for this call has exited; false if
    /// one is still alive after `timeout`.
    func waitForWorkerThreadsToExit(timeout: TimeInterval = 60) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while exitedThreads < workerThreads {
                if !condition.wait(until: deadline) { return exitedThreads >= workerThreads }
            }
            return true
        }
    }

    private func workerThreadExited() {
        condition.withLock {
            exitedThreads += 1
            condition.broadcast()
        }
    }

    // MARK: Thread exits

    /// Marks a thread already looked at that is not a decoding-pool thread: the destructor ignores it.
    nonisolated(unsafe) private static let notAWorker = UnsafeMutableRawPointer(bitPattern: 1)!

    /// One key for the whole test process; its value on a pool thread is this watch, retained.
    private static let exitKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Glibc)
            let status = pthread_key_create(&key) { value in
                guard let value else { return }
                DecodeWatch.threadExited(with: value)
            }
        #else
            let status = pthread_key_create(&key) { value in DecodeWatch.threadExited(with: value) }
        #endif
        precondition(status == 0, "pthread_key_create failed")
        return key
    }()

    private static func threadExited(with value: UnsafeMutableRawPointer) {
        guard value != notAWorker else { return }
        Unmanaged<DecodeWatch>.fromOpaque(value).takeRetainedValue().workerThreadExited()
    }

    /// The first time a thread decodes: a thread of the library's decoding pool (named
    /// `Elevate.decoder`) is counted and will report its exit; any other thread (the caller's, the
    /// concurrency runtime's) is only marked as looked at.
    private func registerIfPoolThread() {
        let key = Self.exitKey
        guard pthread_getspecific(key) == nil else { return }
        guard Self.isDecodingPoolThread() else {
            pthread_setspecific(key, Self.notAWorker)
            return
        }
        condition.withLock { workerThreads += 1 }
        pthread_setspecific(key, Unmanaged.passRetained(self).toOpaque())
    }

    private static func isDecodingPoolThread() -> Bool {
        #if os(Linux)
            // The pool names its threads here; Foundation's `Thread.name` does not reach the system.
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix("Elevate.decoder")
        #else
            return Thread.current.name == "Elevate.decoder"
        #endif
    }
}

extension DecodeWatch {
    /// Marks the call as returned, then checks that nothing was decoding then, that no worker
    /// outlives the call and that nothing was decoded after it (`setting` names the case).
    func expectNothingDecodedAfterReturn(_ setting: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let atReturn = markReturned()
        #expect(atReturn.running == 0, "still decoding at return: \(setting)", sourceLocation: sourceLocation)
        #expect(waitForWorkerThreadsToExit(), "a worker outlived the call: \(setting)", sourceLocation: sourceLocation)
        #expect(count == atReturn.decoded, "decoded after return: \(setting)", sourceLocation: sourceLocation)
    }

    /// Iterates the sequence `makeValues` makes, in a task that cancels itself once
    /// `cancelAfter` values have come, checking that each value's index (`index`) is the next one;
    /// then checks that the iteration ended with `CancellationError` part way, and that, from
    /// then on, nothing decodes and no worker is left: what cancelling an iteration with workers
    /// must give.
    /// - Returns: How many values came.
    @discardableResult
    func expectCancellationStops<Values: AsyncSequence>(
        after cancelAfter: Int, of total: Int, _ makeValues: @escaping @Sendable () -> Values,
        index: @escaping @Sendable (Values.Element) -> Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Int {
        let task = Task { () -> (Int, String) in
            var seen = 0
            do {
                for try await value in makeValues() {
                    #expect(index(value) == seen, sourceLocation: sourceLocation)
                    seen += 1
                    if seen == cancelAfter { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (seen, "finished")
            } catch {
                return (seen, "\(type(of: error))")
            }
        }
        let (seen, ending) = await task.value
        #expect(ending == "CancellationError", sourceLocation: sourceLocation)
        #expect(seen >= cancelAfter && seen < total, sourceLocation: sourceLocation)
        let atEnd = markReturned()
        #expect(atEnd.running == 0, "still decoding when the task ended", sourceLocation: sourceLocation)
        #expect(waitForWorkerThreadsToExit(), "a worker outlived the iteration", sourceLocation: sourceLocation)
        #expect(count == atEnd.decoded, sourceLocation: sourceLocation)
        #expect(atEnd.decoded < total, sourceLocation: sourceLocation)
        return seen
    }
}
