import ElevateSampleData
import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate

/// Attacks the document views (`JSONValue`) and the owned value (`JSON`) with seeded random
/// documents and hostile shapes, comparing every reading path with an oracle that does not share
/// the code under test: a model of the document written in the test, `JSONSerialization`, and the
/// library's own text of a separately parsed copy. Each random test prints its seed.
@Suite struct ValueAdversarialTests {
    // MARK: The model

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
            if chance(80) { return ValueAdversarialTests.keyPool[below(ValueAdversarialTests.keyPool.count)] }
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
            default: return ValueAdversarialTests.numberPool[below(ValueAdversarialTests.numberPool.count)]
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

    // MARK: Differential: every reading path against the model and Foundation

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

    /// Equality and hashing against the model: a respelled copy is equal both ways (as `JSONValue`
    /// and as `JSON`, with equal hashes), a copy with one value changed is unequal both ways, and
    /// `JSON` goes through both encoders and decoders unchanged.
    @Test func randomDocumentsCompareAndRoundTripConsistently() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("ValueAdversarialTests.randomDocumentsCompareAndRoundTripConsistently seed: \(seed)")
        var random = Generator(random: SplitMix64(seed: seed))
        var failures: [String] = []
        for round in 0..<150 where failures.count < 5 {
            let model = random.value(depth: 0)
            let text = Self.render(model, seed: random.random.next())
            let view = try JSONValue(parsing: text)
            let other = try JSONValue(parsing: Self.render(Self.respelled(model, &random), seed: random.random.next()))
            var target = random.below(Self.valueCount(model))
            let changed = try JSONValue(parsing: Self.render(Self.mutated(model, target: &target), seed: 3))
            func fail(_ message: String) { failures.append("round \(round), \(message), document \(text.prefix(200))") }
            if view != other || other != view { fail("a respelled copy is unequal") }
            if view == changed || changed == view { fail("a changed copy is equal") }
            let json = JSON(view)
            if json != JSON(other) || json.hashValue != JSON(other).hashValue { fail("JSON of a respelled copy differs") }
            if json == JSON(changed) { fail("JSON of a changed copy is equal") }
            if try JSON(foundationValue: view.foundationValue) != json { fail("JSON(foundationValue:) differs") }
            let elevate = try ElevateJSONDecoder().decode(JSON.self, from: ElevateJSONEncoder().encode(json))
            if elevate != json { fail("Elevate's encoder and decoder changed it to \(elevate)") }
            let foundation = try JSONDecoder().decode(JSON.self, from: JSONEncoder().encode(json))
            if !Self.sameAfterFoundation(foundation, json) { fail("Foundation's encoder and decoder changed it") }
            if try JSONValue(parsing: JSONWriter.string(for: json)) != view { fail("JSONWriter's text differs") }
        }
        #expect(failures.isEmpty, "seed \(seed):\n\(failures.joined(separator: "\n"))")
    }

    @Test func randomDocumentsAgreeWithTheModelAndFoundation() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("ValueAdversarialTests.randomDocumentsAgreeWithTheModelAndFoundation seed: \(seed)")
        var random = Generator(random: SplitMix64(seed: seed))
        var failures: [String] = []
        for round in 0..<150 {
            let model = random.value(depth: 0)
            let text = Self.render(model, seed: random.random.next())
            let view = try JSONValue(parsing: text)
            let tree = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            var issues = jsonDifferences(view.foundationValue, tree).map { "foundationValue \($0)" }
            try Self.check(view, against: model, root: view, rootTree: view.foundationValue, path: [], random: &random, issues: &issues)
            // The description is JSON that reads back as the same value.
            let again = try JSONValue(parsing: view.description)
            if again != view || view != again { issues.append("description does not read back equal") }
            if again.description != view.description { issues.append("description is not stable") }
            if !issues.isEmpty {
                failures.append("round \(round), document \(text.prefix(300)):\n  " + issues.prefix(5).joined(separator: "\n  "))
            }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "seed \(seed):\n\(failures.joined(separator: "\n"))")
    }

    // MARK: Views that outlive their element

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

    @Test(arguments: [1, 2, 4])
    func viewsHeldFromStreamsKeepTheirValues(concurrency: Int) async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("ValueAdversarialTests.viewsHeldFromStreamsKeepTheirValues seed: \(seed)")
        let elements = Self.streamElements(count: 600, seed: seed)
        let document = Data((#"{"before":[1,2],"items":["# + elements.joined(separator: ",") + #"],"after":{}}"#).utf8)
        let lines = Data(elements.joined(separator: "\n").utf8)
        var options = StreamingOptions()
        options.concurrency = concurrency
        options.chunkSize = 509

        var held: [Held] = []
        try Elevate.forEachElement(atKeyPath: "items", from: .data(document), as: Held.self, options: options) { held.append($0) }
        try Self.checkHeld(held, elements, "forEachElement")

        held = []
        try Elevate.forEachValue(from: .data(lines), framing: .jsonLines, as: Held.self, options: options) { held.append($0) }
        try Self.checkHeld(held, elements, "forEachValue")

        held = []
        let innerTexts = try elements.map { try JSONValue(parsing: $0)["inner"]!.description }
        try Elevate.forEachValue(from: .data(lines), framing: .jsonLines, atKeyPath: "inner", as: Held.self, options: options) {
            held.append($0)
        }
        try Self.checkHeld(held, innerTexts, "forEachValue at a key path")

        held = []
        for try await value in ByteChunks(Array(document), size: 777).decodedElements(
            atKeyPath: "items", as: Held.self, options: options)
        {
            held.append(value)
        }
        try Self.checkHeld(held, elements, "decodedElements")

        let decoded: [Held] = try Elevate.decodeArray(from: document, atKeyPath: "items")
        try Self.checkHeld(decoded, elements, "decodeArray")
    }

    // MARK: Equality

    /// `==` compares an object's members by looking each key up in the other object. Looked up in
    /// document order from where the last one was found, keys in another order made that a scan of
    /// the whole object per key: two 20,000-member objects in reverse order took 44 s. Counted in
    /// members looked at, not timed.
    @Test func objectsInAnotherOrderCompareInLinearSteps() throws {
        let count = 3_000
        let keys = (0..<count).map { "key\($0)" }
        func object(_ keys: [String]) throws -> JSONValue {
            try JSONValue(parsing: "{" + keys.map { #""\#($0)":[\#($0.count)]"# }.joined(separator: ",") + "}")
        }
        var random = Generator(random: SplitMix64(seed: 7))
        var shuffled = keys
        shuffled.shuffle(using: &random.random)
        let forward = try object(keys)
        for other in [try object(keys.reversed()), try object(shuffled), try object(keys)] {
            var steps = 0
            #expect(JSONValue.isEqual(forward, other, steps: &steps))
            #expect(steps <= 8 * count, "\(steps) steps for \(count) members")
            steps = 0
            #expect(JSONValue.isEqual(other, forward, steps: &steps))
            #expect(steps <= 8 * count, "\(steps) steps for \(count) members")
        }
        // A differing value is still found, wherever it is.
        var changed = keys.map { #""\#($0)":[\#($0.count)]"# }
        changed[count / 2] = #""key\#(count / 2)":[0]"#
        let different = try JSONValue(parsing: "{" + changed.reversed().joined(separator: ",") + "}")
        #expect(forward != different && different != forward)
    }

    /// Keys that are the same text in other spellings are found by lookups (see
    /// `KeyEquivalenceTests`); `==` must still be symmetric. `{"café"(precomposed):1,
    /// "café"(decomposed):1}` equalled `{"café":1,"other":1}` (both of its keys found the one
    /// `café`), while the other way round `other` was missing.
    @Test func equalityWithKeysInOtherSpellingsIsSymmetric() throws {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let pairs: [(String, String)] = [
            (#"{"\#(precomposed)":1,"\#(decomposed)":1}"#, #"{"\#(precomposed)":1,"other":1}"#),
            (#"{"\#(precomposed)":1,"\#(decomposed)":1}"#, #"{"\#(decomposed)":1,"other":1}"#),
            (#"{"\u212Aelvin":1,"Kelvin":1}"#, #"{"Kelvin":1,"x":1}"#),
            (#"{"\#(precomposed)":1,"\#(decomposed)":2}"#, #"{"\#(decomposed)":2,"\#(precomposed)":1}"#),
            (#"{"\#(precomposed)":1}"#, #"{"\#(decomposed)":1}"#),
            (#"{"\#(precomposed)":1}"#, #"{"\#(decomposed)":2}"#),
        ]
        for (first, second) in pairs {
            let a = try JSONValue(parsing: first)
            let b = try JSONValue(parsing: second)
            #expect((a == b) == (b == a), "\(first) vs \(second)")
        }
        // Equal where every key finds its equal both ways.
        #expect(try JSONValue(parsing: pairs[3].0) == JSONValue(parsing: pairs[3].1))
        #expect(try JSONValue(parsing: pairs[4].0) == JSONValue(parsing: pairs[4].1))
        #expect(try JSONValue(parsing: pairs[5].0) != JSONValue(parsing: pairs[5].1))
    }

    /// `JSONNumber.uint` is documented for integers above `Int.max`, but it is a public case:
    /// `JSON(.uint(5))` equalled `JSON(5.0)`, which equals `JSON(5)`, yet not `JSON(5)` itself
    /// (with equal hashes): `==` was not transitive.
    @Test func aSmallUnsignedNumberEqualsTheSameInteger() {
        #expect(JSON(.uint(5)) == JSON(5.0))
        #expect(JSON(5.0) == JSON(5))
        #expect(JSON(.uint(5)) == JSON(5))
        #expect(JSON(5) == JSON(.uint(5)))
        #expect(JSON(-1) != JSON(.uint(UInt.max)))
        #expect(Set([JSON(.uint(5)), JSON(5), JSON(5.0)]).count == 1)
        #expect(JSON(.uint(5)).int == 5)
        #expect(JSONValue.numbersEqual(.int(Int.max), .uint(UInt(Int.max))))
    }

    // MARK: JSON's Codable

    /// A number beyond 64 bits is never written as a different number. `Decimal(string:)` rounds
    /// to 38 digits instead of failing, so `JSONEncoder` (handed a `Decimal`) must throw for one a
    /// `Decimal` cannot hold; `ElevateJSONEncoder` writes its exact text, as `JSONWriter` does
    /// (issue #26 item 8).
    @Test func aLargeNumberADecimalCannotHoldIsNotRounded() throws {
        let digits = "1234567890123456789012345678901234567890123456789"
        for text in [digits, "-" + digits, "1" + String(repeating: "0", count: 40) + "1", "1e400"] {
            let json: JSON = ["n": JSON(.large(text))]
            #expect(String(decoding: try ElevateJSONEncoder().encode(json), as: UTF8.self) == #"{"n":\#(text)}"#)
            do {
                let written = try JSONValue(parsing: try JSONEncoder().encode(json))["n"]
                Issue.record("Foundation wrote \(text) as \(written?.description ?? "nothing")")
            } catch is EncodingError {
            }
        }
        // Those a Decimal holds exactly still encode, whatever their spelling.
        for (text, expected) in [
            ("123456789012345678901234567890", "123456789012345678901234567890"),
            ("-18446744073709551616", "-18446744073709551616"),
            ("1234567890123456789012345678901234567800000", "1234567890123456789012345678901234567800000"),
        ] {
            let data = try ElevateJSONEncoder().encode(["n": JSON(.large(text))] as JSON)
            #expect(try JSONValue(parsing: data)["n"] == JSONValue(parsing: expected), "\(text)")
        }
    }

    // MARK: Hostile shapes

    /// Nesting as deep as the parser goes, read through every path that walks a whole value:
    /// none may need a stack frame per level beyond what a small stack holds.
    @Test func nestingAtTheDepthCeilingOnASmallStack() throws {
        let depth = JSONParsingOptions.depthCeiling
        var options = JSONDocumentOptions()
        options.parsing.maximumDepth = .max
        let objects = String(repeating: #"{"a":"#, count: depth - 2) + #"{"a":[1]}"# + String(repeating: "}", count: depth - 2)
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let mixed = String(repeating: #"[{"k.1":"#, count: depth / 2) + "0" + String(repeating: "}]", count: depth / 2)
        for text in [objects, arrays, mixed] {
            let value = try JSONValue(parsing: text, options: options)
            let copy = try JSONValue(parsing: text, options: options)
            let path = text == objects ? Array(repeating: "a", count: depth - 1) + ["0"] : []
            onSmallStack {
                precondition(value == copy && copy == value)
                precondition(value.description == text.filter { $0 != " " })
                _ = value.foundationValue
                var tree: Any? = value.foundationValue
                precondition(tree != nil)
                tree = nil
                if !path.isEmpty {
                    precondition(value[keyPath: path.joined(separator: ".")]?.int == 1)
                }
            }
            #expect(try JSONValue(parsing: value.description, options: options) == value)
        }
    }

    /// A count shared by threads.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add(_ amount: Int) { lock.withLock { value += amount } }
        var total: Int { lock.withLock { value } }
    }

    /// Many threads reading one view at once, each in its own order, with its own hints: every
    /// answer is the one a single thread gets.
    @Test func concurrentReadersInDifferentOrdersAgree() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("ValueAdversarialTests.concurrentReadersInDifferentOrdersAgree seed: \(seed)")
        let keys = (0..<300).map { $0 % 3 == 0 ? "long key number \($0)" : "k\($0)" }
        let text = "{" + keys.enumerated().map { #""\#($1)":{"i":\#($0),"s":"v\#($0)","a":[\#($0),{"x":\#($0)}]}"# }
            .joined(separator: ",") + #","k1":"replaced"}"#
        let document = try JSONValue(parsing: text)
        let expected = keys.indices.map { $0 == 1 ? #""replaced""# : #"{"i":\#($0),"s":"v\#($0)","a":[\#($0),{"x":\#($0)}]}"# }
        let mismatches = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var random = SplitMix64(seed: seed &+ UInt64(worker))
            var order = Array(keys.indices)
            order.shuffle(using: &random)
            var hint: Int?
            var wrong = 0
            for _ in 0..<3 {
                for index in order {
                    let found = random.next() % 2 == 0 ? document.member(keys[index], hint: &hint) : document[keys[index]]
                    if found?.description != expected[index] { wrong += 1 }
                    if index != 1, document[keyPath: "\(keys[index]).a.1.x"]?.int != index { wrong += 1 }
                    if document.member("absent", hint: &hint) != nil { wrong += 1 }
                }
                order.reverse()
            }
            mismatches.add(wrong)
        }
        #expect(mismatches.total == 0)
    }

    /// 100,000 members, half of them repeated: counts, the last value of every key, the members
    /// in order, and a hinted walk reading them all in linear steps.
    @Test func aHundredThousandMembersWithDuplicates() throws {
        let count = 100_000
        var members: [String] = []
        members.reserveCapacity(count + count / 2)
        for index in 0..<count { members.append(#""k\#(index)":\#(index)"#) }
        for index in stride(from: 0, to: count, by: 2) { members.append(#""k\#(index)":-\#(index)"#) }
        let document = try JSONValue(parsing: "{" + members.joined(separator: ",") + "}")
        #expect(document.count == count)
        let keys = Array(document.keys)
        #expect(keys.count == count)
        #expect(keys.prefix(3) == ["k1", "k3", "k5"])
        #expect(keys.suffix(2) == ["k99996", "k99998"])
        var hint: Int?
        var wrong = 0
        for key in keys {
            let index = Int(key.dropFirst())!
            if document.member(key, hint: &hint)?.int != (index % 2 == 0 ? -index : index) { wrong += 1 }
        }
        #expect(wrong == 0)
        let tree = document.foundationValue as? [String: Any]
        #expect(tree?.count == count)
        #expect(tree?["k4"] as? Int == -4)
        #expect(JSON(document).count == count)
    }

    /// `JSON(foundationValue: JSONSerialization.jsonObject(with: data))`, the documented way in:
    /// Foundation on Linux gives an `NSDecimalNumber` for a number a `Double` or `Int64` cannot
    /// hold exactly, and taking its `doubleValue` lost the integers beyond 64 bits
    /// (`-9223372036854775809` became `-9.223372036854776e+18`) and rounded 17-digit decimals to
    /// the wrong `Double` (`0.12345678901234567` became `0.12345678901234565`, not `…66`).
    @Test func foundationDecimalNumbersConvertExactly() throws {
        let texts = [
            "123456789012345678901234567890", "-9223372036854775809", "0.12345678901234567", "-73.98765432109876543",
            "3.141592653589793238462643383279", "18446744073709551616", "0.1", "9007199254740993", "1e-7",
        ]
        for text in texts {
            let data = Data("[\(text)]".utf8)
            let converted = try JSON(foundationValue: JSONSerialization.jsonObject(with: data))
            #expect(converted == JSON(try JSONValue(parsing: data)), "\(text): \(converted)")
        }
        // A Decimal that is not a number has no JSON form (it was read as 0).
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [Decimal.nan]) }
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [NSDecimalNumber.notANumber]) }
        // Nor do NaN and infinities, which made a JSON that is not equal to itself.
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: ["x": Double.nan]) }
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [NSNumber(value: Double.infinity)]) }
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [-Float.infinity]) }
        #expect(try JSON(foundationValue: [Decimal(string: "-0.000000000000000000000000000001")!]) == [-1e-30])
    }

    /// Keys and strings at the arena's length boundary (a length of 2^20 - 1 and more is stored in
    /// the arena, not in the entry): repeated in one object, shared between siblings, looked up,
    /// compared and written back.
    @Test func keysAndStringsAroundTheLongLengthMarker() throws {
        for length in [JSONTape.longLength - 1, JSONTape.longLength, JSONTape.longLength + 1] {
            let long = String(repeating: "k", count: length - 1)
            let keyA = long + "a"
            let keyB = long + "b"
            let text = #"[{"\#(keyA)":1,"\#(keyB)":2,"\#(keyA)":3},{"\#(keyA)":"\#(keyB)","\#(keyB)":4},{"x":"\#(keyA)"}]"#
            let value = try JSONValue(parsing: text)
            #expect(value[0]?.count == 2)
            #expect(value[0]?[keyA]?.int == 3)
            #expect(value[0]?[keyB]?.int == 2)
            #expect(value[0]?[long] == nil)
            #expect(value[1]?[keyA]?.string == keyB)
            #expect(value[1]?[keyB]?.int == 4)
            #expect(value[2]?["x"]?.string?.utf8.count == length)
            #expect(Array(value[0]!.keys) == [keyB, keyA])
            let again = try JSONValue(parsing: value.description)
            #expect(again == value && value == again)
            #expect(again[0] != again[1])
            #expect(JSON(value)[0][keyA] == 3)
        }
    }

    /// `JSONDecoder` converts the keys of every object inside a `JSON` with its key strategy (a
    /// `JSON` decodes through keyed containers); `ElevateJSONDecoder` copied the value off the tape
    /// with the keys as written, so the same `payload` decoded to `{"some_key":…}` instead of
    /// `{"someKey":…}`, and a `JSON` encoded with `convertToSnakeCase` did not read back.
    @Test func aJSONPropertyFollowsTheKeyDecodingStrategy() throws {
        struct Envelope: Swift.Codable, Equatable { var payload: JSON }
        let data = Data(#"{"payload":{"some_key":{"inner_key":[1,{"deep_key":"x_y"}]},"big":18446744073709551616}}"#.utf8)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let elevate = ElevateJSONDecoder()
        elevate.keyDecodingStrategy = .convertFromSnakeCase
        let decoded = try elevate.decode(Envelope.self, from: data)
        #expect(decoded.payload["someKey"]["innerKey"][1]["deepKey"] == "x_y")
        // Numbers are still exact (Foundation's reads this one as a Double).
        #expect(decoded.payload["big"] == JSON(.large("18446744073709551616")))
        #expect(try foundation.decode(Envelope.self, from: data).payload["someKey"] == decoded.payload["someKey"])

        let encoder = ElevateJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let original = Envelope(payload: ["someKey": ["innerKey": [1, 2.5, nil]]])
        #expect(try elevate.decode(Envelope.self, from: encoder.encode(original)) == original)

        // Upper case for the keys with an underscore, so that "payload" still finds the property.
        let shout: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            let key = path.last!.stringValue
            return StringCodingKey(key.contains("_") ? key.uppercased() : key)
        }
        elevate.keyDecodingStrategy = .custom(shout)
        foundation.keyDecodingStrategy = .custom(shout)
        let custom = try elevate.decode(Envelope.self, from: data)
        #expect(custom.payload["SOME_KEY"]["INNER_KEY"][1]["DEEP_KEY"] == "x_y")
        #expect(try foundation.decode(Envelope.self, from: data).payload["SOME_KEY"] == custom.payload["SOME_KEY"])
        // The default strategy keeps the keys as written.
        #expect(try ElevateJSONDecoder().decode(Envelope.self, from: data).payload["some_key"]["inner_key"][0] == 1)
    }

    /// `Elements` is a `Collection`: subscripting its `endIndex` must trap, as `Array`'s does. It
    /// made a view of whatever entry followed the array (the next member's key, or past the last
    /// entry written, for the root), which later reads took for a value.
    @Test func subscriptingElementsAtTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let value = try JSONValue(parsing: #"{"a":[1,2],"b":3}"#)
            let elements = value["a"]!.elements!
            _ = elements[elements.endIndex]
        }
        await #expect(processExitsWith: .failure) {
            let elements = try JSONValue(parsing: "[]").elements!
            _ = elements[elements.startIndex]
        }
    }
}
