import ElevateJSON
import Foundation
import Testing

/// The `AsyncSequence` calls read every async byte source Swift users have: sequences of single
/// bytes (`URLSession.AsyncBytes`, `AsyncStream<UInt8>`), and chunks of any byte collection,
/// without a copy where the storage is contiguous; a loop on the main actor stays on it.
@Suite struct AsyncByteSourceTests {
    struct Person: Codable, Equatable {
        var id: Int
        var name: String
    }

    static let people = (0..<500).map { Person(id: $0, name: "person \($0)") }
    static let document = Array(
        #"{"items": [\#(people.map { #"{"id": \#($0.id), "name": "\#($0.name)"}"# }.joined(separator: ", "))]}"#.utf8)

    /// A byte-at-a-time source that buffers, as `URLSession.AsyncBytes` and
    /// `FileHandle.AsyncBytes` do: what the per-byte loop is made for.
    struct BufferedBytes: AsyncSequence {
        typealias Element = UInt8
        let bytes: [UInt8]
        func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes) }
        struct Iterator: AsyncIteratorProtocol {
            let bytes: [UInt8]
            var index = 0
            mutating func next() async throws -> UInt8? {
                guard index < bytes.count else { return nil }
                defer { index += 1 }
                return bytes[index]
            }
        }
    }

    static func stream(_ bytes: [UInt8]) -> AsyncStream<UInt8> {
        AsyncStream { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
    }

    @Test func anAsyncStreamOfBytesDecodesItsElements() async throws {
        var people: [Person] = []
        for try await person in Self.stream(Self.document).decodedElements(atKeyPath: "items", as: Person.self) {
            people.append(person)
        }
        #expect(people == Self.people)
    }

    @Test func everyCallTakesASequenceOfBytes() async throws {
        let bytes = BufferedBytes(bytes: Self.document)
        let value = try await JSONValue(parsing: bytes)
        #expect(value["items"]?.count == 500)
        let decoded = try await ElevateJSONDecoder().decode([Person].self, from: bytes, atKeyPath: "items")
        #expect(decoded == Self.people)
        #expect(try await bytes.summarizeValue(atKeyPath: "items")?.count == 500)
        let lines = BufferedBytes(bytes: Array("{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}\n".utf8))
        var ids: [Int] = []
        for try await person in lines.decodedValues(framing: .jsonLines, as: Person.self) { ids.append(person.id) }
        #expect(ids == [1, 2])
        final class Events: JSONEventHandler {
            var names: [String] = []
            func startArray() throws { names.append("[") }
            func endArray() throws { names.append("]") }
            func number(_ value: JSONNumberText) throws { names.append("number") }
            func bool(_ value: Bool) throws { names.append("\(value)") }
        }
        let events = Events()
        #expect(try await BufferedBytes(bytes: Array(#"{"a": [1, true]}"#.utf8)).forEachEvent(atKeyPath: "a", to: events))
        #expect(events.names == ["[", "number", "true", "]"])
    }

    /// Errors are those of the same bytes in chunks: the offset counts bytes, not chunks.
    @Test func aSyntaxErrorIsTheSameAsInChunks() async throws {
        let bytes = Array(#"{"items": [{"id": 1, "name": "a"}, {"id": 2, "name": x}]}"#.utf8)
        func failure<S: AsyncSequence>(_ sequence: AsyncJSONElements<Person, S>) async -> String {
            do {
                for try await _ in sequence {}
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let fromBytes = await failure(Self.stream(bytes).decodedElements(atKeyPath: "items", as: Person.self))
        let fromChunks = await failure([bytes].async.decodedElements(atKeyPath: "items", as: Person.self))
        #expect(fromBytes == fromChunks)
        #expect(fromBytes.contains("byte offset 53"))
    }

    /// The chunks the byte source is gathered into hold at most the chunk size, in order.
    @Test func bytesAreGatheredIntoChunksOfTheChunkSize() async throws {
        var sizes: [Int] = []
        var all: [UInt8] = []
        for try await chunk in AsyncByteChunks(BufferedBytes(bytes: Self.document), chunkSize: 1000) {
            sizes.append(chunk.count)
            all += chunk
        }
        #expect(all == Self.document)
        #expect(sizes.dropLast().allSatisfy { $0 == 1000 } && sizes.last! <= 1000)
        var empty = 0
        for try await _ in AsyncByteChunks(BufferedBytes(bytes: [])) { empty += 1 }
        #expect(empty == 0)
    }

    /// A chunk type with contiguous storage, which records whether anyone iterated it byte by byte
    /// (the copy the calls must not make).
    struct ContiguousChunk: Sequence {
        final class Copies: @unchecked Sendable { var count = 0 }
        let bytes: [UInt8]
        let copies: Copies
        func makeIterator() -> IndexingIterator<[UInt8]> {
            copies.count += 1
            return bytes.makeIterator()
        }
        func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
            try bytes.withUnsafeBufferPointer(body)
        }
    }

    @Test func contiguousChunksAreParsedInPlace() async throws {
        let copies = ContiguousChunk.Copies()
        let chunks = stride(from: 0, to: Self.document.count, by: 777).map {
            ContiguousChunk(bytes: Array(Self.document[$0..<min($0 + 777, Self.document.count)]), copies: copies)
        }
        var count = 0
        for try await _ in chunks.async.decodedElements(atKeyPath: "items", as: Person.self) { count += 1 }
        #expect(count == 500)
        #expect(try await JSONValue(parsing: chunks.async)["items"]?.count == 500)
        #expect(try await chunks.async.summarizeValue(atKeyPath: "items")?.count == 500)
        #expect(copies.count == 0)
        // Data and ArraySlice chunks, the other everyday shapes.
        let data = chunks.map { Data($0.bytes) }
        #expect(try await ElevateJSONDecoder().decode([Person].self, from: data.async, atKeyPath: "items") == Self.people)
        let slices = chunks.map { $0.bytes[...] }
        #expect(try await JSONValue(parsing: slices.async)["items"]?.count == 500)
    }

    /// An executor that counts the jobs it is given: each hop of an actor's code back onto it.
    final class CountingExecutor: SerialExecutor, @unchecked Sendable {
        private let queue = DispatchQueue(label: "counting executor")
        private let lock = NSLock()
        private var jobs = 0
        var jobCount: Int { lock.withLock { jobs } }

        func enqueue(_ job: consuming ExecutorJob) {
            lock.withLock { jobs += 1 }
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    /// Iterates on its own executor, as code on the main actor iterates on the main queue.
    actor Consumer {
        let executor = CountingExecutor()
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func count(_ url: URL) async throws -> Int {
            var count = 0
            for try await _ in AsyncFileChunks(url: url, chunkSize: 4096).decodedElements(atKeyPath: "items", as: Person.self) {
                count += 1
            }
            return count
        }
    }

    /// `next(isolation:)`: a loop on an actor (the main actor, in top-level code) parses and
    /// decodes on the actor's executor, without a hop off it and back for every element.
    @Test func aLoopOnAnActorStaysOnItsExecutor() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("actor-\(UUID().uuidString).json")
        try Data(Self.document).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let consumer = Consumer()
        #expect(try await consumer.count(url) == 500)
        // One job to enter the actor (and a few for the task's own start and end); a hop per
        // element would be 500 more.
        #expect(consumer.executor.jobCount < 10)
    }
}

extension Array where Element: Sendable {
    /// The array as an asynchronous sequence of its elements, for tests.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
