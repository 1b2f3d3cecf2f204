import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// A type decoded again and again rebuilds its schema for every entity; once planned, the
/// rebuilt schema is only checked against the plan. These tests change the schema from one
/// element to the next and check that every entity is validated against the schema its own
/// closure built, never against the plan of an earlier one.
@Suite struct SchemaTests {
    /// The schemas the next elements build, one per element, in order.
    final class Schedule: @unchecked Sendable {
        private let lock = NSLock()
        private var remaining: [[String]]

        init(_ schemas: [[String]]) { remaining = schemas }

        func next() -> [String] {
            lock.withLock { remaining.isEmpty ? [] : remaining.removeFirst() }
        }
    }

    /// Builds the schema the schedule names: `"a"` is a required `.int`, `"a?"` an optional one.
    struct Flexible: Elevate.Decodable {
        @TaskLocal static var schedule = Schedule([])
        let values: [String: Int]

        init(json: Any) throws {
            let keys = Self.schedule.next()
            let entity = try Parser.parseEntity(json: json) { schema in
                for key in keys {
                    let optional = key.hasSuffix("?")
                    schema.addProperty(keyPath: optional ? String(key.dropLast()) : key, type: .int, optional: optional)
                }
            }
            // The whole entity, so that a key the schema did not name would show.
            values = entity.mapValues { ($0 as? Int) ?? -1 }
        }
    }

    private func decode(_ json: String, _ schemas: [[String]]) throws -> [[String: Int]] {
        let elements: [Flexible] = try Flexible.$schedule.withValue(Schedule(schemas)) {
            try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "")
        }
        return elements.map(\.values)
    }

    @Test func eachEntityHasTheKeysItsOwnSchemaNamed() throws {
        let element = #"{"a":1,"b":2,"c":3}"#
        let json = "[" + Array(repeating: element, count: 8).joined(separator: ",") + "]"
        let schemas = [["a", "b"], ["a", "b"], ["a", "c"], ["a"], ["a", "b", "c"], ["b", "a"], ["a", "b"], []]
        let decoded = try decode(json, schemas)
        let all = ["a": 1, "b": 2, "c": 3]
        #expect(decoded == schemas.map { keys in all.filter { keys.contains($0.key) } })
    }

    @Test func aPropertyThatTurnsRequiredIsCheckedAgain() throws {
        let json = #"[{"a":1},{"a":2},{"a":3}]"#
        // `d` is missing: optional, then optional again (a replay), then required.
        #expect(try decode(json, [["a", "d?"], ["a", "d?"]] + [["a", "d?"]]) == [["a": 1], ["a": 2], ["a": 3]])
        let error = #expect(throws: ParserError.self) {
            try decode(json, [["a", "d?"], ["a", "d?"], ["a", "d"]])
        }
        #expect(error?.failureReason.contains("Required key path [d] was missing or null") == true)
    }

    /// Multiplies an integer by its factor; each element's closure makes a new one.
    final class Scaling: Elevate.Decoder, @unchecked Sendable {
        let factor: Int
        init(factor: Int) { self.factor = factor }
        func decode(_ object: Any) throws -> Any { (object as! Int) * factor }
    }

    /// Its decoder is a new instance, with a new factor, for every element.
    struct Scaled: Elevate.Decodable {
        static let counter = Schedule((1...10).map { [String($0)] })
        let value: Int

        init(json: Any) throws {
            let factor = Int(Self.counter.next()[0])!
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "n", type: .int, decoder: Scaling(factor: factor))
            }
            value = entity <-! "n"
        }
    }

    @Test func decodersAreTheClosuresOwnInstances() throws {
        let json = "[" + Array(repeating: #"{"n":1}"#, count: 5).joined(separator: ",") + "]"
        let scaled: [Scaled] = try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "")
        #expect(scaled.map(\.value) == [1, 2, 3, 4, 5])
    }

    /// Reads the schema's properties back inside its closure.
    struct Introspecting: Elevate.Decodable {
        let seen: [String]

        init(json: Any) throws {
            var seen: [String] = []
            _ = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "a", type: .int)
                schema.addProperty(keyPath: "b", type: .int, optional: true)
                seen = schema.properties.map(\.keyPath)
                schema.addProperty(keyPath: "c", type: .int, optional: true)
            }
            self.seen = seen
        }
    }

    @Test func propertiesReadInsideTheClosureAreAllAddedSoFar() throws {
        let json = #"[{"a":1},{"a":2},{"a":3}]"#
        let decoded: [Introspecting] = try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "")
        #expect(decoded.map(\.seen) == Array(repeating: ["a", "b"], count: 3))
    }

    /// Keeps each schema its closure built.
    struct Keeping: Elevate.Decodable {
        let schema: Schema

        init(json: Any) throws {
            var kept: Schema?
            _ = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "a", type: .int)
                schema.addProperty(keyPath: "b", type: .int, optional: true)
                kept = schema
            }
            self.schema = kept!
        }
    }

    @Test func aSchemaKeptByItsClosureStillListsItsProperties() throws {
        let json = #"[{"a":1},{"a":2},{"a":3}]"#
        let decoded: [Keeping] = try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "")
        #expect(decoded.map { $0.schema.properties.map(\.keyPath) } == Array(repeating: ["a", "b"], count: 3))
        #expect(Set(decoded.map { ObjectIdentifier($0.schema) }).count == 3)
    }

    @Test func plansAreKeptPerThreadAcrossCalls() throws {
        let json = #"[{"a":1,"b":2},{"a":3,"b":4}]"#
        // The second call starts by replaying the first call's plan, then departs from it.
        #expect(try decode(json, [["a", "b"], ["a", "b"]]) == [["a": 1, "b": 2], ["a": 3, "b": 4]])
        #expect(try decode(json, [["b"], ["a", "b"]]) == [["b": 2], ["a": 3, "b": 4]])
    }
}
