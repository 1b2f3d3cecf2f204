import ElevateSampleData
import Foundation
import Testing

@testable import ElevateJSON

/// The count of a run of JSON Lines straight from YAJL's callbacks
/// (`CallbackValueCounter.countLines`), one YAJL handle for every line, answers only for lines the
/// event layer accepts line by line, with its counts. YAJL's multiple-values mode accepts values
/// anywhere (`1 2`, `[1,⏎2]`); only the check that each value has a line of its own keeps those out.
@Suite struct CallbackValueCounterLinesTests {
    /// The event layer's verdict, line by line as `JSONLinesParser` reads them: the lines holding a
    /// value and the values in them, or nil when it reports an error.
    private func eventLayerCounts(_ bytes: [UInt8], options: JSONParsingOptions = .default) -> (Int, Int)? {
        let counter = ValueCounter()
        let lines = JSONLinesParser(handler: counter, options: options)
        do {
            try bytes.withUnsafeBytes { try lines.feed($0) }
            try lines.finish()
        } catch {
            return nil
        }
        return (lines.valueCount, counter.count)
    }

    private func callbackCounts(_ bytes: [UInt8], options: JSONParsingOptions = .default) -> (Int, Int)? {
        bytes.withUnsafeBytes { CallbackValueCounter.countLines($0, options: options) }.map { ($0.lines, $0.values) }
    }

    /// Counts only what the event layer accepts, and then exactly as it does.
    private func expectAgreement(
        _ bytes: [UInt8], mustAnswer: Bool = false, options: JSONParsingOptions = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let label = String(decoding: bytes, as: UTF8.self).debugDescription
        let expected = eventLayerCounts(bytes, options: options)
        let counted = callbackCounts(bytes, options: options)
        if let counted {
            #expect(expected != nil, "counted \(counted) where the event layer fails: \(label)", sourceLocation: sourceLocation)
            if let expected {
                #expect(counted == expected, "\(label)", sourceLocation: sourceLocation)
            }
        }
        if mustAnswer {
            #expect(counted != nil, "fell back on \(label)", sourceLocation: sourceLocation)
        }
    }

    @Test func validLinesAreCountedAsTheEventLayerCountsThem() {
        for text in [
            "1\n", "1\n2\n", "1\n2", "12", "[1]\n  12", "true\r\nfalse\r\n", "\n\n  1  \n\t\n\"x\"",
            "{\"a\": [1, {\"b\": null}]}\n[]\n{}\n\"s\"\n-0.5e3\n", "[1,\r2]\n", "  [\"a\\nb\"]  \r\n\n",
            "\"\\ud83c\\udf19\"\n{\"\\u00e9\": \"Saint-\\u00c9tienne\"}\n", "null\nnull\nnull",
        ] {
            expectAgreement(Array(text.utf8), mustAnswer: true)
        }
    }

    /// What YAJL's multiple-values mode accepts and JSON Lines does not: two values on a line, a
    /// value over two lines, or both at once so that the number of values equals the number of
    /// lines.
    @Test func valuesWithoutALineOfTheirOwnAreLeftToTheEventLayer() {
        for text in [
            "1 2\n", "[1][2]\n", "[1,\n2]\n", "[1,\n2] 3\n", "1 [\n2]\n", "{\"a\":\n1}\n", "1\r2\n", "\"a\"\"b\"\n",
            "[1]\n2 3", "12 34", "1 2", "{}{}", "[\n]\n", "1\n[\n2]\n3 4\n", "\"a\" 1\n2\n",
        ] {
            let bytes = Array(text.utf8)
            #expect(callbackCounts(bytes) == nil, "\(text.debugDescription)")
            #expect(eventLayerCounts(bytes) == nil, "\(text.debugDescription)")
        }
    }

