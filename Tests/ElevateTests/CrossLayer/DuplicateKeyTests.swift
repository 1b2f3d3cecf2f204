import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

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
            try Elevate.forEachElement(from: .data(Self.items), atKeyPath: "items", as: Int.self) { seen.append($0) }
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
                from: .data(Data(#"{"items": null, "items": [4, 5]}"#.utf8)), atKeyPath: "items", as: Int.self
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
        let summary = try summarizeValue(from: .data(Self.items), atKeyPath: "items")
        #expect(summary == JSONContainerSummary(kind: .array, count: 1))
    }

    /// An object's members are counted as `JSONValue` counts them: a repeated key once, however
    /// it is escaped (reported by the README audit: every occurrence was counted).
    @Test(arguments: [
        (#"{"user":{"name":"alice","role":"admin"},"user":{"name":"bob"}}"#, "", 1),
        (#"{"a":{"x":1,"x":2,"y":3}}"#, "a", 2),
        (#"{"a":{"x":1,"\u0078":2,"y":{"y":1,"y":2},"y":[]}}"#, "a", 2),
        (#"[{"k":1,"k":{"k":2},"l":3,"k":4}]"#, "0", 2),
        (#"{"a":{"p":{"x":1},"q":{"x":1}}}"#, "a", 2),
    ] as [(String, String, Int)])
    func countingAnObjectCountsARepeatedKeyOnce(_ text: String, _ keyPath: String, _ members: Int) throws {
        let summary = try summarizeValue(from: .data(Data(text.utf8)), atKeyPath: keyPath)
        #expect(summary == JSONContainerSummary(kind: .object, count: members))
        #expect(try JSONValue(parsing: text)[keyPath: keyPath]?.count ?? JSONValue(parsing: text).count == members)
        // A counted object after another one starts afresh.
        let twice = "[\(text),\(text)]"
        let second = try summarizeValue(from: .data(Data(twice.utf8)), atKeyPath: keyPath.isEmpty ? "1" : "1.\(keyPath)")
        #expect(second == JSONContainerSummary(kind: .object, count: members))
    }

    @Test func forwardingRefusesARepeatedTarget() {
        final class Sink: JSONEventHandler {}
        #expect(throws: ParserError.self) {
            try forEachEvent(from: .data(Self.items), atKeyPath: "items", to: Sink())
        }
    }

    /// A repeat found after its first value was handed out is an error at the repeated key's
    /// opening quote, with line and column: in a large file, a message alone does not say where.
    @Test func aRefusedRepeatSaysWhereItIs() throws {
        let text = "{\n  \"items\": [1, 2],\n  \"items\": [3]\n}"
        let expected = JSONSyntaxError(
            kind: .duplicateKey,
            message: "Key path [items] appears more than once in its object; "
                + "the elements of its first occurrence were already delivered",
            byteOffset: 23, line: 3, column: 3, excerpt: "")
        let unwrapped = StreamingOptions(wrapsErrorsInParserError: false)
        do {
            try Elevate.forEachElement(from: .data(Data(text.utf8)), atKeyPath: "items", as: Int.self, options: unwrapped) { _ in }
            Issue.record("no error")
        } catch let error as JSONSyntaxError {
            #expect(error.kind == expected.kind)
            #expect(error.message == expected.message)
            #expect([error.byteOffset, error.line, error.column] == [23, 3, 3] as [Int])
            #expect(error.excerpt == #"ems": [1, 2],\n  "items": [3]\n}"#, "\(error.excerpt)")
        }
        // Elevate's error by default, with the same position.
        do {
            try Elevate.forEachElement(from: .data(Data(text.utf8)), atKeyPath: "items", as: Int.self) { _ in }
            Issue.record("no error")
        } catch let error as ParserError {
            #expect(error.failureReason.contains("appears more than once"))
            #expect(error.failureReason.contains("23"), "\(error.failureReason)")
        }
        // The forwarding pass behind `elevate extract`.
        final class Sink: JSONEventHandler {}
        do {
            try forEachEvent(from: .data(Data(text.utf8)), atKeyPath: "items", to: Sink(), options: unwrapped)
            Issue.record("no error")
        } catch let error as JSONSyntaxError {
            #expect(error.kind == .duplicateKey)
            #expect(error.message.hasPrefix("Key path [items] appears more than once in its object; "))
            #expect([error.byteOffset, error.line, error.column] == [23, 3, 3] as [Int])
        }
    }

    /// With several workers, the error is the one the sequential call gives: an element that failed
    /// before the repeat wins over it, and otherwise the repeat is reported at the same place.
    @Test(arguments: [1, 2, 4])
    func aRefusedRepeatWithSeveralWorkers(_ workers: Int) throws {
        var options = StreamingOptions(wrapsErrorsInParserError: false)
        options.concurrency = workers
        let failing = Data(#"{"items":[1,"x",2,3,4,5,6,7,8],"items":[3]}"#.utf8)
        #expect {
            try Elevate.forEachElement(from: .data(failing), atKeyPath: "items", as: Int.self, options: options) { _ in }
        } throws: { error in
            "\(error)".contains("index 1") && !(error is JSONSyntaxError)
        }
        let valid = Data(#"{"items":[1,2,3,4,5,6,7,8],"items":[3]}"#.utf8)
        var seen: [Int] = []
        do {
            try Elevate.forEachElement(from: .data(valid), atKeyPath: "items", as: Int.self, options: options) {
                seen.append($0)
            }
            Issue.record("no error")
        } catch let error as JSONSyntaxError {
            #expect(error.kind == .duplicateKey && error.byteOffset == 27 && error.column == 28)
        }
        #expect(seen == Array(1...8))
    }

    /// The repeated key's position is the same however the input is cut, the key itself split
    /// across chunks and escaped included.
    @Test(arguments: [#"{"a":[1],"items":[1,2],"#, #"{"items":[1,2],"x":{"#])
    func aRefusedRepeatIsFoundAcrossChunks(_ head: String) async throws {
        let text = head + "\n \"it\\u0065ms\": [3]" + (head.hasSuffix("{") ? "}}" : "}")
        let quote = head.utf8.count + 2
        let stream = { (size: Int) in
            AsyncStream<[UInt8]> { continuation in
                var rest = Array(text.utf8)[...]
                while !rest.isEmpty {
                    continuation.yield(Array(rest.prefix(size)))
                    rest = rest.dropFirst(size)
                }
                continuation.finish()
            }
        }
        let unwrapped = StreamingOptions(wrapsErrorsInParserError: false)
        for size in 1...text.utf8.count {
            // In the second document the repeat is in another object: no error.
            let nested = head.hasSuffix("{")
            do {
                for try await _ in stream(size).decodedElements(atKeyPath: "items", as: Int.self, options: unwrapped) {}
                #expect(nested, "no error, chunks of \(size)")
            } catch let error as JSONSyntaxError {
                #expect(!nested && error.kind == .duplicateKey, "chunks of \(size)")
                #expect([error.byteOffset, error.line, error.column] == [quote, 2, 2] as [Int], "chunks of \(size)")
            }
        }
    }
}
