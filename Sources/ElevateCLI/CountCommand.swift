import ArgumentParser
import Elevate

/// `elevate count`: the number of elements of the array, or members of the object, at a key path,
/// counted without building any value.
struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Print the number of elements (array) or members (object) at a key path.",
        discussion: """
            A gzip file or stream (.json.gz) is inflated as it is read, and positions are in its text. \
            Exit status: 0 on success, 1 for invalid JSON, 2 when the file cannot be opened or read \
            (or its gzip is truncated or corrupt), 3 when nothing is at the key path, 4 when a \
            string, number, Boolean or null is there.
            """
    )

    @Option(
        name: .customLong("key-path"),
        help: "Keys joined by '.', array indices as numbers (items.0.tags), or a JSON Pointer (/items/0/tags, ~1 for '/', ~0 for '~'); '' (the default) is the root."
    )
    var keyPath = ""

    @Flag(name: .customLong("allow-comments"), help: "Accept /* … */ and // … comments.")
    var allowsComments = false

    @Flag(
        name: .customLong("json-lines"),
        help: "Read JSON Lines: count the values (non-blank lines), each checked to be exactly one JSON value (--framing json-lines).")
    var isJSONLines = false

    @OptionGroup var input: FramingOption

    @Flag(
        name: .customLong("reject-duplicate-keys"),
        help: "Treat a key repeated in one object as invalid JSON (by default the last occurrence wins).")
    var rejectsDuplicateKeys = false

    @OptionGroup var parallel: JobsOption

    @Argument(help: "The JSON files, gzip inflated (.json.gz); '-' reads standard input. With several, each count is followed by its file's name, as wc prints.")
    var files: [String]

    /// The parser settings the flags ask for.
    private var parsingOptions: JSONParsingOptions {
        var options = JSONParsingOptions(allowsComments: allowsComments)
        options.rejectsDuplicateKeys = rejectsDuplicateKeys
        return options
    }

    func run() throws {
        // Each file is counted and reported on its own, as `validate` checks each: a failing file
        // is reported and the others are still counted; the exit status is the gravest failure's.
        var status = ExitStatus.success
        for file in files {
            do {
                try reportingFailures {
                    let total = try count(InputFile(file))
                    // Written and checked at once, not with `print`, whose buffered write fails
                    // unseen at exit: a full or failing standard output is status 2, as for `extract`.
                    let line = files.count == 1 ? "\(total)\n" : "\(total) \(file.escapedForTerminal)\n"
                    try OutputFile.standardOutput().write(line)
                }
            } catch let exit as ExitCode {
                status = max(status, exit.rawValue)
            }
        }
        if status != ExitStatus.success { throw ExitCode(status) }
    }

    /// Counts the children of the container at the key path.
    /// - Throws: ``CommandFailure``.
    func count(_ file: InputFile) throws -> Int {
        let progress = ProgressBar.forTerminal(label: file.displayName, total: file.size)
        defer { progress?.finish() }
        if let framing = isJSONLines ? .jsonLines : input.sequenceFraming {
            return try file.countValues(framing: framing, parsing: parsingOptions, jobs: parallel.jobs, progress: progress)
                .values
        }
        var options = StreamingOptions(
            parsing: parsingOptions, progress: progress?.update,
            wrapsErrorsInParserError: false)
        options.concurrency = parallel.jobs
        let summary = try file.reading { try summarizeValue(from: file.input, atKeyPath: keyPath, options: options) }
        guard let summary else {
            throw CommandFailure.nothingAtKeyPath(keyPath, in: file.name)
        }
        guard summary.kind != .scalar else {
            throw CommandFailure(
                message:
                    "the value at key path '\(keyPath.escapedForTerminal)' in '\(file.displayName)' is a string, number, Boolean "
                    + "or null, not an array or object",
                status: ExitStatus.notAContainer)
        }
        return summary.count
    }
}

extension CountCommand {
    func validate() throws {
        if isJSONLines && input.framing != .json && input.framing != .jsonLines {
            throw ValidationError("--json-lines is --framing json-lines: it cannot be --framing \(input.framing.rawValue)")
        }
        if (isJSONLines || input.sequenceFraming != nil) && !keyPath.isEmpty {
            throw ValidationError("with --json-lines or --framing, count counts the input's values: it takes no --key-path")
        }
    }
}

extension CommandFailure {
    /// No value at the key path (which includes a path through a scalar, or past an array's end).
    static func nothingAtKeyPath(_ keyPath: String, in file: String) -> CommandFailure {
        CommandFailure(
            message: "nothing at key path '\(keyPath.escapedForTerminal)' in '\(file.escapedForTerminal)'",
            status: ExitStatus.nothingAtKeyPath)
    }
}
