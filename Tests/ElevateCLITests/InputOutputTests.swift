import ElevateSampleData
import Foundation
import ElevateTestSupport
import Testing

@testable import ElevateCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the `elevate` tool reads its input and writes its output (full devices, named pipes, links,
/// names that are not UTF-8, escapes in messages), each run through the executable.
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct InputOutputTests {
    /// Runs `script` in `/bin/sh` with `$0` the elevate executable, in `scratch`.
    private func shell(_ script: String, in scratch: ScratchDirectory) throws -> ElevateBinary.Result {
        try ElevateBinary.run(
            ["-c", script, ElevateBinary.url!.path], executable: URL(fileURLWithPath: "/bin/sh"), in: scratch.url)
    }

    /// `count` printed its number with `print`, whose buffered write fails unseen at exit: a full
    /// standard output exited 0 with nothing written.
    @Test func countReportsAFullDevice() throws {
        let scratch = try ScratchDirectory()
        try scratch.file("doc.json", "[1,2,3]")
        let result = try shell("exec \"$0\" count doc.json > /dev/full", in: scratch)
        #expect(result.status == ExitStatus.fileError)
        #expect(result.standardError == "elevate: cannot write standard output: No space left on device\n")
    }

    /// Help and the version were printed by ArgumentParser with `print`: to a full standard output
    /// they exited 0 with nothing written.
    @Test(arguments: [["--version"], ["--help"], ["count", "--help"], ["help", "extract"]])
    func helpAndVersionReportAFullDevice(_ arguments: [String]) throws {
        let scratch = try ScratchDirectory()
        let result = try shell("exec \"$0\" \(arguments.joined(separator: " ")) > /dev/full", in: scratch)
        #expect(result.status == ExitStatus.fileError)
        #expect(result.standardError == "elevate: cannot write standard output: No space left on device\n")
        // To a working output, the text and status are ArgumentParser's.
        let shown = try shell("exec \"$0\" \(arguments.joined(separator: " "))", in: scratch)
        #expect(shown.status == 0)
        let expectedStart = arguments == ["--version"] ? "0.1.0\n" : "OVERVIEW: "
        #expect(shown.output.hasPrefix(expectedStart), "\(shown.output.prefix(40))")
    }

    /// A named pipe was opened to check it, closed, and opened again to read: the writer's bytes
    /// went with the first reader, and the second open waited forever for another writer.
    @Test(arguments: [["count"], ["validate"], ["validate", "--json-lines"], ["extract"]])
    func namedPipeIsReadOnce(_ command: [String]) throws {
        let scratch = try ScratchDirectory()
        let fifo = scratch.url.appendingPathComponent("pipe.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let arguments = command.map { "'\($0)'" }.joined(separator: " ")
        let result = try shell(
            "printf '[1,2]' > pipe.json & exec timeout -s KILL 5 \"$0\" \(arguments) pipe.json", in: scratch)
        #expect(result.status == 0, "\(command): \(result.standardError)")
        #expect(result.output == (command == ["count"] ? "2\n" : command == ["extract"] ? "[1,2]\n" : ""))
    }
}

extension InputOutputTests {
    /// Swift decodes the command line as UTF-8, replacing invalid bytes with U+FFFD: a file whose
    /// name is not UTF-8 was "No such file" (status 2) though it exists, and `generate` silently
    /// wrote to another file, named with U+FFFD.
    @Test func fileNamesThatAreNotUTF8AreUsedAsGiven() throws {
        let scratch = try ScratchDirectory()
        let result = try shell(
            #"""
            printf '[1,2]' > "$(printf 'in\377.json')"
            "$0" count "$(printf 'in\377.json')" || exit 10
            "$0" validate "$(printf 'in\377.json')" || exit 11
            "$0" extract "$(printf 'in\377.json')" || exit 12
            "$0" generate numbers --size 100 "$(printf 'out\376.json')" || exit 13
            test -s "$(printf 'out\376.json')" || exit 14
            test ! -e "$(printf 'out\357\277\275.json')" || exit 15
            """#, in: scratch)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output == "2\n[1,2]\n")
    }
}

extension InputOutputTests {
    /// A repeated key is quoted in the error message, decoded: a key holding `\u001b` sent a raw
    /// escape sequence (or a C1 control) to the terminal through the `FILE:LINE:COLUMN` line.
    @Test(arguments: [("validate", #"\u001b[31m"#), ("count", #"\u001b[31m"#), ("validate", #"\u009b31m"#)])
    func keysInErrorMessagesCannotSendEscapes(_ command: String, _ key: String) throws {
        let scratch = try ScratchDirectory()
        try scratch.file("dup.json", #"{"\#(key)":1,"\#(key)":2}"#)
        let result = try scratch.run(command, "--reject-duplicate-keys", "dup.json")
        #expect(result.status == ExitStatus.invalidJSON)
        #expect(result.standardError.hasPrefix("dup.json:1:"))
        #expect(!result.standardError.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }, "\(result.standardError)")
    }
}

/// `generate` writes through the path it is given: to a full device, a symbolic link, a file with
/// hard links and a mode of its own.
extension InputOutputTests {
    @Test func generateReportsAFullDevice() throws {
        let scratch = try ScratchDirectory()
        let full = try scratch.run("generate", "people", "--size", "200KB", "/dev/full")
        #expect(full.status == ExitStatus.fileError)
        #expect(full.standardError == "elevate: cannot write /dev/full: No space left on device\n")
        // Standard output on a full device fails the same way.
        let standardOutput = try ElevateBinary.run(
            ["-c", "exec \"$0\" generate numbers --size 10KB - > /dev/full", ElevateBinary.url!.path],
            executable: URL(fileURLWithPath: "/bin/sh"), in: scratch.url)
        #expect(standardOutput.status == ExitStatus.fileError)
        #expect(standardOutput.standardError == "elevate: cannot write standard output: No space left on device\n")
    }

    @Test func generateWritesThroughASymbolicLink() throws {
        let scratch = try ScratchDirectory()
        let target = try scratch.file("target.json", "old")
        let link = scratch.url.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
        #expect(try scratch.run("generate", "numbers", "--size", "1KB", "link.json").status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        let expected = SampleDocument.numbers.data(targetSize: 1000, seed: SampleDocument.defaultSeed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == expected)
    }

    @Test func generateKeepsModeAndHardLinks() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("private.json", "old")
        #expect(chmod(file, 0o600) == 0)
        let other = scratch.url.appendingPathComponent("other.json").path
        #expect(link(file, other) == 0)
        #expect(try scratch.run("generate", "numbers", "--size", "1KB", "private.json").status == 0)
        var status = stat()
        #expect(stat(file, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_nlink == 2)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: other))
                == SampleDocument.numbers.data(targetSize: 1000, seed: SampleDocument.defaultSeed))
    }
}

/// `extract` reports a full standard output.
extension InputOutputTests {
    @Test func extractReportsAFullDevice() throws {
        let scratch = try ScratchDirectory()
        try scratch.file("doc.json", "[1,2,3]")
        let result = try ElevateBinary.run(
            ["-c", "exec \"$0\" extract doc.json > /dev/full", ElevateBinary.url!.path],
            executable: URL(fileURLWithPath: "/bin/sh"), in: scratch.url)
        #expect(result.status == ExitStatus.fileError)
        #expect(result.standardError == "elevate: cannot write standard output: No space left on device\n")
    }
}
