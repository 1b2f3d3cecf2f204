import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

private typealias Item = NamedItem
private let document = NamedItem.document

/// Counts the elements it decodes, from whichever thread decodes them.
private final class CountingDecoder: Elevate.Decoder, @unchecked Sendable {
    private let lock = NSLock()
    private var decoded = 0
    var count: Int { lock.withLock { decoded } }

    func decode(_ object: Any) throws -> Any {
        lock.withLock { decoded += 1 }
        return try Int(json: object)
    }
}

/// The error a task ended with, or nil when it returned.
private func failure(of task: Task<Int, any Error>) async -> (any Error)? {
    if case .failure(let error) = await task.result { return error }
    return nil
}

/// `decodedElements` and `decodedValues` on an asynchronous sequence of chunks: elements as they
/// complete, cancellation while waiting for input, latency within a large chunk, and the end of
/// the iteration after an error.
@Suite struct AsyncElementSequenceTests {
    @Test func cancellingWhileTheSourceWaitsThrowsCancellationError() async throws {
        let (source, continuation) = AsyncStream<[UInt8]>.makeStream()
        // A document that has begun, from a source that never finishes.
        continuation.yield(Array(#"{"items": [{"id": 1"#.utf8))
        let chunks = AnnouncingChunks(source)
        let task = Task<Int, any Error> {
            var count = 0
            for try await _ in chunks.decodedElements(atKeyPath: "items", as: Int.self) { count += 1 }
            return count
        }
        // The iteration has read the first chunk and waits for the second.
        try await chunks.waitForPull(2)
        task.cancel()
        let error = await failure(of: task)
        #expect(error is CancellationError, "ended with \(String(describing: error))")
        withExtendedLifetime(continuation) {}
    }

    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func cancellingValuesWhileTheSourceWaitsThrowsCancellationError(framing: JSONFraming) async throws {
        let (source, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(Array("1\n[2, ".utf8))
        let chunks = AnnouncingChunks(source)
        let task = Task<Int, any Error> {
            var count = 0
            for try await _ in chunks.decodedValues(framing: framing, as: Int.self) { count += 1 }
            return count
        }
        // The iteration has read the first chunk and waits for the second.
        try await chunks.waitForPull(2)
        task.cancel()
        let error = await failure(of: task)
        #expect(error is CancellationError, "ended with \(String(describing: error))")
        withExtendedLifetime(continuation) {}
    }

    /// One 8 MB chunk of 2,000,000 small elements: the first must come out long before the chunk
    /// is decoded.
    @Test func theFirstElementOfALargeChunkComesOutEarly() async throws {
        var bytes = Array("[".utf8)
        let element = Array("1234567,".utf8)
        bytes.reserveCapacity(element.count * 1_000_000 + 2)
        for _ in 0..<1_000_000 { bytes.append(contentsOf: element) }
        bytes[bytes.count - 1] = UInt8(ascii: "]")
        #expect(bytes.count >= 8_000_000)
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(bytes)
        continuation.finish()
        let decoder = CountingDecoder()
        var decodedBeforeFirst: Int?
        var delivered = 0
        for try await value in chunks.decodedElements(atKeyPath: "", with: decoder, as: Int.self) {
            if decodedBeforeFirst == nil { decodedBeforeFirst = decoder.count }
            #expect(value == 1_234_567)
            delivered += 1
            if delivered == 10 { break }
        }
        #expect(delivered == 10)
        let before = try #require(decodedBeforeFirst)
        #expect(before <= 2_000, "\(before) elements were decoded before the first was delivered")
    }

    /// Slicing does not change what comes out, whatever the sizes of elements and chunks.
    @Test func largeChunksDeliverEveryElementInOrder() async throws {
        let long = String(repeating: "s", count: 200_000)
        let values = (0..<5_000).map { $0 % 1000 == 0 ? "\"\(long)\($0)\"" : "\"v\($0)\"" }
        let bytes = Array(("[" + values.joined(separator: ",") + "]").utf8)
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(Array(bytes[..<(bytes.count / 2)]))
        continuation.yield(Array(bytes[(bytes.count / 2)...]))
        continuation.finish()
        var seen: [String] = []
        for try await value in chunks.decodedElements(atKeyPath: "", as: String.self) { seen.append(value) }
        #expect(seen == values.map { String($0.dropFirst().dropLast()) })
    }

    @Test func asyncSequenceOfChunks() async throws {
        let bytes = Array(document.utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 5) {
                continuation.yield(Array(bytes[start..<min(start + 5, bytes.count)]))
            }
            continuation.finish()
        }
        var names: [String] = []
        for try await item in chunks.decodedElements(atKeyPath: "data.items", as: Item.self) {
            names.append(item.name)
        }
        #expect(names == ["a", "b", "c"])
    }

    @Test func asyncSequenceStopsReadingWhenTheConsumerStops() async throws {
        let element = #"{"id": 1, "name": "a"},"#
        let pulled = Counter()
        let chunks = AsyncStream<[UInt8]>(unfolding: {
            let n = pulled.increment()
            if n == 1 { return Array(#"{"items": ["#.utf8) }
            return Array(element.utf8)  // an endless array
        })
        var taken = 0
        for try await _ in chunks.decodedElements(atKeyPath: "items", as: Item.self) {
            taken += 1
            if taken == 3 { break }
        }
        #expect(taken == 3)
        #expect(pulled.value < 10)
    }

    @Test func asyncSequenceHonoursCancellation() async throws {
        let pulled = Counter()
        // An endless root array, one element per chunk.
        let chunks = AnnouncingChunks(
            AsyncStream<[UInt8]>(unfolding: {
                if pulled.increment() == 1 { return Array("[".utf8) }
                return Array(#"{"id": 1, "name": "a"},"#.utf8)
            }))
        let task = Task {
            var count = 0
            for try await _ in chunks.decodedElements(atKeyPath: "", as: Item.self) {
                count += 1
            }
            return count
        }
        // Cancel once the iteration is under way (a chunk past the first has been asked for),
        // whatever the machine's speed: a fixed sleep raced the first pulls.
        try await chunks.waitForPull(2)
        task.cancel()
        let result = await task.result
        switch result {
        case .success: Issue.record("the iteration ended without an error")
        case .failure(let error): #expect(error is CancellationError)
        }
        // The reader asked for the second chunk (`waitForPull(2)`) before the cancel; whether the
        // source then made it is a race the cancel may win (the stream's closure is not called
        // for a cancelled task): checking `pulled.value > 1` here failed once in CI.
        #expect(pulled.value >= 1)
    }

    @Test func asyncIterationEndsAfterAnError() async throws {
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("[1, 2, x".utf8))
            continuation.yield(Array(", 3]".utf8))
            continuation.finish()
        }
        var iterator = chunks.decodedElements(atKeyPath: "", as: Int.self).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 2)
        await #expect(throws: ParserError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func asyncElementsWithADecoder() async throws {
        struct Doubler: Elevate.Decoder {
            func decode(_ object: Any) throws -> Any { try Int(json: object) * 2 }
        }
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(#"{"n": [1, 2, 3]}"#.utf8))
            continuation.finish()
        }
        var doubled: [Int] = []
        for try await value in chunks.decodedElements(atKeyPath: "n", with: Doubler(), as: Int.self) {
            doubled.append(value)
        }
        #expect(doubled == [2, 4, 6])
    }
}
