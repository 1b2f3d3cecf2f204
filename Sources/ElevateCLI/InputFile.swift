import Elevate
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A command's input, named on the command line: a path, or `-` for standard input.
struct InputFile {
    /// The name as given, used in every message about the file.
    let name: String
    /// Where the parser reads from.
    let input: JSONInput
    /// The size of a regular file, for the progress bar; nil for standard input, pipes and devices.
    let size: Int?

    /// Checks that `name` can be opened for reading, so that a missing file is reported as such
    /// before any work starts (and not as a failure halfway through).
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError``.
    init(_ name: String) throws {
        self.name = name
        if name == "-" {
            input = .standardInput
            size = nil
            return
        }
        let descriptor = open(name, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure(
                message: "cannot open '\(name)': \(String(cString: strerror(errno)))", status: ExitStatus.fileError)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CommandFailure(
                message: "cannot open '\(name)': \(String(cString: strerror(errno)))", status: ExitStatus.fileError)
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw CommandFailure(
                message: "cannot open '\(name)': \(String(cString: strerror(EISDIR)))", status: ExitStatus.fileError)
        }
        size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        input = .file(URL(fileURLWithPath: name))
    }
}
