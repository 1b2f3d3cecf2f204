import Foundation
import ElevateTestSupport
import Testing

@testable import ElevateCLI

/// `elevate extract --json-lines`: the elements of a big array, one per line, for other tools.
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct ExtractJSONLinesTests {
    @Test func eachElementOnALine() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file(
            "doc.json", #"{"r": {"items": [{"id": 1, "tags": ["a", "b"]}, 2.50, "x\ny", null, [], {}]}}"#)
        let result = try scratch.run("extract", "--json-lines", "--key-path", "r.items", file)
        #expect(result.status == 0)
        #expect(
            String(decoding: result.standardOutput, as: UTF8.self)
                == "{\"id\":1,\"tags\":[\"a\",\"b\"]}\n2.50\n\"x\\ny\"\nnull\n[]\n{}\n")
    }

    @Test func anEmptyArrayPrintsNothing() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", #"{"items": []}"#)
        let result = try scratch.run("extract", "--json-lines", "--key-path", "items", file)
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
    }

    @Test func somethingElseThanAnArrayIsRefused() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", #"{"items": {"a": 1}, "n": 3}"#)
        for keyPath in ["items", "n"] {
            let result = try scratch.run("extract", "--json-lines", "--key-path", keyPath, file)
            #expect(result.status == ExitStatus.notAContainer)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.contains("is not an array"))
        }
        #expect(try scratch.run("extract", "--json-lines", "--pretty", file).status == ExitStatus.usage)
    }
}

/// `--reject-duplicate-keys` on the commands that parse.
@Suite(.enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage))
struct RejectDuplicateKeysFlagTests {
    @Test func theFlagMakesARepeatedKeyInvalid() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", "{\"items\": [1, 2],\n \"items\": [3]}")
        for command in [["validate"], ["count", "--key-path", "items"], ["extract", "--key-path", "items"]] {
            let rejected = try ElevateBinary.run(command + ["--reject-duplicate-keys", file], in: scratch.url)
            #expect(rejected.status == ExitStatus.invalidJSON, "\(command)")
            #expect(rejected.standardError.hasPrefix("\(file):2:2: error: duplicate key \"items\""), "\(command)")
        }
        // Without it, the last occurrence wins.
        let counted = try scratch.run("count", "--key-path", "items", file)
        #expect(counted.status == 0)
        #expect(String(decoding: counted.standardOutput, as: UTF8.self).hasPrefix("1"))
        // And an object's repeated key is one member.
        let members = try scratch.run("count", file)
        #expect(String(decoding: members.standardOutput, as: UTF8.self).hasPrefix("1"))
        #expect(try scratch.run("validate", file).status == 0)
    }

    @Test func extractNamesARepeatOfTheKeyItAlreadyWrote() throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("doc.json", "{\"items\":[1,2],\n \"items\":[3]}")
        let extracted = try scratch.run("extract", "--key-path", "items", file)
        #expect(extracted.status == ExitStatus.invalidJSON)
        // The first value, written before the repeat was read, on a whole line, and no more.
        #expect(String(decoding: extracted.standardOutput, as: UTF8.self) == "[1,2]\n")
        #expect(
            extracted.standardError.hasPrefix(
                "\(file):2:2: error: Key path [items] appears more than once in its object"), "\(extracted.standardError)")
    }
}
