import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

extension JSONInput {
    /// Reads the input from `offset` to its end, as ``forEachChunk(chunkSize:progress:_:)`` reads
    /// it from its start: the reading of a stream resumed from a checkpoint.
    /// - Parameters:
    ///   - offset: Where to start, from the input's start.
    ///   - chunkSize: The read size.
    ///   - progress: Told the total number of bytes read so far (from `offset`).
    ///   - body: Receives each chunk.
    /// - Throws: ``JSONInputError`` when the input cannot be read from there (standard input or a
    ///   pipe, which cannot seek; compressed input; an offset past the end), or what `body` throws.
    package func forEachChunk(
        from offset: Int, chunkSize: Int, progress: ((Int) -> Void)?, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        switch self {
        case .data(let data):
            guard offset >= 0, offset <= data.count else { throw cannotResume("the offset \(offset) is past its end") }
            if data.count >= 2, (data[data.startIndex], data[data.startIndex + 1]) == GzipInflater.magicBytes {
                throw cannotResume("compressed input cannot be read from an offset")
            }
            try data.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            progress?(data.count - offset)
        case .file(let url):
            let descriptor = open(url.path, O_RDONLY)
            guard descriptor >= 0 else { throw JSONInputError(path: url.path, reason: String(cString: strerror(errno))) }
            defer { close(descriptor) }
            try Self.read(descriptor, from: offset, name: url.path, chunkSize: chunkSize, progress, body)
        case .fileHandle(let handle):
            try Self.read(
                handle.fileDescriptor, from: offset, name: "file handle \(handle.fileDescriptor)", chunkSize: chunkSize,
                progress, body)
        case .standardInput:
            try Self.read(STDIN_FILENO, from: offset, name: "standard input", chunkSize: chunkSize, progress, body)
        }
    }

    /// The byte just before `offset`, read again (nil at offset 0, or when the input cannot be
    /// read there): a resumed stream checks that its checkpoint ends a value.
    package func byte(before offset: Int) -> UInt8? {
        guard offset > 0 else { return nil }
        var found: UInt8?
        try? withDescriptorOrData { descriptor, data in
            if let data { found = offset <= data.count ? data[data.startIndex + offset - 1] : nil; return }
            var byte: UInt8 = 0
            if pread(descriptor, &byte, 1, off_t(offset - 1)) == 1 { found = byte }
        }
        return found
    }

    /// How many line breaks the input holds before `offset`, and how many bytes lie between the
    /// last of them and `offset`: the line and column of a resumed stream's error, counted again
    /// only when there is one. Nil when the input cannot be read again.
    package func lineBreaks(before offset: Int) -> (lines: Int, column: Int)? {
        var lines = 0
        var column = 0
        var remaining = offset
        let count: (UnsafeRawBufferPointer) -> Void = { bytes in
            for byte in bytes.prefix(remaining) {
                if byte == 0x0A {
                    lines += 1
                    column = 0
                } else {
                    column += 1
                }
            }
            remaining -= min(remaining, bytes.count)
        }
        do {
            try withDescriptorOrData { descriptor, data in
                if let data { return data.withUnsafeBytes { count($0) } }
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
                defer { buffer.deallocate() }
                var position = 0
                while remaining > 0 {
                    let read = pread(descriptor, buffer.baseAddress, min(buffer.count, remaining), off_t(position))
                    guard read > 0 else { throw CocoaError(.fileReadUnknown) }
                    count(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
                    position += read
                }
            }
        } catch {
            return nil
        }
        return (lines, column)
    }

    /// Runs `body` with the input's bytes in memory, or with a descriptor open on them that can be
    /// read at any offset.
    private func withDescriptorOrData(_ body: (Int32, Data?) throws -> Void) throws {
        switch self {
        case .data(let data):
            try body(-1, data)
        case .file(let url):
            let descriptor = open(url.path, O_RDONLY)
            guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
            defer { close(descriptor) }
            try body(descriptor, nil)
        case .fileHandle(let handle):
            try body(handle.fileDescriptor, nil)
        case .standardInput:
            try body(STDIN_FILENO, nil)
        }
    }

    private func cannotResume(_ reason: String) -> JSONInputError {
        JSONInputError(path: "data", reason: "cannot resume: \(reason)")
    }

    private static func read(
        _ descriptor: Int32, from offset: Int, name: String, chunkSize: Int, _ progress: ((Int) -> Void)?,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw JSONInputError(path: name, reason: "cannot resume: it cannot be read from an offset (\(String(cString: strerror(errno))))")
        }
        var start: (UInt8, UInt8) = (0, 0)
        if pread(descriptor, &start, 2, 0) == 2, start == GzipInflater.magicBytes {
            throw JSONInputError(path: name, reason: "cannot resume: compressed input cannot be read from an offset")
        }
        let failure = try readChunks(of: descriptor, named: name, chunkSize: chunkSize, progress: progress) { chunk in
            try body(chunk)
            return true
        }
        if let failure { throw JSONInputError(path: name, reason: String(cString: strerror(failure))) }
    }
}
