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
/// Every form may hold gzip (`.json.gz`, `.jsonl.gz`, a gzip stream on standard input): input that
/// starts with gzip's magic bytes (`1F 8B`, which no JSON text can start with) is inflated as it
/// is read, in the same bounded memory whatever its compression ratio, several members one after
/// another (`cat a.gz b.gz`) read as one text, as `zcat` reads them. Limits, positions in syntax
/// errors (byte offset, line, column, excerpt) and decoding errors are those of the inflated text;
/// progress counts compressed bytes, which a file's size is. A truncated or corrupt gzip stream, or
/// other bytes after its last member, is a ``JSONInputError`` with its
/// ``JSONInputError/gzipProblem`` and ``JSONInputError/compressedByteOffset``. For an
/// `AsyncSequence` of chunks, say so with `decompressingGzip(chunkSize:)`.
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

    /// Whether a read now would wait for input not written yet: a pipe, socket or terminal with
    /// nothing to read within a millisecond (see ``hasInput(_:within:)``); never data or a
    /// file. A reader holding finished work checks it before each read: values decoded on
    /// workers, or output written (`tail -f log | elevate extract …`), go out then, so that a
    /// live source's values are not held back; while more input is ready, the workers are not
    /// waited for (waiting at every read of a fast pipe took most of their gain).
    package var wouldWaitForInput: Bool {
        let descriptor: Int32
        switch self {
        case .data, .file: return false
        case .fileHandle(let handle): descriptor = handle.fileDescriptor
        case .standardInput: descriptor = STDIN_FILENO
        }
        // A millisecond's grace: a fast writer (`cat`, `zcat`) refills a pipe that quickly once it
        // runs again, and a read that never found the pipe empty would keep the workers busy.
        return !Self.hasInput(descriptor, within: 1)
    }

    /// Whether `descriptor` has something to read (or is at its end, or failed: a read would
    /// return at once) within `milliseconds`. A descriptor `poll` cannot judge (a device on
    /// Darwin, `POLLNVAL`) counts as readable: the read then waits, as it would anyway.
    static func hasInput(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, milliseconds) != 0
    }

    /// The input's size in bytes, when it is known before reading: data, and a regular file
    /// (whose size may still change while it is read: use it as a hint only).
    var knownByteCount: Int? {
        switch self {
        case .data(let data):
            // The size of gzip is not that of its text: unknown.
            return data.startsWithGzipMagicBytes ? nil : data.count
        case .file(let url):
            let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            // The size of gzip is not that of its text: unknown.
            var head: (UInt8, UInt8) = (0, 0)
            let headCount = withUnsafeMutableBytes(of: &head) { pread(descriptor, $0.baseAddress, 2, 0) }
            if headCount == 2, head == GzipInflater.magicBytes { return nil }
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
    /// of it at once. Gzip input is handed over inflated, at most `chunkSize` bytes at a time.
    ///
    /// ```swift
    /// try JSONInput.file(url).forEachChunk { chunk in try parser.parse(chunk) }
    /// ```
    /// - Parameters:
    ///   - chunkSize: The read size for files and standard input, and the size of each chunk of
    ///     inflated gzip, taken within ``JSONInput/minimumChunkSize`` ... ``JSONInput/chunkSizeCeiling``.
    ///   - progress: Told the total number of bytes read so far (of gzip input, compressed bytes),
    ///     after each chunk is handled: one call per chunk, so its cost does not depend on the
    ///     input's size.
    ///   - body: Receives each chunk, which is valid only during the call.
    /// - Throws: ``JSONInputError`` when the file cannot be opened or read or its gzip cannot be
    ///   inflated, or what `body` throws.
    public func forEachChunk(
        chunkSize: Int = JSONInput.defaultChunkSize, progress: ((_ bytesRead: Int) -> Void)? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        switch self {
        case .data(let data):
            try data.withUnsafeBytes { bytes in
                guard GzipInflater.startsGzip(bytes) else {
                    try body(bytes)
                    progress?(data.count)
                    return
                }
                let reader = try InflatingChunkReader(bytes: bytes, name: "data")
                // A thread pays for itself only on long inputs: a small body (a request's, a
                // message's) is inflated on the calling thread, still one chunk at a time.
                _ = try GzipReading.read(
                    reader, chunkSize: Self.clampedChunkSize(chunkSize), concurrently: bytes.count > 256 << 10,
                    progress: progress
                ) {
                    try body($0)
                    return true
                }
            }
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
        let failure = try readChunks(of: fileDescriptor, named: name, chunkSize: chunkSize, progress: progress) {
            try body($0)
            return true
        }
        if let failure { throw JSONInputError(path: name, reason: String(cString: strerror(failure))) }
    }

    /// The one read loop of the library: reads `descriptor` from where it is to its end through
    /// one buffer of `chunkSize` bytes (clamped as ``StreamingOptions/chunkSize`` is), retrying a
    /// read that a signal interrupted, until `body` returns false. Input that starts with gzip's
    /// magic bytes is inflated (see ``GzipReading``): `body` then gets the text, in chunks of at
    /// most `chunkSize` bytes.
    /// - Parameters:
    ///   - descriptor: An open file descriptor.
    ///   - name: The input's name, for errors.
    ///   - chunkSize: The most bytes read, or handed to `body`, at once.
    ///   - progress: Told the bytes read so far (of gzip, compressed bytes taken) after each chunk.
    ///   - body: Given each chunk, valid only during the call; returns whether to read on.
    /// - Returns: nil once the end is reached or `body` stops, or the `errno` of a read that failed.
    /// - Throws: ``JSONInputError`` for gzip that cannot be inflated, or what `body` throws.
    package static func readChunks(
        of descriptor: Int32, named name: String, chunkSize: Int, progress: ((_ bytesRead: Int) -> Void)? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws -> Int32? {
        let chunkSize = clampedChunkSize(chunkSize)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        // The first two bytes say whether the input is gzip (a pipe may give them one at a time).
        var count = 0
        while count < 2 {
            let read = readOnce(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            if read < 0 { return Int32(-read) }
            if read == 0 { break }
            count += read
        }
        if GzipInflater.startsGzip(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
            let reader = try InflatingChunkReader(descriptor: descriptor, buffer: buffer, holding: count, name: name)
            return try GzipReading.read(reader, chunkSize: chunkSize, progress: progress, body)
        }
        var bytesRead = 0
        while count > 0 {
            let readsOn = try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            bytesRead += count
            progress?(bytesRead)
            guard readsOn else { return nil }
            count = readOnce(descriptor, into: buffer)
            if count < 0 { return Int32(-count) }
        }
        return nil
    }

    /// One `read(2)` of `descriptor` into `buffer`, retried when a signal interrupts it: the bytes
    /// read (0 at the end), or minus the `errno` of a read that failed. The only read call of the
    /// library: ``readChunks(of:named:chunkSize:progress:_:)`` and ``AsyncFileChunks`` loop over it.
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
