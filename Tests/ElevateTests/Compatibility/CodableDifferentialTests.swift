@testable import Elevate
@testable import ElevateJSON
import Foundation
import Testing

// Differential tests: ElevateJSONDecoder against Foundation's JSONDecoder, and ElevateJSONEncoder
// against JSONEncoder, on the same bytes and the same types. Both must give equal values (floating
// point compared bit for bit, so -0.0 and NaN count), or both must fail with the same
// `DecodingError` case and coding path. Where the library differs on purpose (README, "Codable on
// the tape" and CodableOnTheTape.md), the test says so and asserts the library's documented answer.
// ElevateJSONDecoderTests and ElevateJSONEncoderTests cover the corpus of models; this file goes after the
// edges: number bounds, key conversion, strategies, container bookkeeping, and random documents.

// MARK: Outcomes

/// What one decode gave: the value, or the error's case and coding path (keys as strings).
enum DiffOutcome<T: Equatable>: Equatable, CustomStringConvertible {
    case value(T)
    case failure(String, [String])
    case other(String)

    init(_ body: () throws -> T) {
        do {
            self = .value(try body())
        } catch {
            let (kind, path) = diffKind(of: error)
            self = path.map { .failure(kind, $0) } ?? .other(kind)
        }
    }

    var isFailure: Bool { if case .value = self { false } else { true } }

    var description: String {
        switch self {
        case .value(let value): "value \(value)"
        case .failure(let kind, let path): "\(kind) at \(path)"
        case .other(let text): "error \(text)"
        }
    }
}

/// A `DecodingError`'s case and coding path (a missing key appended), or any other error's text.
func diffKind(of error: any Error) -> (String, [String]?) {
    switch error {
    case DecodingError.typeMismatch(_, let c): ("typeMismatch", c.codingPath.map(\.stringValue))
    case DecodingError.valueNotFound(_, let c): ("valueNotFound", c.codingPath.map(\.stringValue))
    case DecodingError.keyNotFound(let k, let c): ("keyNotFound", c.codingPath.map(\.stringValue) + [k.stringValue])
    case DecodingError.dataCorrupted(let c): ("dataCorrupted", c.codingPath.map(\.stringValue))
    case EncodingError.invalidValue(_, let c): ("invalidValue", c.codingPath.map(\.stringValue))
    default: ("\(error)", nil)
    }
}

/// A short text for an error, for the traces of ``ContainerProbe``.
func diffDescribe(_ error: any Error) -> String {
    let (kind, path) = diffKind(of: error)
    return path.map { "\(kind)@\($0.joined(separator: "/"))" } ?? kind
}

/// A decoder pair configured alike.
typealias DiffConfigure = (JSONDecoder, ElevateJSONDecoder) -> Void

/// Both decoders' outcomes for `json` as `T`.
func decodeWithBoth<T: Swift.Decodable & Equatable>(
    _ type: T.Type, _ json: String, configure: DiffConfigure = { _, _ in }
) -> (foundation: DiffOutcome<T>, elevate: DiffOutcome<T>) {
    decodeWithBoth(type, Data(json.utf8), configure: configure)
}

func decodeWithBoth<T: Swift.Decodable & Equatable>(
    _ type: T.Type, _ data: Data, configure: DiffConfigure = { _, _ in }
) -> (foundation: DiffOutcome<T>, elevate: DiffOutcome<T>) {
    let foundation = JSONDecoder()
    let elevate = ElevateJSONDecoder()
    configure(foundation, elevate)
    return (DiffOutcome { try foundation.decode(T.self, from: data) }, DiffOutcome { try elevate.decode(T.self, from: data) })
}

/// Whether two outcomes agree. Foundation reports a number that does not fit as invalid JSON at
/// the root; the library reports `dataCorrupted` at the value's path (documented), so a root
/// `dataCorrupted` matches any `dataCorrupted`.
func diffAgree<T>(_ foundation: DiffOutcome<T>, _ elevate: DiffOutcome<T>) -> Bool {
    if case .failure("dataCorrupted", []) = foundation, case .failure("dataCorrupted", _) = elevate { return true }
    return foundation == elevate
}

/// Expects the same outcome from both decoders.
func expectBothDecode<T: Swift.Decodable & Equatable>(
    _ type: T.Type, _ json: String, configure: DiffConfigure = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let (foundation, elevate) = decodeWithBoth(type, json, configure: configure)
    #expect(diffAgree(foundation, elevate), "\(json): Foundation \(foundation), Elevate \(elevate)",
            sourceLocation: sourceLocation)
}

/// A floating-point value compared by its bits, so that `-0.0` differs from `0.0` and NaN equals NaN.
struct Bits<F: BinaryFloatingPoint & Swift.Decodable & Swift.Encodable>: Swift.Decodable, Equatable, CustomStringConvertible {
    let value: F
    init(_ value: F) { self.value = value }
    init(from decoder: any Swift.Decoder) throws { value = try decoder.singleValueContainer().decode(F.self) }
    static func == (a: Self, b: Self) -> Bool { Double(a.value).bitPattern == Double(b.value).bitPattern || (a.value.isNaN && b.value.isNaN) }
    var description: String { "\(value) (\(Double(value).bitPattern))" }
}

/// A coding key for any string or index.
struct DiffKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

/// Every key of an object (as the keyed container lists them) with the `Int` read for it.
struct KeyDump: Swift.Decodable, Equatable {
    var members: [String: Int]
    init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: DiffKey.self)
        var members: [String: Int] = [:]
        for key in container.allKeys { members[key.stringValue] = try container.decode(Int.self, forKey: key) }
        self.members = members
    }
}

// MARK: Any JSON

/// Any JSON value, decoded the way a `Decodable` "any" type usually is: by trying each kind in turn.
indirect enum AnyJSONValue: Codable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    /// By bits, so that `-0.0` and `0.0` differ.
    case double(UInt64)
    case string(String)
    case array([AnyJSONValue])
    case object([String: AnyJSONValue])

    init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int64.self) { self = .int(value); return }
        if let value = try? container.decode(Double.self) { self = .double(value.bitPattern); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([AnyJSONValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: AnyJSONValue].self))
    }

    func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let bits): try container.encode(Double(bitPattern: bits))
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Whether an integer of 2^53 or more in magnitude is in the value.
    var hasIntegerBeyondTwoToThe53: Bool {
        switch self {
        case .int(let value): value.magnitude >= 1 << 53
        case .array(let values): values.contains { $0.hasIntegerBeyondTwoToThe53 }
        case .object(let members): members.values.contains { $0.hasIntegerBeyondTwoToThe53 }
        default: false
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let bits): "\(Double(bitPattern: bits))d"
        case .string(let value): "\(value.debugDescription)"
        case .array(let value): "\(value)"
        case .object(let value): "\(value)"
        }
    }
}

/// Random JSON text, with every escape, surrogate pairs, raw UTF-8, combining marks and numbers of
/// every shape. Keys of one object are distinct as Swift compares strings (repeated keys are a
/// documented difference, tested on their own).
struct RandomJSON {
    var rng: SeededGenerator

    /// Pieces of string text: each is valid JSON string content.
    static let stringPieces: [String] = [
        "a", "Z", "0", " ", "key", "_", "-", "\\\"", "\\\\", "\\/", "/", "\\b", "\\f", "\\n", "\\r", "\\t",
        "\\u0000", "\\u001f", "\\u0001", "\\u007f", "\\u00e9", "e\\u0301", "\u{e9}", "e\u{301}", "\\ud83d\\ude00",
        "\u{1F600}", "\\u2028", "\u{2029}", "\\uFFFF", "\\uD834\\uDD1E", "\u{10FFFF}", "中文", "\u{FEFF}", "ǅ",
        "ß", "\u{7f}",
    ]

