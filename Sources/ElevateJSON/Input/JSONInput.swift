import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Where JSON bytes come from: data in memory, a file, an open file handle, or standard input.
///
/// The one input type of every synchronous streaming call (asynchronous ones read any
/// `AsyncSequence` of byte chunks). Files, file handles and standard input are read in chunks into
/// one reused buffer, never as a whole, so a document of any size is parsed in bounded memory.
///
/// ```swift
/// let count = try Elevate.forEachElement(from: .file(url), atKeyPath: "items", as: Item.self) { item in
///     index.add(item)
/// }
/// let people: [Person] = try Elevate.decodeArray(from: .standardInput, atKeyPath: "people")
/// ```
public enum JSONInput: Sendable {
    /// Bytes already in memory.
    case data(Data)
    /// A file on disk, opened for the call and closed after it.
    case file(URL)
    /// An open file handle (a pipe, a socket, a file opened elsewhere), read from its current
    /// position to its end in chunks; it is left open.
    case fileHandle(FileHandle)
    /// The process's standard input.
    case standardInput

    /// Whether reading may wait for input that has not been written yet (a pipe, a socket, a
    /// terminal): values decoded on workers are then delivered before each read, not held back.
    var mayWaitForInput: Bool {
        switch self {
        case .data, .file: false
        case .fileHandle, .standardInput: true
        }
    }

    /// The input's size in bytes, when it is known before reading: data, and a regular file
    /// (whose size may still change while it is read: use it as a hint only).
    var knownByteCount: Int? {
        switch self {
        case .data(let data):
            return data.count
        case .file(let url):
            var status = stat()
            guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            return Int(status.st_size)
        case .fileHandle, .standardInput:
            return nil
        }
    }

    /// The default read size: large, because YAJL re-lexes a token split across reads.
    public static let defaultChunkSize = 1 << 20

    /// The smallest read size (4 KiB): a smaller one, zero or negative included, reads this much.
    public static let minimumChunkSize = 4096

    /// The largest read size (64 MiB, the default ``StreamingOptions/maximumElementSize``): a
    /// larger one reads this much. The read buffer is allocated at the chunk size, so an unbounded
    /// one (`.max`) would ask for more memory than exists; beyond a few MiB a larger chunk only
    /// costs memory.
    public static let chunkSizeCeiling = 64 << 20

    /// `chunkSize` within ``minimumChunkSize`` ... ``chunkSizeCeiling``: what every read of a
    /// file, file handle or standard input allocates and asks for.
    static func clampedChunkSize(_ chunkSize: Int) -> Int {
        min(max(chunkSize, minimumChunkSize), chunkSizeCeiling)
    }

    /// Reads the input and hands each chunk to `body`, in order: for a file, a file handle or
    /// standard input, at most `chunkSize` bytes at a time through one reused buffer; for data, all
    /// of it at once.
    ///
    /// ```swift
    /// try JSONInput.file(url).forEachChunk { chunk in try parser.parse(chunk) }
    /// ```
    /// - Parameters:
    ///   - chunkSize: The read size for files and standard input, taken within
    ///     ``JSONInput/minimumChunkSize`` ... ``JSONInput/chunkSizeCeiling``.
    ///   - progress: Told the total number of bytes read so far, after each chunk is handled: one
    ///     call per chunk, so its cost does not depend on the input's size.
    ///   - body: Receives each chunk, which is valid only during the call.
    /// - Throws: ``JSONInputError`` when the file cannot be opened or read, or what `body` throws.
    public func forEachChunk(
        chunkSize: Int = JSONInput.defaultChunkSize, progress: ((_ bytesRead: Int) -> Void)? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        switch self {
        case .data(let data):
            try data.withUnsafeBytes { try body($0) }
            progress?(data.count)
        case .standardInput:
            try Self.read(fileDescriptor: STDIN_FILENO, name: "standard input", chunkSize: chunkSize, progress, body)
        case .fileHandle(let handle):
            try Self.read(
                fileDescriptor: handle.fileDescriptor, name: "file handle \(handle.fileDescriptor)",
                chunkSize: chunkSize,
                progress, body)
        case .file(let url):
            let descriptor = open(url.path, O_RDONLY)
            guard descriptor >= 0 else {
                throw JSONInputError(path: url.path, reason: String(cString: strerror(errno)))
            }
            defer { close(descriptor) }
            try Self.read(fileDescriptor: descriptor, name: url.path, chunkSize: chunkSize, progress, body)
        }
    }

    private static func read(
        fileDescriptor: Int32, name: String, chunkSize: Int, _ progress: ((Int) -> Void)?,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var bytesRead = 0
        let failure = try readChunks(of: fileDescriptor, chunkSize: chunkSize) { chunk in
            try body(chunk)
            bytesRead += chunk.count
            progress?(bytesRead)
            return true
        }
        if let failure { throw JSONInputError(path: name, reason: String(cString: strerror(failure))) }
    }

    /// The one read loop of the library: reads `descriptor` from where it is to its end through
    /// one buffer of `chunkSize` bytes (clamped as ``StreamingOptions/chunkSize`` is), retrying a
    /// read that a signal interrupted, until `body` returns false.
    /// - Parameters:
    ///   - descriptor: An open file descriptor.
    ///   - chunkSize: The most bytes read at once.
    ///   - body: Given each chunk, valid only during the call; returns whether to read on.
    /// - Returns: nil once the end is reached or `body` stops, or the `errno` of a read that failed.
    package static func readChunks(
        of descriptor: Int32, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) rethrows -> Int32? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: clampedChunkSize(chunkSize), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = readOnce(descriptor, into: buffer)
            if count < 0 { return Int32(-count) }
            if count == 0 { return nil }
            guard try body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) else { return nil }
        }
    }

    /// One `read(2)` of `descriptor` into `buffer`, retried when a signal interrupts it: the bytes
    /// read (0 at the end), or minus the `errno` of a read that failed. The only read call of the
    /// library: ``readChunks(of:chunkSize:_:)`` and ``AsyncFileChunks`` loop over it.
    package static func readOnce(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = readBytes(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { return -Int(errno) }
        }
    }
}

/// `read(2)`, under a name that the static method above does not shadow.
@inline(__always)
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
