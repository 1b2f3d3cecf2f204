#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

import ElevateJSON

/// Where a command writes: standard output, or a file written through its path.
///
/// A named file is opened with `O_WRONLY | O_CREAT | O_TRUNC` and written in place, never replaced
/// by a rename: a symbolic link is followed and stays a link, a hard link keeps sharing the data, an
/// existing file keeps its mode and owner, and a device (`/dev/null`, `/dev/full`, a tty) is
/// written to rather than destroyed. Every `write(2)` and the `close(2)` are checked, so a full disk
/// or a failing device is an error with its reason, never a silent success.
final class OutputFile: JSONTextOutput {
    /// The name as given (`-` for standard output).
    let name: String
    private var descriptor: Int32
    private let closesDescriptor: Bool
    /// Whether the descriptor is a regular file (`fstat`'s `S_ISREG`), which can be truncated back
    /// to an earlier offset; not a pipe, terminal, socket or device.
    let isRegularFile: Bool
    /// A regular file is truncated back past a value cut short; see `JSONTextEmitter`.
    var isTruncatable: Bool { isRegularFile }

    /// Standard output, which is written to but not closed.
    static func standardOutput() -> OutputFile {
        OutputFile(name: "-", descriptor: STDOUT_FILENO, closesDescriptor: false)
    }

    private init(name: String, descriptor: Int32, closesDescriptor: Bool) {
        self.name = name
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        var status = stat()
        isRegularFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Writes to an open `descriptor`, which stays open (tests give it a pipe).
    convenience init(descriptor: Int32, name: String) {
        self.init(name: name, descriptor: descriptor, closesDescriptor: false)
    }

    /// Opens `name` for writing, creating it (mode 0666 less the umask) or truncating it; `-` is
    /// standard output.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError``.
    convenience init(_ name: String) throws {
        if name == "-" {
            self.init(name: name, descriptor: STDOUT_FILENO, closesDescriptor: false)
            return
        }
        let descriptor = open(fileSystemPath(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw CommandFailure.cannotWrite(name, errno: errno) }
        self.init(name: name, descriptor: descriptor, closesDescriptor: true)
    }

    deinit {
        if closesDescriptor, descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError`` naming the file and the reason.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = systemWrite(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw CommandFailure.cannotWrite(name, errno: errno)
            }
            next += written
            remaining -= written
        }
    }

    /// The offset in a regular file where the next write lands: the current offset, or the end
    /// of the file when it was opened to append (`O_APPEND`, as by the shell's `>>`).
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError``.
    func nextWriteOffset() throws -> Int64 {
        let flags = fcntl(descriptor, F_GETFL)
        let offset = lseek(descriptor, 0, flags >= 0 && flags & O_APPEND != 0 ? SEEK_END : SEEK_CUR)
        guard offset >= 0 else { throw CommandFailure.cannotWrite(name, errno: errno) }
        return Int64(offset)
    }

    /// Cuts a regular file back to `offset` (from ``nextWriteOffset()``), and writes on from there.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError``.
    func truncate(to offset: Int64) throws {
        while ftruncate(descriptor, off_t(offset)) != 0 {
            guard errno == EINTR else { throw CommandFailure.cannotWrite(name, errno: errno) }
        }
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            throw CommandFailure.cannotWrite(name, errno: errno)
        }
    }

    /// Writes the UTF-8 of `text`.
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Closes a named file, reporting the error that some file systems (NFS, quotas) give only
    /// here; standard output stays open.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError``.
    func close() throws {
        guard closesDescriptor, descriptor >= 0 else { return }
        let result = systemClose(descriptor)
        // The descriptor is released even when close fails (POSIX leaves it unspecified, Linux
        // frees it): never close it again.
        descriptor = -1
        if result != 0 && errno != EINTR { throw CommandFailure.cannotWrite(name, errno: errno) }
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #elseif canImport(Darwin)
        Darwin.write(descriptor, bytes, count)
    #else
        Musl.write(descriptor, bytes, count)
    #endif
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #elseif canImport(Darwin)
        Darwin.close(descriptor)
    #else
        Musl.close(descriptor)
    #endif
}
