import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Huge objects, member by member: `forEachMember` and `decodedMembers` hand over each member's
/// key and decoded value as `forEachElement` hands over elements, with the same options, workers,
/// limits and errors.
@Suite struct ForEachMemberTests {
    struct User: Codable, Equatable {
        var name: String
        var age: Int
    }

    static func map(_ count: Int, badAt: Int? = nil) -> Data {
        let members = (0..<count).map { index in
            index == badAt ? #""u\#(index)": {"name": 7, "age": 1}"# : #""u\#(index)": {"name": "n\#(index)", "age": \#(index)}"#
        }
        return Data(#"{"meta": {"skip": [1, {"u0": 0}]}, "users": {\#(members.joined(separator: ", "))}}"#.utf8)
    }

    @Test(arguments: [1, 2])
    func membersArriveInOrderWithTheirKeys(workers: Int) throws {
        var options = StreamingOptions()
        options.concurrency = workers
        var seen: [(String, User)] = []
        let count = try forEachMember(from: .data(Self.map(500)), atKeyPath: "users", as: User.self, options: options) {
            seen.append(($0, $1))
        }
        #expect(count == 500)
        #expect(seen.map(\.0) == (0..<500).map { "u\($0)" })
        #expect(seen.map(\.1) == (0..<500).map { User(name: "n\($0)", age: $0) })
    }

    @Test func elevateTypesAndScalarsStreamToo() throws {
        var names: [String: String] = [:]
        let document = Data(#"{"items": {"x": {"id": 1, "name": "a"}, "y.z": {"id": 2, "name": "b"}}}"#.utf8)
        try Elevate.forEachMember(from: .data(document), atKeyPath: "items", as: NamedItem.self) { key, item in
            names[key] = item.name
        }
        #expect(names == ["x": "a", "y.z": "b"])
        var counts: [String] = []
        let total = try Elevate.forEachMember(from: .data(Data(#"{"a": 1, "b": 2, "c\"d": 3}"#.utf8)), as: Int.self) {
            counts.append("\($0)=\($1)")
        }
        #expect(total == 3 && counts == ["a=1", "b=2", "c\"d=3"])
        #expect(try Elevate.forEachMember(from: .data(Data("{}".utf8)), as: Int.self) { _, _ in } == 0)
    }

    @Test func aFailingMemberNamesItsKey() throws {
        do {
            try forEachMember(from: .data(Self.map(10, badAt: 4)), atKeyPath: "users", as: User.self) { _, _ in }
            Issue.record("no error")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["users", "u4", "name"])
        }
        struct Strict: Elevate.Decodable {
            init(json: Any) throws {
                let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "name", type: .string) }
                _ = entity
            }
        }
        var options = StreamingOptions()
        options.skipsInvalidElements = true
        var delivered = 0
        do {
            try Elevate.forEachMember(from: .data(Self.map(10, badAt: 4)), atKeyPath: "users", as: Strict.self, options: options) { _, _ in
                delivered += 1
            }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.contains("object member at index 4") && reason.contains("Member [u4]"), "\(reason)")
        }
        #expect(delivered == 9)
    }

    @Test func notAnObjectIsAnError() throws {
        let document = Data(#"{"users": [1, 2], "none": null}"#.utf8)
        for (path, text) in [("users", "incorrect type"), ("none", "missing"), ("other", "missing")] {
            do {
                try Elevate.forEachMember(from: .data(document), atKeyPath: path, as: Int.self) { _, _ in }
                Issue.record("no error for \(path)")
            } catch ParserError.validation(let reason) {
                #expect(reason.contains(text), "\(reason)")
            }
        }
    }

    @Test func eachMemberIsHeldToTheElementSizeLimit() throws {
        var options = StreamingOptions()
        options.maximumElementSize = 64
        let big = String(repeating: "x", count: 100)
        let document = Data(#"{"a": "small", "b": "\#(big)"}"#.utf8)
        var keys: [String] = []
        #expect(throws: ParserError.self) {
            try Elevate.forEachMember(from: .data(document), as: String.self, options: options) { key, _ in keys.append(key) }
        }
        #expect(keys == ["a"])
    }

    /// A repeated key is delivered again, unless repeated keys are refused.
    @Test func aRepeatedKeyIsDeliveredAgainUnlessRefused() throws {
        let document = Data(#"{"a": 1, "b": 2, "a": 3}"#.utf8)
        var seen: [String] = []
        try Elevate.forEachMember(from: .data(document), as: Int.self) { seen.append("\($0)=\($1)") }
        #expect(seen == ["a=1", "b=2", "a=3"])
        var options = StreamingOptions()
        options.parsing.rejectsDuplicateKeys = true
        #expect(throws: ParserError.self) {
            try Elevate.forEachMember(from: .data(document), as: Int.self, options: options) { _, _ in }
        }
    }

    @Test func theAsyncSequenceMatchesTheSyncCall() async throws {
        let data = Self.map(200)
        let bytes = [UInt8](data)
        for size in [1, 7, 4096] {
            let chunks = AsyncStream<[UInt8]> { continuation in
                for start in stride(from: 0, to: bytes.count, by: size) {
                    continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
                }
                continuation.finish()
            }
            var keys: [String] = []
            for try await (key, user) in chunks.decodedMembers(atKeyPath: "users", as: User.self) {
                #expect(user.name == "n" + key.dropFirst())
                keys.append(key)
            }
            #expect(keys == (0..<200).map { "u\($0)" })
        }
    }
}
