import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A file's bytes as an asynchronous sequence of chunks, each read when it is asked for: the
/// source for the `AsyncSequence` calls (`decodedElements`, `decodedValues`, `JSONValue(parsing:)`,
/// …) where Linux has no `FileHandle.bytes` or `URLSession.bytes`, in memory bounded by one chunk
/// whatever the file's size.
///
/// ```swift
/// for try await person in AsyncFileChunks(url: url).decodedElements(atKeyPath: "items", as: Person.self) {
///     print(person.name)
/// }
/// ```
///
/// The chunks are the file's bytes as they are on disk: for a `.json.gz` file, add
/// `.decompressingGzip()` (the synchronous ``JSONInput/file(_:)`` inflates gzip by itself).
///
/// Pulled, not pushed: nothing is read ahead of the consumer, as a home-made `AsyncThrowingStream`
/// fed by a loop would (it buffers the whole file when the consumer is slower). Each `next()` reads
/// once with `read(2)` on the calling task's thread, as `FileHandle` does. The file is opened by the
/// iterator's first `next()` and closed at its end, on an error, or when the iterator is dropped;
/// each iterator reads the file from its start.
public struct AsyncFileChunks: AsyncSequence, Sendable {
    /// A chunk of the file, up to the chunk size.
    public typealias Element = [UInt8]

    private let path: String
    private let chunkSize: Int

    /// A file's chunks.
    /// - Parameters:
    ///   - url: A file URL.
    ///   - chunkSize: The most bytes read at once, taken within ``JSONInput/minimumChunkSize`` ...
    ///     ``JSONInput/chunkSizeCeiling``; 1 MiB by default.
    public init(url: URL, chunkSize: Int = JSONInput.defaultChunkSize) {
        path = url.path
        self.chunkSize = JSONInput.clampedChunkSize(chunkSize)
    }

    /// Makes an iterator that reads the file from its start.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(file: OpenFile(path: path, chunkSize: chunkSize))
    }

    /// Reads the next chunk when asked for it.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let file: OpenFile

        /// The next chunk, or nil at the end of the file.
        /// - Returns: Up to the chunk size of bytes, or nil.
        /// - Throws: ``JSONInputError`` when the file cannot be opened or read.
        public mutating func next() async throws -> [UInt8]? {
            try file.next()
        }

        /// The next chunk, read on the caller's executor: a `for try await` loop on the main actor
        /// reads without leaving it (the read blocks it, as the synchronous calls would).
        /// - Parameter actor: The caller's actor, or nil.
        /// - Returns: Up to the chunk size of bytes, or nil.
        /// - Throws: ``JSONInputError`` when the file cannot be opened or read.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [UInt8]? {
            try file.next()
        }
    }
}

/// The file of one iterator: its descriptor, opened on first use and closed at the end, on an
/// error, or when the iterator is dropped.
private final class OpenFile {
    let path: String
    let chunkSize: Int
    private var descriptor: Int32 = -1
    private var isDone = false

    init(path: String, chunkSize: Int) {
        self.path = path
        self.chunkSize = chunkSize
    }

    func next() throws -> [UInt8]? {
        guard !isDone else { return nil }
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY)
            if descriptor < 0 { throw failure(errno) }
        }
        // Not zeroed first: the read fills what it counts, and only that is kept.
        var code: Int32 = 0
        let descriptor = self.descriptor
        let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
            let count = JSONInput.readOnce(descriptor, into: UnsafeMutableRawBufferPointer(buffer))
            if count < 0 { code = Int32(-count) }
            initialized = max(count, 0)
        }
        if code != 0 { throw failure(code) }
        if chunk.isEmpty {
            finish()
            return nil
        }
        return chunk
    }

    private func failure(_ code: Int32) -> JSONInputError {
        finish()
        return JSONInputError(path: path, reason: String(cString: strerror(code)))
    }

    private func finish() {
        isDone = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
