import ElevateSampleData
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The pass over each chunk before YAJL sees it (`InputLayout`): newline counts for lines and
/// columns, and form feeds and vertical tabs, which YAJL wrongly accepts as whitespace, found a
/// word at a time, exactly where a byte-by-byte scan finds them, even after thousands of lines.
@Suite struct InputLayoutTests {
    /// The word-at-a-time scan agrees with a byte-by-byte one on every offset and mix.
    @Test func layoutScanMatchesNaiveScan() {
        var generator = SplitMix64(seed: randomTestSeed)
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x09, 0x0D, 0x20, 0x41, 0x7B, 0x0B, 0x0C, 0xE3, 0x80]
        for round in 0..<2000 {
            let count = Int.random(in: 0...70, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
            for _ in 0..<Int.random(in: 0...6, using: &generator) where count > 0 {
                let special = round % 3 == 0 ? alphabet : alphabet.filter { $0 != 0x0B && $0 != 0x0C }
                bytes[Int.random(in: 0..<count, using: &generator)] = special.randomElement(using: &generator)!
            }
            var newlines = 0
            var lastLineStart: Int?
            var invalid: Int?
            for (index, byte) in bytes.enumerated() {
                if byte == 0x0B || byte == 0x0C {
                    invalid = index
                    break
                }
                if byte == 0x0A {
                    newlines += 1
                    lastLineStart = index + 1
                }
            }
            let layout = bytes.withUnsafeBytes { InputLayout(scanning: $0) }
            let seed = "ELEVATE_TEST_SEED=\(randomTestSeed)"
            #expect(layout.newlines == newlines, "\(bytes), \(seed)")
            #expect(layout.lastLineStart == lastLineStart, "\(bytes), \(seed)")
            #expect(layout.firstInvalidWhitespace == invalid, "\(bytes), \(seed)")
            let contains = bytes.withUnsafeBytes { InputLayout.containsInvalidWhitespace($0) }
            #expect(contains == (invalid != nil), "\(bytes), \(seed)")
        }
    }

    /// An error after thousands of lines (and after every kind of token read in place) has the
    /// line and column the bytes give.
    @Test(arguments: ["x", ",", "]", ":", "}", "tru ", "1."])
    func anErrorAfterManyLinesHasItsExactLineAndColumn(_ bad: String) {
        let document = ErrorPlacement.longDocument(rows: 1500)
        let prefix = document.dropLast(2)  // "0]"
        for separator in [" ", "", "\n  "] {
            let bytes = Array((prefix + separator).utf8)
            let offset = bytes.count
            ErrorPlacement.expectError(
                bytes + Array((bad + " 0]").utf8), at: offset, .syntax, chunkings: ErrorPlacement.longChunkings)
        }
    }

    /// A form feed or vertical tab anywhere in a sixteen-byte block, or in the tail shorter than
    /// a block, after many newlines.
    @Test func invalidWhitespaceIsPlacedExactlyInEveryPositionOfABlock() {
        let document = ErrorPlacement.longDocument(rows: 700)
        let prefix = Array(document.dropLast(2).utf8)
        for padding in 0..<40 {
            for invalid: UInt8 in [0x0B, 0x0C] {
                var bytes = prefix + Array(repeating: UInt8(ascii: " "), count: padding)
                let offset = bytes.count
                bytes.append(invalid)
                bytes += Array(" 0]".utf8)
                // Also with newlines after it, which must not be counted.
                bytes += Array(repeating: 0x0A, count: padding % 3)
                ErrorPlacement.expectError(
                    bytes, at: offset, .invalidWhitespace, chunkings: ErrorPlacement.longChunkings)
            }
        }
    }

    /// The AVX2 pass (`InputLayout(plainText:)`, and `InputLayout.isPlainText` without the lines)
    /// says "plain" exactly when the portable scans find strict UTF-8 and no form feed or vertical
    /// tab, and then counts the same lines: on text with newlines, tabs, characters of every
    /// length and the odd bad byte, across 64-byte blocks and the 256-byte groups the pass tests
    /// at once for bytes above ASCII and below a carriage return (long ASCII pieces make groups of
    /// each kind, and a character cut short before one).
    @Test func thePlainTextPassAgreesWithThePortableScans() throws {
        guard WideScans.areAvailable else {
            print("InputLayoutTests: no AVX2 here, the portable scans alone run")
            return
        }
        var generator = SplitMix64(seed: randomTestSeed)
        let pieces = [
            "\n", "a", "{\"k\": ", "é", "中", "😀", "\u{10FFFF}", " ", "\n\n", "\t",
            String(repeating: "a", count: 64), String(repeating: "1,", count: 150),
        ].map { Array($0.utf8) }
        let bad: [UInt8] = [0x0B, 0x0C, 0x80, 0xC0, 0xED, 0xF4, 0xFF]
        var plainCount = 0
        for round in 0..<6_000 {
            var bytes: [UInt8] = []
            let length = Int.random(in: 0...(round % 2 == 0 ? 300 : 1_300), using: &generator)
            while bytes.count < length { bytes += pieces.randomElement(using: &generator)! }
            if round % 3 == 1, !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = bad.randomElement(using: &generator)!
            }
            if round % 7 == 2, !bytes.isEmpty { bytes.removeLast() }
            if round % 5 == 3, bytes.count > 300 {
                // A three-byte character's lead one to three bytes before a group's end: cut short
                // when what follows is ASCII (a group that only checks what the last one left open).
                let groupEnd = 256 * Int.random(in: 1...(bytes.count / 256), using: &generator)
                bytes[groupEnd - Int.random(in: 1...3, using: &generator)] = 0xE4
            }
            let (wide, portable, validPrefix) = bytes.withUnsafeBytes {
                (
                    InputLayout(plainText: $0), InputLayout(scanning: $0),
                    $0.baseAddress.map { base in UTF8Validation.validPrefixLength(base, bytes.count) } ?? 0
                )
            }
            let isPlain = validPrefix == bytes.count && portable.firstInvalidWhitespace == nil
            let seed = "ELEVATE_TEST_SEED=\(randomTestSeed)"
            #expect((wide != nil) == isPlain, "\(bytes), \(seed)")
            #expect(bytes.withUnsafeBytes { InputLayout.isPlainText($0) } == isPlain, "\(bytes), \(seed)")
            if let wide {
                plainCount += 1
                #expect(wide.newlines == portable.newlines, "\(bytes), \(seed)")
                #expect(wide.lastLineStart == portable.lastLineStart, "\(bytes), \(seed)")
                #expect(wide.firstInvalidWhitespace == nil)
            }
        }
        // Both answers were exercised.
        #expect(plainCount > 1_000 && plainCount < 6_000)
    }
}
