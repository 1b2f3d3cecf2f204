import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The UTF-8 checks the parser adds to YAJL's (`UTF8Validation`): invalid sequences and unpaired
/// surrogate escapes are rejected at the offending byte, as a value and as a key, however the input
/// is chunked; the fast checks (a chunk's valid prefix, blocks of multi-byte text, the copy of
/// escaped text) stop exactly where the standard library's validation does.
@Suite struct UTF8ValidationTests {
    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0x80], [0xC0, 0xAF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x61, 0xE9, 0x62],
    ]

    @Test(.timeLimit(.minutes(6)), arguments: invalidUTF8)
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

    @Test(.timeLimit(.minutes(6))) func unpairedSurrogateEscapesAreNamedAsSuch() {
        // YAJL turns a lone low surrogate into invalid UTF-8 and a lone high one into "?".
        for text in [#"["\udc00"]"#, #"{"\uDFAA":0}"#, #"["\uDd1e\uD834"]"#, #"["\ud800"]"#, #"["a\uD800\n"]"#] {
            for sizes in corpusChunkings {
                #expect(
                    ParseOutcome.of(Array(text.utf8), chunkSizes: sizes) == .rejected(.unpairedSurrogate), "\(text)")
            }
        }
    }

    /// Invalid UTF-8 in unescaped text read in place, at every position of long and short
    /// strings, ASCII around it or not, as a value and as a key.
    @Test func invalidUTF8InPlaceIsPlacedAtTheOffendingByte() {
        let sequences: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3]]
        for sequence in sequences {
            for before in [0, 1, 7, 8, 15, 16, 33] {
                for after in [0, 1, 8, 20] {
                    for asKey in [false, true] {
                        let head = Array((asKey ? "[1,\n{\"ab\":2,\"" : "[1,\n\"é\",\"").utf8)
                            + Array(repeating: UInt8(ascii: "a"), count: before)
                        let tail = Array(repeating: UInt8(ascii: "b"), count: after)
                            + Array((asKey ? "\":3}]" : "\"]").utf8)
                        ErrorPlacement.expectError(head + sequence + tail, at: head.count, .invalidUTF8)
                    }
                }
            }
        }
    }

    /// The chunk check that lets text read in place skip its own check stops exactly where the
    /// standard library's validation says the valid prefix ends: at the first invalid sequence,
    /// or at one the end of the bytes cuts short.
    @Test func theChunkCheckStopsWhereTheValidPrefixEnds() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8), Array("é".utf8),
            Array("大".utf8), Array("😀".utf8), [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xE0, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0x80], [0xC3], [0xE5, 0xA4],
        ]
        // Seeded, so that a failure names bytes that fail again.
        var generator = SeededGenerator(state: 0xC4EC_4ED)
        for round in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                // Mostly valid text, so that the first bad sequence falls anywhere.
                let upper = round % 4 == 0 ? pieces.count : 5
                bytes += pieces[Int.random(in: 0..<upper, using: &generator)]
            }
            if round % 3 == 0 { bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator)) }
            let expected = (0...bytes.count).last { String(validating: bytes[..<$0], as: UTF8.self) != nil } ?? 0
            let found = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { UTF8Validation.validPrefixLength($0, buffer.count) } ?? 0
            }
            #expect(found == expected, "\(bytes)")
        }
    }

    /// Runs of multi-byte characters long enough to be checked sixteen bytes at a time (text in a
    /// non-Latin script), with one byte changed anywhere: the check still stops exactly at the first
    /// invalid sequence, including one that begins in the bytes before a block and ends in it.
    @Test func theBlockCheckOfMultiByteRunsStopsWhereTheValidPrefixEnds() {
        let characters: [[UInt8]] = [
            Array("é".utf8), Array("大".utf8), Array("😀".utf8), Array("ш".utf8), Array("\u{FFFF}".utf8),
            Array("\u{10FFFF}".utf8), Array("\u{800}".utf8), Array("\u{D7FF}".utf8), Array("\u{E000}".utf8),
            Array("a".utf8),
        ]
        func validPrefix(_ bytes: [UInt8]) -> Int {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            var length = 0
            while case .valid(let scalar) = parser.parseScalar(from: &iterator) { length += scalar.count }
            return length
        }
        var generator = SeededGenerator(state: 0x5EED_B10C)
        for round in 0..<4_000 {
            var bytes = Array("[\"".utf8)
            for _ in 0..<Int.random(in: 4...40, using: &generator) {
                // Mostly multi-byte, so that runs reach the blocks; sometimes ASCII, to leave them.
                let upper = round % 3 == 0 ? characters.count : characters.count - 1
                bytes += characters[Int.random(in: 0..<upper, using: &generator)]
            }
            if round % 4 != 0 {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0x80...0xFF, using: &generator)
            }
            if round % 5 == 0 { bytes.removeLast(Int.random(in: 0...3, using: &generator)) }
            let expected = validPrefix(bytes)
            #expect((expected == bytes.count) == (String(validating: bytes, as: UTF8.self) != nil))
            let found = bytes.withUnsafeBytes { UTF8Validation.validPrefixLength($0.baseAddress!, $0.count) }
            #expect(found == expected, "\(bytes)")
        }
    }

    /// Escaped text is copied out of YAJL's buffer and scanned for surrogate leftovers in one
    /// pass, a word at a time with the last word overlapping: at every length around the word
    /// size, the copy is exact, writes nothing past its end, and each suspect byte is found in
    /// every position.
    @Test func theCopyOfEscapedTextFindsEverySuspectByteAndCopiesExactly() {
        for count in 0...40 {
            let plain = (0..<count).map { UInt8(0x41 + $0 % 26) }
            let suspects: [(position: Int, byte: UInt8)] =
                [(-1, 0)] + (0..<count).flatMap { position in [0x3F, 0xED, 0xF0].map { (position, $0) } }
            for (position, suspect) in suspects {
                var text = plain
                if position >= 0 { text[position] = suspect }
                var destination = [UInt8](repeating: 0xAA, count: count + 8)
                let found = text.withUnsafeBytes { source in
                    destination.withUnsafeMutableBytes {
                        UTF8Validation.copyFindingSurrogateArtifacts(source, to: $0.baseAddress!)
                    }
                }
                #expect(found == (position >= 0), "length \(count), \(suspect) at \(position)")
                #expect(Array(destination[..<count]) == text && destination[count...].allSatisfy { $0 == 0xAA })
            }
            // Bytes that are no leftover: an ordinary multi-byte character, below 0xED.
            let accented = Array(String(repeating: "é", count: count / 2).utf8)
            var copy = [UInt8](repeating: 0, count: accented.count + 1)
            let found = accented.withUnsafeBytes { source in
                copy.withUnsafeMutableBytes { UTF8Validation.copyFindingSurrogateArtifacts(source, to: $0.baseAddress!) }
            }
            #expect(!found && copy.dropLast() == accented[...], "\(count / 2) accented letters")
        }
    }

    /// Escaped text whose raw token lies in the part of the chunk checked on arrival is only
    /// looked at for what a bad surrogate escape leaves; the chunk's first token (which may have
    /// begun in an earlier chunk) is checked whole. Both must give the same events and the same
    /// errors, at the same offsets, whatever is escaped: here the whole input (every string after
    /// the first event) against one byte per chunk (every string split).
    @Test func escapedTextGivesTheSameEventsAndErrorsWhateverTheChunking() throws {
        let pieces = [
            #"\u00e9"#, #"\uD83D\uDE00"#, #"\uD800"#, #"\uDC00"#, #"\uD800\u0041"#, #"\uDBFF\uDFFF"#, "?", "é",
            "😀", #"\n"#, #"\""#, "plain text ", #"\uD7FF"#, #"\uE000"#, #"\uFFFF"#, "\u{10FFFF}", #"\u0000"#,
        ]
        var generator = SeededGenerator(state: 0xE5CA_9ED)
        for _ in 0..<1_500 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                // Mostly valid pieces, so that a bad one (the third to fifth) falls among good ones.
                let index =
                    Int.random(in: 0..<4, using: &generator) == 0
                    ? Int.random(in: 0..<pieces.count, using: &generator)
                    : [0, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].randomElement(using: &generator)!
                text += pieces[index]
            }
            // The first escaped string makes the parser's arena, which later copies need to be
            // recorded without the full check.
            let bytes = Array(#"["a\n", "\#(text)", {"\#(text)": 1}]"#.utf8)
            func outcome(_ chunkSizes: [Int]) -> String {
                do {
                    return try recordEvents(bytes, chunkSizes: chunkSizes).joined(separator: " ")
                } catch let error as JSONSyntaxError {
                    return "\(error.kind) at \(error.byteOffset)"
                } catch {
                    return "\(error)"
                }
            }
            let whole = outcome([])
            #expect(whole == outcome([1]), "\(text)")
            #expect(whole == outcome([5]), "\(text)")
        }
    }

    /// Text that comes after where the chunk check stopped (here, at a byte that is no UTF-8 in a
    /// comment, which the parser lets through) is still delivered whole, and checked on its own.
    @Test func textAfterTheCheckedPrefixIsCheckedOnItsOwn() throws {
        let options = JSONParsingOptions(allowsComments: true)
        let text = Array(#"["é 😀 \#(String(repeating: "x", count: 40))", {"clé": "大阪"}]"#.utf8)
        let comment = Array("/* ".utf8) + [0xFF] + Array(" */ ".utf8)
        let plain = try recordEvents(text, options: options)
        for chunkSize in ErrorPlacement.chunkings {
            let events = try recordEvents(comment + text, chunkSizes: chunkSize == 0 ? [] : [chunkSize], options: options)
            #expect(events == plain, "chunks of \(chunkSize)")
        }
        // Invalid text after that point is still an error, at its own byte.
        let head = comment + Array(#"["ok", "a"#.utf8)
        ErrorPlacement.expectError(head + [0xFF] + Array(#"b"]"#.utf8), at: head.count, .invalidUTF8, options: options)
    }
}
