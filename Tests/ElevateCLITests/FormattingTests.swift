import ElevateSampleData
import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate
@testable import ElevateJSON
@testable import ElevateCLI

/// The tool's pure pieces: the progress line, name escaping, UTF-16 recognition, and the text
/// `extract` writes.
@Suite struct FormattingTests {
    // MARK: progress line

    static let longPath = "/data/exports/2024/customers/eu-west/very-long-directory-name/part-00017-of-00032.json"

    @Test(arguments: Array(0...40) + [50, 60, 79, 80, 81, 98, 100, 120, 200])
    func progressLineFitsTheWidth(_ width: Int) {
        for label in ["a.json", Self.longPath, "-", "données/été.json"] {
            for total in [nil, 0, 1_000, 250_000_000] as [Int?] {
                let line = ProgressBar.line(
                    label: label, done: 123_456_789, total: total, rate: 98_765_432, width: width)
                #expect(line.count <= max(width - 1, 0), "\(width) \(label) \(String(describing: total)): \(line)")
            }
        }
    }

    @Test func progressLineKeepsWhatMattersMost() {
        let wide = ProgressBar.line(label: "a.json", done: 50, total: 100, rate: 2_000_000, width: 120)
        #expect(wide == "a.json [############------------]   50%  0.0 MB / 0.0 MB  2.0 MB/s")
        let narrow = ProgressBar.line(label: Self.longPath, done: 50, total: 100, rate: 2_000_000, width: 80)
        #expect(narrow.count == 79)
        #expect(narrow.hasPrefix("/data/"))
        #expect(narrow.contains("…"))
        #expect(narrow.contains("00032.json [############------------]   50%"))
        let tiny = ProgressBar.line(label: Self.longPath, done: 50, total: 100, rate: 0, width: 30)
        #expect(tiny.hasSuffix(" 50%  0.0 MB/s"))
    }

    @Test func middleTruncation() {
        #expect(ProgressBar.middleTruncated("abcdef", to: 6) == "abcdef")
        #expect(ProgressBar.middleTruncated("abcdefghij", to: 7) == "ab…ghij")
        #expect(ProgressBar.middleTruncated("abcdefghij", to: 1) == "…")
        #expect(ProgressBar.middleTruncated("abcdefghij", to: 0) == "")
    }

    @Test func widthFromColumns() {
        #expect(ProgressBar.width(fromColumns: nil) == 80)
        #expect(ProgressBar.width(fromColumns: "132") == 132)
        #expect(ProgressBar.width(fromColumns: "0") == 80)
        #expect(ProgressBar.width(fromColumns: "wide") == 80)
    }

    // MARK: names

    @Test func controlCharactersAreEscaped() {
        #expect("plain/été.json".escapedForTerminal == "plain/été.json")
        #expect("a\nb\rc\td".escapedForTerminal == #"a\nb\rc\td"#)
        #expect("x\u{1B}[2J\u{7F}\u{85}\u{0}".escapedForTerminal == #"x\u{1B}[2J\u{7F}\u{85}\u{0}"#)
    }

    // MARK: UTF-16 and UTF-32

    @Test func utf16ByteOrders() {
        #expect(UnicodeEncodingDetection.encoding(of: [0xFF, 0xFE]) == .utf16LittleEndian)
        #expect(UnicodeEncodingDetection.encoding(of: [0xFE, 0xFF, 0x00]) == .utf16BigEndian)
        #expect(UnicodeEncodingDetection.encoding(of: Array("{\0\"\0a\0".utf8)) == .utf16LittleEndian)
        #expect(UnicodeEncodingDetection.encoding(of: Array("\0{\0\"\0a".utf8)) == .utf16BigEndian)
        #expect(UnicodeEncodingDetection.encoding(of: Array("[1,,2]".utf8)) == nil)
        #expect(UnicodeEncodingDetection.encoding(of: [0, 0, 0, 0]) == nil)
        #expect(UnicodeEncodingDetection.encoding(of: [0x5B]) == nil)
    }

    /// UTF-32 was named UTF-16: its little-endian mark starts with UTF-16's, and its NULs pair up.
    @Test func utf32ByteOrders() {
        #expect(UnicodeEncodingDetection.encoding(of: [0xFF, 0xFE, 0, 0, 0x7B, 0, 0, 0]) == .utf32LittleEndian)
        #expect(UnicodeEncodingDetection.encoding(of: [0, 0, 0xFE, 0xFF, 0, 0, 0, 0x7B]) == .utf32BigEndian)
        #expect(UnicodeEncodingDetection.encoding(of: [0x7B, 0, 0, 0, 0x7D, 0, 0, 0]) == .utf32LittleEndian)
        #expect(UnicodeEncodingDetection.encoding(of: [0, 0, 0, 0x7B, 0, 0, 0, 0x7D]) == .utf32BigEndian)
        #expect(UnicodeEncodingDetection.encoding(of: [0x31, 0, 0, 0]) == .utf32LittleEndian)
        #expect("\(UnicodeEncodingDetection.Encoding.utf32BigEndian)" == "UTF-32 (big-endian)")
        #expect("\(UnicodeEncodingDetection.Encoding.utf16LittleEndian)" == "UTF-16 (little-endian)")
    }

