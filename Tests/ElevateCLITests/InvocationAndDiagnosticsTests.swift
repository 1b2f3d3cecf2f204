import Foundation
import ElevateTestSupport
import Testing

@testable import ElevateCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the `elevate` tool is invoked and what its messages say, each run through the executable.
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct InvocationAndDiagnosticsTests {
    // MARK: invocation

    @Test func noArgumentsIsAUsageError() throws {
        let scratch = try ScratchDirectory()
        let result = try scratch.run()
        #expect(result.status == ExitStatus.usage)
        #expect(result.output.isEmpty)
        #expect(result.standardError.contains("USAGE: elevate <subcommand>"))
    }

    @Test func versionIsPrinted() throws {
        let scratch = try ScratchDirectory()
        let result = try scratch.run("--version")
        #expect(result.status == 0)
        #expect(result.output == ElevateCommand.version + "\n")
    }

    @Test func benchNamesAMissingFile() throws {
        let scratch = try ScratchDirectory()
        let result = try scratch.run("bench", "nope.json")
        #expect(result.status == ExitStatus.fileError)
        #expect(result.standardError == "elevate: cannot read nope.json: No such file or directory\n")
    }

    // MARK: diagnostics

    /// The column of an "invalid char" error is that of the byte itself, one-based.
    @Test(arguments: [("[1,2,x]", 1, 6), ("x", 1, 1), ("  x", 1, 3), ("{\"a\":\n  [1, @]}", 2, 7), ("[1é]", 1, 3)])
    func invalidCharacterColumnIsTheByte(_ text: String, _ line: Int, _ column: Int) throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("bad.json", text)
        for arguments in [["validate"], ["validate", "--json-lines"], ["count"], ["extract"]] {
            let result = try ElevateBinary.run(arguments + [file], in: scratch.url)
            #expect(result.status == ExitStatus.invalidJSON)
            if arguments != ["validate", "--json-lines"] || line == 1 {
                #expect(
                    result.standardError.hasPrefix("\(file):\(line):\(column): error: invalid char"), "\(arguments)")
            }
        }
    }

    /// Errors YAJL finds after a whole token name the token's first byte.
    @Test(arguments: [("[1,2,,3]", 6), ("{\"a\" 2}", 6), ("[1 2]", 4), ("[1,2] 3", 7)])
    func tokenErrorColumnIsTheTokenStart(_ text: String, _ column: Int) throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("bad.json", text)
        let result = try scratch.run("validate", file)
        #expect(result.status == ExitStatus.invalidJSON)
        #expect(result.standardError.hasPrefix("\(file):1:\(column): error: "))
    }

    @Test(
        arguments: [
            ([0xFF, 0xFE, 0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00], "little-endian"),
            ([0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D], "big-endian"),
            ([0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00], "little-endian"),
            ([0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D], "big-endian"),
        ].map { ($0, "UTF-16 (\($1))") }
            + [
                ([0xFF, 0xFE, 0x00, 0x00, 0x5B, 0x00, 0x00, 0x00, 0x5D, 0x00, 0x00, 0x00], "little-endian"),
                ([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x5B, 0x00, 0x00, 0x00, 0x5D], "big-endian"),
                ([0x5B, 0x00, 0x00, 0x00, 0x5D, 0x00, 0x00, 0x00], "little-endian"),
                ([0x00, 0x00, 0x00, 0x5B, 0x00, 0x00, 0x00, 0x5D], "big-endian"),
            ].map { ($0, "UTF-32 (\($1))") } as [([UInt8], String)])
    func otherUnicodeEncodingsAreNamed(_ bytes: [UInt8], _ encoding: String) throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("encoded.json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let message = "error: the file looks like \(encoding); JSON must be UTF-8\n"
        for arguments in [["validate"], ["validate", "--json-lines"], ["count"], ["extract"]] {
            let result = try ElevateBinary.run(arguments + [path], in: scratch.url)
            #expect(result.status == ExitStatus.invalidJSON)
            #expect(result.standardError == "\(path):1:1: " + message, "\(arguments)")
        }
        let piped = try ElevateBinary.run(["validate", "-"], input: Data(bytes), in: scratch.url)
        #expect(piped.standardError == "-:1:1: " + message)
    }

    /// Standard input cannot be read again, so its first bytes come from the error's excerpt: the
    /// same bytes get the same message either way, also when the input is too short to be a whole
    /// text in the encoding it looks like (`[\0]` is three bytes, no UTF-16 text).
    @Test(
        arguments: [
            [0x5B, 0x00, 0x5D], [0x5B, 0x00, 0x00, 0x00, 0x5D], [0x5B, 0x00], [0x00, 0x5B, 0x00],
            [0x5B, 0x00, 0x5D, 0x00], Array([0x5B, 0x00, 0x31, 0x00, 0x2C, 0x00, 0x32, 0x00]) + [0x2C, 0x00, 0x33, 0x00]
                + [0x2C, 0x00, 0x34, 0x00] + [0x2C, 0x35, 0x5D],
        ] as [[UInt8]])
    func standardInputAndAFileGetTheSameEncodingMessage(_ bytes: [UInt8]) throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("encoded.json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = try ElevateBinary.run(["validate", path], in: scratch.url)
        let piped = try ElevateBinary.run(["validate", "-"], input: Data(bytes), in: scratch.url)
        #expect(fromFile.status == ExitStatus.invalidJSON && piped.status == ExitStatus.invalidJSON)
        #expect(
            fromFile.standardError.dropFirst(path.utf8.count) == piped.standardError.dropFirst(1),
            "\(fromFile.standardError) against \(piped.standardError)")
    }

    @Test func controlCharactersInFileNamesAreEscaped() throws {
        let scratch = try ScratchDirectory()
        let name = "bad\n\u{1B}[31m.json"
        try scratch.file(name, "[1,2,x]")
        let invalid = try scratch.run("validate", name)
        #expect(invalid.standardError == #"bad\n\u{1B}[31m.json:1:6: error: invalid char in json text near "[1,2,x]""# + "\n")
        // The excerpt is the file's text: its control characters are escaped too.
        try scratch.file("escape.json", "[1,\u{1B}[2J x]")
        let escaped = try scratch.run("validate", "escape.json")
        #expect(!escaped.standardError.contains("\u{1B}") && escaped.standardError.contains(#"near ""#), "\(escaped.standardError)")
        let missing = try scratch.run("count", "no\tsuch\u{7}")
        #expect(missing.standardError == #"elevate: cannot read no\tsuch\u{7}: No such file or directory"# + "\n")
        try scratch.file("good\r.json", "[]")
        let verbose = try scratch.run("validate", "--verbose", "good\r.json")
        #expect(verbose.standardError == #"good\r.json: valid (1 value)"# + "\n")
        let nothing = try scratch.run("count", "--key-path", "a\u{1B}", "good\r.json")
        #expect(nothing.standardError == #"elevate: nothing at key path 'a\u{1B}' in 'good\r.json'"# + "\n")
        let unwritable = try scratch.run("generate", "numbers", "--size", "1KB", "no/\u{1B}/x.json")
        #expect(
            unwritable.standardError == #"elevate: cannot write no/\u{1B}/x.json: No such file or directory"# + "\n")
    }
}