    mutating func string(maxPieces: Int = 6) -> String {
        let count = Int.random(in: 0...maxPieces, using: &rng)
        return (0..<count).map { _ in Self.stringPieces.randomElement(using: &rng)! }.joined()
    }

    /// The string a JSON string literal's content stands for.
    static func unescaped(_ content: String) -> String {
        (try? JSONSerialization.jsonObject(with: Data("\"\(content)\"".utf8), options: .fragmentsAllowed) as? String) ?? ""
    }

    mutating func number() -> String {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return String(Int64.random(in: .min ... .max, using: &rng))
        case 1: return String(Int.random(in: -1000...1000, using: &rng))
        case 2:
            // Any finite double, by its bits; integral ones of 2^53 or more are left out, as the
            // library reads them as integers only below 2^53 (documented) and AnyJSONValue tries Int64 first.
            while true {
                let value = Double(bitPattern: rng.next())
                if value.isFinite, !(value.rounded() == value && abs(value) >= 9_007_199_254_740_992) { return "\(value)" }
            }
        case 3: return String(format: "%.17g", Double.random(in: -1e6...1e6, using: &rng))
        case 4: return ["0", "-0", "0.0", "-0.0", "0e0", "-0E+0", "1e2", "1E-2", "2.5e-3", "1.0", "-1.5e1"].randomElement(using: &rng)!
        case 5:
            // Below 2^53, so that an integral value is read as an integer by both (see case 2).
            return "\(Int.random(in: 0...999, using: &rng)).\(Int.random(in: 0...99999, using: &rng))e\(Int.random(in: -30...12, using: &rng))"
        case 6: return ["5e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "4.9e-324", "1e-310", "9007199254740991", "-9007199254740991"].randomElement(using: &rng)!
        case 7: return String(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &rng))
        default: return "\(Double.random(in: -1...1, using: &rng))"
        }
    }

    mutating func value(depth: Int) -> String {
        let pick = Int.random(in: 0..<(depth > 4 ? 6 : 9), using: &rng)
        switch pick {
        case 0: return "null"
        case 1: return Bool.random(using: &rng) ? "true" : "false"
        case 2, 3: return number()
        case 4, 5: return "\"\(string())\""
        case 6: return "[" + (0..<Int.random(in: 0...4, using: &rng)).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            var seen = Set<String>()
            var members: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let key = string(maxPieces: 3)
                guard seen.insert(Self.unescaped(key)).inserted else { continue }
                members.append("\"\(key)\":\(value(depth: depth + 1))")
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// A structural mutation of `text`: a byte dropped, changed or inserted, or the text cut short.
    mutating func mutate(_ text: String) -> Data {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return Data() }
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        let junk: [UInt8] = Array("{}[],:\"\\ 0123456789.eE+-tfn/u".utf8) + [0, 0x80, 0xC3, 0xFF, 0x0C]
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: bytes.remove(at: at)
        case 1: bytes[at] = junk.randomElement(using: &rng)!
        case 2: bytes.insert(junk.randomElement(using: &rng)!, at: at)
        default: bytes.removeSubrange(at..<bytes.count)
        }
        return Data(bytes)
    }
}

// MARK: Models

/// One property of every fixed-width integer type, decoded alone.
struct One<T: Swift.Decodable & Equatable>: Swift.Decodable, Equatable { var v: T }

enum Suit: String, Codable, Equatable { case hearts, spades, empty = "" }
enum Rank: Int, Codable, Equatable { case low = -1, zero = 0, high = 1 }

/// Records what a scripted walk through every kind of container gives at each step, errors included.
struct ContainerProbe: Swift.Decodable, Equatable {
    var trace: [String]

    static let userInfoKey = CodingUserInfoKey(rawValue: "probe")!

    init(from decoder: any Swift.Decoder) throws {
        var trace: [String] = []
        func step(_ label: String, _ body: () throws -> Any) {
            do { trace.append("\(label)=\(try body())") } catch { trace.append("\(label)!\(diffDescribe(error))") }
        }
        func path(_ keys: [any CodingKey]) -> String { keys.map(\.stringValue).joined(separator: "/") }
        let k = DiffKey.init(_:)

        step("userInfo") { decoder.userInfo[Self.userInfoKey] as? String ?? "none" }
        step("decoder.path") { path(decoder.codingPath) }
        let c = try decoder.container(keyedBy: DiffKey.self)
        step("allKeys") { c.allKeys.map(\.stringValue).sorted() }
        for name in ["n", "i", "s", "missing"] {
            step("contains \(name)") { c.contains(k(name)) }
            step("decodeNil \(name)") { try c.decodeNil(forKey: k(name)) }
            step("ifPresent Int \(name)") { try c.decodeIfPresent(Int.self, forKey: k(name)) as Any }
            step("ifPresent String \(name)") { try c.decodeIfPresent(String.self, forKey: k(name)) as Any }
            step("ifPresent Int? \(name)") { try c.decodeIfPresent(Int?.self, forKey: k(name)) as Any }
            step("Int? \(name)") { try c.decode(Int?.self, forKey: k(name)) as Any }
            step("Int?? \(name)") { String(describing: try c.decode(Int??.self, forKey: k(name))) }
            step("Bool \(name)") { try c.decode(Bool.self, forKey: k(name)) }
            step("Suit \(name)") { try c.decode(Suit.self, forKey: k(name)) }
            step("nested keyed \(name)") { path(try c.nestedContainer(keyedBy: DiffKey.self, forKey: k(name)).codingPath) }
            step("nested unkeyed \(name)") { path(try c.nestedUnkeyedContainer(forKey: k(name)).codingPath) }
            step("superDecoder(forKey:) \(name)") {
                let sub = try c.superDecoder(forKey: k(name))
                let single = try sub.singleValueContainer()
                return "\(path(sub.codingPath)) nil:\(single.decodeNil()) \((try? single.decode(Int.self)).map(String.init) ?? "-")"
            }
        }
        step("superDecoder()") {
            let sub = try c.superDecoder()
            let inner = try sub.container(keyedBy: DiffKey.self)
            return "\(path(sub.codingPath)) \(try inner.decode(Int.self, forKey: k("z"))) \(path(inner.codingPath))"
        }
        step("super as Int") { try c.superDecoder().singleValueContainer().decode(Int.self) }
        step("deep") {
            let o = try c.nestedContainer(keyedBy: DiffKey.self, forKey: k("o"))
            let p = try o.nestedContainer(keyedBy: DiffKey.self, forKey: k("p"))
            return "\(path(p.codingPath)) \(try p.decode(Int.self, forKey: k("q")))"
        }
        step("deep mismatch") {
            try c.nestedContainer(keyedBy: DiffKey.self, forKey: k("o")).nestedContainer(keyedBy: DiffKey.self, forKey: k("p"))
                .decode(String.self, forKey: k("q"))
        }
        step("deep missing") {
            path(try c.nestedContainer(keyedBy: DiffKey.self, forKey: k("o")).nestedUnkeyedContainer(forKey: k("nope")).codingPath)
        }

        var u = try c.nestedUnkeyedContainer(forKey: k("a"))
        func cursor() -> String { "count:\(u.count.map(String.init) ?? "nil") index:\(u.currentIndex) atEnd:\(u.isAtEnd)" }
        step("u.path") { path(u.codingPath) }
        step("u.start") { cursor() }
        step("u String on number") { try u.decode(String.self) }
        step("u after failure") { cursor() }
        step("u decodeNil on number") { try u.decodeNil() }
        step("u after decodeNil") { cursor() }
        step("u Float") { try u.decode(Float.self) }
        step("u String") { try u.decode(String.self) }
        // At the end, Foundation's decodeIfPresent returns nil and still moves currentIndex on
        // (see unkeyedDecodeIfPresentAtTheEnd), so the probe only calls it on an element.
        step("u ifPresent Int on null") { u.isAtEnd ? "at end" : try u.decodeIfPresent(Int.self) as Any }
        step("u after ifPresent") { cursor() }
        step("u keyed on array") { path(try u.nestedContainer(keyedBy: DiffKey.self).codingPath) }
        step("u after failed nested") { cursor() }
        step("u unkeyed") {
            var inner = try u.nestedUnkeyedContainer()
            return "\(path(inner.codingPath)) \(try inner.decode(Int.self)) \(inner.isAtEnd) \(inner.currentIndex)"
        }
        step("u superDecoder") {
            let sub = try u.superDecoder()
            return "\(path(sub.codingPath)) \(try sub.container(keyedBy: DiffKey.self).decode(Int.self, forKey: k("k")))"
        }
        step("u Int? on null") { try u.decode(Int?.self) as Any }
        step("u UInt8 on string") { try u.decode(UInt8.self) }
        step("u after UInt8 failure") { cursor() }
        step("u skip") { try u.decode(String.self) }
        step("u Int") { try u.decode(Int.self) }
        step("u at end") { cursor() }
        step("u Int at end") { try u.decode(Int.self) }
        step("u decodeNil at end") { try u.decodeNil() }
        step("u keyed at end") { path(try u.nestedContainer(keyedBy: DiffKey.self).codingPath) }
        step("u unkeyed at end") { path(try u.nestedUnkeyedContainer().codingPath) }
        step("u superDecoder at end") { path(try u.superDecoder().codingPath) }
        step("u final") { cursor() }

        step("single on object") { try decoder.singleValueContainer().decode(Int.self) }
        step("unkeyed on object") { path(try decoder.unkeyedContainer().codingPath) }
        self.trace = trace
    }
}

