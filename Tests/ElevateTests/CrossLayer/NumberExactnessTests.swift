import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

// MARK: - The exact oracle

/// The exact value a JSON number text spells, as decimal digits: `digits × 10^exponent`, with no
/// rounding anywhere. The tests' oracle for what an integer read must answer.
private struct ExactDecimal {
    var negative = false
    /// Significant digits, without leading or trailing zeros; empty for zero.
    var digits: [UInt8] = []
    var exponent = 0

    init(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var all: [UInt8] = []
        var fractionCount = 0
        var inFraction = false
        var exponentText = ""
        var inExponent = false
        for byte in bytes {
            if inExponent {
                exponentText.append(Character(UnicodeScalar(byte)))
            } else if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                inExponent = true
            } else {
                all.append(byte - UInt8(ascii: "0"))
                if inFraction { fractionCount += 1 }
            }
        }
        exponent = (Int(exponentText) ?? 0) - fractionCount
        while let first = all.first, first == 0 { all.removeFirst() }
        while let last = all.last, last == 0 {
            all.removeLast()
            exponent += 1
        }
        digits = all
        if digits.isEmpty { exponent = 0 }
    }

    /// Whether the text spells an integer (all its non-zero digits are before the decimal point).
    var isInteger: Bool { digits.isEmpty || exponent >= 0 }

    /// The integer, when the text spells one of at most 38 digits; nil otherwise.
    var integer: Int128? {
        guard isInteger else { return nil }
        guard digits.count + exponent <= 38 else { return nil }
        var value: Int128 = 0
        for digit in digits { value = value * 10 + Int128(digit) }
        for _ in 0..<exponent { value *= 10 }
        return negative ? -value : value
    }

    /// Whether a nonzero value was written (a `Double` of 0 for it is an underflow, not the value).
    var isZero: Bool { digits.isEmpty }
}

/// What every strict integer read of `text` as a `T` must give: the integer the text spells, when
/// `T` holds it; and with a fraction or exponent only below 2⁵³ in magnitude (README: beyond that
/// such a number is a rounded `Double`, so the library refuses it).
private func expectedInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
    guard let value = ExactDecimal(text).integer else { return nil }
    if text.contains(where: { ".eE".contains($0) }), value.magnitude >= 1 << 53 { return nil }
    return T(exactly: value)
}

/// What a `Double` read of `text` must give: the nearest `Double` (Swift's correctly rounded
/// conversion), or nil when that overflows to infinity or underflows a nonzero number to zero.
private func expectedDouble(_ text: String) -> Double? {
    guard let value = Double(text), value.isFinite else { return nil }
    if value == 0, !ExactDecimal(text).isZero { return nil }
    return value
}

// MARK: - Every integer read of the library

private struct Keyed<T: Swift.Decodable>: Swift.Decodable { var v: T }
private struct OptionalKeyed<T: Swift.Decodable>: Swift.Decodable { var v: T? }

/// An `Elevate.Decodable` whose `init(json:)` reads its view with a schema, as model types do.
private struct Item: Elevate.Decodable {
    var id: Int
    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "id", type: .int) }
        id = entity <-! "id"
    }
}

/// Reads `text` as an integer of type `T` through `read`, nil on any error.
private func attempt<T>(_ read: () throws -> T?) -> T? { (try? read()) ?? nil }

