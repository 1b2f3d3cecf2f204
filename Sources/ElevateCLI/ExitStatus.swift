import ArgumentParser
import Elevate
import Foundation

/// The exit codes of `elevate`, one per kind of failure, so that scripts can tell them apart.
enum ExitStatus {
    /// Every input was valid and every command did what it was asked.
    static let success: Int32 = 0
    /// An input is not valid JSON (or JSON Lines).
    static let invalidJSON: Int32 = 1
    /// A file could not be opened, read or written.
    static let fileError: Int32 = 2
    /// Nothing is at the requested key path.
    static let nothingAtKeyPath: Int32 = 3
    /// `count` found a string, number, Boolean or null where it needs an array or object.
    static let notAContainer: Int32 = 4
}

/// A failure a command has already described: the message goes to standard error, prefixed with
/// `elevate: ` unless it is a positioned diagnostic (`FILE:LINE:COLUMN: error: …`), and the
/// process ends with the code.
struct CommandFailure: Error {
    var message: String
    var status: Int32
    var isDiagnostic = false

    /// The error line for bad JSON, in the `FILE:LINE:COLUMN: error: MESSAGE` form that editors
    /// and compilers use, so that terminals and IDEs can jump to it.
    static func invalidJSON(_ error: JSONSyntaxError, in file: String, line: Int? = nil) -> CommandFailure {
        CommandFailure(
            message: "\(file):\(line ?? error.line):\(error.column): error: \(error.message)",
            status: ExitStatus.invalidJSON, isDiagnostic: true)
    }

    /// An input that could not be opened or read.
    static func unreadable(_ error: JSONInputError, in file: String) -> CommandFailure {
        CommandFailure(message: "cannot read '\(file)': \(error.reason)", status: ExitStatus.fileError)
    }
}

/// Writes one line to standard error.
func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension CommandFailure {
    /// Prints the failure on standard error.
    func report() {
        printToStandardError(isDiagnostic ? message : "elevate: \(message)")
    }
}

/// Runs a command's body, reporting a ``CommandFailure`` (or an input error the body did not
/// translate) on standard error and exiting with its code, instead of ArgumentParser's generic
/// `Error:` line and status 1.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let failure as CommandFailure {
        failure.report()
        throw ExitCode(failure.status)
    } catch let error as JSONInputError {
        CommandFailure.unreadable(error, in: error.path).report()
        throw ExitCode(ExitStatus.fileError)
    } catch let error as JSONWriterError {
        CommandFailure(message: "cannot write the output: \(error)", status: ExitStatus.fileError).report()
        throw ExitCode(ExitStatus.fileError)
    } catch let error as ExitCode {
        throw error
    } catch {
        // Errors from writing standard output or an output file.
        CommandFailure(message: "\(error.localizedDescription)", status: ExitStatus.fileError).report()
        throw ExitCode(ExitStatus.fileError)
    }
}
