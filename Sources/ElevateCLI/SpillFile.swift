#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// An anonymous temporary file that holds the start of a value too large to keep in memory until
/// it is complete (see ``JSONTextWriter``). It is unlinked as soon as it is created, so nothing is
/// left behind however the tool ends; it lives in `$TMPDIR`, or `/tmp`.
final class SpillFile {
    private let descriptor: Int32
    private let directory: String
    /// Bytes appended since the last ``reset()``.
    private(set) var count = 0

    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError`` when no file can be created.
    init() throws {
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if directory.isEmpty { directory = "/tmp" }
        self.directory = directory
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array("elevate-extract.XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw CommandFailure.cannotWrite(Self.name(in: directory), errno: errno) }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    private static func name(in directory: String) -> String { "a temporary file in \(directory)" }

    /// Appends `bytes`.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError`` (a full disk, say).
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw CommandFailure.cannotWrite(Self.name(in: directory), errno: errno)
            }
            next += written
            remaining -= written
        }
        count += bytes.count
    }

    /// Copies everything appended to `output`, through `scratch`.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError``.
    func copy(to output: OutputFile, through scratch: UnsafeMutableRawBufferPointer) throws {
        var offset = 0
        while offset < count {
            let read = pread(descriptor, scratch.baseAddress!, min(scratch.count, count - offset), off_t(offset))
            if read < 0 {
                if errno == EINTR { continue }
                throw CommandFailure.cannotWrite(Self.name(in: directory), errno: errno)
            }
            if read == 0 { throw CommandFailure.cannotWrite(Self.name(in: directory), errno: EIO) }
            try output.write(UnsafeRawBufferPointer(rebasing: scratch[..<read]))
            offset += read
        }
    }

    /// Empties the file for the next value.
    func reset() {
        _ = ftruncate(descriptor, 0)
        _ = lseek(descriptor, 0, SEEK_SET)
        count = 0
    }
}
