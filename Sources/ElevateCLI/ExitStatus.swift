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
    /// The command line is wrong (no command, an unknown option, a bad value): `EX_USAGE` from
    /// `sysexits.h`, which is also what ArgumentParser exits with for its own usage errors.
    static let usage: Int32 = 64
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
    ///
    /// The column is one-based, counts bytes, and names the offending byte (the first byte of the
    /// offending token), as the library reports it. Input that looks like UTF-16 or UTF-32 is
    /// reported as such at 1:1, rather than as YAJL's "invalid char" at its first byte.
    ///
    /// - Parameters:
    ///   - error: The parser's error.
    ///   - file: The input, whose start is read again to recognise UTF-16 and UTF-32.
    ///   - line: The line to report instead of the error's, for JSON Lines.
    static func invalidJSON(_ error: JSONSyntaxError, in file: InputFile, line: Int? = nil) -> CommandFailure {
        if let encoding = UnicodeEncodingDetection.encoding(of: file, failingWith: error) {
            return CommandFailure(
                message: "\(file.displayName):1:1: error: the file looks like \(encoding); JSON must be UTF-8",
                status: ExitStatus.invalidJSON, isDiagnostic: true)
        }
        // The message can quote the input (a repeated key, decoded): its control characters are
        // escaped like a file name's, so that the file cannot send escape sequences to the terminal.
        // The excerpt the parser took around the offending byte, as the library's own description
        // ends: where in a long line the error is, at a glance.
        let excerpt = error.excerpt.isEmpty ? "" : " near \"\(error.excerpt.escapedForTerminal)\""
        return CommandFailure(
            message: "\(file.displayName):\(line ?? error.line):\(error.column): error: \(error.message.escapedForTerminal)"
                + excerpt,
            status: ExitStatus.invalidJSON, isDiagnostic: true)
    }

    /// An input that could not be opened or read: `cannot read FILE: REASON`.
    static func unreadable(_ error: JSONInputError, in file: String) -> CommandFailure {
        CommandFailure(message: "cannot read \(file.escapedForTerminal): \(error.reason)", status: ExitStatus.fileError)
    }

    /// An input that could not be opened or read, with the `errno` that said why.
    static func cannotRead(_ file: String, errno code: Int32) -> CommandFailure {
        CommandFailure(
            message: "cannot read \(file.escapedForTerminal): \(String(cString: strerror(code)))",
            status: ExitStatus.fileError)
    }

    /// An output that could not be created, written or closed, with the `errno` that said why.
    static func cannotWrite(_ file: String, errno code: Int32) -> CommandFailure {
        let name = file == "-" ? "standard output" : file.escapedForTerminal
        return CommandFailure(
            message: "cannot write \(name): \(String(cString: strerror(code)))", status: ExitStatus.fileError)
    }

    /// A Foundation error from reading or writing a file, said as `cannot read FILE: REASON` when
    /// it names a file and a POSIX cause, rather than as Foundation's sentence.
    static func describing(_ error: any Error) -> CommandFailure {
        let nsError = error as NSError
        let path =
            (nsError.userInfo[NSFilePathErrorKey] as? String)
            ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        if let path, let underlying, underlying.domain == NSPOSIXErrorDomain {
            let isWrite = (CocoaError.Code.fileWriteUnknown.rawValue...CocoaError.Code.fileWriteVolumeReadOnly.rawValue)
                .contains(nsError.code)
            return isWrite
                ? .cannotWrite(path, errno: Int32(underlying.code)) : .cannotRead(path, errno: Int32(underlying.code))
        }
        return CommandFailure(message: error.localizedDescription, status: ExitStatus.fileError)
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
    } catch let error as ExitCode {
        throw error
    } catch {
        // Foundation's file errors (the benchmark kit reads with `Data(contentsOf:)`).
        CommandFailure.describing(error).report()
        throw ExitCode(ExitStatus.fileError)
    }
}
