import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Where `JSONSyntaxError` points: the first byte of the offending token (or the offending byte
/// inside a string), the same however the input is split into chunks.
@Suite struct JSONSyntaxErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: [UInt8]
        /// The offending token's first byte, marked in the source by `⟨`.
        var offset: Int
        var kind: JSONSyntaxError.Kind
        var options = JSONParsingOptions.default

        /// `marked` holds one `⟨` just before the offending byte.
        init(_ marked: String, _ kind: JSONSyntaxError.Kind = .syntax, options: JSONParsingOptions = .default) {
            let parts = marked.components(separatedBy: "⟨")
            precondition(parts.count == 2, "mark the offending byte with ⟨")
            text = Array((parts[0] + parts[1]).utf8)
            offset = parts[0].utf8.count
            self.kind = kind
            self.options = options
        }

        init(bytes: [UInt8], offset: Int, _ kind: JSONSyntaxError.Kind) {
            text = bytes
            self.offset = offset
            self.kind = kind
        }

        var testDescription: String { String(decoding: text, as: UTF8.self).debugDescription }
    }

    static let comments = JSONParsingOptions(allowsComments: true)
    static let multiple = JSONParsingOptions(allowsMultipleValues: true)

    static let cases: [Case] = [
        Case("[1,2,⟨x]"),
        Case("[1,2,⟨,3]"),
        Case(#"{"a" ⟨2}"#),
        Case("[1 ⟨2]"),
        Case("[1,2] ⟨3"),
        Case("[1,⟨]"),
        Case(#"{"a":1,⟨}"#),
        Case("[⟨,1]"),
        Case("{⟨,}"),
        Case(#"{"a":⟨:1}"#),
        Case(#"{"a"⟨,1}"#),
        Case(#"{"":""⟨":[""#),
        Case(#"{"a":1 ⟨"b":2}"#),
        Case("[0⟨1]"),
        Case("[⟨1.]"),
        Case("[⟨-]"),
        Case("[⟨tru ]"),
        Case("{\n  \"a\": 1,\n  \"b\": ⟨tru }"),
        Case("[\n1,\n2,\n3,\n ⟨x]"),
        Case("[⟨\"a\u{01}b\"]"),
        Case("[1] ⟨// c"),
        Case("[1 /* , */ ⟨2]", options: comments),
        Case("[1, // a\n ⟨, 2]", options: comments),
        Case("  ⟨]"),
        Case("⟨'a'"),
        Case(#"["ab⟨\ud800"]"#, .unpairedSurrogate),
        Case(#"["ab\n⟨\udc00x"]"#, .unpairedSurrogate),
        Case(#"{"k\u00e9⟨\uD888\u1234":1}"#, .unpairedSurrogate),
        Case(bytes: Array(#"["ab"#.utf8) + [0xFF] + Array(#""]"#.utf8), offset: 4, .invalidUTF8),
        Case(bytes: Array(#"["\n"#.utf8) + [0xC0, 0xAF] + Array(#"x"]"#.utf8), offset: 4, .invalidUTF8),
        Case(bytes: Array(#"{"é"#.utf8) + [0xED, 0xA0, 0x80] + Array(#"":1}"#.utf8), offset: 4, .invalidUTF8),
        Case("[[⟨[]]]", .depthLimitExceeded, options: JSONParsingOptions(maximumDepth: 2)),
        Case("[1,\n⟨\u{0B}2]", .invalidWhitespace),
        Case("1⟨-2", options: multiple),
        Case("true⟨false", options: multiple),
        Case("null⟨1", options: multiple),
        Case("[1] 2 ⟨,", options: multiple),
    ]

    /// Every chunk size from one byte to the whole input gives the same error, at the mark.
    @Test(arguments: cases)
    func errorNamesTheOffendingByteWhateverTheChunking(_ test: Case) throws {
        let whole = try #require(Self.error(test.text, chunkSize: test.text.count, options: test.options))
        #expect(whole.kind == test.kind, "\(whole)")
        #expect(whole.byteOffset == test.offset, "\(whole)")
        let before = test.text[..<test.offset]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = (before.lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0
        #expect(whole.line == line && whole.column == test.offset - lineStart + 1, "\(whole)")
        for chunkSize in 1..<max(test.text.count, 1) {
            var split = try #require(Self.error(test.text, chunkSize: chunkSize, options: test.options))
            // What follows the offending byte in the excerpt depends on how much had arrived.
            #expect(whole.excerpt.hasPrefix(split.excerpt), "chunks of \(chunkSize): \(split) versus whole: \(whole)")
            split.excerpt = whole.excerpt
            #expect(split == whole, "chunks of \(chunkSize): \(split) versus whole: \(whole)")
        }
    }

    /// The excerpt shows what led to the offending token, wherever the chunk boundaries fell.
    @Test func excerptShowsTheOffendingToken() throws {
        let text = Array((#"{"key": "value", "other" "# + #"12345}"#).utf8)
        for chunkSize in [1, 3, 7, text.count] {
            let error = try #require(Self.error(text, chunkSize: chunkSize))
            #expect(error.byteOffset == 25)
            #expect(error.excerpt.hasPrefix(#"value", "other" 12345"#), "chunks of \(chunkSize): \(error.excerpt)")
        }
    }

    /// An error YAJL's callbacks find (here a string that is not UTF-8) shows the 16 bytes after it
    /// that are in its chunk, even when a form feed comes after it: the chunk is parsed only up to
    /// the form feed, but the excerpt is of the input. (A worker of the split parse, whose run ends
    /// before the form feed's chunk position, showed them; one thread cut the excerpt there.)
    @Test func anExcerptGoesOnPastALaterFormFeed() throws {
        let text = Array(#"[1, 2, ""#.utf8) + [0xED, 0xB0, 0x80] + Array(#""\#u{0C}, 3, 4, 5, 6, 7, 8, 9]"#.utf8)
        let offset = 8
        let expected = JSONSyntaxError.excerptText(text[0..<(offset + 16)])
        let error = try #require(Self.error(text, chunkSize: text.count))
        #expect(error.kind == .invalidUTF8 && error.byteOffset == offset)
        #expect(error.excerpt == expected)
    }

    /// An excerpt is unambiguous: a backslash of the input is doubled, so that `\\n` (a JSON
    /// escape) and `\n` (a newline byte), or `\\xBF` and `\xBF` (a byte that is not printable
    /// ASCII), read apart. Found by an attacker's run of the tool: a backslash, then 0xBF, printed
    /// as `\\xBF`, the excerpt of a backslash and three letters.
    @Test func anExcerptDoublesABackslash() throws {
        #expect(JSONSyntaxError.excerptText(Array(#"a\n"#.utf8)) == #"a\\n"#)
        #expect(JSONSyntaxError.excerptText([0x61, 0x0A]) == #"a\n"#)
        #expect(JSONSyntaxError.excerptText([0x5C, 0xBF]) == #"\\\xBF"#)
        let text = Array(#"["a\n", "\\", x]"#.utf8)
        let error = try #require(Self.error(text, chunkSize: text.count))
        #expect(error.byteOffset == 14)
        #expect(error.excerpt == #"["a\\n", "\\\\", x]"#, "\(error.excerpt)")
    }

    /// A token too large is reported at its first byte.
    @Test func tokenTooLargeIsReportedAtTheTokenStart() throws {
        let options = JSONParsingOptions(maximumTokenSize: 1000)
        let text = Array(("[1,  \"" + String(repeating: "a", count: 5000) + "\"]").utf8)
        for chunkSize in [1, 100, 999, 1000, 2048] {
            let error = try #require(Self.error(text, chunkSize: chunkSize, options: options))
            #expect(error.kind == .tokenTooLarge)
            #expect(error.byteOffset == 5 && error.column == 6, "chunks of \(chunkSize): \(error)")
        }
    }

    /// A token over 64 KiB is held back in chunks until it doubles (see `JSONEventParser.parse`):
    /// the limit was checked only when a held batch was parsed, so a token ending before the
    /// batch filled passed at up to twice the limit (the tool took a 100 MiB string at its
    /// 64 MiB limit, peaking at 352 MiB). It is refused now once it passes the limit by no more
    /// than a chunk, wherever it ends.
    @Test func aTokenHeldBackIsHeldToTheLimit() throws {
        let options = JSONParsingOptions(maximumTokenSize: 100_000)
        for length in [110_000, 120_000, 130_000, 250_000] {
            let text = Array(("[1,  \"" + String(repeating: "a", count: length) + "\", 2]").utf8)
            for chunkSize in [1_000, 4_096] {
                let error = try #require(Self.error(text, chunkSize: chunkSize, options: options), "\(length) bytes")
                #expect(
                    error.kind == .tokenTooLarge && error.byteOffset == 5, "\(length), chunks of \(chunkSize): \(error)"
                )
            }
        }
        // Within the limit, held or not, a token is read.
        let fits = Array(
            ("[\"" + String(repeating: "a", count: 90_000) + "\"," + String(repeating: " ", count: 200_000) + "1]").utf8
        )
        #expect(Self.error(fits, chunkSize: 1_000, options: options) == nil)
    }

    /// A truncated document is reported at its end.
    @Test func truncationIsReportedAtTheEnd() throws {
        for text in [#"{"a": [1, 2"#, "[tr", #"["abc"#, "[1,\n"] {
            let bytes = Array(text.utf8)
            for chunkSize in 1...bytes.count {
                let error = try #require(Self.error(bytes, chunkSize: chunkSize))
                #expect(error.kind == .truncated && error.byteOffset == bytes.count, "\(text): \(error)")
            }
        }
    }

    /// The error of parsing `bytes` in chunks of `chunkSize`, or nil when it parses.
    static func error(
        _ bytes: [UInt8], chunkSize: Int, options: JSONParsingOptions = .default
    ) -> JSONSyntaxError? {
        do {
            _ = try recordEvents(bytes, chunkSizes: [max(chunkSize, 1)], options: options)
            return nil
        } catch let error as JSONSyntaxError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

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
        let whole = try #require(syntaxError(bytes, chunkSize: bytes.count))
        #expect(whole.kind == .syntax)
        #expect(whole.byteOffset == 6, "the offending token's first byte")
        #expect(whole.column == 7)
        for chunkSize in 1..<bytes.count {
            let split = try #require(syntaxError(bytes, chunkSize: chunkSize))
            #expect(
                split.byteOffset == whole.byteOffset && split.column == whole.column,
                "chunks of \(chunkSize): \(split) versus whole: \(whole)")
        }
    }
}
