import ElevateMacros
import Foundation
import Testing

// Types as users write them, decoded through the generated `init(fromTape:)` and through
// `init(from:)` on the same decoder: values and errors (case, coding path, message, position) must
// be the same. Values are also checked against Foundation's `JSONDecoder` (whose errors differ
// from this decoder's in documented ways: positions, number messages, repeated keys).

@TapeDecodable
struct MacroPerson: Codable, Equatable {
    var identifier: Int
    var name: String
    var nickname: String?
    var isMember: Bool?
    var score: Double
    var addresses: [MacroAddress]
    var tags: [String: Int]?
    var birth: Date?
    var small: Int8?
    var forced: String!
    var optionalArray: Optional<[MacroAddress]>
    let kind = "person"
    var computed: String { name.uppercased() }
}

@TapeDecodable
struct MacroAddress: Codable, Equatable {
    var street: String
    var city: String
    var zip: UInt32?
}

@TapeDecodable
public struct MacroRenamed: Codable, Equatable {
    public var total: Int = 7
    public var note: String?
    public var skipped: Int = 3
    public var plain: PlainCounter
    enum CodingKeys: String, CodingKey {
        case total = "sum_total", note = "the note", plain
    }
}

/// No macro, its own `init(from:)`: decoded by the standard path inside generated ones, with the
/// coding path it sees recorded.
public struct PlainCounter: Codable, Equatable {
    var count: Int
    var path: String

    init(count: Int, path: String) {
        self.count = count
        self.path = path
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
    }
}

@TapeDecodable
struct MacroPage<Item: Codable & Equatable>: Codable, Equatable {
    var items: [Item]
    var next: Int?
}

enum MacroNamespace {
    @TapeDecodable
    struct Inner: Codable, Equatable {
        var x: Int
        var more: [Inner]?
    }
}

/// `init(from:)` reads in `CodingKeys` order: the first error of several is the first case's.
@TapeDecodable
struct MacroKeyOrder: Codable, Equatable {
    var a: Int
    var b: Int
    enum CodingKeys: CodingKey { case b, a }
}

typealias MaybeInt = Int?

/// Optionals however spelled: the compiler reads each with `decodeIfPresent`.
@TapeDecodable
struct MacroOptionalSpellings: Codable, Equatable {
    var aliased: MaybeInt
    var parenthesized: (Int?)
    var doubled: Int??
    var generic: Optional<[String]>
    lazy var notDecoded: Int = 5
}

/// Strategies that reach a child through the standard path, and a key-path plan.
@TapeDecodable
struct MacroStrategies: Codable, Equatable {
    var blob: Data
    var ratio: Double
    var ratios: [Float]
    var when: Date
    var plan: MacroPlanned?
}

struct MacroPlanned: Codable, Equatable, JSONKeyPathDecodable {
    var city: String
    var leaf: MacroAddress?
    static let keyPaths = ["city": "address.city"]
    static let defaults: [String: any Sendable] = ["city": "nowhere"]
}

@TapeDecodable
struct MacroEmpty: Codable, Equatable {}

@TapeDecodable
struct MacroConstant: Codable, Equatable {
    let version = 2
}

/// Property names that the generated initializer's own names (`value`, `container`) could shadow.
@TapeDecodable
struct MacroShadowing: Codable, Equatable {
    var value: Int
    var container: [String]
    var `self`: Bool?
    var children: [Self]?
}

@TapeDecodable
struct MacroTree: Codable, Equatable {
    var value: Int
    var children: [MacroTree]
}

/// A coding key made from a string, for a custom key strategy.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

@Suite struct TapeDecodableDecodingTests {
    /// The outcome of a decode, as text: the value's description or the error's.
    static func outcome<T: Decodable>(
        _ type: T.Type, _ json: String, fast: Bool, snakeCase: Bool = false,
        configure: (ElevateJSONDecoder) -> Void = { _ in }
    ) -> String {
        let decoder = ElevateJSONDecoder()
        decoder.usesTapeDecodable = fast
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        decoder.dateDecodingStrategy = .secondsSince1970
        configure(decoder)
        do {
            return "value: \(try decoder.decode(type, from: Data(json.utf8)))"
        } catch {
            return "error: \(error)"
        }
    }

    /// Checks that the two paths agree, and that a value is Foundation's too.
    static func expectSame<T: Decodable>(
        _ type: T.Type, _ json: String, snakeCase: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let fast = outcome(type, json, fast: true, snakeCase: snakeCase)
        #expect(fast == outcome(type, json, fast: false, snakeCase: snakeCase), sourceLocation: sourceLocation)
        let foundation = foundationOutcome(type, json, snakeCase: snakeCase)
        if fast.hasPrefix("value:") || foundation.hasPrefix("value:") {
            #expect(fast == foundation, sourceLocation: sourceLocation)
        }
    }