    /// A byte order mark, a run of blank lines, errors, and what the event layer adds to YAJL
    /// (a form feed, invalid UTF-8, a bad surrogate escape, the depth limit, the options it does
    /// not implement): the event layer reads them.
    @Test func whatItDoesNotImplementIsLeftToTheEventLayer() {
        var texts: [[UInt8]] = [
            Array("\u{FEFF}1\n2\n".utf8), Array("\n\n  \n".utf8), [], Array("1\n\u{FEFF}2\n".utf8),
            Array("1\n[1,,2]\n".utf8), Array("tr\nue".utf8), Array("\"a\nb\"".utf8), Array("1,\n2\n".utf8),
            Array("1\n\u{0C}2\n".utf8), Array("\"\\ud800\"\n".utf8), [0x22, 0xC0, 0xAF, 0x22, 0x0A], Array("1\n[".utf8),
        ]
        texts.append(Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "\n").utf8))
        for bytes in texts {
            #expect(callbackCounts(bytes) == nil, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            expectAgreement(bytes)
        }
        for options in [
            JSONParsingOptions(allowsComments: true), JSONParsingOptions(rejectsDuplicateKeys: true),
            JSONParsingOptions(maximumTokenSize: 4),
        ] {
            #expect(callbackCounts(Array("1\n2\n3\n".utf8), options: options) == nil, "\(options)")
        }
        var shallow = JSONParsingOptions()
        shallow.maximumDepth = 2
        expectAgreement(Array("[[1]]\n[1]\n".utf8), mustAnswer: true, options: shallow)
        expectAgreement(Array("[[1]]\n[[[1]]]\n".utf8), options: shallow)
        #expect(callbackCounts(Array("[[1]]\n[[[1]]]\n".utf8), options: shallow) == nil)
    }

    /// Valid lines with one byte inserted, replaced or removed where the lines are likeliest to
    /// move: newlines, spaces, brackets, commas, quotes and digits, over and over. Whatever the
    /// change, the count agrees with the event layer's, or is left to it.
    @Test func mutatedLinesAgreeWithTheEventLayer() {
        var generator = SplitMix64(seed: randomTestSeed)
        let lines = [
            "{\"id\": 1, \"tags\": [\"a\", \"b\"], \"ok\": true}", "[1, 2.5, -3e2, null]", "\"text \\\" \\u00e9\"", "42",
            "{}", "[]", "{\"a\": {\"b\": [{}, [[]]]}}", "false", "  7  ", "",
        ]
        let edits: [UInt8] = Array("\n\n\n \r[]{},:\"0 1".utf8)
        var answered = 0
        for _ in 0..<4_000 {
            var bytes = Array(
                (0..<Int.random(in: 1...6, using: &generator)).map { _ in lines.randomElement(using: &generator)! }
                    .joined(separator: "\n").utf8)
            if Bool.random(using: &generator) { bytes.append(0x0A) }
            for _ in 0..<Int.random(in: 0...2, using: &generator) where !bytes.isEmpty {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.insert(edits.randomElement(using: &generator)!, at: position)
                case 1: bytes[position] = edits.randomElement(using: &generator)!
                default: bytes.remove(at: position)
                }
            }
            expectAgreement(bytes)
            if callbackCounts(bytes) != nil { answered += 1 }
        }
        // Most unmutated or harmlessly mutated runs are answered: the fast path is taken.
        #expect(answered > 400, "answered \(answered) of 4000, ELEVATE_TEST_SEED=\(randomTestSeed)")
    }

    @Test func theConformanceSuiteAgrees() throws {
        guard let directory = SharedCorpus.testParsing else {
            print(SharedCorpus.missingMessage)
            return
        }
        var all: [UInt8] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            expectAgreement(bytes)
            expectAgreement(Array("1\n".utf8) + bytes + Array("\n2\n".utf8))
            if name.hasPrefix("y_") { all += bytes.filter { $0 != 0x0A } + [0x0A] }
        }
        expectAgreement(all)
    }
}
