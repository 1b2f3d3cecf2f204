import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Keys are the same when their text is, as Swift compares strings and as the dictionaries of
/// `JSONSerialization` and `JSONDecoder` find keys: a key path spelled with a combining accent finds
/// the precomposed key, and the other way round. Bytes decide first; a miss looks again only at keys
/// that are not all ASCII.
@Suite struct KeyEquivalenceTests {
    static let precomposed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// One key spelled one way in the document and the other in the schema, both ways round, and
    /// the Kelvin sign, which is the same text as the letter K.
    static let spellings: [(document: String, schema: String)] = [
        (precomposed, decomposed), (decomposed, precomposed), ("\u{212A}elvin", "Kelvin"), ("Kelvin", "\u{212A}elvin"),
    ]

    static func document(_ key: String) -> Data {
        Data(#"{"other": 1, "\#(key)": "found", "last": true}"#.utf8)
    }

    @Test(arguments: 0..<4)
    func everyEntityPathFindsTheKeyAsFoundationDoes(_ index: Int) throws {
        let (key, keyPath) = Self.spellings[index]
        let data = Self.document(key)
        let build: (Schema) -> Void = { $0.addProperty(keyPath: keyPath, type: .string, optional: true) }
        let foundation = try Parser.parseEntity(json: try JSONSerialization.jsonObject(with: data), closure: build)
        #expect(foundation[keyPath] as? String == "found")
        #expect(try Parser.parseEntity(data: data, closure: build)[keyPath] as? String == "found")
        #expect(try Parser.parseEntity(json: try JSONValue(parsing: data), closure: build)[keyPath] as? String == "found")
        #expect(try JSONValue(parsing: data)[keyPath]?.string == "found")
    }

    @Test func keyPathsIntoArraysFindTheirComponents() throws {
        struct Item: Elevate.Decodable {
            let name: String
            init(json: Any) throws {
                let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: KeyEquivalenceTests.decomposed, type: .string) }
                name = entity <-! KeyEquivalenceTests.decomposed
            }
        }
        let data = Data(#"{"r\u00e9ponse": {"items": [{"caf\u00e9": "a"}, {"caf\u00e9": "b"}]}}"#.utf8)
        let items: [Item] = try Elevate.decodeArray(from: data, atKeyPath: "re\u{301}ponse.items")
        #expect(items.map(\.name) == ["a", "b"])
        var names: [String] = []
        try Elevate.forEachElement(from: .data(data), atKeyPath: "re\u{301}ponse.items", as: Item.self) {
            names.append($0.name)
        }
        #expect(names == ["a", "b"])
    }

    /// Elements cut one after another onto a reused tape: one whose keys are all ASCII must not
    /// leave the next, whose key is spelled otherwise, looked up by bytes alone.
    @Test func everyElementOfAStreamIsLookedUpAgain() throws {
        struct Item: Elevate.Decodable {
            let value: Int?
            init(json: Any) throws {
                let entity = try Parser.parseEntity(json: json) {
                    $0.addProperty(keyPath: KeyEquivalenceTests.decomposed, type: .int, optional: true)
                }
                value = entity <-? KeyEquivalenceTests.decomposed
            }
        }
        let elements = (0..<20).map { #"{"\#($0 % 2 == 0 ? "plain" : KeyEquivalenceTests.precomposed)": \#($0)}"# }
        let data = Data(("[" + elements.joined(separator: ",") + "]").utf8)
        let expected = (0..<20).map { $0 % 2 == 0 ? nil : $0 }
        let items: [Item] = try Elevate.decodeArray(from: data)
        #expect(items.map(\.value) == expected)
        var streamed: [Int?] = []
        try Elevate.forEachElement(from: .data(data), as: Item.self) { streamed.append($0.value) }
        #expect(streamed == expected)
    }

    @Test func codableFindsTheKeyAsJSONDecoderDoes() throws {
        struct Model: Swift.Decodable, Equatable {
            let value: String?
            enum CodingKeys: String, CodingKey { case value = "cafe\u{301}" }
        }
        let data = Self.document(Self.precomposed)
        let expected = try JSONDecoder().decode(Model.self, from: data)
        #expect(expected.value == "found")
        #expect(try ElevateJSONDecoder().decode(Model.self, from: data) == expected)
    }

    /// Nothing matches text that only looks alike: a missing accent, another letter, another case.
    @Test func differentTextIsNeverFound() throws {
        let data = Self.document(Self.precomposed)
        for keyPath in ["cafe", "cafè", "CAFÉ", "caf", "café ", "caf\u{E9}\u{301}"] {
            let entity = try Parser.parseEntity(data: data) { $0.addProperty(keyPath: keyPath, type: .string, optional: true) }
            #expect(entity[keyPath] == nil, "\(keyPath.debugDescription)")
            #expect(try JSONValue(parsing: data)[keyPath] == nil, "\(keyPath.debugDescription)")
        }
    }

    /// An object holding one key in two spellings (Å precomposed, and A with a combining ring): the
    /// spelling asked for wins; asked in a third (the Ångström sign), the last of them.
    @Test func twoSpellingsInOneObject() throws {
        let data = Data(#"{"\u00c5": "first", "A\u030a": "second"}"#.utf8)
        let value = try JSONValue(parsing: data)
        #expect(value["\u{C5}"]?.string == "first")
        #expect(value["A\u{30A}"]?.string == "second")
        #expect(value["\u{212B}"]?.string == "second")
    }

    /// The same object read while it streams by: the last spelling, as a Foundation dictionary
    /// keeps it, or an error where the first was already handed out.
    @Test func twoSpellingsWhileStreaming() throws {
        let strings = Data(#"{"caf\u00e9": "first", "cafe\u0301": "second"}"#.utf8)
        let entity = try Parser.parseEntity(data: strings) { $0.addProperty(keyPath: Self.precomposed, type: .string) }
        #expect(entity[Self.precomposed] as? String == "second")
        let foundation = try JSONSerialization.jsonObject(with: strings) as? [String: Any]
        #expect(foundation?[Self.precomposed] as? String == "second")
        let data = Data(#"{"caf\u00e9": [1], "cafe\u0301": [2]}"#.utf8)
        var delivered: [Int] = []
        #expect(throws: (any Error).self) {
            try Elevate.forEachElement(from: .data(data), atKeyPath: Self.precomposed, as: Int.self) { delivered.append($0) }
        }
        #expect(delivered == [1])
    }
}

/// `JSON`'s equality promises to be `JSONValue`'s; converting equal views must give equal values.
/// An object holding one key in two Unicode spellings breaks that: `JSONValue` pairs the members by
/// their bytes (the same two members, in another order: equal), while `JSON`, a `[String: JSON]`,
/// keeps one member per text (the last, as Foundation's dictionaries do), so the two orders keep
/// different values. Open: which side should give way is a design choice (see the report of
/// branch attack2), not a one-line fix.
@Suite struct KeyEquivalenceAgreementTests {
    @Test func equalViewsConvertToEqualJSON() throws {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        let first = try JSONValue(parsing: Data(#"{"\#(composed)": 1, "\#(decomposed)": 2}"#.utf8))
        let second = try JSONValue(parsing: Data(#"{"\#(decomposed)": 2, "\#(composed)": 1}"#.utf8))
        #expect(first == second)
        withKnownIssue("JSON keeps one member per key text, JSONValue compares both spellings") {
            #expect(JSON(first) == JSON(second))
        }
    }
}