    /// Text in these encodings has no NUL character: a unit without a text byte, or a whole input
    /// that ends inside a unit, is something else that failed (reported by the review: NUL-padded
    /// input was named UTF-32 or UTF-16).
    @Test func nulPaddingIsNotAnEncoding() {
        #expect(UnicodeEncodingDetection.encoding(of: [0x35] + [UInt8](repeating: 0, count: 15)) == nil)
        #expect(UnicodeEncodingDetection.encoding(of: [0x5B, 0, 0x5D], isWholeInput: true) == nil)
        #expect(UnicodeEncodingDetection.encoding(of: [0x22, 0, 0, 0, 0x61, 0x62], isWholeInput: true) == nil)
        #expect(UnicodeEncodingDetection.encoding(of: [0x5B, 0, 0x5D, 0], isWholeInput: true) == .utf16LittleEndian)
        #expect(UnicodeEncodingDetection.encoding(of: [0x31, 0, 0, 0], isWholeInput: true) == .utf32LittleEndian)
        // A head cut from a longer input may end inside a unit.
        #expect(UnicodeEncodingDetection.encoding(of: [0x5B, 0, 0x5D]) == .utf16LittleEndian)
    }

    @Test func excerptDecoding() {
        #expect(UnicodeEncodingDetection.bytes(fromExcerpt: #"\xFF\xFE[\x00\n\t\r\\"#) == [0xFF, 0xFE, 0x5B, 0, 10, 9, 13, 0x5C])
        #expect(UnicodeEncodingDetection.bytes(fromExcerpt: #"a\\b\\xBF"#) == Array(#"a\b\xBF"#.utf8))
        #expect(UnicodeEncodingDetection.bytes(fromExcerpt: #"a\b"#) == nil)
    }

    // MARK: extract's writer

    /// `extract`'s writer (the library's `JSONTextEmitter`, behind `JSONEventWriter` too) escapes
    /// and indents exactly as YAJL's generator does, and keeps numbers as their source text.
    @Test(arguments: [false, true])
    func textWriterMatchesYAJLsGenerator(pretty: Bool) throws {
        for numbers in [#"-0.5e+10"#, #"[1.50,1e400,123456789012345678901234567890,-0,2E-3]"#] {
            let text = try written(numbers, pretty: false)
            #expect(String(decoding: text, as: UTF8.self) == numbers)
        }
        let documents = [
            #"{"a":[1,{"b":"x\u2028\u2029\u0001\u001f\u007f\"\\\/\b\f\n\r\t é €𝄞"},[],{}],"c":true,"d":null}"#,
            #"[]"#, #"{}"#, #""text""#, #"[[[[1]]],{"":{"":[]}}]"#,
            #"{"a\u0000b":"\ud83d\ude00"}"#,
        ]
        for document in documents {
            #expect(
                try written(document, pretty: pretty) == expected(document, pretty: pretty), "\(document.prefix(80))")
        }
        // A large document, keys in document order: the same value, and compact text is a fixed point.
        let people = String(decoding: SampleDocument.people.data(targetSize: 300_000, seed: 3), as: UTF8.self)
        let text = try written(people, pretty: pretty)
        #expect(try JSONValue(parsing: Data(text)) == JSONValue(parsing: people))
        let compact = try written(people, pretty: false)
        #expect(try written(String(decoding: compact, as: UTF8.self), pretty: false) == compact)
    }

    /// Every character that needs escaping, at every position of strings of 0 to 40 bytes, so
    /// that it falls at each place of the eight-byte words the writer scans.
    @Test func textWriterEscapesAtEveryPosition() throws {
        let specials = [#"\""#, #"\\"#, #"\n"#, #"\u0001"#, #"\u001f"#, #"\u2028"#, #"\u2029"#, "é", "\u{2027}", "€", "\u{7F}"]
        var strings: [String] = []
        for length in 0...40 {
            for special in specials {
                for position in 0...length {
                    let plain = String(repeating: "a", count: length)
                    let index = plain.index(plain.startIndex, offsetBy: position)
                    strings.append("\"" + plain[..<index] + special + plain[index...] + "\"")
                }
            }
        }
        let document = "[" + strings.joined(separator: ",") + "]"
        #expect(try written(document, pretty: false) == expected(document, pretty: false))
    }

    private func written(_ document: String, pretty: Bool) throws -> [UInt8] {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("out.json").path
        let output = try OutputFile(path)
        let writer = JSONTextEmitter(output: output, prettyPrinted: pretty)
        try JSONEventParser(handler: writer).parseAll(Data(document.utf8))
        try writer.finishCompleteValues()
        try output.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// What YAJL's generator writes for the same value (through `JSONWriter`, which writes values,
    /// not events): the emitter must escape and indent exactly as it does.
    private func expected(_ document: String, pretty: Bool) throws -> [UInt8] {
        try JSONWriter.bytes(
            for: JSONValue(parsing: document).foundationValue,
            options: JSONWriter.Options(prettyPrinted: pretty, sortedKeys: true))
    }
}
