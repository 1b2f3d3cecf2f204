import ElevateSampleData
import ElevateTestSupport
import Foundation
import Testing

@testable import ElevateCLI

/// The tool on gzip: `count`, `validate` and `extract` of a `.json.gz` file or of gzip on standard
/// input answer as for the plain file; errors are placed in the inflated text, UTF-16 inside gzip
/// is named as such, and damaged gzip is a file error (status 2) that says what and where.
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct GzipInputFileTests {
    /// Writes `bytes` to a file called `name` and returns its path.
    static func file(_ scratch: ScratchDirectory, _ name: String, _ bytes: Data) throws -> String {
        let url = scratch.url.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    @Test func commandsReadGzipFilesAndStandardInput() throws {
        let scratch = try ScratchDirectory()
        let plain = SampleDocument.people.generate(targetSize: 256 << 10, seed: 29)
        let path = try Self.file(scratch, "people.json", plain.data)
        let gzipped = GzipFixture.member(plain.data)
        let gzipPath = try Self.file(scratch, "people.json.gz", gzipped)
        // The magic bytes decide, not the name.
        let unnamed = try Self.file(scratch, "people.data", gzipped)
        let count = "\(plain.summary.itemCount)\n"
        for file in [gzipPath, unnamed] {
            #expect(try scratch.run("count", "--key-path", "response.items", file).output == count)
            #expect(try scratch.run("validate", "--verbose", file).standardError.contains("valid ("))
            let extracted = try scratch.run("extract", "--key-path", "response.items.3", file)
            let expected = try scratch.run("extract", "--key-path", "response.items.3", path)
            #expect(extracted.status == 0 && extracted.output == expected.output)
        }
        let piped = try ElevateBinary.run(["count", "--key-path", "response.items", "-"], input: gzipped, in: scratch.url)
        #expect(piped.status == 0 && piped.output == count, "\(piped.standardError)")
        let lines = try ElevateBinary.run(["extract", "--key-path", "response.items", "--json-lines", "-"], input: gzipped, in: scratch.url)
        #expect(lines.status == 0)
        let jsonl = try Self.file(scratch, "people.jsonl.gz", GzipFixture.member(lines.standardOutput))
        let validated = try scratch.run("validate", "--json-lines", "--verbose", jsonl)
        #expect(validated.status == 0)
        #expect(validated.standardError.hasPrefix("\(jsonl): valid (\(plain.summary.itemCount) lines,"))
    }

    /// A syntax error is placed in the text, as for the plain file, with the same message; so is a
    /// JSON Lines error.
    @Test func errorsArePlacedInTheInflatedText() throws {
        let scratch = try ScratchDirectory()
        let text = "{\"items\": [1,\n2,,3]}"
        let plain = try scratch.file("bad.json", text)
        let gzip = try Self.file(scratch, "bad.json.gz", GzipFixture.member(Array(text.utf8)))
        let expected = try scratch.run("count", "--key-path", "items", plain)
        let got = try scratch.run("count", "--key-path", "items", gzip)
        #expect(expected.standardError.hasPrefix("\(plain):2:3: error: "))
        #expect(got.status == ExitStatus.invalidJSON)
        #expect(got.standardError == expected.standardError.replacingOccurrences(of: plain, with: gzip))

        let lines = try Self.file(scratch, "bad.jsonl.gz", GzipFixture.member(Array("1\n2\n{\"b\" 2}\n".utf8)))
        #expect(try scratch.run("validate", "--json-lines", lines).standardError.hasPrefix("\(lines):3:6: error: "))
    }

    /// UTF-16 text inside gzip is named as such: the start of the text is read again through the
    /// library's reader, not the compressed bytes.
    @Test func utf16InsideGzipIsNamed() throws {
        let scratch = try ScratchDirectory()
        let utf16 = Data([0xFF, 0xFE] + Array("[1, 2]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let file = try Self.file(scratch, "wide.json.gz", GzipFixture.member(utf16))
        let result = try scratch.run("validate", file)
        #expect(result.status == ExitStatus.invalidJSON)
        #expect(result.standardError == "\(file):1:1: error: the file looks like UTF-16 (little-endian); JSON must be UTF-8\n")
    }

    /// Truncated, corrupt, or followed by other bytes: status 2, saying what and at which
    /// compressed byte.
    @Test func damagedGzipIsAFileError() throws {
        let scratch = try ScratchDirectory()
        let gzipped = GzipFixture.member(Array(#"{"items": [1, 2, 3]}"#.utf8))
        var corrupt = gzipped
        corrupt[corrupt.count - 8] ^= 1
        let cases: [(String, Data, String)] = [
            ("truncated.json.gz", gzipped.prefix(gzipped.count - 5), "truncated: it ends inside a member, at compressed byte \(gzipped.count - 5)"),
            ("corrupt.json.gz", corrupt, "corrupt at compressed byte \(gzipped.count - 4): incorrect data check"),
            ("trailing.json.gz", gzipped + Data("junk".utf8), "trailing data: compressed byte \(gzipped.count)"),
        ]
        for (name, bytes, reason) in cases {
            let file = try Self.file(scratch, name, bytes)
            // (Not `extract`, which stops reading at the end of its value, checking nothing after it.)
            for command in [["count", "--key-path", "items"], ["validate"], ["validate", "--json-lines"]] {
                let result = try ElevateBinary.run(command + [file], in: scratch.url)
                #expect(result.status == ExitStatus.fileError, "\(command) \(name)")
                #expect(result.standardError.hasPrefix("elevate: cannot read \(file): gzip input is \(reason)")
                    || result.standardError.hasPrefix("elevate: cannot read \(file): gzip input has \(reason)"),
                    "\(command) \(name): \(result.standardError)")
            }
        }
        let piped = try ElevateBinary.run(["count", "-"], input: gzipped.prefix(20), in: scratch.url)
        #expect(piped.status == ExitStatus.fileError)
        #expect(piped.standardError == "elevate: cannot read -: gzip input is truncated: it ends inside a member, at compressed byte 20\n")
    }
}
