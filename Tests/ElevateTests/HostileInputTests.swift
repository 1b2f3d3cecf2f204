import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Parses `bytes` in chunks of `chunkSize` into values, printing how long it took (no timing is
/// asserted: the machine is shared).
private func buildValue(_ bytes: [UInt8], chunkSize: Int, label: String) throws -> Any? {
    let builder = JSONValueBuilder()
    let parser = JSONEventParser(handler: builder)
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let end = min(buffer.count, offset + chunkSize)
                try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
            }
        }
        try parser.finish()
    }
    print("\(label): \(bytes.count) bytes in chunks of \(chunkSize): \(elapsed)")
    return builder.takeValue()
}

/// Input designed to exhaust memory, time or the stack: each must end in a value or a
/// `JSONSyntaxError`, never a crash or a hang.
@Suite(.timeLimit(.minutes(2)))
struct HostileInputTests {
    @Test func aMillionOpenBracketsHitTheDepthLimit() throws {
        let arrays = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try #require(syntaxError(arrays))
        #expect(error.kind == .depthLimitExceeded)
        #expect(error.byteOffset <= 513)
        #expect(ParseOutcome.of(arrays, chunkSizes: [65_536]) == .rejected(.depthLimitExceeded))
        let objects = Array(String(repeating: #"{"a":"#, count: 200_000).utf8)
        #expect(syntaxError(objects)?.kind == .depthLimitExceeded)
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = 500
        let text = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        var value = try JSONValueBuilder.value(from: Data(text.utf8))
        for _ in 0..<depth {
            value = try #require((value as? [String: Any])?["a"])
        }
        #expect(value as? Int == 1)
        let limit = JSONParsingOptions.default.maximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(syntaxError(atLimit) == nil)
        #expect(syntaxError("[" + atLimit + "]")?.kind == .depthLimitExceeded)
    }

    @Test func aMillionDigitNumberIsKeptExactly() throws {
        let digits = "1" + String(repeating: "0", count: 999_999)
        for chunkSize in [Int.max, 65_536] {
            let value = try buildValue(
                Array(("[" + digits + "]").utf8), chunkSize: chunkSize, label: "10^6-digit integer")
            let number = try #require((value as? [Any])?.first as? JSONLargeNumber)
            #expect(number.text == digits)
        }
        // As a top-level value, it is only complete at the end of the input.
        let value = try buildValue(Array(digits.utf8), chunkSize: 65_536, label: "top-level 10^6-digit integer")
        #expect((value as? JSONLargeNumber)?.text == digits)
        // A million-digit fraction still rounds to the nearest Double.
        let fraction = "0." + String(repeating: "3", count: 999_998)
        let double = try buildValue(
            Array(("[" + fraction + "]").utf8), chunkSize: Int.max, label: "10^6-digit fraction")
        #expect((double as? [Any])?.first as? Double == Double("0.33333333333333333333333"))
    }

    @Test(arguments: ["1e999999999", "-1e999999999", "1e-999999999", "1.5e+99999999999999999999", "123e-10000000"])
    func hugeExponentsAreLargeNumbersNotInfinity(_ text: String) throws {
        let value = try JSONValueBuilder.value(from: Data("[\(text)]".utf8))
        let number = try #require((value as? [Any])?.first as? JSONLargeNumber)
        #expect(number.text == text)
        #expect(number.doubleValue == nil)
    }

    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0x80], [0xC0, 0xAF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x61, 0xE9, 0x62],
    ]

    @Test(arguments: invalidUTF8)
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

