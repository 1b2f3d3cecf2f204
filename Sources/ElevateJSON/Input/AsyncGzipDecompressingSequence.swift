extension AsyncSequence where Element: Sequence<UInt8> {
    /// The chunks inflated, when they are gzip: a `Content-Encoding: gzip` body, a `.json.gz` file
    /// read as ``AsyncFileChunks``, a socket carrying gzip. Every asynchronous call that reads byte
    /// chunks reads the result (`decodedElements`, `decodedValues`, `decodeArray`,
    /// `JSONValue(parsing:)`, …), in memory bounded by `chunkSize` whatever the compression ratio,
    /// so that a gzip bomb meets the same limits as plain input
    /// (``StreamingOptions/maximumElementSize``, ``JSONParsingOptions/maximumTokenSize``).
    ///
    /// ```swift
    /// for try await event in AsyncFileChunks(url: logURL).decompressingGzip().decodedValues(framing: .jsonLines, as: Event.self) {
    ///     process(event)
    /// }
    /// ```
    ///
    /// Bytes that do not start with gzip's magic bytes (`1F 8B`) pass through unchanged, so the
    /// call is safe on a body that something upstream (`URLSession`, a proxy) already inflated.
    /// Several gzip members one after another are one text, as `zcat` reads them. Positions in
    /// syntax errors are those of the inflated text.
    /// - Parameter chunkSize: The most inflated bytes in one element, taken within
    ///   ``JSONInput/minimumChunkSize`` ... ``JSONInput/chunkSizeCeiling``; 1 MiB by default.
    /// - Returns: The inflated text, in chunks.
    public func decompressingGzip(chunkSize: Int = JSONInput.defaultChunkSize) -> AsyncGzipDecompressingSequence<Self> {
        AsyncGzipDecompressingSequence(base: self, chunkSize: JSONInput.clampedChunkSize(chunkSize))
    }
}

/// An asynchronous sequence of byte chunks, inflated when it is gzip; see
/// `AsyncSequence.decompressingGzip(chunkSize:)`.
///
/// Inflating runs in `next()`, on the iterating task, one chunk at a time: nothing is inflated
/// ahead of the consumer, so a slow consumer holds one chunk. (The synchronous readers of a
/// ``JSONInput`` inflate on a thread of their own instead, to keep up with the parser.)
public struct AsyncGzipDecompressingSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Sequence<UInt8> {
    /// A chunk of the text: up to the chunk size when inflated; a chunk of the base sequence as it
    /// came when it was not gzip.
    public typealias Element = [UInt8]

    private let base: Base
    private let chunkSize: Int

    init(base: Base, chunkSize: Int) {
        self.base = base
        self.chunkSize = chunkSize
    }

    /// Makes an iterator that reads the base sequence from its start.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), state: Inflation(chunkSize: chunkSize))
    }

    /// Pulls the base sequence's chunks as the text is asked for.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private let state: Inflation

        fileprivate init(base: Base.AsyncIterator, state: Inflation) {
            self.base = base
            self.state = state
        }

        /// The next chunk of the text, or nil at its end.
        /// - Returns: At least one byte, or nil.
        /// - Throws: ``JSONInputError`` when the gzip is truncated, corrupt or followed by other
        ///   bytes; `CancellationError` when the task is cancelled; what the base sequence throws.
        ///   After an error the sequence is over.
        public mutating func next() async throws -> [UInt8]? {
            do {
                while true {
                    try Task.checkCancellation()
                    if let chunk = try state.nextOutput() { return chunk }
                    if state.isDone { return nil }
                    if let chunk = try await base.next() {
                        state.take(chunk)
                    } else {
                        state.baseEnded = true
                    }
                }
            } catch {
                state.isDone = true
                throw error
            }
        }
    }

    /// One iteration's state: whether the bytes are gzip, the bytes not inflated yet, the inflater.
    fileprivate final class Inflation {
        private let chunkSize: Int
        var baseEnded = false
        var isDone = false

        private enum Mode {
            /// The first bytes, until there are two to tell gzip by.
            case undecided([UInt8])
            /// Not gzip: each chunk passes through.
            case plain
            case gzip(GzipInflater)
        }

        private var mode = Mode.undecided([])
        /// Bytes taken from the base sequence and not yet passed on or inflated.
        private var pending: [UInt8] = []
        private var pendingOffset = 0
        /// The inflated bytes of the chunk being filled, allocated once when the input is gzip.
        private var output: UnsafeMutableRawBufferPointer?
        private var written = 0
        /// A failure met after some text was inflated into `output`: that text is handed out
        /// first, and the next call throws this.
        private var deferredFailure: (any Error)?

        init(chunkSize: Int) {
            self.chunkSize = chunkSize
        }

        deinit {
            output?.deallocate()
        }

        /// Takes a chunk of the base sequence (copied once, unless it is already an array).
        func take(_ chunk: Base.Element) {
            let bytes = chunk as? [UInt8] ?? Array(chunk)
            if case .undecided(let head) = mode {
                mode = .undecided(head + bytes)
            } else {
                pending = bytes
                pendingOffset = 0
            }
        }

        /// The next chunk of text, or nil when more of the base sequence is needed (or, once
        /// ``isDone``, at the end).
        func nextOutput() throws -> [UInt8]? {
            guard !isDone else { return nil }
            switch mode {
            case .undecided(let head):
                guard head.count >= 2 || baseEnded else { return nil }
                if head.count >= 2 && head[0] == GzipInflater.magicBytes.0 && head[1] == GzipInflater.magicBytes.1 {
                    mode = .gzip(try GzipInflater(name: "gzip input"))
                    output = .allocate(byteCount: chunkSize, alignment: 16)
                    pending = head
                    pendingOffset = 0
                    return try nextOutput()
                }
                mode = .plain
                if baseEnded { isDone = true }
                return head.isEmpty ? nil : head
            case .plain:
                if baseEnded { isDone = true }
                defer { pending = [] }
                return pending.isEmpty ? nil : pending
            case .gzip(let inflater):
                return try inflateNext(with: inflater)
            }
        }

        /// Inflates the pending bytes until the chunk is full, or they are used up (then hands out
        /// what there is rather than wait for more, so that a live source's text is not held
        /// back), or at the end of the base sequence, until zlib has written everything.
        private func inflateNext(with inflater: GzipInflater) throws -> [UInt8]? {
            if let failure = deferredFailure {
                deferredFailure = nil
                throw failure
            }
            let output = output!
            do {
                while written < output.count {
                    let room = UnsafeMutableRawBufferPointer(rebasing: output[written...])
                    let (taken, inflated) = try pending.withUnsafeBytes { bytes in
                        try inflater.inflate(UnsafeRawBufferPointer(rebasing: bytes[pendingOffset...]), into: room)
                    }
                    pendingOffset += taken
                    written += inflated
                    guard pendingOffset == pending.count else { continue }
                    pending = []
                    pendingOffset = 0
                    if !baseEnded { break }
                    if inflated == 0 {
                        try inflater.finish()
                        isDone = true
                        break
                    }
                }
            } catch where written > 0 {
                // The text inflated before the failure comes first.
                deferredFailure = error
            }
            guard written > 0 else { return nil }
            defer { written = 0 }
            return Array(UnsafeRawBufferPointer(rebasing: output[..<written]))
        }
    }
}

extension AsyncGzipDecompressingSequence: Sendable where Base: Sendable {}
