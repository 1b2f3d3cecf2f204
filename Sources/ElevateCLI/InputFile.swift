import Elevate
import ElevateJSON
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A command's input, named on the command line: a path, or `-` for standard input. Gzip (a
/// `.json.gz` file, `zcat`'s input on standard input) is inflated by the library's reader, found by
/// its magic bytes whatever the name; ``size`` stays the compressed size, which the progress bar
/// compares with the compressed bytes the library reports.
struct InputFile {
    /// The name as given.
    let name: String
    /// Where the parser reads from.
    let input: JSONInput
    /// The size of a regular file (of a gzip file, compressed), for the progress bar; nil for
    /// standard input, pipes and devices.
    let size: Int?
    /// The bytes of the path, as given on the command line (see ``fileSystemPath(_:)``).
    private let path: [CChar]

    /// The name as printed in messages, control characters escaped.
    var displayName: String { name.escapedForTerminal }

    /// Checks that `name` can be opened for reading, so that a missing file is reported as such
    /// before any work starts (and not as a failure halfway through).
    /// - Throws: ``CommandFailure`` with ``ExitStatus/fileError``: `cannot read FILE: REASON`.
    init(_ name: String) throws {
        self.name = name
        if name == "-" {
            path = []
            input = .standardInput
            size = nil
            return
        }
        path = fileSystemPath(name)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CommandFailure.cannotRead(name, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw CommandFailure.cannotRead(name, errno: code)
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw CommandFailure.cannotRead(name, errno: EISDIR)
        }
        // A name that is not UTF-8 has no `URL` of its own: it is read through its descriptor.
        if (status.st_mode & S_IFMT) == S_IFREG, path == Array(name.utf8CString) {
            close(descriptor)
            size = Int(status.st_size)
            input = .file(URL(fileURLWithPath: name))
        } else {
            // A named pipe, socket or device is read through the descriptor just opened: closing
            // it and opening the path again would drop what a pipe's writer had already sent, and
            // the second open would wait forever for a writer that is gone.
            size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
            input = .fileHandle(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
        }
    }

    /// Up to `count` bytes from the start of a regular file's text, read again (through the
    /// library's reader, so that a gzip file gives the start of its inflated text, which is what
    /// the parser judged, not its compressed bytes); nil for standard input, pipes and devices,
    /// whose bytes are gone, and when the file cannot be read or inflated that far.
    func firstBytes(_ count: Int) -> [UInt8]? {
        guard size != nil else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        do {
            let failure = try JSONInput.readChunks(of: descriptor, named: name, chunkSize: JSONInput.minimumChunkSize) {
                bytes += $0.prefix(count - bytes.count)
                return bytes.count < count
            }
            guard failure == nil else { return nil }
        } catch {
            return nil
        }
        return bytes
    }
}

extension InputFile {
    /// Runs `body`, a read of this file, turning the library's syntax and input errors into the
    /// failures that report them (`FILE:LINE:COLUMN: error: …`, status 1; `cannot read …`, status 2).
    /// - Throws: ``CommandFailure``, or what else `body` threw.
    func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as JSONSyntaxError {
            throw CommandFailure.invalidJSON(error, in: self)
        } catch let error as JSONInputError {
            throw CommandFailure.unreadable(error, in: name)
        }
    }

    /// Counts the top-level values of a stream of values (JSON Lines, concatenated values, a
    /// JSON text sequence) and every value inside them, checking each; nothing is built, so a value
    /// of any size passes. JSON Lines (and text sequences) are cut into runs of whole lines (records), and concatenated values
    /// (without comments) into runs of whole values, counted on `jobs` threads (on the calling
    /// thread, as they are cut, with one job).
    /// - Throws: ``CommandFailure``.
    func countValues(
        framing: JSONFraming, parsing: JSONParsingOptions, jobs: Int, progress: ProgressBar?
    ) throws -> (values: Int, nested: Int) {
        var options = StreamingOptions(
            parsing: parsing, maximumElementSize: .max, progress: progress?.update, wrapsErrorsInParserError: false)
        options.concurrency = jobs
        return try reading {
            if framing == .jsonLines || framing == .jsonTextSequence {
                let counts = try countLines(in: input, framing: framing, options: options)
                return (counts.lines, counts.values)
            }
            // Runs of whole values, counted by the event layer alone: also with one job.
            if framing == .concatenated {
                return try countConcatenatedValues(in: input, options: options)
            }
            let counter = ValueCounter()
            let values = try ValueSequencePass(framing: framing, keyPath: "", to: counter).run(input, options: options)
            return (values, counter.count)
        }
    }
}

/// The bytes to open for the file named `name` on the command line.
///
/// Swift decodes the command line as UTF-8 and replaces invalid bytes with U+FFFD, so a file whose
/// name is not UTF-8 would be missed (or, for an output, another file created). When `name` holds
/// U+FFFD, the raw argument it was decoded from is used instead, if exactly one argument decodes to
/// it.
func fileSystemPath(_ name: String) -> [CChar] {
    let decoded = Array(name.utf8CString)
    guard name.unicodeScalars.contains("\u{FFFD}") else { return decoded }
    var candidates = Set<[CChar]>()
    for index in 0..<Int(CommandLine.argc) {
        guard let argument = CommandLine.unsafeArgv[index], String(cString: argument) == name else { continue }
        candidates.insert(Array(UnsafeBufferPointer(start: argument, count: strlen(argument) + 1)))
    }
    return candidates.count == 1 ? candidates.first! : decoded
}