    static func foundationOutcome<T: Decodable>(_ type: T.Type, _ json: String, snakeCase: Bool = false) -> String {
        let decoder = JSONDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return "value: \(try decoder.decode(type, from: Data(json.utf8)))"
        } catch {
            return "error: \(error)"
        }
    }

    static let address = #"{"street": "1 Main", "city": "Oslo"}"#
    static let person =
        #"{"identifier": 1, "name": "Ann", "score": 2.5, "addresses": [\#(address)], "forced": "f", "optionalArray": null}"#

    static let people: [String] = [
        person,
        #"{"identifier": 1, "name": "Ann", "nickname": "A", "isMember": true, "score": 1e2, "addresses": [], "tags": {"a": 1}, "birth": 0, "small": -128, "forced": null, "optionalArray": [\#(address)]}"#,
        #"{"name": "Ann", "identifier": 2, "score": 0, "addresses": [{"city": "X", "street": "Y", "zip": 12345}], "forced": "x", "unknown": [1, {"a": 2}]}"#,
        // Errors: missing, null, wrong kind, out of range, deep inside an array.
        #"{"name": "Ann", "score": 1, "addresses": [], "forced": "f"}"#,
        #"{"identifier": null, "name": "Ann", "score": 1, "addresses": [], "forced": "f"}"#,
        #"{"identifier": "1", "name": "Ann", "score": 1, "addresses": [], "forced": "f"}"#,
        #"{"identifier": 1.5, "name": "Ann", "score": 1, "addresses": [], "forced": "f"}"#,
        #"{"identifier": 1, "name": "Ann", "score": 1, "addresses": [], "small": 128, "forced": "f"}"#,
        #"{"identifier": 1, "name": "Ann", "score": 1, "addresses": [\#(address), {"street": 5, "city": "X"}], "forced": "f"}"#,
        #"{"identifier": 1, "name": "Ann", "score": 1, "addresses": [{"street": "s"}], "forced": "f"}"#,
        #"{"identifier": 1, "name": "Ann", "score": 1, "addresses": {}, "forced": "f"}"#,
        #"{"identifier": 1, "name": "Ann", "score": 1, "addresses": [], "tags": {"a": "x"}, "forced": "f"}"#,
        #"{"identifier": 1, "name": "Ann", "score": 1, "addresses": [], "nickname": 3, "forced": "f"}"#,
        #"{"identifier": 1, "name": "Ann", "score": 1, "addresses": [], "forced": "f", "optionalArray": [null]}"#,
        #"[1, 2]"#,
        #"null"#,
    ]

    @Test(arguments: people)
    func aPersonDecodesAsInitFrom(json: String) {
        Self.expectSame(MacroPerson.self, json)
    }

    /// A repeated key: the last one on both paths (Foundation's is the first, a documented difference).
    @Test func repeatedKeys() {
        let json = #"{"identifier": 1, "identifier": 3, "name": "Ann", "score": 1, "addresses": [], "forced": "f"}"#
        let fast = Self.outcome(MacroPerson.self, json, fast: true)
        #expect(fast.hasPrefix("value: MacroPerson(identifier: 3,"))
        #expect(fast == Self.outcome(MacroPerson.self, json, fast: false))
    }

    @Test(arguments: [
        #"{"sum_total": 1, "the note": "n", "plain": {"count": 2}}"#,
        #"{"plain": {"count": 2}, "skipped": 9}"#,
        #"{"sum_total": 1, "plain": {"count": "2"}}"#,
        #"{"total": 1, "plain": {}}"#,
    ])
    func customKeysAndStandardChildren(json: String) {
        Self.expectSame(MacroRenamed.self, json)
    }

    @Test func theStandardChildSeesItsCodingPath() throws {
        let json = #"[{"a": {"sum_total": 1, "plain": {"count": 2}}}]"#
        let decoded = try ElevateJSONDecoder().decode([[String: MacroRenamed]].self, from: Data(json.utf8))
        #expect(decoded[0]["a"]?.plain.path == "Index 0.a.plain")
    }

    @Test(arguments: [
        #"{"items": [1, 2], "next": 3}"#, #"{"items": [1, "2"]}"#, #"{"items": null}"#,
    ])
    func genericStructs(json: String) {
        Self.expectSame(MacroPage<Int>.self, json)
    }

    @Test(arguments: [#"{}"#, #"{"a": 1}"#, #"[]"#, #"3"#])
    func emptyStructs(json: String) {
        Self.expectSame(MacroEmpty.self, json)
        Self.expectSame(MacroConstant.self, json)
    }

    @Test(arguments: [
        #"{"value": 1, "container": ["a"], "self": true, "children": [{"value": 2, "container": []}]}"#,
        #"{"value": 1, "container": "a"}"#,
    ])
    func namesTheInitializerUses(json: String) {
        Self.expectSame(MacroShadowing.self, json)
    }

    @Test(arguments: [#"{}"#, #"{"a": "x", "b": "y"}"#, #"{"a": 1, "b": 2}"#])
    func declaredKeysSetTheOrder(json: String) {
        Self.expectSame(MacroKeyOrder.self, json)
    }

    @Test(arguments: [
        #"{}"#, #"{"aliased": 1, "parenthesized": null, "doubled": null, "generic": ["a"]}"#,
        #"{"aliased": "1"}"#, #"{"doubled": 3, "notDecoded": 9}"#,
    ])
    func optionalsHoweverSpelled(json: String) {
        Self.expectSame(MacroOptionalSpellings.self, json)
    }

    @Test(arguments: [
        #"{"blob": "AQID", "ratio": "NaN", "ratios": ["Infinity", 1.5], "when": 5, "plan": {"address": {"city": "Oslo"}}}"#,
        #"{"blob": "!!", "ratio": 1, "ratios": [], "when": 5}"#,
        #"{"blob": "", "ratio": "nan", "ratios": [], "when": 5}"#,
        #"{"blob": "", "ratio": 1, "ratios": [], "when": 5, "plan": {"address": {"city": null}, "leaf": {"street": 1, "city": "c"}}}"#,
        #"{"blob": "", "ratio": 1, "ratios": [], "when": 5, "plan": {"address": {}, "leaf": {"street": "s", "city": "c"}}}"#,
    ])
    func strategiesAndPlansApply(json: String) {
        let configure = { (decoder: ElevateJSONDecoder) in
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            decoder.dataDecodingStrategy = .base64
        }
        let fast = Self.outcome(MacroStrategies.self, json, fast: true, configure: configure)
        #expect(fast == Self.outcome(MacroStrategies.self, json, fast: false, configure: configure))
    }

    /// A custom key strategy and `userInfo`, read by a child's own `init(from:)`.
    @Test func customKeysAndUserInfo() {
        let json = #"{"SUM_TOTAL": 1, "THE NOTE": "n", "PLAIN": {"COUNT": 2}}"#
        let configure = { (decoder: ElevateJSONDecoder) in
            decoder.keyDecodingStrategy = .custom { path in
                AnyKey(path.last!.stringValue.lowercased())
            }
            decoder.userInfo[CodingUserInfoKey(rawValue: "mark")!] = "seen"
        }
        let fast = Self.outcome(MacroRenamed.self, json, fast: true, configure: configure)
        #expect(fast.hasPrefix("value:"))
        #expect(fast == Self.outcome(MacroRenamed.self, json, fast: false, configure: configure))
    }

    @Test(arguments: [#"{"x": 1, "more": [{"x": 2}]}"#, #"{"x": 1, "more": [{"y": 2}]}"#])
    func nestedTypes(json: String) {
        Self.expectSame(MacroNamespace.Inner.self, json)
    }

    @Test func recursiveTypes() {
        var json = #"{"value": 0, "children": []}"#
        for depth in 1...40 { json = #"{"value": \#(depth), "children": [\#(json), {"value": -1, "children": []}]}"# }
        let fast = Self.outcome(MacroTree.self, json, fast: true)
        #expect(fast.hasPrefix("value:"))
        #expect(fast == Self.outcome(MacroTree.self, json, fast: false))
        let broken = json.replacingOccurrences(of: #""value": 7,"#, with: #""value": "7","#)
        let error = Self.outcome(MacroTree.self, broken, fast: true)
        #expect(error.hasPrefix("error:"))
        #expect(error == Self.outcome(MacroTree.self, broken, fast: false))
    }

    @Test func keyStrategiesApply() {
        let json = #"{"sum_total": 1, "the_note": "n", "plain": {"count": 2}}"#
        Self.expectSame(MacroRenamed.self, json, snakeCase: true)
        Self.expectSame(
            MacroRenamed.self, #"{"sum_total": 1, "the note": "n", "plain": {"count": 2}}"#, snakeCase: true)
    }

    @Test func streamsUseTheGeneratedDecoder() throws {
        let items = (0..<2000).map { #"{"street": "s\#($0)", "city": "c", "zip": \#($0)}"# }
        let json = Data("{\"list\": [\(items.joined(separator: ","))]}".utf8)
        var options = StreamingOptions()
        options.concurrency = 2
        var seen: [MacroAddress] = []
        try forEachElement(from: .data(json), atKeyPath: "list", as: MacroAddress.self, options: options) {
            seen.append($0)
        }
        #expect(seen.count == 2000)
        #expect(seen[1999] == MacroAddress(street: "s1999", city: "c", zip: 1999))
        let broken = Data(
            String(decoding: json, as: UTF8.self).replacingOccurrences(of: #""zip": 1500"#, with: #""zip": -1"#).utf8)
        var fastError = ""
        var slowError = ""
        do {
            try forEachElement(from: .data(broken), atKeyPath: "list", as: MacroAddress.self, options: options) { _ in }
        } catch { fastError = "\(error)" }
        let slow = ElevateJSONDecoder()
        slow.usesTapeDecodable = false
        do {
            try forEachElement(
                from: .data(broken), atKeyPath: "list", as: MacroAddress.self, decoder: slow, options: options
            ) { _ in }
        } catch { slowError = "\(error)" }
        #expect(fastError.contains("list[1500].zip"))
        #expect(fastError == slowError)
    }
}
