import ArgumentParser
import ElevateSampleData

/// `elevate generate`: writes a deterministic sample document of about the requested size, for
/// trying the other commands and for benchmarks.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic sample JSON document.",
        discussion: """
            The same kind, size and seed always give the same bytes. The document is at least SIZE \
            bytes long (it ends at the first item past it). OUTPUT is written in place: an existing \
            file keeps its permissions and links, and a symbolic link is followed. Exit status: 0 on \
            success, 2 when the output cannot be created or written (a full disk included).
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
            // Written through the path, never replaced: see OutputFile.
            let file = try OutputFile(output)
            let progress = ProgressBar.forTerminal(
                label: output == "-" ? "generate" : output.escapedForTerminal, total: size.bytes)
            defer { progress?.finish() }
            var written = 0
            let summary = try kind.document.write(targetSize: size.bytes, seed: seed) { piece in
                try file.write(piece)
                written += piece.count
                progress?.update(written)
            }
            try file.close()
            if verbose {
                printToStandardError(
                    "\(output.escapedForTerminal): \(summary.itemCount) \(kind == .people ? "people" : "rows"), "
                        + "\(summary.byteCount) bytes")
            }
        }
    }
}
