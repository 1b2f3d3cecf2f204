import Elevate
import Foundation
import Testing

/// Ladybug's README, with `JSONKeyPathDecodable`: a tree whose name is at a key path and whose
/// planting date has a format of its own.
private struct LadybugTree: Codable, Equatable, JSONKeyPathDecodable {
    enum Family: Int, Codable { case deciduous, coniferous }
    struct Leaf: Codable, Equatable, JSONKeyPathDecodable {
        enum Size: String, Codable { case small, medium, large }
        let size: Size
        let isAttached: Bool
        static let keyPaths = ["isAttached": "is_attached"]
    }

    let name: String
    let family: Family
    let age: Int
    let plantedAt: Date
    let leaves: [Leaf]

    static let keyPaths = ["name": "tree_names.colloquial.0", "plantedAt": "planted_at"]
    static let transforms: [String: JSONTransform] = ["plantedAt": .date(format: "MM-dd-yyyy")]
}

/// Ladybug's date transformers, its `Map<Int>` of a string, and its sum of an array.
private struct SomeValues: Swift.Decodable, JSONKeyPathDecodable {
    let july4th: Date
    let y2k: Date
    let stamp: Date?
    let iso: Date
    let count: Int
    let sum: Int
    let maybe: Int?
    let fallback: Int

    static let keyPaths = ["y2k": "dates.y2k", "sum": "values", "iso": "dates.iso"]
    static let defaults: [String: any Sendable] = ["fallback": 42]
    static let transforms: [String: JSONTransform] = [
        "july4th": .date(format: "MM/dd/yyyy"),
        "y2k": .secondsSince1970,
        "stamp": .millisecondsSince1970,
        "iso": .iso8601,
        "count": JSONTransform { Int($0.string ?? "") },
        "sum": .decoding([Int].self) { $0.reduce(0, +) },
        "maybe": JSONTransform { Int($0.string ?? "") },
        "fallback": JSONTransform { Int($0.string ?? "") },
    ]
}

@Suite("JSONKeyPathDecodable transforms: Ladybug's per-property transformers")
struct JSONTransformTests {
    static let valuesJSON = #"""
        {"july4th": "07/04/1776", "dates": {"y2k": 946684800, "iso": "2026-11-27T15:14:08.5+01:00"},
         "stamp": 1500, "count": "100", "values": [1, 1, 2, 3, 5, 8, 13], "maybe": "x", "fallback": null}
        """#

    @Test func ladybugsTree() throws {
        let json = #"""
            {"tree_names": {"colloquial": ["oak"]}, "family": 0, "age": 120, "planted_at": "05-01-1904",
             "leaves": [{"size": "small", "is_attached": true}, {"size": "large", "is_attached": false}]}
            """#
        let tree = try ElevateJSONDecoder().decode(LadybugTree.self, from: Data(json.utf8))
        #expect(tree.name == "oak")
        #expect(tree.plantedAt == Date(timeIntervalSince1970: -2_072_390_400))  // 1904-05-01T00:00:00Z
        #expect(tree.leaves == [.init(size: .small, isAttached: true), .init(size: .large, isAttached: false)])
        // Its own output decodes back: a key path that leads nowhere reads the property's name,
        // decoded as written (a date as the encoder's strategy wrote it), without the transform.
        let data = try ElevateJSONEncoder().encode(tree)
        #expect(try ElevateJSONDecoder().decode(LadybugTree.self, from: data) == tree)
    }

    @Test func datesMapsAndSums() throws {
        let values = try ElevateJSONDecoder().decode(SomeValues.self, from: Data(Self.valuesJSON.utf8))
        #expect(values.july4th == Date(timeIntervalSince1970: -6_106_060_800))  // 1776-07-04T00:00:00Z
        #expect(values.y2k == Date(timeIntervalSince1970: 946_684_800))
        #expect(values.stamp == Date(timeIntervalSince1970: 1.5))
        #expect(values.iso == Date(timeIntervalSince1970: 1_795_788_848.5))
        #expect(values.count == 100)
        #expect(values.sum == 33)
        #expect(values.maybe == nil)  // the transform gave no value: an optional is nil
        #expect(values.fallback == 42)  // null takes the default; the transform is not asked
    }

    /// A failing transform is an error that names the coding key, the key path and the transform,
    /// at the value's position; so are a nil for a required property and a value of the wrong type.
    @Test func errorsNameThePropertyAndKeyPath() throws {
        func failure(_ replacing: String, _ with: String) -> DecodingError? {
            let text = Self.valuesJSON.replacingOccurrences(of: replacing, with: with)
            do {
                _ = try ElevateJSONDecoder().decode(SomeValues.self, from: Data(text.utf8))
                return nil
            } catch {
                return error as? DecodingError
            }
        }
        guard case .dataCorrupted(let context)? = failure(#""count": "100""#, #""count": "many""#) else {
            Issue.record("expected dataCorrupted")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["count"])
        #expect(context.debugDescription.contains("The transform gave no value"))
        #expect(context.debugDescription.contains("a transform to Int"))

        guard case .dataCorrupted(let sumContext)? = failure("[1, 1, 2, 3, 5, 8, 13]", #"[1, "x"]"#) else {
            Issue.record("expected dataCorrupted")
            return
        }
        #expect(sumContext.codingPath.map(\.stringValue) == ["sum"])
        #expect(sumContext.debugDescription.contains(#"at key path "values""#))
        #expect(sumContext.underlyingError is DecodingError)

        guard case .dataCorrupted(let dateContext)? = failure("07/04/1776", "July 4th") else {
            Issue.record("expected dataCorrupted")
            return
        }
        #expect(dateContext.debugDescription.contains("a date in the format MM/dd/yyyy"))

        guard case .keyNotFound(let key, _)? = failure(#""count": "100","#, "") else {
            Issue.record("expected keyNotFound")
            return
        }
        #expect(key.stringValue == "count")

        guard case .valueNotFound? = failure(#""count": "100""#, #""count": null"#) else {
            Issue.record("expected valueNotFound")
            return
        }
    }

    @Test func aTransformGivingAnotherTypeIsATypeMismatch() {
        struct Wrong: Swift.Decodable, JSONKeyPathDecodable {
            var count: Int
            static let transforms: [String: JSONTransform] = ["count": JSONTransform { $0.string }]
        }
        #expect {
            try ElevateJSONDecoder().decode(Wrong.self, from: Data(#"{"count": "1"}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.debugDescription.contains("gave a String, not a Int")
        }
    }

    @Test func aTransformNamingNoCodingKeyIsAnError() {
        struct Misspelled: Swift.Decodable, JSONKeyPathDecodable {
            var count: Int
            static let transforms: [String: JSONTransform] = ["cuont": JSONTransform { $0.int }]
        }
        #expect(throws: DecodingError.self) {
            try ElevateJSONDecoder().decode(Misspelled.self, from: Data(#"{"count": 1}"#.utf8))
        }
    }

    /// The same transforms on every element of a stream read by two workers.
    @Test func transformsRunOnWorkers() throws {
        let element = #"{"july4th": "07/04/1776", "dates": {"y2k": 1, "iso": "2026-11-27T15:14:08Z"}, "count": "7", "values": [1, 2]}"#
        let text = "[" + Array(repeating: element, count: 2_000).joined(separator: ",") + "]"
        var options = StreamingOptions()
        options.concurrency = 2
        var total = 0
        try Elevate.forEachElement(from: .data(Data(text.utf8)), as: SomeValues.self, options: options) { value in
            total += value.count + value.sum
        }
        #expect(total == 2_000 * 10)
    }
}
