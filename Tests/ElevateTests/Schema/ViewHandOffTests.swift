import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Decodables are handed views of the document tape, and code that casts `json` itself still
/// gets the `[String: Any]` Elevate documented.
@Suite(.serialized) struct ViewHandOffTests {
    /// Reads its value only through `parseEntity(json:)`.
    private struct Reader: Elevate.Decodable, Equatable {
        static let seen = Box()
        let name: String
        let tags: [String]
        init(json: Any) throws {
            Self.seen.record(json)
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "name", type: .string)
                schema.addProperty(keyPath: "tags", type: .array, decodableType: String.self)
            }
            name = entity <-! "name"
            tags = entity <--! "tags"
        }
        init(name: String, tags: [String]) {
            self.name = name
            self.tags = tags
        }
    }

    /// Casts `json` itself, as some Elevate code does.
    private struct Caster: Elevate.Decodable, Equatable {
        static let seen = Box()
        let name: String
        init(json: Any) throws {
            Self.seen.record(json)
            guard let object = json as? [String: Any], let name = object["name"] as? String else {
                throw ParserError.validation(failureReason: "not an object with a name")
            }
            self.name = name
        }
    }

    /// A decoder that casts its value.
    private final class CastingDecoder: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any {
            guard let object = object as? [String: Any], let name = object["name"] as? String else {
                throw ParserError.validation(failureReason: "not an object with a name")
            }
            return name.uppercased()
        }
    }

    /// A decoder that reads through `parseEntity(json:)`.
    private final class ReadingDecoder: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any {
            let entity = try Parser.parseEntity(json: object) { $0.addProperty(keyPath: "name", type: .string) }
            let name: String = entity <-! "name"
            return name.lowercased()
        }
    }

    /// Holds nested readers and casters.
    private struct Outer: Elevate.Decodable {
        let reader: Reader
        let casters: [Caster]
        let shout: String
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "reader", type: .dictionary, decodableType: Reader.self)
                schema.addProperty(keyPath: "casters", type: .array, decodableType: Caster.self)
                schema.addProperty(keyPath: "shout", type: .dictionary, decoder: CastingDecoder())
            }
            reader = entity <-! "reader"
            casters = entity <--! "casters"
            shout = entity <-! "shout"
        }
    }

    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var kinds: [String] = []
        func record(_ json: Any) {
            let kind = json is JSONValue ? "view" : (json is [String: Any] ? "dictionary" : "other")
            lock.withLock { kinds.append(kind) }
        }
        func take() -> [String] { lock.withLock { defer { kinds = [] }; return kinds } }
    }

    @Test func readersGetViews() throws {
        _ = Reader.seen.take()
        let data = Data(#"{"items": [{"name": "a", "tags": ["x"]}, {"name": "b", "tags": []}]}"#.utf8)
        let readers: [Reader] = try Elevate.decodeArray(from: data, atKeyPath: "items")
        #expect(readers == [Reader(name: "a", tags: ["x"]), Reader(name: "b", tags: [])])
        #expect(Reader.seen.take() == ["view", "view"])
    }

    @Test func castersGetDictionariesAfterOneRetry() throws {
        _ = Caster.seen.take()
        let data = Data(#"{"items": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#.utf8)
        let casters: [Caster] = try Elevate.decodeArray(from: data, atKeyPath: "items")
        #expect(casters.map(\.name) == ["a", "b", "c"])
        let seen = Caster.seen.take()
        // The first element was tried with a view, then decoded again from a dictionary; from then on
        // (on this thread) the type only gets dictionaries.
        #expect(seen.filter { $0 == "dictionary" }.count == 3)
        #expect(seen.filter { $0 == "view" }.count <= 1)
    }

    @Test func decodersOfBothKindsWork() throws {
        let data = Data(#"{"items": [{"name": "Ann"}, {"name": "Bob"}]}"#.utf8)
        let loud: [String] = try Elevate.decodeArray(from: data, atKeyPath: "items", with: CastingDecoder())
        #expect(loud == ["ANN", "BOB"])
        let quiet: [String] = try Elevate.decodeArray(from: data, atKeyPath: "items", with: ReadingDecoder())
        #expect(quiet == ["ann", "bob"])
    }

    @Test func nestedReadersAndCastersMix() throws {
        let data = Data(
            #"""
            {"outer": [
              {"reader": {"name": "r", "tags": ["t"]}, "casters": [{"name": "c1"}, {"name": "c2"}], "shout": {"name": "hey"}},
              {"reader": {"name": "s", "tags": []}, "casters": [], "shout": {"name": "you"}}
            ]}
            """#.utf8)
        let outers: [Outer] = try Elevate.decodeArray(from: data, atKeyPath: "outer")
        #expect(outers.map(\.reader) == [Reader(name: "r", tags: ["t"]), Reader(name: "s", tags: [])])
        #expect(outers.map { $0.casters.map(\.name) } == [["c1", "c2"], []])
        #expect(outers.map(\.shout) == ["HEY", "YOU"])
    }

    @Test func aCasterThatFailsForRealStillFails() {
        let data = Data(#"{"items": [{"nom": "a"}]}"#.utf8)
        #expect(throws: ParserError.self) {
            let _: [Caster] = try Elevate.decodeArray(from: data, atKeyPath: "items")
        }
    }

    @Test func foundationInputStillWorks() throws {
        let json = try JSONSerialization.jsonObject(with: Data(#"{"name": "n", "tags": ["a", "b"]}"#.utf8))
        #expect(try Reader(json: json) == Reader(name: "n", tags: ["a", "b"]))
    }

    @Test func dictionaryAndArrayPropertiesWithoutDecodersAreFoundationValues() throws {
        let entity = try Parser.parseEntity(data: Data(#"{"d": {"k": [1, "x"]}}"#.utf8)) {
            $0.addProperty(keyPath: "d", type: .dictionary)
        }
        let dictionary = entity["d"] as? [String: Any]
        #expect((dictionary?["k"] as? [Any])?.count == 2)
    }

    @Test func concurrentDecodesAgree() async throws {
        let items = (0..<200).map { #"{"reader": {"name": "r\#($0)", "tags": ["t"]}, "casters": [{"name": "c\#($0)"}], "shout": {"name": "s\#($0)"}}"# }
        let data = Data(#"{"outer": [\#(items.joined(separator: ","))]}"#.utf8)
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let outers: [Outer] = try Elevate.decodeArray(from: data, atKeyPath: "outer")
                    return outers.map { "\($0.reader.name) \($0.casters[0].name) \($0.shout)" }
                }
            }
            var all: [[String]] = []
            for try await result in group { all.append(result) }
            return all
        }
        let expected = (0..<200).map { "r\($0) c\($0) S\($0)" }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }

    @Test func foundationValuesEverywhereOnRequest() throws {
        _ = Reader.seen.take()
        let data = Data(#"{"items": [{"name": "a", "tags": []}, {"name": "b", "tags": ["t"]}]}"#.utf8)
        let readers: [Reader] = try withFoundationValues {
            try Elevate.decodeArray(from: data, atKeyPath: "items")
        }
        #expect(readers == [Reader(name: "a", tags: []), Reader(name: "b", tags: ["t"])])
        #expect(Reader.seen.take() == ["dictionary", "dictionary"])
        // Only inside the scope.
        let _: [Reader] = try Elevate.decodeArray(from: data, atKeyPath: "items")
        #expect(Reader.seen.take() == ["view", "view"])
    }
}
