import Dispatch
import Elevate
import Foundation

/// A file's bytes one at a time, buffered a chunk at a time: what `URLSession.AsyncBytes` and
/// `FileHandle.AsyncBytes` are (Linux has neither), declared outside the library as a user's byte
/// source would be, so that the library's per-byte loop is measured as users get it.
struct BufferedFileBytes: AsyncSequence {
    typealias Element = UInt8
    let chunks: AsyncFileChunks

    func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: AsyncFileChunks.Iterator
        var buffer: [UInt8] = []
        var index = 0

        @inline(__always)
        mutating func next() async throws -> UInt8? {
            if index < buffer.count {
                defer { index += 1 }
                return buffer[index]
            }
            return try await refill()
        }

        @inline(never)
        private mutating func refill() async throws -> UInt8? {
            guard let chunk = try await chunks.next(), !chunk.isEmpty else { return nil }
            buffer = chunk
            index = 1
            return chunk[0]
        }
    }
}

/// Stands for the main actor in a benchmark whose main thread waits for the result: an actor on
/// a serial dispatch queue, as the main actor is on the main queue.
actor SerialQueueActor {
    private final class QueueExecutor: SerialExecutor, @unchecked Sendable {
        let queue = DispatchQueue(label: "benchmark main-actor stand-in")
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    private let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Counts the people of `file` with a `for try await` loop isolated to this actor.
    func countPeople(in file: URL) async throws -> Int {
        var count = 0
        let chunks = AsyncFileChunks(url: file, chunkSize: AsyncByteChunks.defaultChunkSize)
        for try await _ in chunks.decodedElements(atKeyPath: Contender.peopleKeyPath, as: CodablePerson.self, decoder: Contender.tapeDecoder()) {
            count += 1
        }
        return count
    }
}

/// Runs `body` in a task and waits for it: the benchmark's contenders are synchronous.
///
/// The task runs on a thread of its own (a task executor preference), not on Swift's
/// cooperative pool: the waiting thread may be one of the pool's (a test calling a contender), and
/// with every pool thread waiting so, a task on the pool would never run.
func waitForTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let executor = DedicatedThreadExecutor()
    defer { executor.stop() }
    let done = DispatchSemaphore(value: 0)
    let result = LockedBox<Result<T, any Error>?>(nil)
    Task(executorPreference: executor) {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// A task executor with one thread of its own, which runs the jobs enqueued on it in order.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isStopped = false

    init() {
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Ends the thread once the jobs enqueued so far have run.
    func stop() {
        condition.withLock {
            isStopped = true
            condition.signal()
        }
    }

    private func run() {
        while true {
            let next: [UnownedJob] = condition.withLock {
                while jobs.isEmpty && !isStopped { condition.wait() }
                defer { jobs.removeAll() }
                return jobs
            }
            if next.isEmpty { return }
            for job in next { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}

extension Contender {
    /// Counts the people of the file with `decodedElements` over 64 KiB chunks
    /// (``asyncChunks``), single bytes (``asyncBytes``) or chunks on an actor (``asyncOnActor``).
    func runAsync(file: URL) throws -> Int {
        let contender = self
        return try waitForTask {
            let chunks = AsyncFileChunks(url: file, chunkSize: AsyncByteChunks.defaultChunkSize)
            var count = 0
            switch contender {
            case .asyncBytes:
                for try await _ in BufferedFileBytes(chunks: chunks).decodedElements(
                    atKeyPath: Contender.peopleKeyPath, as: CodablePerson.self, decoder: Contender.tapeDecoder())
                {
                    count += 1
                }
            case .asyncOnActor:
                count = try await SerialQueueActor().countPeople(in: file)
            default:
                for try await _ in chunks.decodedElements(atKeyPath: Contender.peopleKeyPath, as: CodablePerson.self, decoder: Contender.tapeDecoder()) {
                    count += 1
                }
            }
            return count
        }
    }
}
