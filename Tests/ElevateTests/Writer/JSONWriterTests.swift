import Foundation
import Testing

@testable import Elevate

/// A type that is JSON through Elevate's protocol.
struct EncodablePerson: Elevate.Encodable {
    var name: String
    var age: Int
    var json: Any { ["name": name, "age": age] }
}

/// An Encodable whose json is itself: a cycle the writer must refuse, not follow forever.
struct SelfReferential: Elevate.Encodable {
    var json: Any { self }
}

@Suite struct JSONWriterTests {
    static var roundTripValues: [Any] {
        [
            ["name": "Ada", "born": 1815, "tags": ["math", "engines"], "alive": false, "spouse": NSNull()],
            [1, -2, 3.5, "four", true, NSNull(), [String: Any](), [Any]()],
            ["nested": ["deeper": [["deepest": [1, [2, [3]]]]]]],
            "just a string",
            42,
            -0.0,
            [Int.min, Int.max] as [Any],
            [UInt.max] as [Any],
            [
                "large": JSONLargeNumber(text: "123456789012345678901234567890"),
                "tiny": JSONLargeNumber(text: "1e-400"),
            ],
            ["unicode": "é漢😀\u{2028}\u{2029}", "controls": "\u{0}\u{1}\u{1F}\t\n\r\u{8}\u{C}\"\\/"],
            nestedArrays(300),
        ]
    }

    @Test(arguments: 0..<11, [false, true])
    func roundTrip(index: Int, pretty: Bool) throws {
        let value = Self.roundTripValues[index]
        let data = try JSONWriter.data(for: value, options: .init(prettyPrinted: pretty, sortedKeys: true))
        let parsed = try JSONValueBuilder.value(from: data)
        #expect(treesEqual(value, parsed), "\(String(decoding: data, as: UTF8.self))")
    }

    @Test func compactAndPrettyText() throws {
        let value: [String: Any] = ["b": [1, 2], "a": ["x": NSNull()], "c": [String: Any](), "d": [Any](), "e": "/"]
        #expect(
            try JSONWriter.string(for: value, options: .init(sortedKeys: true))
                == #"{"a":{"x":null},"b":[1,2],"c":{},"d":[],"e":"/"}"#)
        let pretty = """
            {
              "a": {
                "x": null
              },
              "b": [
                1,
                2
              ],
              "c": {},
              "d": [],
              "e": "/"
            }
            """
        #expect(try JSONWriter.string(for: value, options: .init(prettyPrinted: true, sortedKeys: true)) == pretty)
        #expect(try JSONWriter.string(for: [Any](), options: .init(prettyPrinted: true)) == "[]")
        #expect(try JSONWriter.string(for: 7, options: .init(prettyPrinted: true)) == "7")
    }

    @Test func sortedKeysUseCodePointOrder() throws {
        let value: [String: Any] = ["b": 1, "é": 2, "a": 3, "Z": 4, "aa": 5, "": 6]
        #expect(
            try JSONWriter.string(for: value, options: .init(sortedKeys: true))
                == #"{"":6,"Z":4,"a":3,"aa":5,"b":1,"é":2}"#)
    }

    @Test(arguments: [
        (0.1, "0.1"), (1e-5, "1e-05"), (5.0, "5.0"), (-0.0, "-0.0"), (Double.leastNonzeroMagnitude, "5e-324"),
        (1e16, "1e+16"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (0.30000000000000004, "0.30000000000000004"),
        (123456.789, "123456.789"), (-2.5e-10, "-2.5e-10"),
    ])
    func doubleText(value: Double, expected: String) throws {
        #expect(try JSONWriter.string(for: value) == expected)
        #expect(JSONNumberFormat.isValid(expected.utf8))
    }

    @Test func randomDoublesRoundTripBitExactly() throws {
        var generator = SeededGenerator(state: 0x5EED)
        var doubles: [Double] = []
        while doubles.count < 20_000 {
            // Random bit patterns cover subnormals and extreme exponents; random magnitudes cover
            // the everyday range.
            let candidate =
                doubles.count.isMultiple(of: 2)
                ? Double(bitPattern: generator.next()) : Double.random(in: -1e6...1e6, using: &generator)
            if candidate.isFinite { doubles.append(candidate) }
        }
        let data = try JSONWriter.data(for: doubles)
        // The writer's side, independent of the parser: each number's text is JSON grammar and
        // reads back (with Swift's own parser) as the same bits.
        let texts = String(decoding: data.dropFirst().dropLast(), as: UTF8.self).split(separator: ",")
        #expect(texts.count == doubles.count)
        #expect(
            zip(doubles, texts).allSatisfy { written, text in
                JSONNumberFormat.isValid(text.utf8) && Double(text)?.bitPattern == written.bitPattern
            })
        // Through Elevate's parser: bit-exact.
        let parsed = try #require(try JSONValueBuilder.value(from: data) as? [Any])
        #expect(parsed.count == doubles.count)
        let mismatches = zip(doubles, parsed).filter { written, read in
            (read as? Double)?.bitPattern != written.bitPattern
        }
        #expect(mismatches.count == 0, "first: \(mismatches.prefix(3).map { "\($0.0) read as \(type(of: $0.1))" })")
    }

