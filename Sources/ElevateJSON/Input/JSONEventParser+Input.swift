import Foundation

extension JSONEventParser {
    /// Parses a whole input, chunk by chunk, and finishes. Reading stops early when a handler
    /// throws ``JSONEventParser/Stop``.
    ///
    /// ```swift
    /// let parser = JSONEventParser(handler: counter)
    /// try parser.parseAll(.file(url)) { bytesRead in print("\(bytesRead) bytes") }
    /// ```
    /// - Parameters:
    ///   - input: Where the bytes come from.
    ///   - chunkSize: The read size for files and standard input, taken within
    ///     ``JSONInput/minimumChunkSize`` ... ``JSONInput/chunkSizeCeiling``.
    ///   - progress: Told the total number of bytes read so far, after each chunk is parsed.
    /// - Throws: ``JSONSyntaxError``, ``JSONInputError``, or what the handler threw.
    public func parseAll(
        _ input: JSONInput, chunkSize: Int = JSONInput.defaultChunkSize,
        progress: ((_ bytesRead: Int) -> Void)? = nil
    ) throws {
        /// Ends the reading loop once the handler has stopped the parse.
        struct StopReading: Error {}
        do {
            try input.forEachChunk(chunkSize: chunkSize, progress: progress) { chunk in
                try parse(chunk)
                if isStopped { throw StopReading() }
            }
        } catch is StopReading {
            return
        }
        try finish()
    }

    /// Parses every chunk of an asynchronous sequence of bytes (`Data`, `[UInt8]`, …, of any
    /// sizes) and finishes. Reading stops early when a handler throws ``JSONEventParser/Stop``.
    ///
    /// ```swift
    /// let parser = JSONEventParser(handler: counter)
    /// try await parser.parseAll(socketChunks)
    /// ```
    /// - Parameters:
    ///   - chunks: The document's bytes, in order.
    ///   - progress: Told the total number of bytes read so far, after each chunk is parsed.
    /// - Throws: ``JSONSyntaxError``, `CancellationError` when the task is cancelled (checked before
    ///   each chunk and before finishing), what the sequence throws, or what the handler threw.
    public func parseAll<Chunks: AsyncSequence>(
        _ chunks: Chunks, progress: ((_ bytesRead: Int) -> Void)? = nil
    ) async throws where Chunks.Element: Sequence<UInt8> {
        var bytesRead = 0
        for try await chunk in chunks {
            try Task.checkCancellation()
            bytesRead += try parse(contentsOf: chunk)
            progress?(bytesRead)
            if isStopped { return }
        }
        try Task.checkCancellation()
        try finish()
    }

    /// Parses every byte of an asynchronous sequence of single bytes (`URLSession.AsyncBytes`,
    /// `AsyncStream<UInt8>`, …), gathered into chunks as ``AsyncByteChunks`` does, and finishes.
    ///
    /// ```swift
    /// try await parser.parseAll(bytes)
    /// ```
    /// - Parameters:
    ///   - bytes: The document's bytes, in order.
    ///   - progress: Told the total number of bytes read so far, after each chunk is parsed.
    /// - Throws: As ``parseAll(_:progress:)-(Chunks,_)``.
    @inlinable
    public func parseAll<Bytes: AsyncSequence>(
        _ bytes: Bytes, progress: ((_ bytesRead: Int) -> Void)? = nil
    ) async throws where Bytes.Element == UInt8 {
        try await parseAll(AsyncByteChunks(bytes), progress: progress)
    }

    /// Parses one chunk of any sequence of bytes, in place when its storage is contiguous.
    /// - Returns: The number of bytes parsed.
    @discardableResult
    func parse(contentsOf chunk: some Sequence<UInt8>) throws -> Int {
        try withContiguousBytes(of: chunk) { try parse($0) }
    }
}

/// Runs `body` on the bytes of `chunk`, in place when its storage is contiguous, else on a copy.
/// - Returns: The number of bytes.
func withContiguousBytes(of chunk: some Sequence<UInt8>, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Int {
    if let count = try chunk.withContiguousStorageIfAvailable({ bytes -> Int in
        try body(UnsafeRawBufferPointer(bytes))
        return bytes.count
    }) {
        return count
    }
    let bytes = Array(chunk)
    try bytes.withUnsafeBytes { try body($0) }
    return bytes.count
}
