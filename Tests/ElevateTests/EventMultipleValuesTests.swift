import Foundation
import Testing

@testable import Elevate

/// Concatenated values (`allowsMultipleValues`): strings, arrays and objects delimit themselves
/// and may touch their neighbours; a number or literal must be separated from a following
/// number or literal, or the two would read as one token (`1-2`, `truefalse`).
@Suite struct EventMultipleValuesTests {
    static let options = JSONParsingOptions(allowsMultipleValues: true)

    @Test(arguments: [
        ("1-2", 1), ("truefalse", 4), ("nulltrue", 4), ("false1", 5), ("1true", 1), ("-1-2", 2),
        ("[1] 2 3-4", 7), ("0123", 1), ("1.5-2", 3), ("1e5-2", 3), ("null null0", 9),
    ])
    func adjacentNumbersAndLiteralsAreAnError(_ text: String, _ offset: Int) throws {
        let bytes = Array(text.utf8)
        for chunkSize in 1...bytes.count {
            let error = try #require(
                JSONSyntaxErrorTests.error(bytes, chunkSize: chunkSize, options: Self.options), "\(text)")
            #expect(error.kind == .syntax, "\(text), chunks of \(chunkSize): \(error)")
            #expect(error.byteOffset == offset, "\(text), chunks of \(chunkSize): \(error)")
        }
    }

    @Test(arguments: [
        (#""a""b""#, ["s:a", "s:b"]),
        ("[1]2", ["[", "n:1", "]", "n:2"]),
        ("1[2]", ["n:1", "[", "n:2", "]"]),
        (#"1"a"true{}null"#, ["n:1", "s:a", "b:true", "{", "}", "null"]),
        ("{}[]", ["{", "}", "[", "]"]),
        ("1 2\n3\t-4", ["n:1", "n:2", "n:3", "n:-4"]),
        ("true\nfalse null", ["b:true", "b:false", "null"]),
    ])
    func separatedOrSelfDelimitingValuesParse(_ text: String, _ events: [String]) throws {
        let bytes = Array(text.utf8)
        for chunkSize in 1...bytes.count {
            #expect(
                try recordEvents(bytes, chunkSizes: [chunkSize], options: Self.options) == events,
                "\(text), chunks of \(chunkSize)")
        }
    }

    @Test func commentsSeparateValues() throws {
        let options = JSONParsingOptions(allowsComments: true, allowsMultipleValues: true)
        #expect(try recordEvents(Array("1/* */2".utf8), options: options) == ["n:1", "n:2"])
    }
}
