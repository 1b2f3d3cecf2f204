import Foundation
import Testing

@testable import Elevate

/// One rule for a key that repeats in an object, in every API: the last occurrence replaces the
/// earlier value whole, never merged with it; where an earlier value was already handed out by a
/// streaming call, that is an error instead of a merged answer.
@Suite struct DuplicateKeyTests {
    private static let users = Data(#"{"user":{"name":"alice","role":"admin"},"user":{"name":"bob"}}"#.utf8)
    private static let items = Data(#"{"items":[1,2],"items":[3]}"#.utf8)

    private struct User: Elevate.Decodable, Equatable {
        let name: String
        let role: String?
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "name", type: .string)
                schema.addProperty(keyPath: "role", type: .string, optional: true)
            }
            name = entity <-! "name"
            role = entity <-? "role"
        }
    }

    @Test func parseEntityTakesTheLastObjectWhole() throws {
        let entity = try Parser.parseEntity(data: Self.users) { schema in
            schema.addProperty(keyPath: "user.name", type: .string)
            schema.addProperty(keyPath: "user.role", type: .string, optional: true)
        }
        #expect(entity["user.name"] as? String == "bob")
        #expect(entity["user.role"] == nil)
        // Adding an unrelated property does not change the answer.
        let wider = try Parser.parseEntity(data: Self.users) { schema in
            schema.addProperty(keyPath: "user.name", type: .string)
            schema.addProperty(keyPath: "user.role", type: .string, optional: true)
            schema.addProperty(keyPath: "user", type: .dictionary)
        }
        #expect(wider["user.name"] as? String == "bob")
        #expect(wider["user.role"] == nil)
        #expect((wider["user"] as? [String: Any])?.count == 1)
    }

    @Test func decodeObjectTakesTheLastObjectWhole() throws {
        let user: User = try Elevate.decodeObject(from: Self.users, atKeyPath: "user")
        #expect(user == (try User(json: ["name": "bob"] as [String: Any])))
    }

    @Test func viewsAndFoundationValuesTakeTheLast() throws {
        let view = try JSONValue(parsing: Self.users)
        #expect(view[keyPath: "user.name"]?.string == "bob")
        #expect(view[keyPath: "user.role"] == nil)
        let tree = try #require(view.foundationValue as? [String: Any])
        #expect((tree["user"] as? [String: Any])?.keys.sorted() == ["name"])
    }

    @Test func decodeArrayTakesTheLastArray() throws {
        let numbers: [Int] = try Elevate.decodeArray(from: Self.items, atKeyPath: "items")
        #expect(numbers == [3])
        let nested = Data(#"{"r":{"items":[1]},"r":{"other":true}}"#.utf8)
        #expect(throws: ParserError.self) {
            let _: [Int] = try Elevate.decodeArray(from: nested, atKeyPath: "r.items")
        }
    }

    @Test func streamingRefusesToMergeWhatItAlreadyDelivered() {
        var seen: [Int] = []
        do {
            try Elevate.forEachElement(atKeyPath: "items", from: .data(Self.items), as: Int.self) { seen.append($0) }
            Issue.record("no error")
        } catch let error as ParserError {
            #expect(error.failureReason.contains("appears more than once"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(seen == [1, 2])
        // Nothing delivered yet from the first occurrence: the last one is used.
        var later: [Int] = []
        #expect(throws: Never.self) {
            try Elevate.forEachElement(
                atKeyPath: "items", from: .data(Data(#"{"items": null, "items": [4, 5]}"#.utf8)), as: Int.self
            ) { later.append($0) }
        }
        #expect(later == [4, 5])
    }

    @Test func jsonLinesValuesTakeTheLast() throws {
        var names: [String] = []
        let lines = Data((#"{"u":{"name":"a","role":"x"},"u":{"name":"b"}}"# + "\n").utf8)
        try Elevate.forEachValue(from: .data(lines), framing: .jsonLines, atKeyPath: "u", as: User.self) {
            names.append("\($0.name) \($0.role ?? "-")")
        }
        #expect(names == ["b -"])
    }

    @Test func countingTakesTheLast() throws {
        let summary = try summarizeValue(atKeyPath: "items", from: .data(Self.items))
        #expect(summary == JSONContainerSummary(kind: .array, count: 1))
    }

    @Test func forwardingRefusesARepeatedTarget() {
        final class Sink: JSONEventHandler {}
        #expect(throws: ParserError.self) {
            try forEachEvent(atKeyPath: "items", from: .data(Self.items), to: Sink())
        }
    }
}
