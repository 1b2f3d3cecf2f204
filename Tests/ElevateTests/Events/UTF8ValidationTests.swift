import Foundation
import Testing

@testable import Elevate

/// The UTF-8 checks the parser adds to YAJL's (`UTF8Validation`): invalid sequences and unpaired
/// surrogate escapes are rejected at the offending byte, as a value and as a key, however the input
/// is chunked; the fast checks (a chunk's valid prefix, blocks of multi-byte text, the copy of
/// escaped text) stop exactly where the standard library's validation does.
@Suite struct UTF8ValidationTests {
    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0x80], [0xC0, 0xAF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x61, 0xE9, 0x62],
    ]

    @Test(.timeLimit(.minutes(2)), arguments: invalidUTF8)
    func invalidUTF8InStringsAndKeysIsRejected(_ sequence: [UInt8]) {
        let quote = UInt8(ascii: "\"")
        let inString = Array(#"["ok", "#.utf8) + [quote] + sequence + [quote] + Array("]".utf8)
        let inKey = Array(#"{"ok":1, "#.utf8) + [quote] + sequence + [quote] + Array(":2}".utf8)
        for document in [inString, inKey] {
            for sizes in corpusChunkings {
                #expect(ParseOutcome.of(document, chunkSizes: sizes) == .rejected(.invalidUTF8), "\(document) \(sizes)")
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func unpairedSurrogateEscapesAreNamedAsSuch() {
        // YAJL turns a lone low surrogate into invalid UTF-8 and a lone high one into "?".
        for text in [#"["\udc00"]"#, #"{"\uDFAA":0}"#, #"["\uDd1e\uD834"]"#, #"["\ud800"]"#, #"["a\uD800\n"]"#] {
            for sizes in corpusChunkings {
                #expect(
                    ParseOutcome.of(Array(text.utf8), chunkSizes: sizes) == .rejected(.unpairedSurrogate), "\(text)")
            }
        }
    }
}
