import struct Foundation.CocoaError
import struct Foundation.Data
import var Foundation.NSFilePathErrorKey
import var Foundation.NSUnderlyingErrorKey
import struct Foundation.POSIXError
import struct Foundation.URL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Parsing a whole document into a view.
extension JSONValue {
    /// Parses a JSON document in memory.
    ///
    /// ```swift
    /// let document = try JSONValue(parsing: data)
    /// let count = document["items"]?.count ?? 0
    /// ```
    /// - Parameters:
    ///   - data: The document's bytes.
    ///   - options: The parser's settings: comments, limits, whether a repeated key is an error.
    /// - Throws: ``JSONSyntaxError`` for input that is not JSON, or a repeated key when the options
    ///   reject them.
    public init(parsing data: Data, options: JSONParsingOptions = .default) throws {
        let parse = DocumentParse(options: options, expectedBytes: data.count)
        try parse.parser.parse(data)
        self = try parse.finish()
    }

    /// Parses a JSON document held in a string.
    ///
    /// ```swift
    /// let document = try JSONValue(parsing: #"{"name":"alice"}"#)
    /// ```
    /// - Parameters:
    ///   - text: The document.
    ///   - options: The parser's settings: comments, limits, whether a repeated key is an error.
    /// - Throws: ``JSONSyntaxError``, as ``init(parsing:options:)-(Data,_)``.
    public init(parsing text: String, options: JSONParsingOptions = .default) throws {
        var text = text
        let parse = DocumentParse(options: options, expectedBytes: text.utf8.count)
        try text.withUTF8 { try parse.parser.parse(UnsafeRawBufferPointer($0)) }
        self = try parse.finish()
    }

    /// Parses a JSON file, reading it in chunks of `chunkSize` bytes: the file is never in memory as
    /// a whole, only its tape (``init(parsing:options:)-(JSONInput,_)`` with `.file(url)` reads 1 MiB
    /// at a time). A gzip file is inflated as it is read.
    /// - Parameters:
    ///   - url: A file URL.
    ///   - options: The parser's settings: comments, limits, whether a repeated key is an error.
    ///   - chunkSize: How many bytes to read at a time, taken within ``JSONInput/minimumChunkSize``
    ///     ... ``JSONInput/chunkSizeCeiling`` (`.max` reads 64 MiB at a time).
    /// - Throws: `CocoaError` (with the path and the system's error) when the file cannot be opened or
    ///   read; ``JSONInputError`` when its gzip cannot be inflated; ``JSONSyntaxError`` for its contents.
    init(contentsOf url: URL, options: JSONParsingOptions = .default, chunkSize: Int = 1 << 20) throws {
        var identity: FileIdentity?
        try self.init(contentsOf: url, options: options, chunkSize: chunkSize, identity: &identity)
    }

