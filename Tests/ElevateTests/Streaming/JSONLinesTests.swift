import Foundation
import Testing

@testable import Elevate

/// JSON Lines and concatenated values (`forEachValue` and `decodedValues` with `.jsonLines` or
/// `.concatenated`): one value per line, blank lines and a byte order mark, errors that name their
/// line, the line length limit, and the value at a key path inside each.
@Suite struct JSONLinesTests {
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

    /// JSON Lines and concatenated values read at a dotted key path prefer the literal root key,
    /// as the in-memory calls do; a repeat of the split path's key dropped the literal key's value
    /// (giving the repeat's value, or "missing").
    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func valuesKeepTheLiteralDottedKeyWhenTheSplitPathRepeats(_ framing: JSONFraming) throws {
        let lines = [
            (#"{"a.b":1,"a":{"b":2},"a":{"b":3}}"#, 1),
            (#"{"a.b":1,"a":1,"a":2}"#, 1),
            (#"{"a":{"b":2},"a.b":1,"a.b":5}"#, 5),
            (#"{"a":{"b":2},"a":{"b":3}}"#, 3),
        ]
        for (line, value) in lines {
            #expect(try JSONValue(parsing: line)[keyPath: "a.b"]?.int == value, "in memory: \(line)")
        }
        var values: [Int] = []
        let text = lines.map(\.0).joined(separator: "\n") + "\n"
        try forEachValue(from: .data(Data(text.utf8)), framing: framing, atKeyPath: "a.b", as: Int.self) {
            values.append($0)
        }
        #expect(values == lines.map(\.1))
    }
}
