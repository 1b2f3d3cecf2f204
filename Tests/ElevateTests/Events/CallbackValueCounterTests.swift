import ElevateSampleData
import Foundation
import Testing

@testable import ElevateJSON

/// The count of a split run straight from YAJL's callbacks (`CallbackValueCounter`) answers only
/// for text the event layer accepts, with the event layer's counts: a wrong "valid" would hide an
/// error, a wrong count would change `elevate count`.
@Suite struct CallbackValueCounterTests {
    /// The event layer's verdict on `pieces`: its counts, or nil when it reports an error.
    private func eventLayerCounts(
        _ pieces: [[UInt8]], nestedInside: Int, options: JSONParsingOptions
    ) -> CallbackValueCounter.Counts? {
        let counter = DepthCounter()
        let parser = JSONEventParser(handler: counter, options: options)
        parser.startNested(inside: nestedInside)
        do {
            for piece in pieces { try parser.parse(piece) }
            try parser.finish()
        } catch {
            return nil
        }
        return CallbackValueCounter.Counts(values: counter.values, elements: counter.elements)
    }

    private func callbackCounts(
        _ pieces: [[UInt8]], nestedInside: Int, options: JSONParsingOptions
    ) -> CallbackValueCounter.Counts? {
        // Each piece in memory of its own, as a run's prefix, bytes and bracket are.
        func withPieces<R>(_ index: Int, _ done: [UnsafeRawBufferPointer], _ body: ([UnsafeRawBufferPointer]) -> R) -> R
        {
            guard index < pieces.count else { return body(done) }
            return pieces[index].withUnsafeBytes { withPieces(index + 1, done + [$0], body) }
        }
        return withPieces(0, []) { CallbackValueCounter.count($0, nestedInside: nestedInside, options: options) }
    }

    /// Counts only what the event layer accepts, and then exactly as it does; `mustAnswer` texts
    /// must be answered (the common case must not fall back to the event layer).
    private func expectAgreement(
        _ text: String, nestedInside: Int = 0, options: JSONParsingOptions = .default, mustAnswer: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectAgreement(
            [Array("[null".utf8), Array(text.utf8), Array("]".utf8)], label: text, nestedInside: nestedInside,
            options: options, mustAnswer: mustAnswer, sourceLocation: sourceLocation)
    }

    private func expectAgreement(
        _ pieces: [[UInt8]], label: String, nestedInside: Int = 0, options: JSONParsingOptions = .default,
        mustAnswer: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = eventLayerCounts(pieces, nestedInside: nestedInside, options: options)
        let counted = callbackCounts(pieces, nestedInside: nestedInside, options: options)
        if let counted {
            #expect(counted == expected, "\(label)", sourceLocation: sourceLocation)
        }
        if mustAnswer {
            #expect(counted != nil, "fell back on \(label)", sourceLocation: sourceLocation)
        }
    }

    @Test func validRunsAreCountedAsTheEventLayerCountsThem() {
        for text in [
            #", 1, "a", {"b": [true, false, null]}, [[], {}], -0.5e3"#,
            #", "plain", "esc\"aped", "back\\slash", "Saint-\u00c9tienne", "\u002F""#,
            #", "moon \ud83c\udf19", {"\ud83d\ude00": "pair"}"#,
            #", "what?", "esc\n and ?", "raw 🌙 and \n""#,
            #", "\\?", "\\\"?", "\\\\\ud83c\udf19""#,
        ] {
            expectAgreement(text, mustAnswer: true)
        }
    }

    @Test func badSurrogateEscapesAreLeftToTheEventLayer() {
        for text in [
            #", "\ud800""#, #", "\udc00""#, #", "a\ud800b?""#, #", "\ud83c\u1234""#, #", {"\ud800": 1}"#,
            #", "\ud83c\udf19 \ud800""#, #", "?\ud800""#,
        ] {
            let counted = callbackCounts(
                [Array("[null".utf8), Array(text.utf8), Array("]".utf8)], nestedInside: 0, options: .default)
            #expect(counted == nil, "\(text)")
            expectAgreement(text)
        }
    }

    @Test func whatTheEventLayerAddsToYAJLIsLeftToIt() {
        // Form feeds and vertical tabs, which YAJL takes for whitespace; invalid UTF-8 that YAJL's
        // byte-pattern check would pass (an overlong form, an encoded surrogate, above U+10FFFF).
        var texts: [[UInt8]] = [
            Array(", 1,\u{0C}2".utf8), Array(", 1,\u{0B}2".utf8),
            Array(", \"".utf8) + [0xC0, 0xAF] + Array("\"".utf8),
            Array(", \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8),
            Array(", \"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"".utf8),
            Array(", {\"".utf8) + [0xFF] + Array("\": 1}".utf8),
        ]
        texts.append(Array(", 1, 2".utf8))
        for text in texts.dropLast() {
            let pieces = [Array("[null".utf8), text, Array("]".utf8)]
            #expect(callbackCounts(pieces, nestedInside: 0, options: .default) == nil, "\(text)")
            #expect(eventLayerCounts(pieces, nestedInside: 0, options: .default) == nil, "\(text)")
        }
    }

    @Test func theDepthLimitCountsTheContainersAround() {
        var options = JSONParsingOptions()
        options.maximumDepth = 6
        // `[null` opens one level: three more nested arrays reach 4, plus the 2 around: 6.
        expectAgreement(", [[[1]]]", nestedInside: 2, options: options, mustAnswer: true)
        expectAgreement(", [[[[1]]]]", nestedInside: 2, options: options)
        #expect(
            callbackCounts(
                [Array("[null".utf8), Array(", [[[[1]]]]".utf8), Array("]".utf8)], nestedInside: 2, options: options)
                == nil)
    }

    @Test func optionsItDoesNotImplementAreLeftToTheEventLayer() {
        for options in [
            JSONParsingOptions(allowsComments: true), JSONParsingOptions(rejectsDuplicateKeys: true),
            JSONParsingOptions(maximumTokenSize: 4),
        ] {
            #expect(
                callbackCounts([Array("[1, 2]".utf8)], nestedInside: 0, options: options) == nil,
                "\(options)")
        }
    }

