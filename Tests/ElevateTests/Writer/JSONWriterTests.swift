import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

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

    @Test func randomTreesRoundTripThroughEveryOption() throws {
        var random = SeededGenerator(state: 0xA11CE)
        for round in 0..<300 {
            let tree = WriterSamples.randomTree(&random)
            var parsedTexts: [Any] = []
            for options in WriterSamples.optionCombinations {
                let data = try JSONWriter.data(for: tree, options: options)
                let text = String(decoding: data, as: UTF8.self)
                let parsed = try JSONValueBuilder.value(from: data)
                #expect(treesEqual(tree, parsed), "round \(round) \(options): \(text)")
                // Valid for Foundation too.
                #expect(
                    (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil,
                    "round \(round) \(options): \(text)")
                // Escaping options keep the text ASCII where they promise to.
                if options.escapesLineSeparators {
                    #expect(!text.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
                }
                if options.escapesSlashes {
                    #expect(!text.replacingOccurrences(of: "\\/", with: "").contains("/"))
                }
                #expect(!text.unicodeScalars.contains { $0.value < 0x20 && !options.prettyPrinted })
                parsedTexts.append(parsed)
            }
            #expect(parsedTexts.allSatisfy { treesEqual($0, parsedTexts[0]) })
            // The mutable JSON value writes the same value, numbers exact.
            let json = try JSON(foundationValue: tree)
            let jsonData = try JSONWriter.data(for: json, options: .init(sortedKeys: true))
            #expect(treesEqual(tree, try JSONValueBuilder.value(from: jsonData)), "round \(round) JSON")
        }
    }

    @Test func numbersOfEveryKindReadBackExactly() throws {
        // Floats: the Float's own shortest text, which reads back as the same Float.
        let floats: [Float] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -0.0, 0.1, 1.0 / 3.0, Float("16777217")!,
            Float("1e-45")!, 3.4028235e38, .ulpOfOne,
        ]
        for float in floats {
            let text = try JSONWriter.string(for: float)
            #expect(text == float.description)
            #expect(Float(text)?.bitPattern == float.bitPattern, "\(text)")
            #expect(try JSONWriter.string(for: NSNumber(value: float)) == text)
        }
        // Doubles, through NSNumber and CGFloat too.
        for double in WriterSamples.edgeDoubles {
            let text = try JSONWriter.string(for: double)
            #expect(Double(text)?.bitPattern == double.bitPattern, "\(text)")
            #expect(try JSONWriter.string(for: NSNumber(value: double)) == text)
            #expect(try JSONWriter.string(for: CGFloat(double)) == text)
            let parsed = try JSONValueBuilder.value(from: Data(text.utf8))
            #expect((parsed as? Double)?.bitPattern == double.bitPattern, "\(text)")
        }
        // Decimals: their exact text, which JSON grammar accepts and Decimal reads back.
        let decimals: [Decimal] = [
            .greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 0,
            Decimal(string: "-0.000123")!, Decimal(string: "12345678901234567890123456789012345678")!,
            Decimal(string: "1e100")!, Decimal(string: "-1e-100")!, Decimal(sign: .minus, exponent: 0, significand: 0),
        ]
        for decimal in decimals {
            let text = try JSONWriter.string(for: decimal)
            #expect(JSONNumberFormat.isValid(text.utf8), "\(text)")
            #expect(Decimal(string: text) == decimal, "\(text)")
            #expect(try JSONWriter.string(for: NSDecimalNumber(decimal: decimal)) == text)
        }
        // Integers of every width, at their limits, plain and as NSNumber.
        let integers: [(Any, String)] = [
            (Int8.min, "-128"), (UInt8.max, "255"), (Int64.min, "-9223372036854775808"),
            (UInt64.max, "18446744073709551615"), (UInt.max, "18446744073709551615"),
            (NSNumber(value: UInt64.max), "18446744073709551615"), (NSNumber(value: Int64.min), "-9223372036854775808"),
            (NSNumber(value: UInt8.max), "255"), (NSNumber(value: Int16.min), "-32768"),
            (NSNumber(value: UInt32.max), "4294967295"), (NSNumber(value: UInt(Int.max) + 1), "9223372036854775808"),
        ]
        for (value, expected) in integers { #expect(try JSONWriter.string(for: value) == expected) }
    }

    @Test func nonFiniteNumbersAreRefusedEverywhere() throws {
        let values: [Any] = [
            Double.nan, Double.infinity, -Double.infinity, Float.nan, -Float.infinity, Decimal.nan,
            NSNumber(value: Double.nan), NSNumber(value: Float.infinity), CGFloat.infinity, JSON(Double.nan),
            NSDecimalNumber.notANumber, Double.signalingNaN,
        ]
        for (index, value) in values.enumerated() {
            let error = writerError { _ = try JSONWriter.data(for: ["a": [0, value]]) }
            #expect(error?.kind == .nonFiniteNumber, "\(index): \(value)")
            #expect(error?.path == "a[1]", "\(index)")
            var output: [UInt8] = []
            let writer = JSONStreamWriter(framing: .array) { output.append(contentsOf: $0) }
            try writer.write(1)
            #expect(writerError { try writer.write(value) }?.kind == .nonFiniteNumber)
            try writer.write(2)
            try writer.finish()
            #expect(String(decoding: output, as: UTF8.self) == "[1,2]")
        }
    }

    /// A Foundation dictionary whose keys are different `AnyHashable`s but the same string (a
    /// `String` and an `NSString` of the same text) cannot be written as JSON without losing a
    /// member: it is an error, where one of the two values was silently dropped.
    @Test func keysThatAreTheSameStringAreAnError() throws {
        let value: [AnyHashable: Any] = [AnyHashable("a"): 1, AnyHashable(NSString(string: "a")): 2, AnyHashable("b"): 3]
        try #require(value.count == 3, "the platform merges these keys; nothing to test")
        let error = writerError { _ = try JSONWriter.string(for: value) }
        #expect(error?.kind == .invalidKey)
        #expect(error?.message.contains(#""a""#) == true)
        // Distinct strings still write.
        let fine: [AnyHashable: Any] = [AnyHashable("a"): 1, AnyHashable(NSString(string: "b")): 2]
        #expect(try JSONWriter.string(for: fine, options: .init(sortedKeys: true)) == #"{"a":1,"b":2}"#)
    }
}
