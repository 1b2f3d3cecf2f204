import Dispatch

/// Byte chunks as an asynchronous sequence, for the `AsyncSequence` entry points.
public struct Chunks: AsyncSequence {
    public let chunks: [[UInt8]]

    public init(chunks: [[UInt8]]) { self.chunks = chunks }

    public func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks) }

    public struct Iterator: AsyncIteratorProtocol {
        let chunks: [[UInt8]]
        var index = 0
        public mutating func next() async -> [UInt8]? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            return chunks[index]
        }
    }
}

/// Runs `body` on the concurrency runtime and waits for it: libFuzzer calls a target synchronously.
public func runBlocking<T>(_ body: @escaping () async -> T) -> T {
    let box = BlockingBox(body: body)
    let done = DispatchSemaphore(value: 0)
    Task {
        box.result = await box.body()
        done.signal()
    }
    done.wait()
    return box.result!
}

/// Carries the work to the task and its result back. Unchecked: the result is written before the
/// semaphore is signalled and read after the wait, which orders the two.
final class BlockingBox<T>: @unchecked Sendable {
    let body: () async -> T
    var result: T?
    init(body: @escaping () async -> T) { self.body = body }
}