    /// Parses a JSON file as ``init(contentsOf:options:chunkSize:)``, and sets `identity` to the
    /// file's identity when it is a regular file that did not change while it was read: a failing
    /// decode can then find an error's line and column by reading it again (see ``FileIdentity``).
    init(contentsOf url: URL, options: JSONParsingOptions, chunkSize: Int, identity: inout FileIdentity?) throws {
        let path = url.path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Self.fileError(path) }
        defer { close(descriptor) }
        let before = FileIdentity(descriptor: descriptor)
        // Only a regular file has a size to size the tape by.
        let parse = DocumentParse(options: options, expectedBytes: before.map { Int($0.size) } ?? 0)
        let failure = try JSONInput.readChunks(of: descriptor, named: path, chunkSize: chunkSize) { chunk in
            try parse.parser.parse(chunk)
            return !parse.parser.isStopped
        }
        if let failure { throw Self.fileError(path, errno: failure) }
        self = try parse.finish()
        if let before, FileIdentity(descriptor: descriptor) == before { identity = before }
    }

    /// Parses a JSON document from any ``JSONInput``: data in memory, a file, an open file handle
    /// or standard input, the last three read in chunks (only the tape is kept). Gzip input is
    /// inflated as it is read (see ``JSONInput``); positions in errors are those of its text.
    ///
    /// ```swift
    /// let document = try JSONValue(parsing: .standardInput)
    /// ```
    /// - Parameters:
    ///   - input: Where the document comes from.
    ///   - options: The parser's settings: comments, limits, whether a repeated key is an error.
    /// - Throws: As ``init(parsing:options:)-(Data,_)`` for the bytes; for a file as
    ///   `CocoaError` (with the path and the system's error) when it cannot be opened or read;
    ///   ``JSONInputError`` when a file handle or standard input cannot be read, or when gzip input
    ///   cannot be inflated.
    public init(parsing input: JSONInput, options: JSONParsingOptions = .default) throws {
        switch input {
        case .data(let data) where !data.startsWithGzipMagicBytes:
            try self.init(parsing: data, options: options)
        case .file(let url):
            try self.init(contentsOf: url, options: options)
        case .data, .fileHandle, .standardInput:
            let parse = DocumentParse(options: options, expectedBytes: 0)
            try input.forEachChunk { try parse.parser.parse($0) }
            self = try parse.finish()
        }
    }

    /// Parses a JSON document that arrives as an asynchronous sequence of byte chunks (`[UInt8]`,
    /// `Data`, …), of any sizes.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// let document = try await JSONValue(parsing: AsyncFileChunks(url: url))
    /// ```
    /// - Parameters:
    ///   - chunks: The document's bytes, in order.
    ///   - options: The parser's settings: comments, limits, whether a repeated key is an error.
    /// - Throws: What the sequence throws, `CancellationError` or ``JSONSyntaxError``.
    public init<Chunks: AsyncSequence>(parsing chunks: Chunks, options: JSONParsingOptions = .default)
        async throws where Chunks.Element: Sequence<UInt8>
    {
        let parse = DocumentParse(options: options, expectedBytes: 0)
        for try await chunk in chunks {
            try Task.checkCancellation()
            try parse.parser.parse(contentsOf: chunk)
            if parse.parser.isStopped { break }
        }
        try Task.checkCancellation()
        self = try parse.finish()
    }

    /// Parses a JSON document that arrives as an asynchronous sequence of single bytes
    /// (`URLSession.AsyncBytes`, `FileHandle.AsyncBytes`, `AsyncStream<UInt8>`), gathered into
    /// chunks as ``AsyncByteChunks`` does.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// let document = try await JSONValue(parsing: bytes)
    /// ```
    /// - Parameters:
    ///   - bytes: The document's bytes, in order.
    ///   - options: The parser's settings: comments, limits, whether a repeated key is an error.
    /// - Throws: What the sequence throws, `CancellationError` or ``JSONSyntaxError``.
    @inlinable
    public init<Bytes: AsyncSequence>(parsing bytes: Bytes, options: JSONParsingOptions = .default)
        async throws where Bytes.Element == UInt8
    {
        try await self.init(parsing: AsyncByteChunks(bytes), options: options)
    }

    private static func fileError(_ path: String, errno code: Int32 = errno) -> CocoaError {
        let cocoaCode: CocoaError.Code =
            switch code {
            case ENOENT: .fileReadNoSuchFile
            case EACCES, EPERM: .fileReadNoPermission
            default: .fileReadUnknown
            }
        var info: [String: Any] = [NSFilePathErrorKey: path]
        if let posix = POSIXErrorCode(rawValue: code) { info[NSUnderlyingErrorKey] = POSIXError(posix) }
        return CocoaError(cocoaCode, userInfo: info)
    }
}

/// One document being parsed: a tape builder behind an event parser.
private final class DocumentParse {
    let builder: JSONTapeBuilder
    let parser: JSONEventParser

    init(options: JSONParsingOptions, expectedBytes: Int) {
        builder = JSONTapeBuilder(expectedBytes: expectedBytes)
        parser = JSONEventParser(handler: builder, options: options)
    }

    /// Ends the input and returns the (last) top-level value; `null` for an input without any value,
    /// which only multiple-value input allows.
    func finish() throws -> JSONValue {
        try parser.finish()
        return builder.takeValue() ?? JSONValue(tape: .null(), index: 0)
    }
}