/// A date in every position: a property, an optional, an array element, a dictionary value.
struct DateBox: Swift.Decodable, Equatable {
    var d: Date
    var o: Date?
    var a: [Date]?
    var m: [String: Date]?
}

struct DataBox: Swift.Decodable, Equatable { var d: Data }

/// Encodes the members it is given under their own keys, with nested keys inside.
struct DynamicKeys: Swift.Encodable {
    var keys: [String]
    func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: DiffKey.self)
        for (index, key) in keys.enumerated() { try container.encode(index, forKey: DiffKey(key)) }
        var nested = container.nestedContainer(keyedBy: DiffKey.self, forKey: DiffKey("nestedKeyName"))
        for key in keys { try nested.encode(key, forKey: DiffKey(key)) }
        try container.encode(["dictKeyStaysAsIs": 1], forKey: DiffKey("dictionaryValue"))
    }
}

// MARK: Decoder

@Suite("ElevateJSONDecoder against JSONDecoder, differentially")
struct CodableDifferentialDecoderTests {
    /// The texts of an integer type's bounds and their neighbours, as integers, with a fraction, with
    /// an exponent, and in scientific notation.
    static func integerTexts<T: FixedWidthInteger>(_ type: T.Type) -> [String] {
        var bases = [String(T.min), String(T.max), String(Int128(T.min) - 1), String(Int128(T.max) + 1), "0", "1", "-1"]
        bases += [String(Int128(T.max) - 1), String(Int128(T.min) + 1)]
        var texts: [String] = ["-0", "-0.0", "0e5", "-0e-5", "0.0e0", "1e2", "1E+2", "12.5e1", "0.5", "1e-1", "100e-2", "-1.0",
                               "1e0", "1.000000000000000000001", "0.99999999999999999999", "1e300", "1e400", "-1e400", "1e-400"]
        for base in bases {
            texts += [base, base + ".0", base + "e0", base + ".000E+0"]
            // 127 -> 1.27e2, -32768 -> -3.2768e4
            let negative = base.hasPrefix("-")
            let digits = negative ? String(base.dropFirst()) : base
            if digits.count > 1 {
                texts.append("\(negative ? "-" : "")\(digits.prefix(1)).\(digits.dropFirst())e\(digits.count - 1)")
                texts.append("\(negative ? "-" : "")0.\(digits)e\(digits.count)")
            }
        }
        return texts
    }

