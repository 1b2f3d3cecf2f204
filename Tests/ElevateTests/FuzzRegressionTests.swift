import Foundation
import Testing

import Elevate

/// Inputs found by the libFuzzer targets in `Fuzz/` (see `Fuzz/README.md`), minimized, one test
/// per finding. The inputs are in `Fixtures/fuzz/`.
@Suite struct FuzzRegressionTests {
    /// Found by FuzzEventParser: a complete token where the grammar wants another (`""` then
    /// `":["` inside an object: "after key and value, inside map, I expect ',' or '}'") is reported
    /// at byte offset 8 when the input comes whole and at 9 when it comes one byte at a time; the
    /// token spans bytes 6..<10, so neither is "just past the offending token" as
    /// `JSONSyntaxError.byteOffset` promises. YAJL's parser "restores" the error offset by
    /// subtracting the token's decoded length from the bytes consumed in the current chunk
    /// (clamped to 0), which depends on where the chunk started; `JSONEventParser.check(_:chunk:)`
    /// passed that on unchanged. The parser now names the offending token's first byte (6) itself.
    @Test func unexpectedTokenIsReportedAtTheSameOffsetHoweverTheInputIsSplit() throws {
        let bytes = [UInt8](try Fixtures.data("fuzz", "event-parser-unexpected-token-offset.json"))
        let whole = try #require(Self.syntaxError(bytes, chunkSize: bytes.count))
        #expect(whole.kind == .syntax)
        #expect(whole.byteOffset == 6, "the offending token's first byte")
        #expect(whole.column == 7)
        for chunkSize in 1..<bytes.count {
            let split = try #require(Self.syntaxError(bytes, chunkSize: chunkSize))
            #expect(
                split.byteOffset == whole.byteOffset && split.column == whole.column,
                "chunks of \(chunkSize): \(split) versus whole: \(whole)")
        }
    }

    /// Found by FuzzJSONLines (a gap in its own oracle, not in the reader): a line of a carriage
    /// return and spaces (`\r  `) is JSON whitespace only, so it holds no value; a top-level `null`
    /// line is a value handed to the decoder. The reader reads this input as three values.
    @Test func aWhitespaceLineWithACarriageReturnIsBlank() throws {
        let data = try Fixtures.data("fuzz", "json-lines-whitespace-line-with-carriage-return.jsonl")
        struct AnyValue: Elevate.Decodable {
            let json: Any
            init(json: Any) { self.json = json }
        }
        for chunkSize in [1, 3, data.count] {
            var options = StreamingOptions()
            options.chunkSize = chunkSize
            var count = 0
            try Elevate.forEachValue(from: .data(data), framing: .jsonLines, as: AnyValue.self, options: options) { _ in
                count += 1
            }
            #expect(count == 3, "chunks of \(chunkSize)")
        }
    }

    /// Found by FuzzJSONLines: the input starts with `EF BB` and a newline, the first two bytes
    /// of a byte order mark. The reader counted them as a blank first line (a mark alone is one)
    /// and delivered the value on line 4, where parsing each line alone fails at line 1; the
    /// concatenated framing read the same bytes followed by whitespace as an empty input. Only a
    /// whole mark is blank now (see also `ForEachElementTests.aPartialByteOrderMarkIsAnErrorNotABlankLine`).
    @Test func aPartialByteOrderMarkOnTheFirstLineIsInvalid() throws {
        let data = try Fixtures.data("fuzz", "json-lines-partial-byte-order-mark.jsonl")
        struct AnyValue: Elevate.Decodable {
            let json: Any
            init(json: Any) { self.json = json }
        }
        for chunkSize in [1, 2, 3, data.count] {
            var options = StreamingOptions()
            options.chunkSize = chunkSize
            var count = 0
            let error = #expect(throws: ParserError.self) {
                try Elevate.forEachValue(from: .data(data), framing: .jsonLines, as: AnyValue.self, options: options) {
                    _ in count += 1
                }
            }
            #expect(count == 0, "chunks of \(chunkSize)")
            #expect(error?.description.contains("line 1, column 1") == true, "chunks of \(chunkSize): \(String(describing: error))")
        }
    }

    /// Found by FuzzJSONLines: `JSONValueBuilder.value(from:)` read `1"a,:1}04:` as `1`. After a
    /// complete top-level value, YAJL lexes what follows to reject it as trailing garbage, but an
    /// unterminated string is an incomplete token to its lexer, not garbage: the chunk is accepted,
    /// `yajl_complete_parse` lexes one more space (still inside the string) and reports success.
    /// The parser now rejects an open token after a complete document itself, at the token's quote.
    @Test func anUnterminatedStringAfterTheDocumentIsTrailingGarbage() throws {
        let finding = [UInt8](try Fixtures.data("fuzz", "json-lines-unterminated-string-after-a-value.jsonl"))
        let firstLine = Array(finding.prefix(while: { $0 != 0x0D }))
        #expect(throws: JSONSyntaxError.self) { try JSONValueBuilder.value(from: Data(firstLine)) }
        let cases: [(text: String, offset: Int)] = [
            (#"1"a,:1}04:"#, 1), (#"{}""#, 2), (#"[] "abc"#, 3), (#""a" "b"#, 4), (#"{"k":1}  "x\u12"#, 9),
            ("true\n\"", 5),
        ]
        for (text, offset) in cases {
            let bytes = Array(text.utf8)
            for chunkSize in 1...bytes.count {
                let error = try #require(Self.syntaxError(bytes, chunkSize: chunkSize), "\(text) in chunks of \(chunkSize)")
                #expect(error.kind == .syntax && error.message.contains("trailing garbage"), "\(text): \(error)")
                #expect(error.byteOffset == offset, "\(text) in chunks of \(chunkSize): \(error)")
            }
        }
        // An unterminated block comment is the same gap, where comments are allowed.
        final class Ignore: JSONEventHandler {}
        let parser = JSONEventParser(handler: Ignore(), options: JSONParsingOptions(allowsComments: true))
        try parser.parse(Array("[1] /* open".utf8))
        #expect(throws: JSONSyntaxError.self) { try parser.finish() }
        let closed = JSONEventParser(handler: Ignore(), options: JSONParsingOptions(allowsComments: true))
        try closed.parse(Array("[1] /* closed */ // and a line comment".utf8))
        try closed.finish()
    }

    /// The same gap with several values allowed: a string left open at the end of the input is
    /// a value cut short, not the end of the stream.
    @Test func anUnterminatedStringAtTheEndOfAStreamIsAnError() throws {
        struct AnyValue: Elevate.Decodable {
            let json: Any
            init(json: Any) { self.json = json }
        }
        for text in [#"1 "abc"#, #"{"a":1}{"b"#, #"[1]""#] {
            #expect(throws: ParserError.self, "\(text)") {
                try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .concatenated, as: AnyValue.self) { _ in }
            }
        }
    }

    /// The error of parsing `bytes` in chunks of `chunkSize` bytes, or nil when it parses.
    static func syntaxError(_ bytes: [UInt8], chunkSize: Int) -> JSONSyntaxError? {
        final class Ignore: JSONEventHandler {}
        let parser = JSONEventParser(handler: Ignore())
        do {
            try parseInChunks(parser, bytes, chunkSize: chunkSize)
            return nil
        } catch {
            return error as? JSONSyntaxError
        }
    }
}
