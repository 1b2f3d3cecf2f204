import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// JSON Pointer (RFC 6901) wherever a key path is taken: a path that starts with `/` splits on `/`
/// only, `~1` is `/` and `~0` is `~`, and nothing is tried as a literal key.
@Suite struct JSONPointerTests {
    static let document = Data(
        #"""
        {"a.b": {"c/d": [10, {"~x": "tilde"}]},
         "a": {"b": "split"},
         "": {"": "empty"},
         "/tmp": 1,
         "response": {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}}
        """#.utf8)

    @Test(arguments: [
        ("/a.b/c~1d/0", "10"),
        ("/a.b/c~1d/1/~0x", "\"tilde\""),
        ("/a/b", "\"split\""),
        ("/~1tmp", "1"),
        ("/", "{\"\":\"empty\"}"),
        ("//", "\"empty\""),
        ("/response/items/1/name", "\"b\""),
    ])
    func aPointerFindsItsValue(pointer: String, expected: String) throws {
        let document = try JSONValue(parsing: Self.document)
        #expect(document[keyPath: pointer]?.description == expected)
        // The same answer from Foundation values (Elevate's schema on `[String: Any]`).
        let foundation = try JSONSerialization.jsonObject(with: Self.document)
        #expect(KeyPath(pointer).value(in: foundation) != nil)
    }

    @Test func aPointerIsNeverALiteralKey() throws {
        let document = try JSONValue(parsing: Self.document)
        // As an Elevate path, "a.b" is the literal key first; as a pointer, "/a.b" is that key only.
        #expect(document[keyPath: "a.b"]?.isObject == true)
        #expect(document[keyPath: "/a.b"]?.isObject == true)
        // An escape that is not ~0 or ~1 is kept; a missing or out-of-range step is nothing.
        #expect(document[keyPath: "/a.b/c~1d/5"] == nil)
        #expect(document[keyPath: "/a.b/c/d"] == nil)
        #expect(document[keyPath: "/response/items/-"] == nil)
    }

    @Test func theStreamingCallsTakePointers() throws {
        var names: [String] = []
        let count = try Elevate.forEachElement(from: .data(Self.document), atKeyPath: "/response/items", as: NamedItem.self) {
            names.append($0.name)
        }
        #expect(count == 2 && names == ["a", "b"])
        #expect(try summarizeValue(from: .data(Self.document), atKeyPath: "/a.b/c~1d")?.count == 2)
        let items: [NamedItem] = try Elevate.decodeArray(from: .data(Self.document), atKeyPath: "/response/items")
        #expect(items.map(\.id) == [1, 2])
        struct Tilde: Swift.Decodable { var value: String
            init(from decoder: any Swift.Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }
        }
        #expect(try ElevateJSONDecoder().decode(Tilde.self, from: Self.document, atKeyPath: "/a.b/c~1d/1/~0x").value == "tilde")
        // A failing element's coding path has the pointer's keys, unescaped.
        let bad = Data(#"{"a/b": [{"id": "x", "name": "a"}]}"#.utf8)
        struct Item: Swift.Decodable { var id: Int }
        do {
            _ = try ElevateJSONDecoder().decode([Item].self, from: bad, atKeyPath: "/a~1b")
            Issue.record("no error")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["a/b", "Index 0", "id"])
        }
    }

    @Test func elevateSchemasTakePointers() throws {
        let entity = try Parser.parseEntity(data: Self.document) { schema in
            schema.addProperty(keyPath: "/a.b/c~1d/0", type: .int)
            schema.addProperty(keyPath: "/~1tmp", type: .int)
        }
        let first: Int = entity <-! "/a.b/c~1d/0"
        let tmp: Int = entity <-! "/~1tmp"
        #expect(first == 10 && tmp == 1)
    }
}