    /// Checks every integer text for one type. Deliberate difference (README, CodableOnTheTape.md):
    /// a number with a fraction or exponent is an integer only below 2^53 in magnitude, where
    /// Foundation accepts `1e18`; the library then fails with `dataCorrupted`.
    static func checkIntegers<T: FixedWidthInteger & Swift.Decodable>(_ type: T.Type) {
        for text in integerTexts(type) {
            let (foundation, elevate) = decodeWithBoth(One<T>.self, #"{"v":\#(text)}"#)
            if case .value(let value) = foundation, case .failure("dataCorrupted", ["v"]) = elevate,
                text.contains(where: { ".eE".contains($0) }), Double(value.v.magnitude) >= 9_007_199_254_740_992
            {
                continue
            }
            // README question: Foundation reads an integer through a Double when the text has an
            // exponent, so `1e-400` is the Int 0 there (while it is an error for a Double); the
            // library refuses it, as 1e-400 is not exactly an integer.
            if case .value(let value) = foundation, value.v == 0, case .failure("dataCorrupted", ["v"]) = elevate,
                Double(text) == 0, text.contains(where: { "123456789".contains($0) })
            {
                continue
            }
            // Likewise `1.000000000000000000001` is the Int 1 there, through its Double; not an
            // integer here (README).
            if case .value = foundation, case .failure("dataCorrupted", ["v"]) = elevate,
                ["1.000000000000000000001", "0.99999999999999999999"].contains(text)
            {
                continue
            }
            #expect(diffAgree(foundation, elevate), "\(T.self) \(text): Foundation \(foundation), Elevate \(elevate)")
        }
    }

    @Test func integersAtAndPastTheirBounds() {
        Self.checkIntegers(Int8.self)
        Self.checkIntegers(Int16.self)
        Self.checkIntegers(Int32.self)
        Self.checkIntegers(Int64.self)
        Self.checkIntegers(Int.self)
        Self.checkIntegers(UInt8.self)
        Self.checkIntegers(UInt16.self)
        Self.checkIntegers(UInt32.self)
        Self.checkIntegers(UInt64.self)
        Self.checkIntegers(UInt.self)
    }

    @Test func integersFromDoublesAreOnlyExactBelowTwoToThe53() throws {
        // The documented strictness, pinned: Foundation reads these exactly from the text.
        let decoder = ElevateJSONDecoder()
        #expect(try decoder.decode(Int64.self, from: Data("9007199254740991.0".utf8)) == 9_007_199_254_740_991)
        #expect(throws: DecodingError.self) { try decoder.decode(Int64.self, from: Data("9.007199254740993e15".utf8)) }
        #expect(try JSONDecoder().decode(Int64.self, from: Data("9.007199254740993e15".utf8)) == 9_007_199_254_740_993)
    }

    static let doubleTexts: [String] = [
        "0", "-0", "0.0", "-0.0", "0e400", "-0e-400", "1", "-1", "0.1", "1e22", "1e23", "9007199254740993",
        "18446744073709551615", "18446744073709551616", "123456789012345678901234567890", "-9223372036854775809",
        "5e-324", "4.9e-324", "2.4703282292062328e-324", "2.4703282292062327e-324", "3e-324", "2e-324", "1e-320",
        "1e-310", "2.2250738585072011e-308", "2.2250738585072014e-308", "1e-400", "-1e-400",
        "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "-1e309",
        "0.30000000000000001", "0.1000000000000000055511151231257827021181583404541015625",
        "3.141592653589793238462643383279502884197169399375105820974944592307816406286",
        "2.00000000000000011102230246251565404236316680908203125", "2.00000000000000011102230246251565404236316680908203124",
        "2.00000000000000011102230246251565404236316680908203126", "1e-7", "123.456e-2", "\"1\"", "true", "null", "[]",
    ]

    @Test(arguments: doubleTexts)
    func doublesBitForBit(_ text: String) {
        expectBothDecode(Bits<Double>.self, text)
        expectBothDecode(One<Bits<Double>>.self, #"{"v":\#(text)}"#)
    }

    static let floatTexts: [String] = [
        "0", "-0", "-0.0", "1", "0.1", "16777217", "16777216.5", "3.4028235e38", "3.4028236e38", "3.40282357e38",
        "3.4028235677973362e38", "1e39", "1e-38", "1.17549435e-38", "1e-40", "1.4e-45", "1e-45",
        "7.1e-46", "7e-46", "1e-50", "1e-400", "-1e-50", "1e309", "0.3", "1.00000005960464477539062", "1.000000059604644775390625",
        "1152921573326323712", "1152921573326323713", "\"nan\"",
    ]

    @Test(arguments: floatTexts)
    func floatsBitForBit(_ text: String) {
        expectBothDecode(Bits<Float>.self, text)
    }

    /// Foundation parses a `Float` from the text in one rounding; a `Double` parsed first and then
    /// rounded to `Float` rounds twice, which differs when the `Double` lands exactly halfway
    /// between two `Float`s. The shortest text of such a `Double` is the typical input: a value
    /// once encoded as a `Double` and decoded as a `Float`.
    @Test(.disabled("""
        README question: the tape keeps a Double, not the number's text, so a Float read from a \
        Double that lies exactly halfway between two Floats is rounded twice and can be one ulp off \
        Foundation's (127 of these 300; also 3.4028235677973366e38, which overflows instead of \
        giving Float.greatestFiniteMagnitude). Integers are rounded once (fixed).
        """))
    func floatsHalfwayBetweenTwoFloatsAfterParsingAsDouble() {
        for text in ["1.00000005960464477539063", "3.4028235677973366e38"] {
            expectBothDecode(Bits<Float>.self, text)
        }
        var rng = SeededGenerator(state: 42)
        var differences: [String] = []
        for _ in 0..<300 {
            let float = Float(bitPattern: UInt32.random(in: 0x0080_0000...0x7F00_0000, using: &rng))
            let midpoint = (Double(float) + Double(float.nextUp)) / 2
            let text = "\(midpoint)"
            let (foundation, elevate) = decodeWithBoth(Bits<Float>.self, text)
            if !diffAgree(foundation, elevate) { differences.append("\(text): \(foundation) vs \(elevate)") }
        }
        #expect(differences.isEmpty, "\(differences.count) of 300, e.g. \(differences.prefix(3))")
    }

    @Test func randomDoublesBitForBit() {
        var rng = SeededGenerator(state: 7)
        for index in 0..<2000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            let text = index.isMultiple(of: 2) ? "\(value)" : String(format: "%.25g", value)
            let (foundation, elevate) = decodeWithBoth(Bits<Double>.self, text)
            #expect(diffAgree(foundation, elevate), "\(text): Foundation \(foundation), Elevate \(elevate)")
        }
    }

    @Test func nonConformingFloatStrings() {
        let strategies: [(String, String, String)] = [("inf", "-inf", "nan"), ("Infinity", "-Infinity", "NaN"), ("", "-", "x"), ("1", "2", "3")]
        for (positive, negative, nan) in strategies {
            let configure: DiffConfigure = { f, e in
                f.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
                e.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
            }
            for text in ["\"\(positive)\"", "\"\(negative)\"", "\"\(nan)\"", "\"INF\"", "\"\"", "1", "1e309", "null", "\"1\"", "\"2\""] {
                expectBothDecode(Bits<Double>.self, text, configure: configure)
                expectBothDecode(Bits<Float>.self, text, configure: configure)
                expectBothDecode([Bits<Double>?].self, "[\(text)]", configure: configure)
                // A string is still not an integer or a Decimal.
                expectBothDecode(One<Int>.self, #"{"v":\#(text)}"#, configure: configure)
            }
        }
    }

    // MARK: Keys

    static let snakeKeys: [String] = [
        "a", "_a", "a_", "__a__", "a__b", "__", "_", "", "a_b_c", "URLValue", "url_value", "URL_VALUE", "aB", "a_B",
        "a1_b2", "1_a", "a_1", "é_b", "ß_x", "ǆ_ǆ", "a b_c", "a-b_c", "😀_x", "_a_b_", "A_b", "a_b", "a__", "x_y_", "\u{301}_a",
        "émile_zola", "i_d", "I_D", "http_url", "a_bc_DEF",
    ]

    @Test func convertFromSnakeCaseOnOddKeys() {
        let configure: DiffConfigure = { f, e in
            f.keyDecodingStrategy = .convertFromSnakeCase
            e.keyDecodingStrategy = .convertFromSnakeCase
        }
        for key in Self.snakeKeys {
            let json = #"{"\#(key)":1}"#
            expectBothDecode(KeyDump.self, json, configure: configure)
            // The converted name is looked up, as Foundation looks it up.
            for name in [SnakeCase.convert(key), key, key.lowercased()] {
                expectBothDecode(NamedProbe.self, #"{"name":"\#(name)","object":\#(json)}"#, configure: configure)
            }
        }
        // A [String: T] keeps its keys as they are, under any key strategy.
        let all = "{" + Self.snakeKeys.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",") + "}"
        expectBothDecode([String: Int].self, all, configure: configure)
        expectBothDecode([String: [String: Int]].self, #"{"a_b":\#(all)}"#, configure: configure)
        // A [Int: T] goes through a keyed container, so its keys are converted first.
        expectBothDecode([Int: String].self, #"{"1_2":"a","3":"b"}"#, configure: configure)
    }

    /// Keys that become the same key after conversion. Foundation builds a dictionary of converted
    /// keys and keeps the first; whichever the library keeps, it must not depend on the order in
    /// which properties are read.
    @Test(.disabled("""
        README question: keys that collide after conversion ({"a_b":1,"x":0,"aB":2} with \
        .convertFromSnakeCase) give aB 1 or 2 depending on the order the type reads its properties \
        (the lookup resumes after the last hit); Foundation keeps the first. Making it \
        order-independent needs a scan before the hint on every converted lookup, or a per-object \
        table: not a local change on the hot path.
        """))
    func keysThatCollideAfterConversion() {
        let configure: DiffConfigure = { f, e in
            f.keyDecodingStrategy = .convertFromSnakeCase
            e.keyDecodingStrategy = .convertFromSnakeCase
        }
        for json in [#"{"a_b":1,"x":0,"aB":2}"#, #"{"x":0,"a_b":1,"aB":2}"#, #"{"aB":1,"x":0,"a_b":2}"#, #"{"a_b":1,"a__b":2,"x":0}"#] {
            expectBothDecode(XThenAB.self, json, configure: configure)
            expectBothDecode(ABThenX.self, json, configure: configure)
            expectBothDecode(KeyDump.self, json, configure: configure)
        }
        let everythingIsK: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            DiffKey(path.last?.stringValue == "x" ? "x" : "aB")
        }
        for json in [#"{"p":1,"x":0,"q":2}"#, #"{"x":0,"p":1,"q":2}"#] {
            expectBothDecode(XThenAB.self, json) { f, e in
                f.keyDecodingStrategy = .custom(everythingIsK)
                e.keyDecodingStrategy = .custom(everythingIsK)
            }
        }
    }

    @Test func customKeyStrategySeesTheFullCodingPath() {
        let pathKey: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            DiffKey(path.map(\.stringValue).joined(separator: "."))
        }
        let configure: DiffConfigure = { f, e in
            f.keyDecodingStrategy = .custom(pathKey)
            e.keyDecodingStrategy = .custom(pathKey)
        }
        expectBothDecode(KeyDump.self, #"{"a":1,"b":2}"#, configure: configure)
        expectBothDecode([String: KeyDump].self, #"{"x":{"a":1}}"#, configure: configure)
        expectBothDecode([KeyDump].self, #"[{"a":1},{"b":2}]"#, configure: configure)
        expectBothDecode(ContainerProbe.self, Self.probeDocument, configure: configure)
    }

    // MARK: Containers

    static let probeDocument =
        #"{"n":null,"i":1,"s":"hearts","a":[1,"two",null,[3],{"k":4},null,"x",5],"o":{"p":{"q":5}},"super":{"z":6}}"#

    @Test func containerBookkeepingMatchesStepByStep() throws {
        let (foundation, elevate) = decodeWithBoth(ContainerProbe.self, Self.probeDocument) { f, e in
            f.userInfo[ContainerProbe.userInfoKey] = "shared"
            e.userInfo[ContainerProbe.userInfoKey] = "shared"
        }
        guard case .value(let expected) = foundation, case .value(let actual) = elevate else {
            Issue.record("Foundation \(foundation), Elevate \(elevate)")
            return
        }
        for (f, e) in zip(expected.trace, actual.trace) where f != e {
            Issue.record("Foundation \(f)\n   Elevate \(e)")
        }
        #expect(expected.trace.count == actual.trace.count)
        // The same probe one level down, inside an array and a dictionary, for the paths.
        expectBothDecode([String: [ContainerProbe]].self, #"{"outer":[\#(Self.probeDocument)]}"#)
        // With no "super" key and "a" holding something else.
        expectBothDecode(ContainerProbe.self, #"{"a":[]}"#)
        expectBothDecode(ContainerProbe.self, #"{"a":{},"super":{"z":6}}"#)
        expectBothDecode(ContainerProbe.self, #"{"a":null,"super":{"z":6}}"#)
    }

    /// README question: at the end of an unkeyed container Foundation's `decodeIfPresent` returns
    /// nil and moves `currentIndex` past `count`, so later errors name "Index count + 1"; the
    /// library returns nil and stays, as the standard library's default implementation does.
    /// Pinned for both, so that a change on either side is seen.
    @Test func unkeyedDecodeIfPresentAtTheEnd() throws {
        struct AtEnd: Swift.Decodable, Equatable {
            var indices: [Int]
            init(from decoder: any Swift.Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                let first = try container.decodeIfPresent(Int.self)
                let second = try container.decodeIfPresent(String.self)
                indices = [first == nil && second == nil ? 1 : 0, container.currentIndex]
            }
        }
        #expect(try JSONDecoder().decode(AtEnd.self, from: Data("[1]".utf8)).indices == [1, 3])
        #expect(try ElevateJSONDecoder().decode(AtEnd.self, from: Data("[1]".utf8)).indices == [1, 1])
    }

    /// README question: Foundation's parser (swift-foundation on Linux) accepts a trailing comma
    /// in arrays and objects, as JSON5 does; the library rejects it, as RFC 8259 and the
    /// JSONTestSuite `n_` files require. An error where Foundation gives a value: stricter, not
    /// wrong. Pinned for both.
    @Test func trailingCommas() {
        for json in [#"["a",]"#, #"{"a":1,}"#] {
            let (foundation, elevate) = decodeWithBoth(AnyJSONValue.self, json)
            #expect(!foundation.isFailure, "\(json): \(foundation)")
            #expect(elevate == .failure("dataCorrupted", []), "\(json): \(elevate)")
        }
    }

    static let optionalInputs: [String] = [
        "{}", #"{"v":null}"#, #"{"v":1}"#, #"{"v":"1"}"#, #"{"v":[]}"#, #"{"v":[null]}"#, #"{"v":{}}"#, "null", "[]",
    ]

    @Test(arguments: optionalInputs)
    func optionalsAndNestedOptionals(_ json: String) {
        expectBothDecode(One<Int?>.self, json)
        expectBothDecode(One<Int??>.self, json)
        expectBothDecode(One<[Int?]?>.self, json)
        expectBothDecode(One<[String: Int?]?>.self, json)
        expectBothDecode(Int??.self, json)
        expectBothDecode([String: Int??].self, json)
        expectBothDecode(One<Suit?>.self, json)
        expectBothDecode(One<Rank?>.self, json)
    }

    static let enumInputs: [String] = [
        #""hearts""#, #""Hearts""#, #""""#, #""hearts ""#, "1", "null", "-1", "0", "-0", "1.0", "2", #""1""#, "true", "1e0",
    ]

    @Test(arguments: enumInputs)
    func enumsWithRawValues(_ json: String) {
        expectBothDecode(Suit.self, json)
        expectBothDecode(Rank.self, json)
        expectBothDecode([Suit].self, "[\(json)]")
        expectBothDecode([String: Rank].self, #"{"r":\#(json)}"#)
        expectBothDecode([Suit: Int].self, #"{"hearts":1,\#(json):2}"#)
    }

    static let dictionaryInputs: [String] = [
        #"{"1":"a","-2":"b"}"#, #"{"1":"a","x":"b"}"#, #"{"01":"a"}"#, #"{"+1":"a"}"#, #"{" 1":"a"}"#,
        #"{"9223372036854775808":"a"}"#, #"{"1.0":"a"}"#, #"{}"#, #"[1,"a",2,"b"]"#, #"[1,"a",2]"#, #"[1.5,"a"]"#,
        #"["1","a"]"#, "[]", "null", #"{"hearts":"a"}"#, #"{"clubs":"a"}"#, #"[true,"a"]"#,
    ]

    @Test(arguments: dictionaryInputs)
    func dictionariesByKeyType(_ json: String) {
        expectBothDecode([Int: String].self, json)
        expectBothDecode([String: String].self, json)
        expectBothDecode([Double: String].self, json)
        expectBothDecode([Bool: String].self, json)
        expectBothDecode([Suit: String].self, json)
        expectBothDecode([Int8: String].self, json)
        expectBothDecode([UInt: String].self, json)
    }

    @Test func keysEqualAfterNormalization() throws {
        // Foundation's dictionaries compare keys as Swift strings, so "é" precomposed and decomposed
        // are one key there, and the first of them keeps its value.
        let precomposed = "caf\u{e9}", decomposed = "cafe\u{301}"
        let json = #"{"\#(precomposed)":1,"\#(decomposed)":2}"#
        let foundation = try JSONDecoder().decode([String: Int].self, from: Data(json.utf8))
        #expect(foundation == [precomposed: 1])
        // Deliberate difference (README, "Repeated keys"): both spellings stay on the tape and one
        // object holding both is a repeat, whose last occurrence wins for a [String: T].
        let elevate = try ElevateJSONDecoder().decode([String: Int].self, from: Data(json.utf8))
        #expect(elevate == [precomposed: 2])
        // A coding key gets the spelling it asked for (README, "Repeated keys").
        #expect(try ElevateJSONDecoder().decode(One<Int>.self, from: Data(#"{"\#(precomposed)":1,"v":3}"#.utf8)).v == 3)
        // One spelling only: both decoders find it by the other.
        expectBothDecode(CafeKey.self, #"{"\#(decomposed)":5}"#)
        expectBothDecode(CafeKey.self, #"{"\#(precomposed)":5}"#)
        expectBothDecode(KeyDump.self, #"{"\#(decomposed)":5}"#)
    }

    @Test func duplicateKeys() throws {
        // Deliberate difference (README, "Repeated keys"): the last occurrence wins; Foundation on
        // Linux keeps the first. Pinned for both, so a change in either is seen.
        let json = #"{"v":1,"v":2}"#
        #expect(try JSONDecoder().decode(One<Int>.self, from: Data(json.utf8)).v == 1)
        #expect(try ElevateJSONDecoder().decode(One<Int>.self, from: Data(json.utf8)).v == 2)
        #expect(try ElevateJSONDecoder().decode([String: Int].self, from: Data(json.utf8)) == ["v": 2])
        // The earlier value is not decoded at all, so its type does not matter.
        #expect(try ElevateJSONDecoder().decode([String: Int].self, from: Data(#"{"v":"x","v":2}"#.utf8)) == ["v": 2])
        var options = JSONParsingOptions()
        options.rejectsDuplicateKeys = true
        let strict = ElevateJSONDecoder()
        strict.parsingOptions = options
        #expect(throws: DecodingError.self) { try strict.decode(One<Int>.self, from: Data(json.utf8)) }
    }

    // MARK: Strategies

    static let dateInputs: [String] = [
        "0", "-0", "1.5", "-1.5", "1e300", "1e400", "1e-400", "1700000000123", "\"0\"", "null", "true", "[]",
        #""2024-02-29T12:34:56Z""#, #""2024-02-29T12:34:56.789Z""#, #""2024-02-29T12:34:56+05:30""#,
        #""2024-02-29T12:34:56-0800""#, #""2024-02-29T12:34:56+00""#, #""2024-02-29t12:34:56z""#, #""2024-02-29 12:34:56Z""#,
        #""20240229T123456Z""#, #""2024-02-29T24:00:00Z""#, #""2024-02-29T23:59:60Z""#, #""2023-02-29T00:00:00Z""#,
        #""2024-13-01T00:00:00Z""#, #""0001-01-01T00:00:00Z""#, #""9999-12-31T23:59:59Z""#, #""2024-02-29T12:34:56""#,
        #""2024-02-29""#, #""""#, #"" 2024-02-29T12:34:56Z""#, #""2024-02-29T12:34:56Z ""#, #""2024-02-29T12:34:56+14:00""#,
        #""2024-02-29T12:34:56.Z""#, #""2024-02-29T12:34:56,5Z""#, #""2024-02-29 12:34:56.123 +01:00""#,
    ]

    /// Each date strategy, Foundation's and ours alike.
    static var dateStrategies: [(String, DiffConfigure)] {
        let lenient = DateFormatter()
        lenient.locale = Locale(identifier: "en_US_POSIX")
        lenient.timeZone = TimeZone(identifier: "Asia/Kolkata")
        lenient.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS ZZZZZ"
        let posix = DateFormatter()
        posix.locale = Locale(identifier: "en_US_POSIX")
        posix.timeZone = TimeZone(secondsFromGMT: 3600)
        posix.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        let throwing: @Sendable (any Swift.Decoder) throws -> Date = { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard text.count > 3 else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "short")
            }
            return Date(timeIntervalSince1970: Double(text.count))
        }
        let nested: @Sendable (any Swift.Decoder) throws -> Date = { decoder in
            // A custom closure that looks at the decoder's path and takes a keyed container.
            let container = try decoder.container(keyedBy: DiffKey.self)
            return Date(timeIntervalSince1970: try container.decode(Double.self, forKey: DiffKey("t")) + Double(decoder.codingPath.count))
        }
        return [
            ("deferredToDate", { f, e in f.dateDecodingStrategy = .deferredToDate; e.dateDecodingStrategy = .deferredToDate }),
            ("secondsSince1970", { f, e in f.dateDecodingStrategy = .secondsSince1970; e.dateDecodingStrategy = .secondsSince1970 }),
            ("millisecondsSince1970", { f, e in
                f.dateDecodingStrategy = .millisecondsSince1970; e.dateDecodingStrategy = .millisecondsSince1970
            }),
            ("iso8601", { f, e in f.dateDecodingStrategy = .iso8601; e.dateDecodingStrategy = .iso8601 }),
            ("formatted lenient", { f, e in f.dateDecodingStrategy = .formatted(lenient); e.dateDecodingStrategy = .formatted(lenient) }),
            ("formatted posix", { f, e in f.dateDecodingStrategy = .formatted(posix); e.dateDecodingStrategy = .formatted(posix) }),
            ("custom throwing", { f, e in f.dateDecodingStrategy = .custom(throwing); e.dateDecodingStrategy = .custom(throwing) }),
            ("custom keyed", { f, e in f.dateDecodingStrategy = .custom(nested); e.dateDecodingStrategy = .custom(nested) }),
        ]
    }

    @Test func dateStrategiesOnEveryInput() {
        for (name, configure) in Self.dateStrategies {
            for text in Self.dateInputs + [#"{"t":5}"#, #"{"u":5}"#] {
                let json = #"{"d":\#(text),"o":\#(text),"a":[\#(text)],"m":{"k":\#(text)}}"#
                let (foundation, elevate) = decodeWithBoth(DateBox.self, json, configure: configure)
                #expect(diffAgree(foundation, elevate), "\(name) \(text): Foundation \(foundation), Elevate \(elevate)")
                let (f2, e2) = decodeWithBoth(One<Date?>.self, #"{"v":\#(text)}"#, configure: configure)
                #expect(diffAgree(f2, e2), "\(name) optional \(text): Foundation \(f2), Elevate \(e2)")
            }
        }
    }

    static let base64Inputs: [String] = [
        "", "aGVsbG8=", "aGVsbG8", "aGVsbG8==", "aGVsbG8===", "aGVs bG8=", " aGVsbG8=", "aGVsbG8= ", "aGVs\\nbG8=",
        "aGVs\\r\\nbG8=", "aGVsbG8=\\u0000", "=", "==", "====", "A", "AA", "AAA", "AAAA", "AA==", "AA=A", "A===",
        "-_-_", "+/+/", "aGV=sbG8", "aGVsbG9=", "aGVsbG8h", "////", "\\u00e9AAA", "YQ", "YQ=", "YQ==",
    ]

    @Test(arguments: base64Inputs)
    func base64Data(_ text: String) {
        expectBothDecode(DataBox.self, #"{"d":"\#(text)"}"#)
        expectBothDecode([Data].self, #"["\#(text)"]"#)
    }

    @Test func dataStrategies() {
        for text in [#"[1,2,255]"#, "[256]", "[-1]", "[1.5]", "[]", "[null]", #""AQ==""#, "null", "{}"] {
            expectBothDecode(DataBox.self, #"{"d":\#(text)}"#) { f, e in
                f.dataDecodingStrategy = .deferredToData
                e.dataDecodingStrategy = .deferredToData
            }
            let throwing: @Sendable (any Swift.Decoder) throws -> Data = { decoder in
                var container = try decoder.unkeyedContainer()
                var bytes: [UInt8] = []
                while !container.isAtEnd { bytes.append(try container.decode(UInt8.self) ^ 0xFF) }
                return Data(bytes)
            }
            expectBothDecode(DataBox.self, #"{"d":\#(text)}"#) { f, e in
                f.dataDecodingStrategy = .custom(throwing)
                e.dataDecodingStrategy = .custom(throwing)
            }
        }
    }

    // MARK: Text

    @Test func everyEscapeAndLongStrings() {
        var escapes = (0..<0x20).map { String(format: "\\u%04x", $0) } + (0..<0x20).map { String(format: "\\u%04X", $0) }
        escapes += ["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\ud83d\\ude00", "\\uDBFF\\uDFFF", "\\ud800\\udc00",
                    "\\u2028", "\\uffff", "\\ufeff", "\\u0080", "\\u07ff", "\\u0800"]
        for escape in escapes {
            expectBothDecode(String.self, "\"a\(escape)b\"")
            expectBothDecode([String: String].self, #"{"k\#(escape)":"v\#(escape)"}"#)
        }
        // Unpaired surrogates: Foundation and the library must both refuse (no U+FFFD or "?").
        for bad in ["\\ud800", "\\udc00", "\\ud800\\u0041", "\\ud800x", "\\udc00\\ud800", "\\u12", "\\x", "\u{1}", "\t"] {
            expectBothDecode(String.self, "\"\(bad)\"")
        }
        let long = String(repeating: "ab\\n\\u00e9\\ud83d\\ude00/", count: 40_000)
        expectBothDecode(String.self, "\"\(long)\"")
        expectBothDecode([String].self, "[\"\(String(repeating: "x", count: 1 << 20))\",\"\"]")
    }

    @Test func deepNesting() {
        // Run on a thread with room for the recursion of both decoders in a debug build.
        final class Failures: @unchecked Sendable { var list: [String] = [] }
        let failures = Failures()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            func summary(_ outcome: DiffOutcome<AnyJSONValue>) -> String { outcome.isFailure ? "\(outcome)" : "a value" }
            for depth in [1, 256, 512, 513] {
                let arrays = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
                let objects = String(repeating: #"{"k":"#, count: depth) + "null" + String(repeating: "}", count: depth)
                for (name, json) in [("arrays", arrays), ("objects", objects)] {
                    let (foundation, elevate) = decodeWithBoth(AnyJSONValue.self, json)
                    if foundation.isFailure != elevate.isFailure || foundation != elevate && !foundation.isFailure {
                        failures.list.append("\(name) \(depth): Foundation \(summary(foundation)), Elevate \(summary(elevate))")
                    }
                }
            }
        }
        thread.stackSize = 256 << 20
        thread.start()
        done.wait()
        #expect(failures.list.isEmpty, "\(failures.list)")
    }

    // MARK: Random documents

    @Test func randomDocumentsDecodeAlike() {
        var random = RandomJSON(rng: SeededGenerator(state: 2026))
        var mismatches: [String] = []
        for _ in 0..<3000 {
            let json = random.value(depth: 0)
            let (foundation, elevate) = decodeWithBoth(AnyJSONValue.self, json)
            if !diffAgree(foundation, elevate) { mismatches.append("\(json)\n  Foundation \(foundation)\n  Elevate \(elevate)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches; first: \(mismatches.prefix(3).joined(separator: "\n"))")
    }

    @Test func randomlyDamagedDocumentsFailAlike() {
        var random = RandomJSON(rng: SeededGenerator(state: 99))
        var mismatches: [String] = []
        for _ in 0..<3000 {
            let data = random.mutate(random.value(depth: 0))
            let (foundation, elevate) = decodeWithBoth(AnyJSONValue.self, data)
            // Both refuse, or both give the same value; the library's syntax errors are
            // dataCorrupted at the root, as Foundation's are.
            if foundation.isFailure && elevate.isFailure { continue }
            if foundation == elevate { continue }
            // README question (see integersAtAndPastTheirBounds): an underflowing number such as
            // 1e-3107 is the Int64 0 for Foundation and an error for the library.
            let text = String(decoding: data, as: UTF8.self)
            if text.range(of: #"[eE]-[0-9]{3,}"#, options: .regularExpression) != nil { continue }
            // Documented: an integral number of 2^53 or more written with an exponent is an Int64
            // for Foundation and a Double for the library.
            if case .value(let value) = foundation, value.hasIntegerBeyondTwoToThe53 { continue }
            // README question (trailingCommas): Foundation accepts a trailing comma; the library
            // does not, as RFC 8259 says.
            if case .value = foundation, case .failure("dataCorrupted", []) = elevate,
                text.range(of: #",\s*[\]}]"#, options: .regularExpression) != nil
            {
                continue
            }
            mismatches.append("\(Array(data)) \(String(decoding: data, as: UTF8.self).debugDescription)\n  Foundation \(foundation)\n  Elevate \(elevate)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches; first: \(mismatches.prefix(4).joined(separator: "\n"))")
    }
}

struct NamedProbe: Swift.Decodable, Equatable {
    var found: Int?
    enum Keys: String, CodingKey { case name, object }
    init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let name = try container.decode(String.self, forKey: .name)
        found = try container.nestedContainer(keyedBy: DiffKey.self, forKey: .object).decodeIfPresent(Int.self, forKey: DiffKey(name))
    }
}

struct XThenAB: Swift.Decodable, Equatable {
    var x: Int
    var aB: Int
}

struct ABThenX: Swift.Decodable, Equatable {
    var aB: Int
    var x: Int
}

struct CafeKey: Swift.Decodable, Equatable {
    var café: Int
}

// MARK: Encoder

/// Both encoders' outputs for `value`, configured alike: the text, or the error's case and path.
func encodeWithBoth<T: Swift.Encodable>(
    _ value: T, configure: (JSONEncoder, ElevateJSONEncoder) -> Void = { _, _ in }
) -> (foundation: DiffOutcome<String>, elevate: DiffOutcome<String>) {
    let foundation = JSONEncoder()
    let elevate = ElevateJSONEncoder()
    configure(foundation, elevate)
    return (
        DiffOutcome { String(decoding: try foundation.encode(value), as: UTF8.self) },
        DiffOutcome { String(decoding: try elevate.encode(value), as: UTF8.self) }
    )
}

func expectBothEncode<T: Swift.Encodable>(
    _ value: T, _ label: String = "", configure: (JSONEncoder, ElevateJSONEncoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let (foundation, elevate) = encodeWithBoth(value, configure: configure)
    #expect(foundation == elevate, "\(label): Foundation \(foundation)\n  Elevate \(elevate)", sourceLocation: sourceLocation)
}

@Suite("ElevateJSONEncoder against JSONEncoder, differentially")
struct CodableDifferentialEncoderTests {
    static let formattings: [JSONEncoder.OutputFormatting] = [
        [.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
        [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
    ]

    @Test(arguments: formattings)
    func randomValuesByteForByte(_ formatting: JSONEncoder.OutputFormatting) throws {
        var random = RandomJSON(rng: SeededGenerator(state: 11))
        var mismatches: [String] = []
        for _ in 0..<800 {
            // Random text, read by Foundation into values, then written by both.
            let json = random.value(depth: 0)
            guard let value = try? JSONDecoder().decode(AnyJSONValue.self, from: Data(json.utf8)) else { continue }
            let (foundation, elevate) = encodeWithBoth(value) { f, e in
                f.outputFormatting = formatting
                e.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
            }
            if foundation != elevate { mismatches.append("\(value)\n  Foundation \(foundation)\n  Elevate \(elevate)") }
            // And the library reads its own text back to the same value.
            if case .value(let text) = elevate {
                let back = DiffOutcome { try ElevateJSONDecoder().decode(AnyJSONValue.self, from: Data(text.utf8)) }
                if back != .value(value) { mismatches.append("round trip \(value): \(back)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches; first: \(mismatches.prefix(3).joined(separator: "\n"))")
    }

    @Test func doublesAndFloatsByteForByte() {
        var rng = SeededGenerator(state: 5)
        var doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1e16, 1e17, 1e21, 1e22, 1e23, 1e-5, 1e-6, 1e-7, Double("123456789012345680000")!,
                                 Double("5e-324")!, 2.2250738585072014e-308, .greatestFiniteMagnitude, Double("9007199254740993")!, 0.30000000000000004,
                                 -1.5e-300, 100, 1e15, 12345678.9, 0.000001, 4.35, Double("2e-323")!]
        var floats: [Float] = [0, -0.0, 0.1, Float("1e-45")!, Float("1e-40")!, 3.4028235e38, 16777216, Float("16777217")!, 1e10, 1e-7, 0.3, 1.1754944e-38,
                               1e16, 1e17, 123456.7]
        for _ in 0..<1500 {
            let d = Double(bitPattern: rng.next())
            if d.isFinite { doubles.append(d) }
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            if f.isFinite { floats.append(f) }
            doubles.append(Double(Int64.random(in: -1_000_000...1_000_000, using: &rng)) / 1000)
        }
        for chunk in stride(from: 0, to: doubles.count, by: 100) {
            expectBothEncode(Array(doubles[chunk..<min(chunk + 100, doubles.count)]), "doubles")
        }
        for chunk in stride(from: 0, to: floats.count, by: 100) {
            expectBothEncode(Array(floats[chunk..<min(chunk + 100, floats.count)]), "floats")
        }
        expectBothEncode(["v": Float16(0.1)], "float16")
    }

    @Test func nonConformingFloats() {
        let values: [[Double]] = [[.infinity], [-.infinity], [.nan], [1, .nan], [-0.0, .infinity]]
        for value in values {
            expectBothEncode(["k": value], "throw \(value)")
            expectBothEncode(["k": value.map(Float.init)], "throw float \(value)")
            expectBothEncode(["k": value], "convert \(value)") { f, e in
                f.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+∞/", negativeInfinity: "-inf", nan: "\"NaN\"")
                e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+∞/", negativeInfinity: "-inf", nan: "\"NaN\"")
                f.outputFormatting = .sortedKeys
                e.outputFormatting = .sortedKeys
            }
        }
        expectBothEncode(Double.nan, "top-level NaN")
    }

    @Test func convertToSnakeCaseOnOddKeys() {
        let keys = ["a", "_a", "a_", "aB", "ABc", "aBC", "myURLProperty", "URL", "URLs", "aURL", "a1B", "a1b", "1A", "ÄÖü", "äÖ",
                    "", "__", "_A_", "a__B", "HTTPServer", "isHTTP", "ǅx", "ǅX", "xǅ", "éA", "a😀B", "aΣb", "ΣΣa", "a B", "a-B", "ID", "iD",
                    "Ab", "lowerUPPER", "UPPERlower", "a_B_c", "ＡＢc", "aＢc"]
        for formatting in Self.formattings {
            expectBothEncode(DynamicKeys(keys: keys), "snake \(formatting)") { f, e in
                f.keyEncodingStrategy = .convertToSnakeCase
                e.keyEncodingStrategy = .convertToSnakeCase
                f.outputFormatting = formatting
                e.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
            }
            expectBothEncode(DynamicKeys(keys: keys), "default keys \(formatting)") { f, e in
                f.outputFormatting = formatting
                e.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
            }
        }
    }

    @Test func dateStrategies() {
        let dates = [0, -0.0, 1.5, -1.5, 1e9 + 0.123456, -62135596800, 253402300799.999, 1e12, -1e-7, 0.0005, 1700000000.9999]
            .map(Date.init(timeIntervalSince1970:))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/New_York")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ"
        let throwing: @Sendable (Date, any Swift.Encoder) throws -> Void = { date, encoder in
            guard date.timeIntervalSince1970 >= 0 else {
                throw EncodingError.invalidValue(date, .init(codingPath: encoder.codingPath, debugDescription: "negative"))
            }
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSince1970)
        }
        let twice: @Sendable (Date, any Swift.Encoder) throws -> Void = { date, encoder in
            var container = encoder.unkeyedContainer()
            try container.encode(date.timeIntervalSince1970)
            var nested = container.nestedContainer(keyedBy: DiffKey.self)
            try nested.encode(encoder.codingPath.map(\.stringValue), forKey: DiffKey("path"))
        }
        let strategies: [(String, (JSONEncoder, ElevateJSONEncoder) -> Void)] = [
            ("deferred", { f, e in f.dateEncodingStrategy = .deferredToDate; e.dateEncodingStrategy = .deferredToDate }),
            ("seconds", { f, e in f.dateEncodingStrategy = .secondsSince1970; e.dateEncodingStrategy = .secondsSince1970 }),
            ("milliseconds", { f, e in f.dateEncodingStrategy = .millisecondsSince1970; e.dateEncodingStrategy = .millisecondsSince1970 }),
            ("iso8601", { f, e in f.dateEncodingStrategy = .iso8601; e.dateEncodingStrategy = .iso8601 }),
            ("formatted", { f, e in f.dateEncodingStrategy = .formatted(formatter); e.dateEncodingStrategy = .formatted(formatter) }),
            ("custom throwing", { f, e in f.dateEncodingStrategy = .custom(throwing); e.dateEncodingStrategy = .custom(throwing) }),
            ("custom containers", { f, e in f.dateEncodingStrategy = .custom(twice); e.dateEncodingStrategy = .custom(twice) }),
        ]
        for (name, configure) in strategies {
            for date in dates {
                expectBothEncode(["k": [date]], "\(name) \(date.timeIntervalSince1970)") { f, e in
                    configure(f, e)
                    f.outputFormatting = .sortedKeys
                    e.outputFormatting = .sortedKeys
                }
            }
        }
    }

    @Test func encodeThenDecodeRoundTrips() throws {
        struct Everything: Codable, Equatable {
            var i8: Int8 = .min, u64: UInt64 = .max, i: Int = .min, d: Double = -0.0, f: Float = .leastNonzeroMagnitude
            var s = "\u{0}\u{1f}\"\\/\u{2028}😀e\u{301}", date = Date(timeIntervalSince1970: -1.25), data = Data([0, 255])
            var url = URL(string: "https://e.com/a%20b?c#d")!, decimal = Decimal(string: "-12.345")!
            var optional: Int?? = .some(nil), nested: [String: [Int: [Bool?]]] = ["a": [1: [true, nil], -2: []]]
            var suit = Suit.empty, rank = Rank.low
        }
        let value = Everything()
        for formatting in Self.formattings {
            let elevate = ElevateJSONEncoder()
            elevate.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
            let foundation = JSONEncoder()
            foundation.outputFormatting = formatting
            let ours = try elevate.encode(value)
            #expect(ours == (try foundation.encode(value)), "\(String(decoding: ours, as: UTF8.self))")
            let back = try ElevateJSONDecoder().decode(Everything.self, from: ours)
            let foundationBack = try JSONDecoder().decode(Everything.self, from: ours)
            // Int??.some(nil) is written as null and read back as nil by both.
            #expect(back.optional == nil && foundationBack.optional == nil)
            #expect(back == foundationBack)
            #expect(back.d.sign == .minus && back.i == .min && back.u64 == .max && back.s == value.s)
        }
    }
}
