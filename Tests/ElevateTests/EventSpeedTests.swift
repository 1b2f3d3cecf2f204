import Testing

@testable import Elevate
@testable import ElevateJSON

/// The event layer's fast paths give exactly what the general ones do: text and numbers read in
/// place from the chunk, the sixteen-byte layout scan (newline counts, form feeds and vertical
/// tabs) and the inline ASCII check. Every case is compared against positions computed here
/// from the bytes, for several chunkings.
@Suite struct EventSpeedTests {
    static let chunkings = [0, 1, 7, 16, 100, 4096]
    /// For long documents, where one byte per call would be slow in a debug build.
    static let longChunkings = [0, 7, 16, 100, 4096]

    /// A long document: many short lines (more newlines than a sixteen-byte lane may count
    /// before it is flushed), strings in ASCII and not, escaped and not, numbers, literals.
    static func document(rows: Int) -> String {
        var text = "[\n"
        for row in 0..<rows {
            switch row % 5 {
            case 0: text += #"{"id":\#(row),"name":"Jürgen Königstraße","ok":true},"#
            case 1: text += #"["plain ascii text, longer than a word", -\#(row).5e-3, null],"#
            case 2: text += #"{"esc\"aped":"tab\tand \u00e9 and \ud83d\ude00","n":0},"#
            case 3: text += #""\#(String(repeating: "x", count: row % 40))","#
            default: text += "\(row),\t\r"
            }
            text += "\n"
        }
        return text + "0]"
    }

    /// The error of `bytes` in chunks of `chunkSize` (0: one chunk).
    static func error(_ bytes: [UInt8], chunkSize: Int, options: JSONParsingOptions = .default) -> JSONSyntaxError? {
        do {
            _ = try recordEvents(bytes, chunkSizes: chunkSize == 0 ? [] : [chunkSize], options: options)
            return nil
        } catch let error as JSONSyntaxError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// Checks that `bytes` fails at `offset` with `kind`, with the line and column the bytes give.
    static func expectError(
        _ bytes: [UInt8], at offset: Int, _ kind: JSONSyntaxError.Kind, options: JSONParsingOptions = .default,
        chunkings: [Int] = chunkings, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = bytes[..<offset]
        let line = before.filter { $0 == 0x0A }.count + 1
        let column = offset - ((before.lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0) + 1
        for chunkSize in chunkings {
            guard let error = error(bytes, chunkSize: chunkSize, options: options) else {
                Issue.record("chunks of \(chunkSize): no error", sourceLocation: sourceLocation)
                continue
            }
            #expect(
                error.kind == kind && error.byteOffset == offset && error.line == line && error.column == column,
                "chunks of \(chunkSize): \(error), expected \(kind) at \(offset) (\(line):\(column))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func aLongDocumentGivesTheSameEventsWhateverTheChunking() throws {
        let bytes = Array(Self.document(rows: 2000).utf8)
        let whole = try recordEvents(bytes)
        #expect(whole.count > 8000)
        for chunkSize in Self.longChunkings.dropFirst() {
            #expect(try recordEvents(bytes, chunkSizes: [chunkSize]) == whole, "chunks of \(chunkSize)")
        }
    }

    /// An error after thousands of lines (and after every kind of token read in place) has the
    /// line and column the bytes give.
    @Test(arguments: ["x", ",", "]", ":", "}", "tru ", "1."])
    func anErrorAfterManyLinesHasItsExactLineAndColumn(_ bad: String) {
        let document = Self.document(rows: 1500)
        let prefix = document.dropLast(2)  // "0]"
        for separator in [" ", "", "\n  "] {
            let bytes = Array((prefix + separator).utf8)
            let offset = bytes.count
            Self.expectError(bytes + Array((bad + " 0]").utf8), at: offset, .syntax, chunkings: Self.longChunkings)
        }
    }

    /// A form feed or vertical tab anywhere in a sixteen-byte block, or in the tail shorter than
    /// a block, after many newlines.
    @Test func invalidWhitespaceIsPlacedExactlyInEveryPositionOfABlock() {
        let document = Self.document(rows: 700)
        let prefix = Array(document.dropLast(2).utf8)
        for padding in 0..<40 {
            for invalid: UInt8 in [0x0B, 0x0C] {
                var bytes = prefix + Array(repeating: UInt8(ascii: " "), count: padding)
                let offset = bytes.count
                bytes.append(invalid)
                bytes += Array(" 0]".utf8)
                // Also with newlines after it, which must not be counted.
                bytes += Array(repeating: 0x0A, count: padding % 3)
                Self.expectError(bytes, at: offset, .invalidWhitespace, chunkings: Self.longChunkings)
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
                        Self.expectError(head + sequence + tail, at: head.count, .invalidUTF8)
                    }
                }
            }
        }
    }

    /// Valid non-ASCII text of every length parses to the same bytes.
    @Test func validTextOfEveryLengthIsDeliveredWhole() throws {
        for length in 0..<40 {
            let text = String(repeating: "a", count: length) + "é😀" + String(repeating: "z", count: length % 9)
            let events = try recordEvents(Array(#"{"\#(text)":"\#(text)"}"#.utf8))
            #expect(events.contains { $0.contains(text) }, "\(events)")
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
        var generator = SystemRandomNumberGenerator()
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
        for chunkSize in Self.chunkings {
            let events = try recordEvents(comment + text, chunkSizes: chunkSize == 0 ? [] : [chunkSize], options: options)
            #expect(events == plain, "chunks of \(chunkSize)")
        }
        // Invalid text after that point is still an error, at its own byte.
        let head = comment + Array(#"["ok", "a"#.utf8)
        Self.expectError(head + [0xFF] + Array(#"b"]"#.utf8), at: head.count, .invalidUTF8, options: options)
    }

    /// With several values allowed, numbers and literals read in place must still be separated.
    @Test func touchingTopLevelScalarsAreRejectedAtTheSecond() {
        let multiple = JSONParsingOptions(allowsMultipleValues: true)
        for (text, offset) in [("12 34 5-6", 7), ("\"a\" 1 truenull", 10), ("[1]\n2\n3.5e1-1", 11)] {
            Self.expectError(Array(text.utf8), at: offset, .syntax, options: multiple)
        }
    }
}
