import ArgumentParser
import Elevate
import ElevateJSON

/// `elevate extract`: writes the value at a key path to standard output as JSON, streamed event by
/// event through the library's `JSONTextEmitter` (the writer behind `JSONEventWriter`), so a value of any size passes in bounded memory (at most
/// 16 MiB of one value held, and only when the output is not a regular file).
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print the value at a key path as JSON.",
        discussion: """
            The value is copied as it is parsed: numbers keep their exact text. The rest of the \
            input is read and checked too, whatever its size, so a file that is invalid after the \
            value prints the value and exits with status 1, as jq does. A gzip file or stream \
            (.json.gz) is inflated as it is read. Exit status: 0 on success, 1 for invalid JSON, 2 \
            when the file cannot be opened or read (or its gzip is truncated or corrupt) or the \
            output cannot be written, 3 when nothing is at the key path (with --framing, in any of the \
            values: the others are printed first), 4 when --json-lines finds something other than an array. When the input fails (status 1 or 2), standard output holds the values \
            completed before the failure (with --json-lines, the elements before the failing one), \
            each on a line of its own. Redirected to a file, it holds nothing of the value cut \
            short: the file is truncated back to where that value began. Over a pipe or to a \
            terminal, a value is held in memory until it ends, so nothing of a failed value up to \
            16 MiB is printed; a longer one is written on as it comes and may be cut off where the \
            input failed, on a last line of its own: check the exit status.
            """
    )

    @Option(
        name: .customLong("key-path"),
        help: "Keys joined by '.', array indices as numbers (items.0.name), or a JSON Pointer (/items/0/name, ~1 for '/', ~0 for '~'); '' (the default) is the root. A component * matches every member and element (items.*.name): each value found is printed, on a line of its own. Repeat it for several paths: each is printed in turn, as jq's '.a, .b' prints them (the file is read once per path).")
    var keyPaths: [String] = []

    /// The key paths asked for; the root when none is.
    private var paths: [String] { keyPaths.isEmpty ? [""] : keyPaths }

    @Flag(help: "Indent the output, one member or element per line.")
    var pretty = false

    @Flag(
        name: .customLong("json-lines"),
        help: "Print each element of the array at the key path on a line of its own (JSON Lines), to pipe big arrays to other tools.")
    var jsonLines = false

    @Flag(
        name: [.customShort("r"), .customLong("raw-output")],
        help: "Print a string value (with --json-lines, each string element) as its text, without quotes or escapes, as jq -r does.")
    var rawOutput = false

    @Flag(name: .customLong("allow-comments"), help: "Accept /* … */ and // … comments.")
    var allowsComments = false

    @OptionGroup var input: FramingOption

    @OptionGroup var parallel: JobsOption

    @Flag(
        name: .customLong("reject-duplicate-keys"),
        help: "Treat a key repeated in one object as invalid JSON (by default the last occurrence wins).")
    var rejectsDuplicateKeys = false

    @Argument(help: "The JSON files, gzip inflated (.json.gz); '-' reads standard input. Each file's value is printed in turn, as jq prints them.")
    var files: [String]

    func validate() throws {
        if jsonLines && pretty { throw ValidationError("--json-lines prints one element per line: it cannot be --pretty") }
        if paths.count > 1 && files.contains("-") {
            throw ValidationError("several --key-path options read the input once each: standard input cannot be read again")
        }
    }

    /// The parser settings the flags ask for.
    private var parsingOptions: JSONParsingOptions {
        var options = JSONParsingOptions(allowsComments: allowsComments)
        options.rejectsDuplicateKeys = rejectsDuplicateKeys
        return options
    }

    func run() throws {
        // Each file's value in turn: a failing file is reported (after what it completed, as
        // for one file) and the others are still extracted; the exit status is the gravest
        // failure's.
        var status = ExitStatus.success
        for file in files {
            for path in paths {
                do {
                    // Opened again for each path: each reads the file from its start.
                    try reportingFailures { try extract(InputFile(file), atKeyPath: path, to: .standardOutput()) }
                } catch let exit as ExitCode {
                    status = max(status, exit.rawValue)
                }
            }
        }
        if status != ExitStatus.success { throw ExitCode(status) }
    }

    /// Copies the value at the (first) key path to `output`, followed by a newline.
    /// - Throws: ``CommandFailure``.
    func extract(_ file: InputFile, to output: OutputFile) throws {
        try extract(file, atKeyPath: paths[0], to: output)
    }

    /// Copies the value at `keyPath` to `output`, followed by a newline.
    /// - Throws: ``CommandFailure``.
    func extract(_ file: InputFile, atKeyPath keyPath: String, to output: OutputFile) throws {
        let progress = ProgressBar.forTerminal(label: file.displayName, total: file.size)
        defer { progress?.finish() }
        var options = StreamingOptions(
            parsing: parsingOptions, maximumElementSize: .max,
            progress: progress?.update, wrapsErrorsInParserError: false)
        options.concurrency = parallel.jobs
        let writer = JSONTextEmitter(output: output, prettyPrinted: pretty, rawTopLevelStrings: rawOutput)
        let found: Bool
        // A stream of values: the values the key path led nowhere in, and the first of them.
        var stream: ValueSequenceSummary?
        do {
            let jsonLines = jsonLines
            let forward: @Sendable (JSONTextEmitter) -> any JSONEventHandler = {
                jsonLines ? JSONLinesSplitter(forwardingTo: $0) : $0
            }
            // A live input's complete values go out when it pauses, not when the buffer fills.
            let whenInputWaits = { try writer.flushCompleteValues() }
            if let framing = input.sequenceFraming {
                // As jq reads a stream: the key path in each value, each found value on its own line.
                let summary = try writeValues(
                    from: file.input, framing: framing, atKeyPath: keyPath, wildcard: "*", to: writer, through: forward,
                    options: options)
                stream = summary
                found = summary.found
            } else if jsonLines {
                // The array's elements, on every core: runs of them written by workers.
                found = try writeElementLines(
                    from: file.input, atKeyPath: keyPath, wildcard: "*", to: writer, options: options,
                    whenInputWaits: whenInputWaits)
            } else {
                // The value (or a wildcard path's values), its arrays (or the array the first
                // wildcard matches in) written on every core.
                found = try writeMatches(
                    from: file.input, atKeyPath: keyPath, wildcard: "*", to: writer, options: options,
                    whenInputWaits: whenInputWaits)
            }
        } catch is JSONLinesSplitter.NotAnArray {
            // As for bad input: the values completed before it (in a stream of values), whole.
            try writeCompleteValues(of: writer, to: output)
            throw CommandFailure(
                message: "the value at key path '\(keyPath.escapedForTerminal)' in '\(file.displayName)' is not an array; "
                    + "--json-lines prints the elements of an array",
                status: ExitStatus.notAContainer)
        } catch let error as JSONSyntaxError {
            // Print the values completed before the failure, each on a whole line, and nothing of
            // the one cut short; then say why it stops (bad input, or the key path repeated after
            // its first value was written, which makes that value not the answer).
            try writeCompleteValues(of: writer, to: output)
            throw CommandFailure.invalidJSON(error, in: file)
        } catch let error as JSONInputError {
            try writeCompleteValues(of: writer, to: output)
            throw CommandFailure.unreadable(error, in: file.name)
        }
        guard found else { throw CommandFailure.nothingAtKeyPath(keyPath, in: file.name) }
        try writer.finishCompleteValues()
        // JSON Lines of an empty array is no line at all; nor is a stream of no values.
        if (!jsonLines && input.sequenceFraming == nil) || writer.wroteAnyValue { try output.write("\n") }
        if let stream, let first = stream.firstMissing {
            // Printed what the other values held; then say which lacked it (jq would print null).
            let place = first.line.map { "\(input.framing == .jsonSeq ? "record" : "line") \($0)" } ?? "value \(first.index)"
            throw CommandFailure(
                message: "nothing at key path '\(keyPath.escapedForTerminal)' in \(stream.missing) of the \(stream.values) values "
                    + "of '\(file.name.escapedForTerminal)' (the first: \(place))",
                status: ExitStatus.nothingAtKeyPath)
        }
    }

    /// After a failure: the complete values, each ending its line, and nothing of an incomplete
    /// one (unless it was longer than the writer holds, over an output that cannot be truncated:
    /// then its start ends the last line).
    private func writeCompleteValues(of writer: JSONTextEmitter, to output: OutputFile) throws {
        try writer.finishCompleteValues()
        if writer.completedValueCount > 0 || writer.leftCutValue { try output.write("\n") }
    }
}