    @Test func errorsAreLeftToTheEventLayer() {
        for text in [", 1,", ", ,", ", [1", ", }", ", \"a", ", tru", ", 01", ", {\"a\" 1}", ", 1 2"] {
            #expect(
                callbackCounts(
                    [Array("[null".utf8), Array(text.utf8), Array("]".utf8)], nestedInside: 0, options: .default)
                    == nil, "\(text)")
            expectAgreement(text)
        }
    }

    /// Found by review: text after the value, an unfinished string included (YAJL waits for its
    /// end and reports nothing), and a string split across pieces, whose raw escapes one piece
    /// does not show whole.
    @Test func piecesNoRunHasAreLeftToTheEventLayer() {
        for pieces in [
            [#"[1]"abc"#], [#"[null"#, #"]"x"#, "]"], [#"{}"abc"#], ["[1] 2"], ["[1]", " x"], [#""abc""#], ["1"],
            [#"["\ud800\"#, #""?"]"#], [#"[{"\ud800\"#, #""?": 1}]"#],
        ] {
            let bytes = pieces.map { Array($0.utf8) }
            #expect(callbackCounts(bytes, nestedInside: 0, options: .default) == nil, "\(pieces)")
            expectAgreement(bytes, label: "\(pieces)")
        }
        expectAgreement([Array("[1]".utf8), Array(" \n\t".utf8)], label: "whitespace after", mustAnswer: true)
    }

    /// The AVX2 check of a run's text agrees with the portable one (strict UTF-8, no form feed or
    /// vertical tab) on every input: random mixes of the bytes where UTF-8's rules change, valid
    /// characters of every length, around the 64-byte blocks.
    @Test func theWideTextCheckAgreesWithThePortableOne() {
        var generator = SplitMix64(seed: randomTestSeed)
        let edges: [UInt8] = [
            0x00, 0x0A, 0x0B, 0x0C, 0x20, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
            0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF,
        ]
        let characters = [
            "a", "é", "ß", "中", "\u{FFFD}", "😀", "\u{10FFFF}", "\u{E000}", "\u{D7FF}", "\u{0800}", "\u{80}",
        ]
        var agreed = 0
        for round in 0..<20_000 {
            // Valid text, then one local change, so that the change decides the answer: a few
            // edge bytes inserted, one byte replaced, or the end cut inside a character.
            var bytes: [UInt8] = []
            let length = Int.random(in: 0...200, using: &generator)
            while bytes.count < length {
                if Bool.random(using: &generator) {
                    bytes += Array(characters.randomElement(using: &generator)!.utf8)
                } else {
                    bytes.append(UInt8.random(in: 0x20...0x7E, using: &generator))
                }
            }
            let position = Int.random(in: 0...bytes.count, using: &generator)
            switch round % 4 {
            case 1:
                let inserted = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    edges.randomElement(using: &generator)!
                }
                bytes.insert(contentsOf: inserted, at: position)
            case 2 where position < bytes.count: bytes[position] = edges.randomElement(using: &generator)!
            case 3: bytes.removeLast(min(bytes.count, Int.random(in: 1...3, using: &generator)))
            default: break
            }
            let (wide, portable) = bytes.withUnsafeBytes {
                (CallbackValueCounter.isPlainText($0), CallbackValueCounter.isPlainText($0, wide: false))
            }
            #expect(wide == portable, "\(bytes), ELEVATE_TEST_SEED=\(randomTestSeed)")
            if wide == portable { agreed += 1 }
        }
        #expect(agreed == 20_000)
    }

    /// Every sequence, valid or not, at every offset around the blocks of 64 bytes, in ASCII: a
    /// character cut short before an ASCII block is found there.
    @Test func theWideTextCheckAgreesAcrossBlocks() {
        let sequences: [[UInt8]] = [
            [0xC3, 0xA9], [0xE4, 0xB8, 0xAD], [0xF0, 0x9F, 0x98, 0x80], [0xC3], [0xE4, 0xB8], [0xF0, 0x9F, 0x98],
            [0x80],
            [0xBF, 0xBF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFF], [0x0B], [0x0C], [0xEF, 0xBF, 0xBD], [0xF4, 0x8F, 0xBF, 0xBF],
        ]
        for sequence in sequences {
            for offset in 0..<140 {
                for length in [offset + sequence.count, 192, 256] where length >= offset + sequence.count {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes.replaceSubrange(offset..<(offset + sequence.count), with: sequence)
                    let (wide, portable) = bytes.withUnsafeBytes {
                        (CallbackValueCounter.isPlainText($0), CallbackValueCounter.isPlainText($0, wide: false))
                    }
                    #expect(wide == portable, "\(sequence) at \(offset) of \(length)")
                }
            }
        }
    }

    @Test func theConformanceSuiteAgrees() throws {
        guard let directory = SharedCorpus.testParsing else {
            print(SharedCorpus.missingMessage)
            return
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            expectAgreement([Array("[null,".utf8), bytes, Array("]".utf8)], label: name)
            expectAgreement([bytes], label: name)
        }
    }
}
