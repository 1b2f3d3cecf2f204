import ArgumentParser

/// `elevate`: checks, measures, slices and generates JSON files of any size, streaming them
/// through Elevate's YAJL parser in bounded memory.
@main
struct ElevateCommand: ParsableCommand {
    /// The tool's version, printed by `elevate --version`; the only place it is written.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "elevate",
        abstract: "Validate, count, extract and generate JSON, streaming files of any size.",
        discussion: """
            Exit status: 0 on success, 1 for invalid JSON, 2 when a file cannot be opened, read or \
            written, 3 when nothing is at the key path, 4 when `count` finds a scalar at the key path, \
            64 for a usage error (no command included). A progress bar appears on standard error, when \
            it is a terminal, for inputs over 64 MiB or work that takes over a second.
            """,
        version: version,
        subcommands: [ValidateCommand.self, CountCommand.self, ExtractCommand.self, GenerateCommand.self, Bench.self]
    )

    /// ArgumentParser's `main`, except that help and the version are written like any other
    /// output: ArgumentParser prints them with `print`, whose buffered write fails unseen at exit,
    /// so `elevate --version > /dev/full` exited 0 with nothing written. Now that is status 2.
    static func main() {
        do {
            // Help comes as a command too, whose run throws the request.
            var command = try parseAsRoot()
            try command.run()
        } catch where exitCode(for: error) == .success {
            let text = fullMessage(for: error)
            do {
                try OutputFile.standardOutput().write(text.isEmpty ? "" : text + "\n")
            } catch let failure as CommandFailure {
                failure.report()
                exit(withError: ExitCode(failure.status))
            } catch {
                exit(withError: error)
            }
            exit()
        } catch {
            exit(withError: error)
        }
    }

    /// Runs when no command is named: that is a usage error, so the usage goes to standard error
    /// and the status is 64, where ArgumentParser's default would print help and succeed.
    func run() throws {
        printToStandardError(Self.helpMessage())
        throw ExitCode(ExitStatus.usage)
    }
}
