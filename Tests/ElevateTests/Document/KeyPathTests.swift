import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Every reader follows a key path by one rule: the tape's views, Foundation values, the Codable
/// decoder at a key path and Elevate's schema find the same value, or all find none.
@Suite struct KeyPathTests {
    static let document = Data(
        #"""
        {"a": {"b": [10, {"c": "deep"}], "x.y": "dotted inside"},
         "a.b": "literal root key",
         "list": [[1, 2], {"0": "key zero"}],
         "n": null, "s": "text", "": "empty key"}
        """#.utf8)

    static let paths = [
        "", "a", "a.b", "a.b.0", "a.b.1.c", "a.b.2", "a.b.x", "a.x.y", "list.0.1", "list.1.0", "list.-1",
        "list.01", "n", "n.x", "s.0", "missing", "missing.deeper", ".", "a.", ".a", "s",
    ]

    @Test(arguments: paths) func everyReaderFindsTheSameValue(_ path: String) throws {
        let view = try JSONValue(parsing: Self.document)[keyPath: path]
        let foundation = KeyPath(path).value(in: try JSONSerialization.jsonObject(with: Self.document))
        let decoded = try? ElevateJSONDecoder().decode(JSON.self, from: Self.document, atKeyPath: path)
        let viewJSON = view.map { JSON($0) }
        let foundationJSON = try foundation.map { try JSON(foundationValue: $0) }
        #expect(viewJSON == foundationJSON, "view and Foundation value differ at \(path)")
        #expect(viewJSON == decoded, "view and Codable decoder differ at \(path)")
        let entity = try? Parser.parseEntity(json: try JSONValue(parsing: Self.document)) { schema in
            schema.addProperty(keyPath: path.isEmpty ? "s" : path, type: .string, optional: true)
        }
        if !path.isEmpty, case .string(let text)? = viewJSON {
            #expect((entity?[path] as? String) == text, "the schema differs at \(path)")
        }
    }
}
