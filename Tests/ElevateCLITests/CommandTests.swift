import ElevateSampleData
import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate
@testable import ElevateJSON
@testable import ElevateCLI

/// Every event of a parse of `bytes` as a line of text, so that two documents can be compared. (A
/// copy of the minimal part of `recordEvents` in ElevateTests' `Support/EventRecording.swift`.)
private func recordEvents(_ bytes: [UInt8]) throws -> [String] {
    final class EventRecorder: JSONEventHandler {
        var events: [String] = []
        func startObject() { events.append("{") }
        func key(_ key: JSONText) { events.append("key:" + key.string) }
        func endObject() { events.append("}") }
        func startArray() { events.append("[") }
        func endArray() { events.append("]") }
        func string(_ value: JSONText) { events.append("s:" + value.string) }
        func number(_ value: JSONNumberText) { events.append("n:" + value.text) }
        func bool(_ value: Bool) { events.append("b:\(value)") }
        func null() { events.append("null") }
    }
    let recorder = EventRecorder()
    let parser = JSONEventParser(handler: recorder)
    try parser.parse(bytes)
    try parser.finish()
    return recorder.events
}

/// Each command of the `elevate` executable, run end to end: validate, count, extract, generate.
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct CommandTests {
    static let document =
        #"{"response":{"count":2,"items":[{"id":1,"price":1.50,"tags":["a","b"]},{"id":2,"big":1e400}]}}"#

    /// `extract` checks the whole input, whatever its size: invalid bytes after the value (in the
    /// first read, or megabytes on) print the value and exit 1, as jq does.
    @Test func extractChecksTheInputAfterTheValueAtAnySize() throws {
        let scratch = try ScratchDirectory()
        for padding in [0, 3_000_000] {
            let text = #"{"a": [1, 2], "pad": "\#(String(repeating: "x", count: padding))", "b": x}"#
            let result = try scratch.run("extract", "--key-path", "a", try scratch.file("bad-\(padding).json", text))
            #expect(result.status == 1 && result.output == "[1,2]\n", "\(padding): \(result.standardError)")
            #expect(result.standardError.contains("invalid char"))
        }
    }

    /// `-r` prints strings as their text, as `jq -r` does; other values, and strings inside
    /// containers, stay JSON.
    @Test func rawOutputPrintsStringsAsText() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("raw.json", #"{"name": "a \"quoted\"\ttab", "list": ["x\u00e9", 2, {"k": "v"}, null]}"#)
        #expect(try scratch.run("extract", "-r", "--key-path", "name", file).output == "a \"quoted\"\ttab\n")
        #expect(try scratch.run("extract", "--raw-output", "--key-path", "list", file).output == #"["x\#u{e9}",2,{"k":"v"},null]"# + "\n")
        let lines = try scratch.run("extract", "-r", "--json-lines", "--key-path", "list", file)
        #expect(lines.output == "x\u{e9}\n2\n{\"k\":\"v\"}\nnull\n", "\(lines.output.debugDescription)")
    }

    /// Several files per call: `count` prints each count with its file's name, `extract` each
    /// value in turn; a failing file is reported, the others still done, the status the gravest.
    @Test func severalFilesAreEachDone() throws {
        let scratch = try ScratchDirectory()
        let one = try scratch.file("one.json", #"{"items": [1, 2, 3]}"#)
        let two = try scratch.file("two.json", #"{"items": ["a"]}"#)
        let bad = try scratch.file("bad.json", #"{"items": [1, x]}"#)
        let counts = try scratch.run("count", "--key-path", "items", one, two)
        #expect(counts.status == 0 && counts.output == "3 \(one)\n1 \(two)\n")
        let extracted = try scratch.run("extract", "--key-path", "/items", "--json-lines", one, two)
        #expect(extracted.status == 0 && extracted.output == "1\n2\n3\n\"a\"\n")
        let failing = try scratch.run("count", "--key-path", "items", one, bad, two)
        #expect(failing.status == 1 && failing.output == "3 \(one)\n1 \(two)\n")
        #expect(failing.standardError.hasPrefix("\(bad):1:15: error: "))
        // One file: the count alone, as before.
        #expect(try scratch.run("count", "--key-path", "items", one).output == "3\n")
    }

    /// `*` in extract's key path matches every member and element: each value found is printed
    /// on a line of its own, in document order, as jq's `.[]` does.
    @Test func extractWildcardsPrintEveryMatch() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file(
            "wild.json", #"{"response": {"items": [{"name": "a", "tags": [1]}, {"id": 2}, {"name": "c", "tags": [2, 3]}]}, "map": {"x": {"n": 1}, "y": {"n": 2}}}"#)
        #expect(try scratch.run("extract", "--key-path", "response.items.*.name", file).output == "\"a\"\n\"c\"\n")
        #expect(try scratch.run("extract", "-r", "--key-path", "/response/items/*/name", file).output == "a\nc\n")
        #expect(try scratch.run("extract", "--key-path", "map.*.n", file).output == "1\n2\n")
        #expect(try scratch.run("extract", "--json-lines", "--key-path", "response.items.*.tags", file).output == "1\n2\n3\n")
        let none = try scratch.run("extract", "--key-path", "response.items.*.missing", file)
        #expect(none.status == 3)
    }

    /// `count --json-lines` counts the values of JSON Lines, checking every line.
    @Test func countReadsJSONLines() throws {
        let scratch = try ScratchDirectory()
        let good = try scratch.file("log.jsonl", "{\"a\": 1}\n\n[1, 2]\n\"x\"\n")
        #expect(try scratch.run("count", "--json-lines", good).output == "3\n")
        let bad = try scratch.file("bad.jsonl", "{\"a\": 1}\n{\"a\": x}\n")
        let failing = try scratch.run("count", "--json-lines", bad)
        #expect(failing.status == 1 && failing.standardError.hasPrefix("\(bad):2:7: error: "), "\(failing.standardError)")
        #expect(try scratch.run("count", "--json-lines", "--key-path", "a", good).status == 64)
    }

    /// Several `--key-path` options print each path's value in turn, in the order given, as jq's
    /// `.a, .b` does; standard input cannot be read once per path.
    @Test func extractPrintsSeveralKeyPathsInTheOrderGiven() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("paths.json", #"{"a": 1, "b": {"c": [2, 3]}, "d": "x"}"#)
        let result = try scratch.run("extract", "--key-path", "d", "--key-path", "b.c", "--key-path", "/a", file)
        #expect(result.status == 0 && result.output == "\"x\"\n[2,3]\n1\n")
        let missing = try scratch.run("extract", "--key-path", "a", "--key-path", "zz", "--key-path", "d", file)
        #expect(missing.status == 3 && missing.output == "1\n\"x\"\n")
        #expect(try scratch.run("extract", "--key-path", "a", "--key-path", "d", "-", input: "{}").status == 64)
    }

    @Test func validateAcceptsValidFiles() throws {
        let scratch = try ScratchDirectory()
        let good = try scratch.file("good.json", Self.document)
        let result = try scratch.run("validate", good)
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.output.isEmpty)

        let verbose = try scratch.run("validate", "--verbose", good)
        #expect(verbose.standardError == "\(good): valid (13 values)\n")
    }

    /// `validate` makes `count`'s pass unless asked for a count: a top-level value of any size is
    /// still valid (the pass's limit on one captured value does not apply), a scalar root too,
    /// and an invalid byte deep in a skipped value is still found.
    @Test func validateAcceptsAnyTopLevelValueAndFindsErrorsInsideSkippedOnes() throws {
        let scratch = try ScratchDirectory()
        // Over 64 MiB in short strings: one 65 MiB string would be refused, as a token over the
        // parser's own limit.
        let piece = "\"" + String(repeating: "x", count: 1022) + "\","
        let huge = try scratch.file("huge.json", "[" + String(repeating: piece, count: 65 << 10) + "0]")
        let scalar = try scratch.file("scalar.json", " 42 ")
        for file in [huge, scalar] {
            let result = try scratch.run("validate", file)
            #expect(result.status == 0, "\(file): \(result.standardError)")
        }
        let deep = try scratch.file("deep.json", #"{"items":[{"a":[1,{"b":[true,nul]}]}]}"#)
        let result = try scratch.run("validate", deep)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("\(deep):1:30: error:"), "\(result.standardError)")
        // The pass that counts values for --verbose reports the same error.
        #expect(try scratch.run("validate", "--verbose", deep).standardError == result.standardError)
    }

    @Test func validateReportsEachInvalidFileWithItsPosition() throws {
        let scratch = try ScratchDirectory()
        let good = try scratch.file("good.json", Self.document)
        let bad = try scratch.file("bad.json", "{\"a\": [1, 2],\n \"b\": tru}")
        let truncated = try scratch.file("truncated.json", "[1, 2")
        let result = try scratch.run("validate", bad, good, truncated)
        #expect(result.status == ExitStatus.invalidJSON)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("\(bad):2:7: error: ") == true)
        #expect(lines.last?.hasPrefix("\(truncated):1:6: error: unexpected end of input") == true)
    }

    @Test func validateReadsStandardInputAndAllowsComments() throws {
        let scratch = try ScratchDirectory()
        #expect(try scratch.run("validate", "-", input: "[1, 2]").status == 0)
        let commented = "/* note */ [1, // one\n 2]"
        #expect(try scratch.run("validate", "-", input: commented).status == ExitStatus.invalidJSON)
        #expect(try scratch.run("validate", "--allow-comments", "-", input: commented).status == 0)
    }

    @Test func validateChecksJSONLinesLineByLine() throws {
        let scratch = try ScratchDirectory()
        let good = try scratch.file("good.jsonl", "{\"a\":1}\n\n  [1,2]\r\n\"x\"")
        let result = try scratch.run("validate", "--json-lines", "--verbose", good)
        #expect(result.status == 0)
        #expect(result.standardError == "\(good): valid (3 lines, 6 values)\n")

        let bad = try scratch.file("bad.jsonl", "{\"a\":1}\n[1,2]\n{\"b\" 2}\n")
        let badResult = try scratch.run("validate", "--json-lines", bad)
        #expect(badResult.status == ExitStatus.invalidJSON)
        #expect(badResult.standardError.hasPrefix("\(bad):3:6: error: "))

        let twoValues = try scratch.file("two.jsonl", "1\n[1] [2]\n")
        #expect(try scratch.run("validate", "--json-lines", twoValues).standardError.hasPrefix("\(twoValues):2:"))
        // The same text is one invalid document, but valid concatenation is not JSON Lines either.
        #expect(try scratch.run("validate", twoValues).status == ExitStatus.invalidJSON)
    }

    @Test func missingFilesExitWithStatusTwo() throws {
        let scratch = try ScratchDirectory()
        let good = try scratch.file("good.json", "[]")
        let bad = try scratch.file("bad.json", "[")
        let result = try scratch.run("validate", good, "missing.json", bad)
        #expect(result.status == ExitStatus.fileError)
        #expect(result.standardError.contains("elevate: cannot read missing.json: No such file or directory\n"))
        #expect(result.standardError.contains("\(bad):1:2: error: "))

        for command in [["count"], ["extract"], ["bench", "--no-memory"], ["validate", "--json-lines"]] {
            let missing = try ElevateBinary.run(command + ["missing.json"], in: scratch.url)
            #expect(missing.status == ExitStatus.fileError, "\(command)")
            #expect(missing.standardError == "elevate: cannot read missing.json: No such file or directory\n")
        }
        let directory = try ElevateBinary.run(["count", "."], in: scratch.url)
        #expect(directory.status == ExitStatus.fileError)
        #expect(directory.standardError == "elevate: cannot read .: Is a directory\n")
    }

    @Test func countPrintsElementsAndMembers() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", Self.document)
        #expect(try scratch.run("count", "--key-path", "response.items", file).output == "2\n")
        #expect(try scratch.run("count", "--key-path", "response", file).output == "2\n")
        #expect(try scratch.run("count", "--key-path", "response.items.0.tags", file).output == "2\n")
        // The same place as a JSON Pointer.
        #expect(try scratch.run("count", "--key-path", "/response/items/0/tags", file).status == 0)
        #expect(try scratch.run("count", "--key-path", "/response/items/0/tags", file).output == "2\n")
        #expect(try scratch.run("extract", "--key-path", "/response/items/1/id", file).output == "2\n")
        #expect(try scratch.run("count", file).output == "1\n")
        #expect(try scratch.run("count", "--key-path", "", "-", input: "[1,[2,3],4]").output == "3\n")

        let nothing = try scratch.run("count", "--key-path", "response.nope", file)
        #expect(nothing.status == ExitStatus.nothingAtKeyPath)
        #expect(nothing.standardError == "elevate: nothing at key path 'response.nope' in '\(file)'\n")
        #expect(try scratch.run("count", "--key-path", "response.items.5", file).status == ExitStatus.nothingAtKeyPath)

        let scalar = try scratch.run("count", "--key-path", "response.count", file)
        #expect(scalar.status == ExitStatus.notAContainer)
        #expect(scalar.standardError.contains("is a string, number, Boolean or null"))

        let bad = try scratch.file("bad.json", "{\"items\": [1,\n2,,3]}")
        let invalid = try scratch.run("count", "--key-path", "items", bad)
        #expect(invalid.status == ExitStatus.invalidJSON)
        // The position of the offending token (the second comma).
        #expect(invalid.standardError.hasPrefix("\(bad):2:3: error: "))
    }

    @Test func extractCopiesTheValueExactly() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", Self.document)
        let items = try scratch.run("extract", "--key-path", "response.items", file)
        #expect(items.status == 0)
        #expect(items.output == #"[{"id":1,"price":1.50,"tags":["a","b"]},{"id":2,"big":1e400}]"# + "\n")

        let whole = try scratch.run("extract", file)
        #expect(try recordEvents(Array(whole.standardOutput)) == recordEvents(Array(Self.document.utf8)))

        let pretty = try scratch.run("extract", "--pretty", "--key-path", "response.items.0.tags", file)
        #expect(pretty.output == "[\n  \"a\",\n  \"b\"\n]\n")

        let fromInput = try scratch.run("extract", "--key-path", "a.1", "-", input: #"{"a":[0,{"b":-0}]}"#)
        #expect(fromInput.output == #"{"b":-0}"# + "\n")

        let nothing = try scratch.run("extract", "--key-path", "response.nope", file)
        #expect(nothing.status == ExitStatus.nothingAtKeyPath)
        #expect(nothing.output.isEmpty)
    }

    @Test func extractOfASampleDocumentParsesBackEqual() throws {
        let scratch = try ScratchDirectory()
        let data = SampleDocument.people.data(targetSize: 200_000, seed: 11)
        let path = scratch.url.appendingPathComponent("people.json").path
        try data.write(to: URL(fileURLWithPath: path))
        let result = try scratch.run("extract", path)
        #expect(result.status == 0)
        #expect(try recordEvents(Array(result.standardOutput)) == recordEvents(Array(data)))
    }

    @Test func generateIsDeterministic() throws {
        let scratch = try ScratchDirectory()
        let first = try scratch.run("generate", "people", "--size", "20KB", "--seed", "42", "-")
        let second = try scratch.run("generate", "people", "--size", "20000", "--seed", "42", "-")
        let other = try scratch.run("generate", "people", "--size", "20KB", "--seed", "43", "-")
        #expect(first.status == 0)
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.standardOutput != other.standardOutput)
        #expect(first.standardOutput.count >= 20_000)
        #expect(first.standardOutput == SampleDocument.people.data(targetSize: 20_000, seed: 42))

        let written = try scratch.run("generate", "numbers", "--size", "1KiB", "out.json")
        #expect(written.status == 0)
        let file = try Data(contentsOf: scratch.url.appendingPathComponent("out.json"))
        #expect(file == SampleDocument.numbers.data(targetSize: 1024, seed: SampleDocument.defaultSeed))
        #expect(try scratch.run("validate", "out.json").status == 0)

        #expect(try scratch.run("generate", "people", "--size", "lots", "-").status == 64)
        let unwritable = try scratch.run("generate", "people", "--size", "1KB", "no/such/dir/out.json")
        #expect(unwritable.status == ExitStatus.fileError)
        #expect(unwritable.standardError == "elevate: cannot write no/such/dir/out.json: No such file or directory\n")
    }
}

