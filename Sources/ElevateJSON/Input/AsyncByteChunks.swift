/// An asynchronous sequence of single bytes (`URLSession.AsyncBytes`, `FileHandle.AsyncBytes`,
/// an `AsyncStream<UInt8>`, swift-async-algorithms' `AsyncBufferedByteIterator`) gathered into
/// chunks, so that it can feed every `AsyncSequence` call of the library.
///
/// The calls take byte sources directly (`bytes.decodedElements(atKeyPath:as:)`,
/// `JSONValue(parsing: bytes)`, …) and build this sequence themselves; make one by hand only to
/// choose the chunk size or to pass the chunks to code of your own.
///
/// ```swift
/// let (bytes, _) = try await URLSession.shared.bytes(from: url)
/// for try await item in bytes.decodedElements(atKeyPath: "items", as: Item.self) {
///     print(item.name)
/// }
/// ```
///
/// A byte source is read one byte per call of its iterator's `next()`, which costs little only
/// where that call is specialized for the source's type: so the loop that gathers bytes is
/// compiled into the caller's module (this initializer and the calls that build it are
/// `@inlinable`), where the source's type is known, and the library's parser sees one chunk at a
/// time. A chunk is handed on when it is full or the source ends; a source that pauses mid-chunk
/// (a socket between two packets) is waited for, so a live stream that needs each value as soon
/// as it arrives is better read as chunks, as NIO and `URLSession`'s delegate deliver them.
public struct AsyncByteChunks: AsyncSequence {
    /// A chunk of the source's bytes, up to the chunk size.
    public typealias Element = [UInt8]
    /// Iteration throws what the source throws.
    public typealias Failure = any Error

    /// Makes the chunk reader of one iteration: a closure over a new iterator of the source.
    @usableFromInline let makeReader: () -> ChunkReader

    /// Reads the next chunk, or nil at the end of the source.
    @usableFromInline typealias ChunkReader = () async throws -> [UInt8]?

    /// The default chunk size: 64 KiB, large enough that the parser's per-chunk work is nothing
    /// beside the per-byte reads, small enough that a value is parsed soon after its bytes arrive.
    public static let defaultChunkSize = 64 << 10

    /// Gathers the bytes of `bytes` into chunks.
    /// - Parameters:
    ///   - bytes: The source, read from its start by each iteration.
    ///   - chunkSize: The most bytes in a chunk, at least 1; ``defaultChunkSize`` by default.
    @inlinable
    public init<Bytes: AsyncSequence>(_ bytes: Bytes, chunkSize: Int = AsyncByteChunks.defaultChunkSize)
    where Bytes.Element == UInt8 {
        let size = Swift.max(1, Swift.min(chunkSize, JSONInput.chunkSizeCeiling))
        makeReader = {
            let source = ByteSourceState(bytes.makeAsyncIterator(), chunkCapacity: size)
            return {
                // The iterator is taken out for the chunk and put back after it: a local variable
                // is read without the exclusivity check that a captured or stored one costs on every
                // byte. Taken, it is gone after an error or the end, and later calls return nil
                // (or throw the error that ended a chunk, once).
                guard var iterator = source.iterator else {
                    defer { source.failure = nil }
                    if let failure = source.failure { throw failure }
                    return nil
                }
                source.iterator = nil
                // Bytes go into storage allocated once per iteration, not appended to an array
                // (whose growth and uniqueness checks cost more per byte than the read itself).
                let chunk = source.chunk
                var count = 0
                var isDone = false
                // `next()`, not `next(isolation:)`: this closure is not isolated, so the source is
                // read on the executor the chunk reader runs on, without a hop per byte.
                while count < size {
                    let next: UInt8?
                    do {
                        next = try await iterator.next()
                    } catch where count > 0 {
                        // The bytes before the failure are handed on first, and the error with the
                        // next call, as a sequence of chunks gives them: the values they complete
                        // reach the consumer before the error, not lost with the chunk.
                        source.failure = error
                        isDone = true
                        break
                    }
                    guard let byte = next else {
                        isDone = true
                        break
                    }
                    chunk[count] = byte
                    count += 1
                }
                if !isDone { source.iterator = iterator }
                return count == 0 ? nil : Array(UnsafeBufferPointer(start: chunk, count: count))
            }
        }
    }

    /// Starts reading the source from its start.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(readChunk: makeReader())
    }

    /// Reads the source a chunk at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let readChunk: ChunkReader

        /// The next chunk: full, or shorter at the end of the source; nil after the end.
        /// - Returns: The chunk, or nil.
        /// - Throws: What the source throws.
        public mutating func next() async throws -> [UInt8]? {
            try await readChunk()
        }
    }
}

/// One iteration's source iterator (nil once it ended or threw) and the storage of the chunk being
/// gathered, reused for every chunk and freed with the iteration.
@usableFromInline final class ByteSourceState<Iterator: AsyncIteratorProtocol> {
    @usableFromInline var iterator: Iterator?
    /// What the source threw after some bytes of a chunk: thrown by the next read.
    @usableFromInline var failure: (any Error)?
    @usableFromInline let chunk: UnsafeMutablePointer<UInt8>

    @usableFromInline init(_ iterator: Iterator, chunkCapacity: Int) {
        self.iterator = iterator
        chunk = .allocate(capacity: chunkCapacity)
    }

    deinit {
        chunk.deallocate()
    }
}
