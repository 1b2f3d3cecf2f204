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