/// The command-line tool's pieces that need no process.
@Suite struct CommandPieceTests {
    @Test(arguments: [
        ("4096", 4096), ("1KB", 1000), ("1kb", 1000), ("2 KiB", 2048), ("100MB", 100_000_000),
        ("3MiB", 3 << 20), ("1GB", 1_000_000_000), ("1GiB", 1 << 30), ("1.5KB", 1500), ("10B", 10),
    ])
    func parsesSizes(_ text: String, _ bytes: Int) {
        #expect(ByteSize(argument: text)?.bytes == bytes)
    }

    @Test(arguments: ["", "MB", "-1KB", "0", "1XB", "1e3", "one"])
    func rejectsBadSizes(_ text: String) {
        #expect(ByteSize(argument: text) == nil)
    }

    /// `elevate extract` with a key path of 31,000 components, in process, on the test's thread and
    /// on a 512 KiB one: releasing the key-path trie recursively overflowed the stack. (The
    /// library's entry points and the executable: `KeyPathSelectorTests` in ElevateTests.)
    @Test func extractTakesAKeyPathOf31000ComponentsOnASmallStack() throws {
        let keyPath = Array(repeating: "a", count: 31_000).joined(separator: ".")
        let scratch = try ScratchDirectory()
        let file = scratch.url.appendingPathComponent("long-key.json")
        try Data(("{\"a\":{\"a\":[0]},\"" + keyPath + "\":[1,2,3]}").utf8).write(to: file)
        let output = scratch.url.appendingPathComponent("out.json")
        @Sendable func extracted() -> String {
            do {
                let command = try ExtractCommand.parse(["--key-path", keyPath, file.path])
                let out = try OutputFile(output.path)
                try command.extract(InputFile(file.path), to: out)
                try out.close()
                return String(decoding: try Data(contentsOf: output), as: UTF8.self)
            } catch {
                return "error: \(String(describing: error).prefix(200))"
            }
        }
        #expect(extracted() == "[1,2,3]\n")

        #expect(runOnThread(stackSize: 512 << 10) { extracted() } == "[1,2,3]\n")
    }
}
