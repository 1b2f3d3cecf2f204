import ArgumentParser
import ElevateSampleData
import Foundation

/// `elevate generate`: writes a deterministic sample document of about the requested size, for
/// trying the other commands and for benchmarks.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic sample JSON document.",
        discussion: """
            The same kind, size and seed always give the same bytes. The document is at least SIZE \
            bytes long (it ends at the first item past it). Exit status: 0 on success, 2 when the \
            output cannot be written.
            """
    )

    /// The kinds of document, named as on the command line.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case people
        case numbers

        var document: SampleDocument {
            switch self {
            case .people: .people
            case .numbers: .numbers
            }
        }
    }

    @Argument(help: "people: an API response of people records; numbers: rows of eight numbers.")
    var kind: Kind

    @Option(help: "The target size: bytes, or a number with KB, MB, GB (powers of 1000) or KiB, MiB, GiB.")
    var size: ByteSize

    @Option(help: "The seed of the pseudo-random choices.")
    var seed: UInt64 = SampleDocument.defaultSeed

    @Flag(name: .shortAndLong, help: "Print the number of items and bytes written on standard error.")
    var verbose = false

    @Argument(help: "The output file; '-' writes to standard output.")
    var output: String

    func run() throws {
        try reportingFailures {
            let handle = try openOutput()
            defer { if output != "-" { try? handle.close() } }
            let progress = ProgressBar.forTerminal(label: output == "-" ? "generate" : output, total: size.bytes)
            defer { progress?.finish() }
            var written = 0
            let summary = try kind.document.write(targetSize: size.bytes, seed: seed) { piece in
                try handle.write(contentsOf: piece)
                written += piece.count
                progress?.update(written)
            }
            if verbose {
                printToStandardError(
                    "\(output): \(summary.itemCount) \(kind == .people ? "people" : "rows"), "
                        + "\(summary.byteCount) bytes")
            }
        }
    }

    private func openOutput() throws -> FileHandle {
        if output == "-" { return .standardOutput }
        guard FileManager.default.createFile(atPath: output, contents: nil),
            let handle = FileHandle(forWritingAtPath: output)
        else {
            let reason = String(cString: strerror(errno))
            throw CommandFailure(message: "cannot create '\(output)': \(reason)", status: ExitStatus.fileError)
        }
        return handle
    }
}
