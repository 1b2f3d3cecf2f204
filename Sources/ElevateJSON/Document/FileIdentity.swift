#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Which regular file, and which version of it: device, inode, size and modification time.
///
/// An error found after a file was parsed gets its line and column by reading the file again up to
/// the failing value (the tape keeps no byte offsets). That is only right when the file still holds
/// the bytes that were parsed: the identity taken while parsing must equal the one found then, or
/// no position is given.
struct FileIdentity: Equatable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    /// The file's size in bytes.
    let size: Int64
    private let modifiedSeconds: Int64
    private let modifiedNanoseconds: Int64

    private init?(_ status: stat) {
        // Only a regular file can be read again: a pipe's or a device's bytes are gone.
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int64(status.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        #endif
    }

    /// The identity of the open file `descriptor`, or nil when it is no regular file.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }
}