    @Test func unpairedSurrogateEscapesAreNamedAsSuch() {
        // YAJL turns a lone low surrogate into invalid UTF-8 and a lone high one into "?".
        for text in [#"["\udc00"]"#, #"{"\uDFAA":0}"#, #"["\uDd1e\uD834"]"#, #"["\ud800"]"#, #"["a\uD800\n"]"#] {
            for sizes in corpusChunkings {
                #expect(
                    ParseOutcome.of(Array(text.utf8), chunkSizes: sizes) == .rejected(.unpairedSurrogate), "\(text)")
            }
        }
    }

    @Test func everyPrefixParsesOrIsRejected() throws {
        let document = Array(JSONEventParserTests.sample.utf8)
        var outcomes: [ParseOutcome: Int] = [:]
        for length in 0...document.count {
            let prefix = Array(document[..<length])
            let outcome = ParseOutcome.of(prefix)
            outcomes[outcome, default: 0] += 1
            switch outcome {
            case .accepted:
                #expect(length == document.count, "prefix of \(length) bytes accepted")
            case .rejected(.truncated):
                break
            default:
                Issue.record("prefix of \(length) bytes: \(outcome)")
            }
            #expect(ParseOutcome.of(prefix, chunkSizes: [1]) == outcome, "prefix of \(length) bytes, byte by byte")
        }
        print("prefixes of \(document.count) bytes: \(outcomes)")
        // A document that is a number is complete at several lengths.
        let number = Array("-12.5e+3".utf8)
        let accepted = (0...number.count).filter { ParseOutcome.of(Array(number[..<$0])) == .accepted }
        #expect(accepted == [2, 3, 5, 8])
    }

    @Test func nulBytesAreRejectedUnlessEscaped() throws {
        let documents: [[UInt8]] = [
            [0x00],
            [0x00] + Array("[1]".utf8),
            Array("[1,".utf8) + [0x00] + Array("2]".utf8),
            Array("[1]".utf8) + [0x00],
            Array(#"["a"#.utf8) + [0x00] + Array(#"b"]"#.utf8),
            Array(#"{"a"#.utf8) + [0x00] + Array(#"b":1}"#.utf8),
        ]
        for document in documents {
            for sizes in corpusChunkings {
                let outcome = ParseOutcome.of(document, chunkSizes: sizes)
                guard case .rejected = outcome else {
                    Issue.record("\(document): \(outcome)")
                    continue
                }
            }
        }
        let escaped = try #require(
            try JSONValueBuilder.value(from: Data(#"{"k\u0000":"a\u0000b"}"#.utf8)) as? [String: Any])
        #expect(escaped["k\u{0}"] as? String == "a\u{0}b")
    }

    @Test func aLargeStringInSmallChunksIsCorrect() throws {
        final class StringCheck: JSONEventHandler {
            let expected: [UInt8]
            var matched = false
            init(expected: [UInt8]) { self.expected = expected }
            func string(_ value: JSONText) {
                matched =
                    expected.count == value.count
                    && value.withUnsafeBytes { text in
                        expected.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, $0.count) == 0 }
                    }
            }
        }
        let size = 32 << 20
        var body = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        while body.count < size { body += body }
        body.removeLast(body.count - size)
        var document: [UInt8] = [UInt8(ascii: "["), UInt8(ascii: "\"")]
        document += body
        document += Array("\",1]".utf8)
        let check = StringCheck(expected: body)
        let parser = JSONEventParser(handler: check)
        let elapsed = try ContinuousClock().measure {
            try document.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let end = min(buffer.count, offset + 65_536)
                    try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                    offset = end
                }
            }
            try parser.finish()
        }
        print("32 MiB string in 64 KiB chunks: \(elapsed)")
        #expect(check.matched)
        #expect(parser.bytesParsed == document.count)
    }

    /// What each entry point that takes a key path does with one of 31,000 components (62 KB),
    /// as a list of what went wrong: the value is at the path's literal dotted root key, and the
    /// split path leads nowhere past its second component.
    private static func longKeyPathFailures(document: Data, file: URL) -> [String] {
        let keyPath = Array(repeating: "a", count: 31_000).joined(separator: ".")
        var failures: [String] = []
        func check(_ name: String, _ body: () throws -> Bool) {
            do {
                if try !body() { failures.append("\(name): wrong result") }
            } catch {
                failures.append("\(name): \(String(describing: error).prefix(200))")
            }
        }
        check("forEachElement(Data)") {
            var elements: [Int] = []
            let count = try forEachElement(atKeyPath: keyPath, from: .data(document), as: Int.self) { elements.append($0) }
            return count == 3 && elements == [1, 2, 3]
        }
        check("decodeArray(file)") {
            try decodeArray(from: .file(file), atKeyPath: keyPath, as: Int.self) == [1, 2, 3]
        }
        check("ElevateJSONDecoder.decode(Data)") {
            try ElevateJSONDecoder().decode([Int].self, from: document, atKeyPath: keyPath) == [1, 2, 3]
        }
        check("Parser.parseEntity(data:)") {
            let entity = try Parser.parseEntity(data: document) { $0.addProperty(keyPath: keyPath, type: .array, decodableType: Int.self) }
            return (entity[keyPath] as? [Any])?.count == 3
        }
        check("Parser.parseEntity(data:), missing") {
            let entity = try Parser.parseEntity(data: document) {
                $0.addProperty(keyPath: keyPath + ".b", type: .array, optional: true, decodableType: Int.self)
            }
            return entity.isEmpty
        }
        check("missing split path") {
            do {
                _ = try forEachElement(atKeyPath: keyPath + ".b", from: .file(file), as: Int.self) { _ in }
                return false
            } catch ParserError.validation {
                return true
            }
        }
        return failures
    }

    /// A key path of 31,000 components used to overflow the stack when the key-path trie, a
    /// chain of one node per component, was released recursively: every streaming key-path call,
    /// `Parser.parseEntity(data:)` and `elevate extract` crashed, even on an 8 MiB stack. Each
    /// must find the value, on the test's thread and on a 512 KiB one. (`ExtractCommand` in
    /// process: `CommandPieceTests` in ElevateCLITests.)
    @Test func aKeyPathOf31000ComponentsWorksOnAnyStack() throws {
        let keyPath = Array(repeating: "a", count: 31_000).joined(separator: ".")
        let document = Data(("{\"a\":{\"a\":[0]},\"" + keyPath + "\":[1,2,3]}").utf8)
        let scratch = try ScratchDirectory()
        let file = scratch.url.appendingPathComponent("long-key.json")
        try document.write(to: file)
        #expect(Self.longKeyPathFailures(document: document, file: file) == [])

        final class Box: @unchecked Sendable { var failures = ["not run"] }
        let box = Box()
        ValueAdversarialTests.onSmallStack {
            box.failures = Self.longKeyPathFailures(document: document, file: file)
        }
        #expect(box.failures == [])

        // The real tool, on its main thread.
        if ElevateBinary.url != nil {
            let result = try ElevateBinary.run(["extract", "--key-path", keyPath, file.path], in: scratch.url)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output == "[1,2,3]\n")
        }
    }
}