/// Every way the library reads an `Int` out of JSON text, by name: the read's result, or nil when
/// it refused the number.
private func intReads(_ text: String) -> [(String, Int?)] {
    let data = Data(text.utf8)
    let object = Data(#"{"v": \#(text)}"#.utf8)
    let array = Data("[\(text)]".utf8)
    let view = try! JSONValue(parsing: data)
    let foundation = try! JSONValueBuilder.value(from: data)
    let foundationObject = try! JSONValueBuilder.value(from: object)
    let codable = ElevateJSONDecoder()
    var reads: [(String, Int?)] = [
        ("schema .int", attempt { try Parser.parseEntity(data: object) { $0.addProperty(keyPath: "v", type: .int) }["v"] as? Int }),
        ("schema .int then <-!", attempt { () throws -> Int in
            let entity = try Parser.parseEntity(data: object) { $0.addProperty(keyPath: "v", type: .int) }
            return entity <-! "v"
        }),
        ("schema .int on a Foundation tree", attempt {
            try Parser.parseEntity(json: foundationObject) { $0.addProperty(keyPath: "v", type: .int) }["v"] as? Int
        }),
        ("schema .array of Int", attempt {
            (try Parser.parseEntity(data: Data(#"{"v": [\#(text)]}"#.utf8)) {
                $0.addProperty(keyPath: "v", type: .array, decodableType: Int.self)
            }["v"] as? [Int])?.first
        }),
        ("schema .dictionary, then Int(json:)", attempt {
            let entity = try Parser.parseEntity(data: object) { $0.addProperty(keyPath: "", type: .dictionary) }
            return try Int(json: (entity[""] as! [String: Any])["v"]!)
        }),
        ("Decodable with a schema, in an array", attempt {
            (try Parser.parseEntity(data: Data(#"{"items": [{"id": \#(text)}]}"#.utf8)) {
                $0.addProperty(keyPath: "items", type: .array, decodableType: Item.self)
            }["items"] as? [Item])?.first?.id
        }),
        ("Int(json:) of a view", attempt { try Int(json: view) }),
        ("Int(json:) of a Foundation value", attempt { try Int(json: foundation) }),
        ("[Int](json:) of a view", attempt { try [Int](json: try JSONValue(parsing: array)).first }),
        ("[Int](json:) of a Foundation array", attempt { try [Int](json: try JSONValueBuilder.value(from: array)).first }),
        ("decodeArray", attempt { () throws -> Int? in
            let values: [Int] = try Elevate.decodeArray(from: array)
            return values.first
        }),
        ("forEachElement, Elevate", attempt { () throws -> Int? in
            var values: [Int] = []
            try Elevate.forEachElement(from: .data(array), as: Int.self) { values.append($0) }
            return values.first
        }),
        ("forEachElement, Codable, 2 workers", attempt { () throws -> Int? in
            var values: [Int] = []
            var options = StreamingOptions()
            options.concurrency = 2
            try Elevate.forEachElement(from: .data(array), as: Int.self, decoder: ElevateJSONDecoder(), options: options) {
                values.append($0)
            }
            return values.first
        }),
        ("forEachValue, JSON Lines", attempt { () throws -> Int? in
            var values: [Int] = []
            try Elevate.forEachValue(from: .data(Data((text + "\n").utf8)), framing: .jsonLines, as: Int.self) {
                values.append($0)
            }
            return values.first
        }),
        ("Codable single value", attempt { try codable.decode(Int.self, from: data) }),
        ("Codable keyed", attempt { try codable.decode(Keyed<Int>.self, from: object).v }),
        ("Codable keyed, decodeIfPresent", attempt { try codable.decode(OptionalKeyed<Int>.self, from: object).v }),
        ("Codable unkeyed", attempt { try codable.decode([Int].self, from: array).first }),
        ("JSONValue.int", view.int),
        ("JSON.int", JSON(view).int),
        ("JSON.int(at:)", attempt { try JSON(try JSONValue(parsing: object)).int(at: "v") }),
        ("JSON(foundationValue:).int", attempt { try JSON(foundationValue: foundation).int }),
    ]
    // An integer read of a value that was copied to a `JSON` and back must not find an integer either.
    reads.append(("JSON round trip through its text", attempt { try JSONValue(parsing: try JSONWriter.string(for: JSON(view))).int }))
    return reads
}

/// Every way the library reads a `UInt`, as ``intReads(_:)``.
private func uintReads(_ text: String) -> [(String, UInt?)] {
    let data = Data(text.utf8)
    let object = Data(#"{"v": \#(text)}"#.utf8)
    let view = try! JSONValue(parsing: data)
    let foundation = try! JSONValueBuilder.value(from: data)
    return [
        ("schema .uint", attempt { try Parser.parseEntity(data: object) { $0.addProperty(keyPath: "v", type: .uint) }["v"] as? UInt }),
        ("schema .uint on a Foundation tree", attempt {
            try Parser.parseEntity(json: try JSONValueBuilder.value(from: object)) { $0.addProperty(keyPath: "v", type: .uint) }["v"]
                as? UInt
        }),
        ("UInt(json:) of a view", attempt { try UInt(json: view) }),
        ("UInt(json:) of a Foundation value", attempt { try UInt(json: foundation) }),
        ("Codable single value", attempt { try ElevateJSONDecoder().decode(UInt.self, from: data) }),
        ("JSONValue.uint", view.uint),
    ]
}

/// Every `Double` read of the library, as ``intReads(_:)``.
private func doubleReads(_ text: String) -> [(String, Double?)] {
    let data = Data(text.utf8)
    let object = Data(#"{"v": \#(text)}"#.utf8)
    let view = try! JSONValue(parsing: data)
    return [
        ("schema .double", attempt { try Parser.parseEntity(data: object) { $0.addProperty(keyPath: "v", type: .double) }["v"] as? Double }),
        ("Double(json:) of a view", attempt { try Double(json: view) }),
        ("Double(json:) of a Foundation value", attempt { try Double(json: try JSONValueBuilder.value(from: data)) }),
        ("Codable single value", attempt { try ElevateJSONDecoder().decode(Double.self, from: data) }),
        ("Codable keyed", attempt { try ElevateJSONDecoder().decode(Keyed<Double>.self, from: object).v }),
    ]
}

/// Decodes `text` as every fixed-width integer type with ``ElevateJSONDecoder`` (single value, keyed
/// and unkeyed) and returns the mismatches with the oracle.
private func codableIntegerMismatches(_ text: String) -> [String] {
    var mismatches: [String] = []
    func check<T: FixedWidthInteger & Swift.Decodable>(_ type: T.Type) {
        let expected = expectedInteger(text, as: T.self)
        let decoder = ElevateJSONDecoder()
        let reads: [(String, T?)] = [
            ("single", attempt { try decoder.decode(T.self, from: Data(text.utf8)) }),
            ("keyed", attempt { try decoder.decode(Keyed<T>.self, from: Data(#"{"v":\#(text)}"#.utf8)).v }),
            ("unkeyed", attempt { try decoder.decode([T].self, from: Data("[\(text)]".utf8)).first }),
        ]
        for (name, value) in reads where value != expected {
            mismatches.append("\(T.self) \(name) of \(text): \(value.map { "\($0)" } ?? "error"), expected \(expected.map { "\($0)" } ?? "error")")
        }
    }
    check(Int.self)
    check(Int8.self)
    check(Int16.self)
    check(Int32.self)
    check(Int64.self)
    check(UInt.self)
    check(UInt8.self)
    check(UInt16.self)
    check(UInt32.self)
    check(UInt64.self)
    return mismatches
}

// MARK: - Tests

@Suite struct NumberExactnessTests {
    /// Texts that are not integers although the nearest `Double` of most of them is one.
    static let notIntegers = [
        "1.00000000000000011", "0.99999999999999999", "-0.99999999999999999", "-1.00000000000000011",
        "100000000000000000001e-1", "2.00000000000000000000001e0", "4503599627370496.5", "-4503599627370497.5",
        "9007199254740991.4", "12345.000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124", "0.999999999999999999999999999999e1",
        "1e-400", "-1e-400", "-0.0000000000000000001", "0.0000000000000000001e18", "1.5", "-1.5", "1e-1",
        "12345678901234567890123456789e-24",
        "123456789012345678901e-20", "12345678901234567890123456789012345678901234567890e-49",
    ]

    /// Texts that are integers, written with a fraction or exponent, and the integer.
    static let integers: [(String, Int)] = [
        ("3.0", 3), ("1e2", 100), ("1E+2", 100), ("1.5e1", 15), ("150e-1", 15), ("1.000000000000000000000000", 1),
        ("100000000000000000000e-20", 1), ("123000000000000000000000000e-24", 123), ("-2.50e1", -25),
        ("9007199254740991.0000000000000000000", 9_007_199_254_740_991), ("4503599627370496.5e1", 45_035_996_273_704_965),
        ("0.0", 0), ("0e-999", 0), ("-0.0e5", 0), ("12345000000000000000000000000e-24", 12345),
        ("0.0000000000000000001e19", 1),
    ]

    @Test(arguments: notIntegers)
    func noIntegerReadAcceptsANonInteger(_ text: String) {
        for (path, value) in intReads(text) {
            #expect(value == nil, "\(path) read \(text) as the Int \(value!)")
        }
        for (path, value) in uintReads(text) {
            #expect(value == nil, "\(path) read \(text) as the UInt \(value!)")
        }
        #expect(codableIntegerMismatches(text) == [])
    }

    @Test(arguments: integers)
    func everyIntegerReadAcceptsAnIntegerWithAFractionOrExponent(_ text: String, _ expected: Int) {
        // 4503599627370496.5e1 is 2⁵² × 10 + 5: beyond 2⁵³, so refused (README) — but by the range
        // rule, not because its text is not an integer.
        let refusedBeyondTwoToThe53 = expected.magnitude >= 1 << 53
        for (path, value) in intReads(text) {
            #expect(value == (refusedBeyondTwoToThe53 ? nil : expected), "\(path) of \(text)")
        }
        #expect(codableIntegerMismatches(text) == [])
    }

    /// `-0` and `-0.0` are the integer 0 for every integer read, signed or not: the number is zero,
    /// and a zero is an integer whatever its sign (pinned as it was before the exactness fix).
    @Test(arguments: ["-0", "-0.0", "-0e3", "-0.000e-10"])
    func negativeZeroIsTheIntegerZero(_ text: String) {
        for (path, value) in intReads(text) { #expect(value == 0, "\(path) of \(text)") }
        for (path, value) in uintReads(text) { #expect(value == 0, "\(path) of \(text)") }
        #expect(codableIntegerMismatches(text) == [])
    }

    /// Double reads keep the nearest `Double`: that is what a `Double` is.
    @Test(arguments: notIntegers + integers.map(\.0))
    func doubleReadsKeepTheNearestDouble(_ text: String) {
        let expected = expectedDouble(text)
        for (path, value) in doubleReads(text) {
            #expect(value?.bitPattern == expected?.bitPattern, "\(path) of \(text): \(String(describing: value))")
        }
        let view = try! JSONValue(parsing: text)
        #expect(view.double?.bitPattern == expected?.bitPattern, "JSONValue.double of \(text)")
        #expect(JSON(view).double?.bitPattern == expected?.bitPattern, "JSON.double of \(text)")
        if let expected {
            #expect(attempt { try ElevateJSONDecoder().decode(Float.self, from: Data(text.utf8)) } == Float(expected))
            #expect(attempt { try Float(json: view) } == Float(expected))
        }
    }

    /// A non-integer whose `Double` is an integer prints, compares and converts as what it is.
    @Test func aNonIntegerNeverPrintsComparesOrConvertsAsAnInteger() throws {
        let text = "1.00000000000000011"
        let view = try JSONValue(parsing: text)
        let one = try JSONValue(parsing: "1")
        let oneDotZero = try JSONValue(parsing: "1.0")
        #expect(view.description == text)
        #expect(view != one)
        #expect(view != oneDotZero)
        #expect(view == (try JSONValue(parsing: text)))
        let json = JSON(view)
        #expect(json != JSON(1))
        #expect(json != JSON(1.0))
        #expect(json == JSON(view))
        #expect(json.hashValue == JSON(view).hashValue)
        #expect(try JSONWriter.string(for: json) == text)
        #expect(try JSONWriter.string(for: view.foundationValue) == text)
        #expect(throws: ParserError.self) { try Int(json: view.foundationValue) }
        #expect(try Double(json: view.foundationValue) == 1.0)
        // In an array, as a Decoder is handed it.
        let array = try JSONValue(parsing: "[\(text)]").foundationValue as! [Any]
        #expect(throws: ParserError.self) { try Int(json: array[0]) }
        // A Decimal that spells it converts to the same number, not to 1.
        #expect(try JSON(foundationValue: Decimal(string: text)!).int == nil)
    }

    /// A `Decimal` read uses the number's text when the tape keeps it, and never hands out a value
    /// other than the one the text spells: no `NaN`, no truncated digits.
    @Test func decimalReadsAreExactOrFail() throws {
        let decoder = ElevateJSONDecoder()
        func decimal(_ text: String) -> Decimal? { try? decoder.decode(Decimal.self, from: Data(text.utf8)) }
        #expect(decimal("1.00000000000000011") == Decimal(string: "1.00000000000000011"))
        #expect(decimal("0.99999999999999999") == Decimal(string: "0.99999999999999999"))
        #expect(decimal("12345678901234567890123456789") == Decimal(string: "12345678901234567890123456789"))
        #expect(decimal("340282366920938463463374607431768211455") == Decimal(string: "340282366920938463463374607431768211455"))
        #expect(decimal("0.1") == Decimal(string: "0.1"))
        #expect(decimal("-0") == 0)
        #expect(decimal("3.0") == 3)
        // More digits than a Decimal's 128-bit mantissa holds: Decimal(string:) drops the last ones.
        #expect(decimal("12345678901234567890123456789012345678901234567890") == nil)
        #expect(decimal("999999999999999999999999999999999999999") == nil)
        // Beyond a Decimal's exponent range: Decimal(Double) was NaN (1e300) or another number (1e130).
        for text in ["1e300", "-1e300", "1e-300", "1e130", "1e-140", "5e-324", "1e400", "1e-400"] {
            #expect(decimal(text) == nil, "\(text) as Decimal: \(String(describing: decimal(text)))")
        }
    }

    /// A `JSON` holding a number a `Decimal` cannot hold exactly does not encode as a rounded one.
    @Test func jsonEncodesLargeNumbersOnlyExactly() throws {
        let exact = JSON.number(.large("1.00000000000000011"))
        let data = try JSONEncoder().encode([exact])
        #expect(String(decoding: data, as: UTF8.self) == "[1.00000000000000011]")
        #expect(throws: EncodingError.self) {
            try JSONEncoder().encode([JSON.number(.large("12345678901234567890123456789012345678901234567890"))])
        }
    }

    /// The audit of the other number reads: each refuses a number it would change.
    @Test func otherReadsRefuseWhatTheyWouldChange() throws {
        let decoder = ElevateJSONDecoder()
        func accepts(_ literal: String, _ type: SchemaPropertyProtocol) -> Bool {
            (try? Parser.parseEntity(data: Data(#"{"v": \#(literal)}"#.utf8)) { $0.addProperty(keyPath: "v", type: type) }) != nil
        }
        let hugeInteger = "1" + String(repeating: "0", count: 400)
        let twoTo128 = "340282366920938463463374607431768211456"
        // Float overflow and underflow.
        for text in ["1e39", "-1e39", "1e-50", twoTo128, hugeInteger, "1e400"] {
            #expect(!accepts(text, .float), "\(text) as .float")
            #expect((try? Float(json: try JSONValue(parsing: text))) == nil, "Float(json:) of \(text)")
            #expect((try? decoder.decode(Float.self, from: Data(text.utf8))) == nil, "Codable Float of \(text)")
        }
        // Double overflow, underflow, and integers no Double reaches.
        for text in [hugeInteger, "1e400", "-1e400", "1e-400", "-" + hugeInteger] {
            #expect(!accepts(text, .double), "\(text) as .double")
            for (path, value) in doubleReads(text) { #expect(value == nil, "\(path) of \(text)") }
            #expect((try JSONValue(parsing: text)).double == nil)
        }
        // Integers outside the type.
        for text in ["-1", "18446744073709551616", "-9223372036854775809", hugeInteger, "1e20", "-1e0"] {
            for (path, value) in uintReads(text) { #expect(value == nil, "\(path) of \(text)") }
            #expect(codableIntegerMismatches(text) == [])
        }
        for text in ["9223372036854775808", "18446744073709551616", "-9223372036854775809", hugeInteger, "1e19"] {
            for (path, value) in intReads(text) { #expect(value == nil, "\(path) of \(text)") }
        }
        for text in ["200", "128", "-129", "256", "65536", "-1", "4294967296", "2147483648", "1e3", "2.56e2"] {
            #expect(codableIntegerMismatches(text) == [])
        }
        #expect(try decoder.decode(Int8.self, from: Data("-128".utf8)) == -128)
        #expect((try? decoder.decode(Int8.self, from: Data("200".utf8))) == nil)
        #expect((try? decoder.decode(UInt.self, from: Data("-1".utf8))) == nil)
    }

    /// Random number texts — integers, fractions, exponents, long mantissas, values near 2⁵³, 2⁶³
    /// and 2⁶⁴, tiny and huge exponents — against the exact oracle, through every integer read.
    @Test func integerReadsMatchTheExactOracle() {
        var generator = SplitMix64(seed: randomTestSeed &+ 0x6e75_6d62)
        var failures: [String] = []
        var checked = 0
        for _ in 0..<800 {
            let text = Self.randomNumberText(&generator)
            guard (try? JSONValue(parsing: text)) != nil else {
                Issue.record("the generator wrote \(text), which is not a JSON number")
                continue
            }
            checked += 1
            let expectedInt = expectedInteger(text, as: Int.self)
            for (path, value) in intReads(text) where value != expectedInt {
                failures.append("\(path) of \(text): \(value.map(String.init) ?? "error"), expected \(expectedInt.map(String.init) ?? "error")")
            }
            let expectedUInt = expectedInteger(text, as: UInt.self)
            for (path, value) in uintReads(text) where value != expectedUInt {
                failures.append("\(path) of \(text): \(value.map(String.init) ?? "error"), expected \(expectedUInt.map(String.init) ?? "error")")
            }
            failures += codableIntegerMismatches(text)
            let expectedDouble = expectedDouble(text)
            for (path, value) in doubleReads(text) where value?.bitPattern != expectedDouble?.bitPattern {
                failures.append("\(path) of \(text): \(String(describing: value)), expected \(String(describing: expectedDouble))")
            }
            if failures.count > 20 { break }
        }
        #expect(checked > 100)
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n")), ELEVATE_TEST_SEED=\(randomTestSeed)")
    }

    /// One random JSON number text, in a mix that favours the edges of exactness.
    static func randomNumberText(_ generator: inout SplitMix64) -> String {
        func below(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(below(10))) })
        }
        func integerDigits(_ count: Int) -> String {
            count <= 1 ? String(below(10)) : String(1 + below(9)) + digits(count - 1)
        }
        let sign = below(3) == 0 ? "-" : ""
        let anchors: [Int128] = [
            1, 10, 1 << 52, 1 << 53, 1 << 63, Int128(1) << 64, 1_000_000_000_000_000, 99_999_999_999_999_999,
            Int128(Int.max), Int128(UInt.max), 4_503_599_627_370_496,
        ]
        switch below(9) {
        case 0:
            return sign + integerDigits(1 + below(25))
        case 1:
            // An anchor and its neighbours, written in one of several notations.
            let value = max(0, anchors[below(anchors.count)] + Int128(below(5)) - 2)
            return sign + Self.notation(String(value), &generator)
        case 2:
            return sign + integerDigits(1 + below(20)) + "." + String(repeating: "0", count: 1 + below(30))
        case 3:
            // Just above an integer, or just below one: the nearest Double is often the integer.
            let base = integerDigits(1 + below(17))
            let zeros = 10 + below(20)
            if below(2) == 0 { return sign + base + "." + String(repeating: "0", count: zeros) + String(1 + below(9)) }
            return sign + base + "." + String(repeating: "9", count: zeros)
        case 4:
            return sign + integerDigits(1 + below(20)) + "." + digits(1 + below(25)) + "e" + (below(2) == 0 ? "-" : "+")
                + String(below(40))
        case 5:
            // Tiny and huge exponents.
            return sign + integerDigits(1 + below(5)) + (below(2) == 0 ? "" : "." + digits(1 + below(5))) + "e"
                + (below(2) == 0 ? "-" : "") + String(280 + below(200))
        case 6:
            // Trailing zeros traded for a negative exponent: 150e-1, 1000e-3, 1001e-3.
            let zeros = below(25)
            return sign + String(1 + below(9)) + digits(below(20)) + String(repeating: "0", count: zeros) + "e-" + String(max(0, zeros + below(3) - 1))
        case 7:
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { return "0" }
            return value.description.replacingOccurrences(of: "e+", with: "e")
        default:
            // A small integer with a long exact fraction of zeros, then perhaps a digit.
            return sign + String(below(1000)) + "." + String(repeating: "0", count: 1 + below(40)) + (below(2) == 0 ? "" : String(below(10)))
        }
    }

    /// `digits` (an integer, maybe negative) written as an integer, with `.0`, with an exponent, or
    /// in scientific notation.
    static func notation(_ digits: String, _ generator: inout SplitMix64) -> String {
        let negative = digits.hasPrefix("-")
        let body = negative ? String(digits.dropFirst()) : digits
        let sign = negative ? "-" : ""
        switch generator.next() % 6 {
        case 0: return digits
        case 1: return digits + ".0"
        case 2: return digits + "e0"
        case 3: return sign + body.prefix(1) + (body.count > 1 ? "." + body.dropFirst() : "") + "e\(body.count - 1)"
        case 4: return digits + "." + String(repeating: "0", count: 20) + "1"
        default: return body == "0" ? digits + "e-2" : digits + "00e-2"
        }
    }
}

// MARK: - Encoding numbers beyond Double and Decimal (issue #26 item 8)

/// `ElevateJSONEncoder` writes a ``JSON`` number kept as text exactly as ``JSONWriter`` does, so a
/// service can write back an opaque payload it accepted.
@Suite struct LargeNumberEncodingTests {
    static let fortyFiveDigits = "123456789012345678901234567890123456789012345"
    static let texts = [
        "1e400", "-1E400", "1e-400", fortyFiveDigits, "-" + fortyFiveDigits, "1.00000000000000011",
        "18446744073709551616", "1e999999999999", "-1e-999999999999999999999",
    ]

    struct Envelope: Codable, Equatable {
        var id: Int
        var payload: JSON
        var extras: [JSON]
        var byName: [String: JSON]
    }

    @Test(arguments: texts)
    func topLevelNestedAndInAModel(_ text: String) throws {
        let encoder = ElevateJSONEncoder()
        let decoder = ElevateJSONDecoder()
        let number = try decoder.decode(JSON.self, from: Data(text.utf8))
        #expect(number == .number(.large(text)))
        #expect(String(decoding: try encoder.encode(number), as: UTF8.self) == text)
        #expect(String(decoding: try encoder.encode(number), as: UTF8.self) == (try JSONWriter.string(for: number)))

        let documentText = #"{"a":[\#(text),{"b":\#(text)}]}"#
        let document = try decoder.decode(JSON.self, from: Data(documentText.utf8))
        let encoded = try encoder.encode(document)
        #expect(String(decoding: encoded, as: UTF8.self) == documentText)
        #expect(try decoder.decode(JSON.self, from: encoded) == document)
        // Sorted keys and pretty printing take the buffered pass: the same text there.
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let pretty = try encoder.encode(document)
        #expect(String(decoding: pretty, as: UTF8.self).contains(text))
        #expect(try decoder.decode(JSON.self, from: pretty) == document)
        encoder.outputFormatting = []

        let modelText = #"{"id":7,"payload":{"n":\#(text)},"extras":[\#(text),1],"byName":{"x":\#(text)}}"#
        let model = try decoder.decode(Envelope.self, from: Data(modelText.utf8))
        #expect(model.payload["n"] == .number(.large(text)))
        let modelData = try encoder.encode(model)
        #expect(try decoder.decode(Envelope.self, from: modelData) == model)
        #expect(String(decoding: modelData, as: UTF8.self).contains(":\(text)}"))
        // Through a JSONStreamWriter's Codable write, which encodes with the same containers.
        var lines: [UInt8] = []
        let writer = JSONStreamWriter(framing: .jsonLines) { lines.append(contentsOf: $0) }
        try writer.write(model, encoder: nil)
        try writer.finish()
        #expect(try decoder.decode(Envelope.self, from: Data(lines)) == model)
    }

    /// Text that is no JSON number is refused as `JSONWriter` refuses it, never written.
    @Test func invalidNumberTextIsRefused() {
        for text in ["abc", "", "1.", "01", "NaN"] {
            #expect(throws: EncodingError.self, "\(text)") { try ElevateJSONEncoder().encode(JSON.number(.large(text))) }
            #expect(throws: EncodingError.self, "\(text)") { try ElevateJSONEncoder().encode([JSON.number(.large(text))]) }
        }
    }
}

// MARK: - Equality of numbers by exact value (issue #26 item 9)

/// `JSON` and `JSONValue` equality compare numbers by exact value whatever their spelling, and
/// `JSON`'s hash follows, so a `Set` keeps one of them.
@Suite struct NumberEqualityTests {
    /// Pairs of texts that spell the same value.
    static let sameValue: [(String, String)] = [
        ("1e400", "1E400"), ("1e400", "10e399"), ("1e400", "0.1e401"), ("1e400", "1000E+397"),
        ("-1e400", "-1.0e400"), ("1e-400", "0.01e-398"), ("1e-400", "1000e-403"),
        ("100000000000000000000", "1e20"), ("18446744073709551616", "1.8446744073709551616e19"),
        ("1e999999999999", "10e999999999998"), ("1e999999999999", "0.001e1000000000002"),
        ("1e99999999999999999999999999", "10e99999999999999999999999998"),
        ("1e-99999999999999999999999999", "0.1e-99999999999999999999999998"),
        ("1e9223372036854775807", "10e9223372036854775806"), ("1.00000000000000011", "100000000000000011e-17"),
        ("1e20", "100000000000000000000.000"),
    ]

    /// Pairs of texts that spell different values, however close.
    static let differentValue: [(String, String)] = [
        ("1e400", "1e401"), ("1e400", "-1e400"), ("1e400", "2e400"), ("1e999999999999", "1e999999999998"),
        ("1e99999999999999999999999999", "1e99999999999999999999999998"),
        ("1e99999999999999999999999999", "1e-99999999999999999999999999"),
        ("18446744073709551616", "18446744073709551617"), ("100000000000000000000", "100000000000000000001"),
        ("1.00000000000000011", "1"), ("1e400", "1e-400"),
        // Text within Double's range with a fraction or exponent is that Double, rounded: the
        // exact integer differs from it.
        ("123456789012345678901234567890123456789012345", "1.23456789012345678901234567890123456789012345e44"),
        ("-9223372036854775809", "-9.223372036854775809e18"), ("1e9223372036854775807", "1e9223372036854775808"),
    ]

    @Test(arguments: sameValue)
    func spellingsOfOneValueAreEqualAndHashAlike(_ a: String, _ b: String) throws {
        let x = try JSONValue(parsing: "[\(a)]")
        let y = try JSONValue(parsing: "[\(b)]")
        #expect(x == y, "\(a) vs \(b)")
        #expect(JSON(x) == JSON(y), "\(a) vs \(b)")
        #expect(JSON(x).hashValue == JSON(y).hashValue, "\(a) vs \(b)")
        #expect(Set([JSON(x), JSON(y)]).count == 1, "\(a) vs \(b)")
        #expect(Set([JSON(x)]).contains(JSON(y)))
    }

    @Test(arguments: differentValue)
    func differentValuesStayDifferent(_ a: String, _ b: String) throws {
        let x = try JSONValue(parsing: "[\(a)]")
        let y = try JSONValue(parsing: "[\(b)]")
        #expect(x != y, "\(a) vs \(b)")
        #expect(JSON(x) != JSON(y), "\(a) vs \(b)")
        #expect(Set([JSON(x), JSON(y)]).count == 2, "\(a) vs \(b)")
    }

    /// One rule for every case that holds a number: a number kept as text equals the `Int`, `UInt`
    /// or `Double` of the same exact value, and hashes as it does.
    @Test func textEqualsTheSameValueHeldAsIntUIntOrDouble() {
        let pairs: [(JSONNumber, JSONNumber)] = [
            (.large("100000000000000000000"), .double(1e20)), (.large("18446744073709551616"), .double(0x1p64)),
            (.large("1.0"), .int(1)), (.large("1.0"), .double(1)), (.large("-0"), .int(0)), (.large("0e5"), .double(-0.0)),
            (.large("0.5"), .double(0.5)), (.large("12345678901234567890"), .uint(12_345_678_901_234_567_890)),
            (.large("-9223372036854775808"), .int(.min)), (.large("9.007199254740993e15"), .int(9_007_199_254_740_993)),
            (.large("1.1102230246251565404236316680908203125e-16"), .double(0x1p-53)),
            (.large("8.9884656743115795386465259539451236680898848947115328636715040578866337902750481566354238661203768010560056939935696678829394884407208311246423715319737062188883946712432742638151109800623047059726541476042502884419075341171231440736956555270413618581675255342293149119973622969239858152417678164812112068608e307"), .double(0x1p1023)),
            (.large("0.1000000000000000055511151231257827021181583404541015625"), .double(0.1)),
        ]
        for (a, b) in pairs {
            #expect(JSON.number(a) == JSON.number(b), "\(a) vs \(b)")
            #expect(JSON.number(b) == JSON.number(a), "\(b) vs \(a)")
            #expect(JSON.number(a).hashValue == JSON.number(b).hashValue, "\(a) vs \(b)")
            #expect(Set([JSON.number(a), JSON.number(b)]).count == 1, "\(a) vs \(b)")
        }
        let notEqual: [(JSONNumber, JSONNumber)] = [
            // A Double is its binary value: 0.1 the text is not the Double nearest it.
            (.large("0.1"), .double(0.1)), (.large("5e-324"), .double(Double("5e-324")!)),
            (.large("1.7976931348623157e308"), .double(.greatestFiniteMagnitude)), (.large("9007199254740993"), .double(9_007_199_254_740_992)),
            (.large("1.00000000000000011"), .int(1)), (.large("1.00000000000000011"), .double(1)),
            (.large("1e400"), .double(.greatestFiniteMagnitude)), (.large("1e-400"), .double(0)),
            (.large("18446744073709551615"), .double(0x1p64)), (.large("abc"), .int(0)), (.large("abc"), .large("abd")),
        ]
        for (a, b) in notEqual {
            #expect(JSON.number(a) != JSON.number(b), "\(a) vs \(b)")
            #expect(JSON.number(b) != JSON.number(a), "\(b) vs \(a)")
        }
        #expect(JSON.number(.large("abc")) == JSON.number(.large("abc")))
    }

    /// Equal numbers in different containers: arrays, objects, sets of documents.
    @Test func setsOfDocumentsKeepOneOfEachValue() throws {
        let texts = [#"{"n":[1e400,100000000000000000000]}"#, #"{"n":[1E400,1e20]}"#, #"{"n":[10e399,1.0e20]}"#]
        let values = try texts.map { JSON(try JSONValue(parsing: $0)) }
        #expect(Set(values).count == 1)
        let views = try texts.map { try JSONValue(parsing: $0) }
        #expect(views[0] == views[1] && views[1] == views[2])
    }
}

/// `Decimal` and `Float` reads of numbers with more digits than a `Double` holds, or that a
/// `Double` rounds onto a tie between two `Float`s: the tape keeps their text, and every read is
/// the number the text spells, rounded once, or an error.
@Suite struct ExactDecimalAndFloatReadsTests {
    static let longDecimals = [
        "12345678901234567890.5", "3.141592653589793238", "-3.141592653589793238462643383279502884",
        "0.1000000000000000055511151231257827", "1.0000000000000002", "9007199254740993.5",
        "123.45678901234567", "-0.000000000000000000123456789012345678",
        "1.50000000000000000000000000000", "1.2345678901234567e-5", "-9.87654321098765432E+20",
        "100000000000000000000.000000000000000001", "0.30000000000000000000000000000000000001",
    ]

    @Test(arguments: longDecimals)
    func decimalKeepsEveryDigit(_ text: String) throws {
        let expected = try #require(Decimal(string: text))
        let decoder = ElevateJSONDecoder()
        #expect(try decoder.decode(Decimal.self, from: Data(text.utf8)) == expected)
        // Inside containers, from a stream read in small chunks, and through the array calls.
        struct Holder: Swift.Decodable { var amount: Decimal }
        let document = #"{"items": [{"amount": \#(text)}, {"amount": \#(text)}]}"#
        let items = try decoder.decode([Holder].self, from: Data(document.utf8), atKeyPath: "items")
        #expect(items.map(\.amount) == [expected, expected])
        var streamed: [Decimal] = []
        var options = StreamingOptions()
        options.chunkSize = 4096
        try forEachElement(from: .data(Data(document.utf8)), atKeyPath: "items", as: Holder.self, options: options) {
            streamed.append($0.amount)
        }
        #expect(streamed == [expected, expected])
        // What this library writes, it reads back.
        let written = try ElevateJSONEncoder().encode([expected])
        #expect(try decoder.decode([Decimal].self, from: written) == [expected])
    }

    /// `1.00000005960464477539063` is a hair above the tie between 1 and the next `Float`; its
    /// `Double` is the tie itself, which rounds to even (1.0): read from the text, it is
    /// 1.0000001, as `strtof` and Foundation give it.
    @Test func floatRoundsOnceFromTheText() throws {
        let text = "1.00000005960464477539063"
        #expect(Float(text) == Float(1).nextUp)
        #expect(try floatReads(text) == .init(repeating: Float(1).nextUp, count: 4))
    }

    /// Texts at, just above and just below ties between two `Float`s (random `Float`s across the
    /// whole normal range), read four ways: each must be what `Float(String)` (strtof, rounded
    /// once) gives.
    @Test func floatReadsMatchStrtofNearTies() throws {
        var random = SystemRandomNumberGenerator()
        var texts: [String] = []
        for _ in 0..<300 {
            let float = Float(
                sign: Bool.random(using: &random) ? .minus : .plus,
                exponent: Int.random(in: -125...126, using: &random),
                significand: Float.random(in: 1..<2, using: &random))
            let tie = Double(float) + Double(float.ulp) / 2
            let shortest = "\(tie)"
            texts.append(shortest)
            texts.append(String(format: "%.30e", tie))
            if shortest.contains(".") && !shortest.contains("e") { texts.append(shortest + "000000001") }
        }
        for text in texts {
            guard let expected = Float(text), expected.isFinite, expected != 0 else { continue }
            let reads = try floatReads(text)
            #expect(reads == .init(repeating: expected, count: 4), "\(text)")
        }
    }

    /// Random number texts of 1 to 38 significant digits, with and without fractions and
    /// exponents: `Decimal` reads equal `Decimal(string:)` (exact at this size), `Float` reads
    /// equal `Float(String)`, and `Double` reads equal `Double(String)`, in one document.
    @Test func randomNumbersReadExactly() throws {
        var random = SystemRandomNumberGenerator()
        var texts: [String] = []
        for _ in 0..<2000 {
            let digitCount = Int.random(in: 1...38, using: &random)
            var digits = String(Int.random(in: 1...9, using: &random))
            for _ in 1..<digitCount { digits.append(String(Int.random(in: 0...9, using: &random))) }
            let point = Int.random(in: 1...digitCount, using: &random)
            var text = (Bool.random(using: &random) ? "-" : "")
            text += point == digitCount ? digits : digits.prefix(point) + "." + digits.dropFirst(point)
            // Within Float's normal range: 10^-36 up to 10^37.
            if Bool.random(using: &random) {
                text += "e\(Int.random(in: max(-30, -36 - point)...min(30, 37 - point), using: &random))"
            }
            texts.append(text)
        }
        let document = Data(("[" + texts.joined(separator: ",") + "]").utf8)
        let decoder = ElevateJSONDecoder()
        let decimals = try decoder.decode([Decimal].self, from: document)
        let floats = try decoder.decode([Float].self, from: document)
        let doubles = try decoder.decode([Double].self, from: document)
        for (index, text) in texts.enumerated() {
            #expect(decimals[index] == Decimal(string: text), "\(text)")
            #expect(floats[index] == Float(text), "\(text)")
            #expect(doubles[index] == Double(text), "\(text)")
        }
    }

    /// A number's `Float` through Codable, an Elevate `.float` property, `Float(json:)` of a view,
    /// and Codable from a stream.
    private func floatReads(_ text: String) throws -> [Float] {
        let codable = try ElevateJSONDecoder().decode(Float.self, from: Data(text.utf8))
        let entity = try Parser.parseEntity(data: Data(#"{"v": \#(text)}"#.utf8)) { $0.addProperty(keyPath: "v", type: .float) }
        let property = try #require(entity["v"] as? Float)
        let view = try Float(json: try JSONValue(parsing: "[\(text)]").elements!.first!)
        var streamed: Float = .nan
        try forEachElement(from: .data(Data("[\(text)]".utf8)), as: Float.self) { (value: Float) in streamed = value }
        return [codable, property, view, streamed]
    }
}
