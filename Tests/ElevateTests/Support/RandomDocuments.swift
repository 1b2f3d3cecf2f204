import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Seeded random documents for attacking the document views (`JSONValue`) and the owned value
/// (`JSON`): a model of each document written here (object members in order, duplicates included,
/// numbers as text), rendered with random escapes and whitespace, and `check`, which compares every
/// reading path of a view with an oracle that does not share the code under test: the model,
/// `JSONSerialization`, and the library's own text of a separately parsed copy.
enum RandomDocuments {
    /// A document as written: object members in order, duplicates included, numbers as text.
    indirect enum Model {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([Model])
        case object([(key: String, value: Model)])

        /// The members that count: each distinct key (by UTF-8 bytes) once, at the place of its
        /// last occurrence, with the last value.
        static func distinct(_ members: [(key: String, value: Model)]) -> [(key: String, value: Model)] {
            var lastIndex: [[UInt8]: Int] = [:]
            for (offset, member) in members.enumerated() { lastIndex[Array(member.key.utf8)] = offset }
            return members.enumerated().filter { lastIndex[Array($0.element.key.utf8)] == $0.offset }.map(\.element)
        }
    }

    /// Keys chosen to collide with the lookup's shortcuts: empty, dotted, numeric, inline (up to 7
    /// bytes) and arena (8 and more), equal prefixes, non-ASCII, astral, escapes. No two are the
    /// same text in different Unicode spellings (that rule has its own tests).
    static let keyPool: [String] = [
        "", "a", "b", "ab", "a.b", ".", "..", "a.", ".a", "0", "1", "01", "items", "name", "abcdefg", "abcdefgh",
        "abcdefgh1", "abcdefghijklmnop", "abcdefghijklmnopq", "caf\u{E9}", "\u{1F600}", "x\u{1F600}y.z", "\u{2028}",
        "tab\there", "quote\"d", "back\\slash", "nul\u{0}nul", "\u{7F}", "\u{FFFF}", "\u{10FFFF}", "with space",
        "items.0", "items.0.name", "0.1",
    ]

    /// Number texts at the edges of every representation on the tape and of `JSONSerialization`.
    static let numberPool: [String] = [
        "0", "-0", "1", "-1", "1.0", "1e0", "1E+0", "10e-1", "0.1", "-0.0", "0e10", "0.5", "1.5", "-2.25",
        "36028797018963967", "36028797018963968", "-36028797018963968", "-36028797018963969",
        "9007199254740993", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "18446744073709551615", "1e308", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308",
        "123456.789e3", "1E-7", "100000000000000000000.0", "0.30000000000000004", "4.35", "1e22", "1e23",
    ]

    struct Generator {
        var random: SplitMix64

        mutating func below(_ bound: Int) -> Int { Int(random.next(below: UInt64(bound))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

        mutating func key() -> String {
            if chance(80) { return RandomDocuments.keyPool[below(RandomDocuments.keyPool.count)] }
            return string(maxLength: 20)
        }

        mutating func string(maxLength: Int) -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<below(maxLength + 1) {
                switch below(10) {
                case 0: scalars.append(Unicode.Scalar(UInt8(below(0x20))))
                case 1: scalars.append(Unicode.Scalar(0x1F300 + UInt32(below(0x300)))!)
                // No U+FEFF: Foundation's JSONSerialization on Linux drops it from strings.
                case 2: scalars.append(["\"", "\\", "/", "\u{2028}", "\u{2029}", "\u{FFFE}", "\u{7F}"][below(7)])
                case 3: scalars.append(Unicode.Scalar(0xE000 + UInt32(below(0x1000)))!)
                case 4: scalars.append(Unicode.Scalar(0x400 + UInt32(below(0x100)))!)
                default: scalars.append(Unicode.Scalar(UInt8(0x20 + below(0x5F))))
                }
            }
            return String(scalars)
        }

        mutating func number() -> String {
            switch below(5) {
            case 0: return String(Int(bitPattern: UInt(random.next())) >> below(64))
            case 1:
                let value = Double(bitPattern: random.next())
                return value.isFinite ? value.description : "2.5"
            case 2: return String(Double(below(1_000_000)) / 64)
            default: return RandomDocuments.numberPool[below(RandomDocuments.numberPool.count)]
            }
        }

        mutating func value(depth: Int) -> Model {
            let containers = depth < 6 ? 4 : 0
            switch below(6 + containers) {
            case 0: return .null
            case 1: return .bool(chance(50))
            case 2, 3: return .number(number())
            case 4, 5: return .string(string(maxLength: chance(10) ? 40 : 8))
            case 6, 7:
                return .array((0..<below(chance(10) ? 40 : 6)).map { _ in value(depth: depth + 1) })
            default:
                let count = below(chance(10) ? 40 : 8)
                var members: [(key: String, value: Model)] = []
                for _ in 0..<count {
                    // Repeat an earlier key now and then, so that duplicates are common.
                    let key = !members.isEmpty && chance(15) ? members[below(members.count)].key : key()
                    members.append((key, value(depth: depth + 1)))
                }
                return .object(members)
            }
        }
    }