    @Test func floatsUseTheirOwnShortestText() throws {
        #expect(try JSONWriter.string(for: Float(0.1)) == "0.1")
        #expect(try JSONWriter.string(for: [Float(1e-5), Float(3.4028235e38)]) == "[1e-05,3.4028235e+38]")
        var generator = SeededGenerator(state: 0xF10A7)
        var floats: [Float] = []
        while floats.count < 5_000 {
            let candidate = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            if candidate.isFinite { floats.append(candidate) }
        }
        let data = try JSONWriter.data(for: floats)
        let texts = String(decoding: data.dropFirst().dropLast(), as: UTF8.self).split(separator: ",")
        #expect(
            zip(floats, texts).allSatisfy { written, text in
                JSONNumberFormat.isValid(text.utf8) && Float(text)?.bitPattern == written.bitPattern
            })
        // Through Elevate's parser: bit-exact.
        let parsed = try #require(try JSONValueBuilder.value(from: data) as? [Any])
        let mismatchCount = zip(floats, parsed).count { written, read in
            (read as? Double).map { Float($0).bitPattern } != written.bitPattern
        }
        #expect(mismatchCount == 0)
    }

    @Test func integerExtremes() throws {
        #expect(try JSONWriter.string(for: [Int.min, Int.max]) == "[-9223372036854775808,9223372036854775807]")
        #expect(try JSONWriter.string(for: UInt.max) == "18446744073709551615")
        #expect(try JSONWriter.string(for: UInt64.max) == "18446744073709551615")
        let widths: [Any] = [Int8.min, Int16.min, Int32.min, Int64.min, UInt8.max, UInt16.max, UInt32.max]
        #expect(
            try JSONWriter.string(for: widths)
                == "[-128,-32768,-2147483648,-9223372036854775808,255,65535,4294967295]")
        if #available(macOS 15, *) {
            #expect(try JSONWriter.string(for: Int128.min) == "-170141183460469231731687303715884105728")
            #expect(try JSONWriter.string(for: UInt128.max) == "340282366920938463463374607431768211455")
        }
    }

    @Test func foundationNumbersKeepTheirKind() throws {
        let numbers: [Any] = [
            NSNumber(value: true), NSNumber(value: false), NSNumber(value: 1), NSNumber(value: 0),
            NSNumber(value: 1.5), NSNumber(value: Float(0.1)), NSNumber(value: UInt64.max), NSNumber(value: Int8(-3)),
            NSDecimalNumber(string: "12.50"),
        ]
        #expect(try JSONWriter.string(for: numbers) == "[true,false,1,0,1.5,0.1,18446744073709551615,-3,12.5]")
        #expect(try JSONWriter.string(for: [Optional(NSNumber(value: true))]) == "[true]")
    }

    @Test func otherAcceptedTypes() throws {
        let text = try JSONWriter.string(
            for: [
                "a"[...] as Substring, URL(string: "https://example.com/a?b=c")!, Optional<Int>.none as Any,
                Optional(Optional(3)) as Any,
                JSONLargeNumber(text: "-1.5E+999"), EncodablePerson(name: "Ada", age: 36),
                [EncodablePerson(name: "B", age: 1)],
                ["p": EncodablePerson(name: "C", age: 2)] as [String: any Elevate.Encodable], Decimal(string: "0.001")!,
                ["k": 1] as NSDictionary, [1, "x"] as NSArray, "ns" as NSString, [AnyHashable("h"): 1],
            ] as [Any], options: .init(sortedKeys: true))
        #expect(
            text
                == #"["a","https://example.com/a?b=c",null,3,-1.5E+999,{"age":36,"name":"Ada"},[{"age":1,"name":"B"}],"#
                + #"{"p":{"age":2,"name":"C"}},0.001,{"k":1},[1,"x"],"ns",{"h":1}]"#)
    }

    @Test func streamWriterAcceptsEncodable() throws {
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: .jsonLines) { output.append(contentsOf: $0) }
        try writer.write(EncodablePerson(name: "Ada", age: 36))
        try writer.finish()
        let parsed = try JSONValueBuilder.value(from: Data(output))
        #expect(treesEqual(parsed, ["name": "Ada", "age": 36]))
    }

    @Test func escapes() throws {
        #expect(try JSONWriter.string(for: "quote\" backslash\\ slash/") == #""quote\" backslash\\ slash/""#)
        #expect(try JSONWriter.string(for: "a/b", options: .init(escapesSlashes: true)) == #""a\/b""#)
        #expect(try JSONWriter.string(for: "\t\n\r\u{8}\u{C}") == #""\t\n\r\b\f""#)
        let controls = String((0..<0x20).map { Character(Unicode.Scalar($0)!) })
        let escaped = try JSONWriter.string(for: controls)
        #expect(escaped.unicodeScalars.allSatisfy { $0.value >= 0x20 })
        #expect(treesEqual(try JSONValueBuilder.value(from: Data(escaped.utf8)), controls))
        #expect(try JSONWriter.string(for: "é漢😀") == "\"é漢😀\"")
        #expect(try JSONWriter.string(for: ["k\u{2028}": "a\u{2028}b\u{2029}c"]) == #"{"k\u2028":"a\u2028b\u2029c"}"#)
        #expect(try JSONWriter.string(for: "\u{2028}", options: .init(escapesLineSeparators: false)) == "\"\u{2028}\"")
        // Other scalars that share the E2 lead byte are left alone.
        #expect(try JSONWriter.string(for: "€\u{2027}\u{202A}") == "\"€\u{2027}\u{202A}\"")
        #expect(try JSONWriter.string(for: "") == #""""#)
        #expect(try JSONWriter.string(for: ["": ""]) == #"{"":""}"#)
    }

    // MARK: Errors

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoublesAreErrors(value: Double) {
        let error = writerError { _ = try JSONWriter.data(for: ["list": [1, value]]) }
        #expect(error?.kind == .nonFiniteNumber)
        #expect(error?.path == "list[1]")
    }

    @Test func otherNonFiniteNumbersAreErrors() {
        let values: [Any] = [Float.nan, Float.infinity, Decimal.nan, NSNumber(value: Double.nan), Float.signalingNaN]
        for value in values {
            #expect(writerError { _ = try JSONWriter.data(for: value) }?.kind == .nonFiniteNumber)
        }
    }

    @Test func unsupportedTypeNamesTypeAndPath() {
        let person: [String: Any] = ["birthDate": Date()]
        let value: [String: Any] = ["items": [1, 2, 3, person]]
        let error = writerError { _ = try JSONWriter.data(for: value) }
        #expect(error?.kind == .unsupportedType)
        #expect(error?.path == "items[3].birthDate")
        #expect(error?.description == "at items[3].birthDate: Date is not a JSON value")
        #expect(writerError { _ = try JSONWriter.data(for: ["a b": Data()]) }?.path == #"["a b"]"#)
        #expect(
            writerError { _ = try JSONWriter.data(for: Date()) }?.description
                == "at the top level: Date is not a JSON value")
        #expect(writerError { _ = try JSONWriter.data(for: SelfReferential()) }?.kind == .unsupportedType)
    }

    @Test func invalidKeysAndNumberTextAreErrors() {
        #expect(writerError { _ = try JSONWriter.data(for: [1: "one"] as [AnyHashable: Any]) }?.kind == .invalidKey)
        for text in ["", "abc", "01", "1.", ".5", "1e", "+1", "NaN", "1 ", "--1"] {
            #expect(
                writerError { _ = try JSONWriter.data(for: JSONLargeNumber(text: text)) }?.kind == .invalidNumberText)
        }
    }

    @Test(arguments: [1, 126, 127, 128, 129, 254, 255, 256, 400, 512])
    func deepNestingBeyondYAJLsLimit(depth: Int) throws {
        let arrays = nestedArrays(depth, innermost: ["k": [1, "x"]] as [String: Any])
        for pretty in [false, true] {
            let text = try JSONWriter.string(
                for: arrays, options: .init(prettyPrinted: pretty, maximumDepth: depth + 2))
            let parsed = try JSONValueBuilder.value(from: Data(text.utf8), options: .init(maximumDepth: depth + 2))
            #expect(treesEqual(parsed, arrays))
            if pretty {
                // Every line is indented by two spaces per enclosing container, also past YAJL's 127.
                let lines = text.split(separator: "\n")
                #expect(lines[depth].hasPrefix(String(repeating: " ", count: 2 * depth) + "{"))
                #expect(lines[depth + 1] == String(repeating: " ", count: 2 * depth + 2) + "\"k\": [")
                #expect(lines.last == "]")
            }
        }
        var objects: Any = 1
        for _ in 0..<depth { objects = ["o": objects] }
        let data = try JSONWriter.data(for: objects, options: .init(maximumDepth: depth))
        #expect(treesEqual(try JSONValueBuilder.value(from: data, options: .init(maximumDepth: depth + 1)), objects))
    }

    @Test func tooDeepIsAnError() {
        let error = writerError { _ = try JSONWriter.data(for: nestedArrays(513)) }
        #expect(error?.kind == .depthLimitExceeded)
        #expect(error?.pathComponents.count == 512)
        #expect(writerError { _ = try JSONWriter.data(for: nestedArrays(512)) } == nil)
        #expect(
            writerError { _ = try JSONWriter.data(for: [[[Any]()]], options: .init(maximumDepth: 2)) }?.kind
                == .depthLimitExceeded)
        // An error in a spliced (deeper than 127) part carries the full path.
        let deep = nestedArrays(200, innermost: Date())
        #expect(writerError { _ = try JSONWriter.data(for: deep) }?.pathComponents.count == 200)
    }

    // MARK: Streaming

    private static func collect(
        framing: JSONFraming, options: JSONWriter.Options = .default,
        _ body: (JSONStreamWriter) throws -> Void
    ) throws -> String {
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: framing, options: options) { output.append(contentsOf: $0) }
        try body(writer)
        try writer.finish()
        return String(decoding: output, as: UTF8.self)
    }

    @Test(arguments: [0, 1, 2, 100_000])
    func streamWritesAValidArray(count: Int) throws {
        var output: [UInt8] = []
        var chunkSizes: [Int] = []
        let writer = JSONStreamWriter(framing: .array) { chunk in
            chunkSizes.append(chunk.count)
            output.append(contentsOf: chunk)
        }
        for index in 0..<count {
            try writer.write(["index": index, "name": "item \(index)", "ratio": Double(index) / 4])
        }
        try writer.finish()
        let parsed = try #require(try JSONValueBuilder.value(from: Data(output)) as? [Any])
        #expect(parsed.count == count)
        if count > 0 {
            #expect(
                treesEqual(
                    parsed[count - 1],
                    ["index": count - 1, "name": "item \(count - 1)", "ratio": Double(count - 1) / 4]))
        }
        // The writer hands its buffer on once a value takes it to the buffer size: every chunk but
        // the last holds at least that and at most one value (under 64 bytes here) more, and the
        // last one holds the rest, the closing bracket included.
        let size = JSONStreamWriter.bufferSize
        #expect(chunkSizes.dropLast().allSatisfy { $0 >= size && $0 < size + 64 }, "\(chunkSizes)")
        #expect(chunkSizes.last.map { $0 > 0 && $0 < size + 64 } == true)
        #expect(chunkSizes.reduce(0, +) == output.count)
        if output.count < size { #expect(chunkSizes.count == 1) }
        if count == 100_000 { #expect(chunkSizes.count > 50, "a 5 MB stream in 64 KiB chunks") }
    }

    @Test func streamFramings() throws {
        #expect(try Self.collect(framing: .array) { _ in } == "[]")
        #expect(
            try Self.collect(framing: .array) {
                try $0.write(1); try $0.write("two"); try $0.write([3])
            } == #"[1,"two",[3]]"#)
        #expect(
            try Self.collect(framing: .array, options: .init(prettyPrinted: true)) {
                try $0.write(["a": [1]]); try $0.write([Any]())
            } == "[\n  {\n    \"a\": [\n      1\n    ]\n  },\n  []\n]")
        #expect(
            try Self.collect(framing: .jsonLines, options: .init(prettyPrinted: true)) {
                try $0.write(["a": [1, 2]]); try $0.write("x\ny"); try $0.write(3)
            } == "{\"a\":[1,2]}\n\"x\\ny\"\n3\n")
        #expect(try Self.collect(framing: .jsonLines) { _ in } == "")
        let concatenated = try Self.collect(framing: .concatenated) {
            try $0.write(1); try $0.write(2); try $0.write([3])
        }
        #expect(concatenated == "1\n2\n[3]")
        let events = try recordEvents(Array(concatenated.utf8), options: .init(allowsMultipleValues: true))
        #expect(events == ["n:1", "n:2", "[", "n:3", "]"])
    }

    @Test func failedValueLeavesTheStreamUnchanged() throws {
        let text = try Self.collect(framing: .array) { writer in
            try writer.write(1)
            #expect(writerError { try writer.write(["ok": 1, "bad": [Date()]]) }?.path == "bad[0]")
            #expect(writerError { try writer.write(Double.nan) }?.kind == .nonFiniteNumber)
            try writer.write(2)
        }
        #expect(text == "[1,2]")
    }

    @Test func writingAfterFinishThrows() throws {
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: .array) { output.append(contentsOf: $0) }
        try writer.write(1)
        try writer.finish()
        try writer.finish()
        #expect(String(decoding: output, as: UTF8.self) == "[1]")
        #expect(writerError { try writer.write(2) }?.kind == .writerFinished)
        #expect(writer.isFinished)
        #expect(writer.count == 1)
    }

    @Test func sinkErrorsEndTheWriter() throws {
        struct Full: Error {}
        let writer = JSONStreamWriter(framing: .jsonLines) { _ in throw Full() }
        try writer.write(1)
        #expect(throws: Full.self) { try writer.flush() }
        #expect(throws: Full.self) { try writer.write(2) }
        #expect(throws: Full.self) { try writer.finish() }
    }

    @Test func streamToFileHandle() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        let writer = JSONStreamWriter(fileHandle: handle, framing: .array)
        for index in 0..<10_000 { try writer.write(["i": index]) }
        try writer.finish()
        try handle.close()
        let parsed = try #require(try JSONValueBuilder.value(from: Data(contentsOf: url)) as? [Any])
        #expect(parsed.count == 10_000)
    }

    /// Both writers released unfinished write nothing more: what is buffered is dropped and an
    /// array stays open, so that output cut short by an error never reads as complete.
    @Test(arguments: [JSONFraming.array, .jsonLines, .concatenated])
    func unfinishedStreamWriterWritesNothingWhenReleased(framing: JSONFraming) throws {
        var output: [UInt8] = []
        do {
            let writer = JSONStreamWriter(framing: framing) { output.append(contentsOf: $0) }
            try writer.write(1)
            try writer.write([2, 3])
        }
        #expect(output.isEmpty)

        // What was flushed stays; the rest does not follow.
        do {
            let writer = JSONStreamWriter(framing: framing) { output.append(contentsOf: $0) }
            try writer.write(1)
            try writer.flush()
            try writer.write(2)
        }
        #expect(
            String(decoding: output, as: UTF8.self) == (framing == .array ? "[1" : framing == .jsonLines ? "1\n" : "1"))
    }

    @Test func unfinishedEventWriterWritesNothingWhenReleased() throws {
        var output: [UInt8] = []
        do {
            let writer = JSONEventWriter { output.append(contentsOf: $0) }
            try JSONEventParser(handler: writer).parseAll(Data("[1, 2]".utf8))
        }
        #expect(output.isEmpty)
        do {
            let writer = JSONEventWriter { output.append(contentsOf: $0) }
            try writer.startArray()
            try JSONEventParser(handler: writer).parse(Data("[1, 2".utf8))
        }
        #expect(output.isEmpty)
    }

    @Test func finishedAndFailedWritersAreReleasedQuietly() throws {
        var output: [UInt8] = []
        do {
            let writer = JSONStreamWriter(framing: .array) { output.append(contentsOf: $0) }
            try writer.write(1)
            try writer.finish()
        }
        #expect(String(decoding: output, as: UTF8.self) == "[1]")
        struct Full: Error {}
        do {
            let writer = JSONStreamWriter(framing: .array) { _ in throw Full() }
            try writer.write(1)
            #expect(throws: Full.self) { try writer.finish() }
        }
    }
}
