import ArgumentParser
import Elevate

/// `elevate validate`: checks that files are JSON (or JSON Lines), streaming each one in bounded
/// memory, and reports the first error of each invalid file as `FILE:LINE:COLUMN: error: MESSAGE`.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check that files are valid JSON.",
        discussion: """
            Every file is checked, even after an invalid one; gzip files and streams (.json.gz, \
            .jsonl.gz) are inflated as they are read, and positions are in their text. Exit \
            status: 0 when all are valid, 1 when one is not (its first error is printed as \
            FILE:LINE:COLUMN: error: MESSAGE), 2 when one cannot be opened or read (or its gzip is \
            truncated or corrupt).
            """
    )

    @Flag(name: .customLong("allow-comments"), help: "Accept /* … */ and // … comments.")
    var allowsComments = false

    @Flag(
        name: .customLong("reject-duplicate-keys"),
        help: "Treat a key repeated in one object as invalid JSON (by default the last occurrence wins).")
    var rejectsDuplicateKeys = false

    @Flag(name: .customLong("json-lines"), help: "Each non-blank line must be exactly one JSON value (--framing json-lines).")
    var isJSONLines = false

    @OptionGroup var input: FramingOption

    @Flag(
        name: .shortAndLong,
        help: "Print a line for each valid file, with its number of values: nested ones included, keys not, the value of a repeated key at each occurrence.")
    var verbose = false

    @OptionGroup var parallel: JobsOption

    @Argument(help: "The files to check, gzip inflated (.json.gz, .jsonl.gz); '-' reads standard input.")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one file, or '-' for standard input.") }
        if isJSONLines && input.framing != .json && input.framing != .jsonLines {
            throw ValidationError("--json-lines is --framing json-lines: it cannot be --framing \(input.framing.rawValue)")
        }
    }

    /// The parser settings the flags ask for.
    private var parsingOptions: JSONParsingOptions {
        var options = JSONParsingOptions(allowsComments: allowsComments)
        options.rejectsDuplicateKeys = rejectsDuplicateKeys
        return options
    }

    func run() throws {
        var status = ExitStatus.success
        for file in files {
            do {
                let summary = try check(InputFile(file))
                if verbose { printToStandardError("\(file.escapedForTerminal): valid (\(summary))") }
            } catch let failure as CommandFailure {
                failure.report()
                // A file that cannot be read is the graver failure: the answer is unknown.
                status = max(status, failure.status)
            }
        }
        if status != ExitStatus.success { throw ExitCode(status) }
    }

    /// Checks one file.
    /// - Returns: a short description of what was found, for `--verbose`.
    /// - Throws: ``CommandFailure``.
    func check(_ file: InputFile) throws -> String {
        let options = parsingOptions
        let progress = ProgressBar.forTerminal(label: file.displayName, total: file.size)
        defer { progress?.finish() }
        if let framing = isJSONLines ? .jsonLines : input.sequenceFraming {
            let counts = try file.countValues(framing: framing, parsing: options, jobs: parallel.jobs, progress: progress)
            return framing == .jsonLines
                ? "\(counted(counts.values, "line")), \(counted(counts.nested, "value"))"
                : "\(counted(counts.values, "value")), \(counts.nested) in all"
        }
        // Every value counted as it streams past, repeats of a key included (a validator needs no
        // member count, so nothing is kept to count a repeat once, as `count` does: that pass kept
        // every key of a root object, 365 MiB for 12 million keys).
        var streaming = StreamingOptions(parsing: options, progress: progress?.update, wrapsErrorsInParserError: false)
        streaming.concurrency = parallel.jobs
        return counted(try file.reading { try countValues(in: file.input, options: streaming) }, "value")
    }

    /// `1 value`, `2 values`.
    private func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
