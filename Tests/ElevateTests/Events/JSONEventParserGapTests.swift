import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// What lies between two tokens (`JSONEventParser.Gap`): whitespace and comments are not part of
/// any token (they never count toward `maximumTokenSize`, are never buffered, and cost linear time
/// however they are chunked), and with several values allowed, what separates one value from the
/// next.
@Suite(.timeLimit(.minutes(6)))
struct JSONEventParserGapTests {
    /// `[1,` + `whitespace` + `"abc"]`, with the whitespace mixing spaces, tabs and newlines.
    static func document(whitespace count: Int, token: String = "\"abc\"") -> [UInt8] {
        let pattern: [UInt8] = [0x20, 0x20, 0x09, 0x0A, 0x20, 0x0D, 0x0A, 0x20]
        var bytes = Array("[1,".utf8)
        bytes.reserveCapacity(count + 16)
        for index in 0..<count { bytes.append(pattern[index % pattern.count]) }
        bytes += Array((token + "]").utf8)
        return bytes
    }

    @Test(arguments: [1000, 1024, 4096, 1 << 20])
    func whitespaceLongerThanTheTokenLimitIsAccepted(chunkSize: Int) throws {
        let options = JSONParsingOptions(maximumTokenSize: 1024)
        let bytes = Self.document(whitespace: 64 << 10)
        #expect(try recordEvents(bytes, chunkSizes: [chunkSize], options: options) == ["[", "n:1", "s:abc", "]"])
        // The same around a number, whose end YAJL only knows at the next byte.
        let number = Self.document(whitespace: 64 << 10, token: "12345")
        #expect(try recordEvents(number, chunkSizes: [chunkSize], options: options) == ["[", "n:1", "n:12345", "]"])
        // With comments allowed, comments are not tokens either.
        let commented = Array(("[1, /* " + String(repeating: " ", count: 64 << 10) + " */ 2]").utf8)
        #expect(
            try recordEvents(
                commented, chunkSizes: [chunkSize],
                options: JSONParsingOptions(allowsComments: true, maximumTokenSize: 1024))
                == ["[", "n:1", "n:2", "]"])
    }

    /// More whitespace than the default `maximumTokenSize` (64 MiB) in 1 MiB chunks, as reported
    /// (200 MiB there), with the default options: no error.
    /// A raw form feed in a string was reported as "not JSON whitespace", which reads as if it
    /// stood between tokens: the message now names both cases.
    @Test func aRawFormFeedInAStringIsNamedForWhatItIs() throws {
        let error = try #require(syntaxError("[\"a\u{0C}b\"]"))
        #expect(error.kind == .invalidWhitespace && error.byteOffset == 3)
        #expect(error.message == #"form feed (\x0c) is not allowed: it is not JSON whitespace, and in a string it must be escaped"#)
    }

    @Test func aLargeRunOfWhitespaceParses() throws {
        let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
        let parser = JSONEventParser(handler: EventRecorder())
        try parser.parse(Array("[1,".utf8))
        let elapsed = try ContinuousClock().measure {
            for _ in 0..<80 { try parser.parse(chunk) }
        }
        try parser.parse(Array("2]".utf8))
        try parser.finish()
        print("80 MiB of whitespace in 1 MiB chunks: \(elapsed)")
    }

    /// Nothing is buffered while whitespace goes by, so memory stays bounded and no byte is
    /// scanned twice (which is what keeps the time linear).
    @Test func whitespaceIsNotBuffered() throws {
        let options = JSONParsingOptions(maximumTokenSize: 1024)
        let parser = JSONEventParser(handler: EventRecorder(), options: options)
        try parser.parse(Array("[1,".utf8))
        let spaces = [UInt8](repeating: 0x0A, count: 64 << 10)
        for _ in 0..<64 {
            try parser.parse(spaces)
            #expect(parser.bufferedByteCount == 0)
        }
        try parser.parse(Array("  \"ab".utf8))
        #expect(parser.bufferedByteCount == 3)
        try parser.parse(Array("c\"]".utf8))
        try parser.finish()
    }

    /// Whitespace before a token that is too large still does not count: the error names the token.
    @Test func aTooLargeTokenAfterWhitespaceIsReportedAtItsStart() throws {
        let options = JSONParsingOptions(maximumTokenSize: 1024)
        let bytes = Self.document(whitespace: 10_000, token: "\"" + String(repeating: "x", count: 2000) + "\"")
        let error = try #require(JSONSyntaxErrorTests.error(bytes, chunkSize: 512, options: options))
        #expect(error.kind == .tokenTooLarge)
        #expect(error.byteOffset == 3 + 10_000)
    }

    /// With several values allowed, numbers and literals read in place must still be separated.
    @Test func touchingTopLevelScalarsAreRejectedAtTheSecond() {
        let multiple = JSONParsingOptions(allowsMultipleValues: true)
        for (text, offset) in [("12 34 5-6", 7), ("\"a\" 1 truenull", 10), ("[1]\n2\n3.5e1-1", 11)] {
            ErrorPlacement.expectError(Array(text.utf8), at: offset, .syntax, options: multiple)
        }
    }

    // MARK: Values touching each other

    // Concatenated values (`allowsMultipleValues`): strings, arrays and objects delimit themselves
    // and may touch their neighbours; a number or literal must be separated from a following
    // number or literal, or the two would read as one token (`1-2`, `truefalse`).

    static let multipleValues = JSONParsingOptions(allowsMultipleValues: true)

    @Test(arguments: [
        ("1-2", 1), ("truefalse", 4), ("nulltrue", 4), ("false1", 5), ("1true", 1), ("-1-2", 2),
        ("[1] 2 3-4", 7), ("0123", 1), ("1.5-2", 3), ("1e5-2", 3), ("null null0", 9),
    ])
    func adjacentNumbersAndLiteralsAreAnError(_ text: String, _ offset: Int) throws {
        let bytes = Array(text.utf8)
        for chunkSize in 1...bytes.count {
            let error = try #require(
                JSONSyntaxErrorTests.error(bytes, chunkSize: chunkSize, options: Self.multipleValues), "\(text)")
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
                try recordEvents(bytes, chunkSizes: [chunkSize], options: Self.multipleValues) == events,
                "\(text), chunks of \(chunkSize)")
        }
    }

    @Test func commentsSeparateValues() throws {
        let options = JSONParsingOptions(allowsComments: true, allowsMultipleValues: true)
        #expect(try recordEvents(Array("1/* */2".utf8), options: options) == ["n:1", "n:2"])
    }
}