    /// The model as JSON text, each character of a string written raw or escaped at random
    /// (astral characters as escaped surrogate pairs), with random whitespace.
    static func render(_ model: Model, _ random: inout Generator, into text: inout String) {
        func space() { if random.chance(10) { text += [" ", "\n", "\t", "\r\n "][random.below(4)] } }
        func string(_ value: String) {
            text += "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += random.chance(50) ? "\\\\" : "\\u005C"
                case "\n": text += "\\n"
                case "\t": text += "\\t"
                case "/" where random.chance(50): text += "\\/"
                case _ where scalar.value < 0x20 || random.chance(15):
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16, uppercase: random.chance(50))
                        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        space()
        switch model {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += value
        case .string(let value): string(value)
        case .array(let elements):
            text += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," }
                render(element, &random, into: &text)
            }
            space()
            text += "]"
        case .object(let members):
            text += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { text += "," }
                space()
                string(member.key)
                space()
                text += ":"
                render(member.value, &random, into: &text)
            }
            space()
            text += "}"
        }
        space()
    }

    static func render(_ model: Model, seed: UInt64) -> String {
        var random = Generator(random: SplitMix64(seed: seed))
        var text = ""
        render(model, &random, into: &text)
        return text
    }

    /// The library's compact text of `model` parsed on its own: the expected text of any view of
    /// the same value.
    static func expectedText(_ model: Model) throws -> String {
        try JSONValue(parsing: render(model, seed: 1)).description
    }

    /// Walks the model and the view together: kinds, counts, each distinct key (last value wins),
    /// each index, the members in order, typed reads, and every key path from the root.
    static func check(
        _ view: JSONValue, against model: Model, root: JSONValue, rootTree: Any, path: [String],
        random: inout Generator, issues: inout [String]
    ) throws {
        let here = path.isEmpty ? "$" : path.joined(separator: ".")
        func fail(_ message: String) { if issues.count < 20 { issues.append("\(here): \(message)") } }
        let expected = try expectedText(model)
        if view.description != expected { fail("description \(view.description) != \(expected)") }

        // Key paths from the root, with Elevate's rules, against the library's Foundation-side walk.
        let keyPath = path.joined(separator: ".")
        let byPath = root[keyPath: keyPath]
        let oracle = KeyPath(keyPath).value(in: rootTree)
        switch (byPath, oracle) {
        case (nil, nil): break
        case (let found?, let wanted?):
            let differences = jsonDifferences(found.foundationValue, wanted)
            if !differences.isEmpty { fail("keyPath \"\(keyPath)\": \(differences.prefix(2))") }
        case (let found, let wanted):
            fail("keyPath \"\(keyPath)\": view \(found.map(\.description) ?? "nil"), tree \(wanted.map { "\($0)" } ?? "nil")")
        }

        switch model {
        case .null:
            if !view.isNull || view.kind != .null { fail("not null") }
        case .bool(let value):
            if view.bool != value { fail("bool \(String(describing: view.bool))") }
        case .number(let text):
            guard let number = view.number else { return fail("not a number") }
            let reparsed = JSONNumber.parseText(text)
            if !JSONValue.numbersEqual(number, reparsed) { fail("number \(number) != \(reparsed) for \(text)") }
            if let int = view.int, Double(exactly: int).map({ $0 != view.double }) ?? false, view.double != nil {
                fail("int \(int) disagrees with double \(String(describing: view.double))")
            }
        case .string(let value):
            if view.string.map({ Array($0.utf8) }) != Array(value.utf8) { fail("string \(String(describing: view.string))") }
        case .array(let elements):
            if view.count != elements.count { fail("count \(view.count) != \(elements.count)") }
            if view.elements?.count != elements.count { fail("elements.count") }
            if view[elements.count] != nil || view[-1] != nil { fail("index out of range found") }
            for (offset, element) in elements.enumerated() {
                guard let child = view[offset] else {
                    fail("index \(offset) missing")
                    continue
                }
                try check(
                    child, against: element, root: root, rootTree: rootTree, path: path + [String(offset)],
                    random: &random, issues: &issues)
            }
        case .object(let members):
            let distinct = Model.distinct(members)
            if view.count != distinct.count { fail("count \(view.count) != \(distinct.count)") }
            let keys = Array(view.keys)
            if keys.map({ Array($0.utf8) }) != distinct.map({ Array($0.key.utf8) }) { fail("keys \(keys)") }
            for (key, value) in distinct {
                guard let child = view[key] else {
                    fail("key \(key.debugDescription) missing")
                    continue
                }
                try check(
                    child, against: value, root: root, rootTree: rootTree, path: path + [key], random: &random,
                    issues: &issues)
            }
            // Hinted lookups in a random order, with repeats and misses mixed in: the hint only
            // changes where the scan starts, never the answer.
            var hint: Int?
            for _ in 0..<(distinct.count * 3 + 2) {
                if distinct.isEmpty || random.chance(20) {
                    let missing = "missing\(random.below(3))"
                    if view.member(missing, hint: &hint) != nil { fail("found \(missing)") }
                    continue
                }
                let (key, value) = distinct[random.below(distinct.count)]
                let found = view.member(key, hint: &hint)
                if found?.description != (try expectedText(value)) {
                    fail("hinted lookup of \(key.debugDescription) gave \(found?.description ?? "nil")")
                }
            }
        }
    }

    /// The same value written otherwise: duplicates dropped, members shuffled, numbers respelled
    /// (`1` as `1.0` or `1e0`, `0` as `-0`).
    static func respelled(_ model: Model, _ random: inout Generator) -> Model {
        switch model {
        case .number(let text):
            guard random.chance(50), let integer = Int(text), integer.magnitude < 1 << 53 else { return model }
            if integer == 0 { return .number(["-0", "0.0", "-0.0", "0e5"][random.below(4)]) }
            return .number(random.chance(50) ? "\(integer).0" : "\(integer)e0")
        case .array(let elements): return .array(elements.map { respelled($0, &random) })
        case .object(let members):
            var distinct = Model.distinct(members).map { ($0.key, respelled($0.value, &random)) }
            distinct.shuffle(using: &random.random)
            return .object(distinct.map { (key: $0.0, value: $0.1) })
        default: return model
        }
    }

    /// The value with one of its values (the `target`th, in document order, of those that count)
    /// replaced by one of another kind; `target` counts down to it.
    static func mutated(_ model: Model, target: inout Int) -> Model {
        if target == 0 {
            target -= 1
            if case .string = model { return .bool(true) }
            return .string("mutated")
        }
        target -= 1
        switch model {
        case .array(let elements): return .array(elements.map { mutated($0, target: &target) })
        case .object(let members):
            return .object(Model.distinct(members).map { (key: $0.key, value: mutated($0.value, target: &target)) })
        default: return model
        }
    }

    static func valueCount(_ model: Model) -> Int {
        switch model {
        case .array(let elements): 1 + elements.map(valueCount).reduce(0, +)
        case .object(let members): 1 + Model.distinct(members).map { valueCount($0.value) }.reduce(0, +)
        default: 1
        }
    }

    /// `==`, except that an integer equals a `Double` it converts to: `JSONDecoder` reads the
    /// `Double` 8076960581486366208, which `JSONEncoder` writes `8.076960581486366e+18`, as the
    /// `Int` those digits spell (`JSON` tries `Int` first, to keep integers exact).
    static func sameAfterFoundation(_ decoded: JSON, _ original: JSON) -> Bool {
        switch (decoded, original) {
        case (.number(.int(let integer)), .number(.double(let double))): return Double(integer) == double
        case (.number(.uint(let integer)), .number(.double(let double))): return Double(integer) == double
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameAfterFoundation)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameAfterFoundation(value, $0) } ?? false }
        default: return decoded == original
        }
    }

    /// Keeps the view it is handed (and a view into it) past the call that decoded it.
    struct Held: Elevate.Decodable {
        let view: JSONValue
        let inner: JSONValue?

        init(json: Any) throws {
            guard let view = json as? JSONValue else { throw ParserError.validation(failureReason: "not a view") }
            // Read through the library, so that the type keeps being handed views.
            _ = try Parser.parseEntity(json: json) { _ in }
            self.view = view
            inner = view["inner"]
        }
    }

    /// Elements of varied sizes and shapes, so that a tape written over would show.
    static func streamElements(count: Int, seed: UInt64) -> [String] {
        var random = Generator(random: SplitMix64(seed: seed))
        return (0..<count).map { index in
            let padding = String(repeating: "p", count: random.below(3) == 0 ? random.below(300) : random.below(8))
            let extra = random.chance(50) ? #","extra":[\#(index),{"k":"\#(padding)"}]"# : ""
            return #"{"i":\#(index),"inner":{"s":"s\#(index)\#(padding)","n":\#(index * 7)}\#(extra),"pad":"\#(padding)"}"#
        }
    }

    static func checkHeld(_ held: [Held], _ elements: [String], _ label: String) throws {
        #expect(held.count == elements.count, "\(label)")
        var wrong: [Int] = []
        for (index, (value, text)) in zip(held, elements).enumerated() {
            let expected = try JSONValue(parsing: text)
            if value.view != expected || value.view.description != expected.description
                || value.inner?.description != expected["inner"]?.description
            {
                wrong.append(index)
            }
        }
        #expect(wrong.isEmpty, "\(label): held views changed at \(wrong.prefix(10))")
    }
}
