import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// A planned type's entity dictionary is filled in place, element after element, instead of being
/// made and freed for each one. These tests check that no entity ever shows another element's
/// value, that an entity a decode keeps is never changed afterwards, and that no decoded value
/// outlives its decode in the thread's state.
@Suite(.serialized) struct EntityPlanTests {
    /// Keeps every entity it is given, as code that stores `[String: Any]` would.
    final class Keeper: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [[String: Any]] = []

        func keep(_ entity: [String: Any]) { lock.withLock { kept.append(entity) } }
        var entities: [[String: Any]] { lock.withLock { kept } }
    }

    struct Item: Elevate.Decodable {
        @TaskLocal static var keeper: Keeper?
        let entity: [String: Any]

        init(json: Any) throws {
            entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "name", type: .string)
                schema.addProperty(keyPath: "note", type: .string, optional: true)
                schema.addProperty(keyPath: "size", type: .int, optional: true)
            }
            Self.keeper?.keep(entity)
        }
    }

    @Test func anOptionalKeyOfAnEarlierElementNeverShowsInALaterOne() throws {
        let json = #"""
            [{"name":"a","note":"first","size":1},{"name":"b"},{"name":"c","size":3},
             {"name":"d","note":"fourth","size":4},{"name":"e","note":null,"size":5}]
            """#
        let items: [Item] = try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "")
        let shapes = items.map { item in
            item.entity.mapValues { "\($0)" }
        }
        #expect(
            shapes == [
                ["name": "a", "note": "first", "size": "1"], ["name": "b"], ["name": "c", "size": "3"],
                ["name": "d", "note": "fourth", "size": "4"], ["name": "e", "size": "5"],
            ])
    }

    @Test func anEntityTheDecodeKeptIsNeverChangedByLaterElements() throws {
        let elements = (0..<50).map { #"{"name":"n\#($0)","note":"x\#($0)","size":\#($0)}"# }
        let json = "[" + elements.joined(separator: ",") + "]"
        let keeper = Keeper()
        _ = try Item.$keeper.withValue(keeper) {
            try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "") as [Item]
        }
        let kept = keeper.entities
        #expect(kept.count == 50)
        for (index, entity) in kept.enumerated() {
            #expect(entity["name"] as? String == "n\(index)")
            #expect(entity["note"] as? String == "x\(index)")
            #expect(entity["size"] as? Int == index)
        }
    }

    /// A tree of one type: each entity is being read while entities of the same type below it are
    /// filled in.
    struct Node: Elevate.Decodable {
        let name: String
        let children: [Node]

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "name", type: .string)
                schema.addProperty(keyPath: "children", type: .array, decodableType: Node.self)
            }
            // Read after the children were decoded with the same plan.
            name = entity <-! "name"
            children = entity <--! "children"
        }

        var description: String {
            children.isEmpty ? name : "\(name)(\(children.map(\.description).joined(separator: ",")))"
        }
    }

    @Test func nestedEntitiesOfOneTypeKeepTheirOwnValues() throws {
        let json = #"""
            [{"name":"r","children":[{"name":"a","children":[{"name":"a1","children":[]}]},
                                    {"name":"b","children":[]}]},
             {"name":"s","children":[{"name":"c","children":[]}]}]
            """#
        let trees: [Node] = try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "")
        #expect(trees.map(\.description) == ["r(a(a1),b)", "s(c)"])
    }

    /// Four optional keys: sixteen shapes of entity, more than a plan keeps laid out.
    struct Sparse: Elevate.Decodable {
        let entity: [String: Any]

        init(json: Any) throws {
            entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .int)
                schema.addProperty(keyPath: "a", type: .string, optional: true)
                schema.addProperty(keyPath: "b", type: .int, optional: true)
                schema.addProperty(keyPath: "c", type: .bool, optional: true)
                schema.addProperty(keyPath: "d", type: .string, optional: true)
            }
        }
    }

    @Test func everyCombinationOfMissingOptionalKeysHasExactlyItsOwnKeys() throws {
        // Each shape comes back several times, in an order that keeps evicting layouts.
        let masks = (0..<48).map { ($0 * 7 + $0 / 16) % 16 }
        let elements = masks.enumerated().map { index, mask in
            var members = [#""id":\#(index)"#]
            if mask & 1 != 0 { members.append(#""a":"a\#(index)""#) }
            if mask & 2 != 0 { members.append(#""b":\#(index * 10)"#) }
            if mask & 4 != 0 { members.append(#""c":\#(index % 2 == 0)"#) } else { members.append(#""c":null"#) }
            if mask & 8 != 0 { members.append(#""d":"d\#(index)""#) }
            return "{" + members.joined(separator: ",") + "}"
        }
        let items: [Sparse] = try Elevate.decodeArray(from: Data(("[" + elements.joined(separator: ",") + "]").utf8), atKeyPath: "")
        #expect(items.count == masks.count)
        for (index, (item, mask)) in zip(items, masks).enumerated() {
            var expected = ["id": "\(index)"]
            if mask & 1 != 0 { expected["a"] = "a\(index)" }
            if mask & 2 != 0 { expected["b"] = "\(index * 10)" }
            if mask & 4 != 0 { expected["c"] = "\(index % 2 == 0)" }
            if mask & 8 != 0 { expected["d"] = "d\(index)" }
            #expect(item.entity.mapValues { "\($0)" } == expected, "element \(index), shape \(mask)")
        }
    }

    /// Shapes that came first and never again must not keep the shapes in use from being laid
    /// out, and a rotation of more shapes than a plan keeps must not make a layout per entity.
    @Test func layoutsGoToTheShapesInUse() {
        let properties = ["id", "a", "b", "c", "d"].enumerated().map { index, keyPath in
            SchemaProperty(
                keyPath: keyPath, type: .int, optional: index > 0, decodableType: nil, decoder: nil,
                methodIdentity: nil)
        }
        let plan = EntityPlan(properties)
        // id is bit 0; a, b, c, d bits 1 to 4. Seven rare shapes fill the places first.
        for rare in 1...7 { _ = plan.layout(present: 1 | UInt64(rare) << 1) }
        let common: [UInt64] = [1 | 1 << 4, 1 | 1 << 1 | 1 << 4]
        var laidOut = 0
        for index in 0..<1_000 where plan.layout(present: common[index % 2]) != nil { laidOut += 1 }
        // Each shape in use waits for its place behind sixteen entities without one, then keeps it.
        #expect(laidOut >= 950)
        #expect(plan.layoutsMade <= 7 + 4, "a layout made per entity of the shapes in use")
        let madeBefore = plan.layoutsMade
        // Every one of the sixteen shapes, round and round: layouts are made rarely.
        for index in 0..<1_600 { _ = plan.layout(present: 1 | UInt64(index % 16) << 1) }
        #expect(plan.layoutsMade - madeBefore <= 1_600 / 16 + 8)
    }

    /// A type whose `init(json:)` builds one schema or another (a discriminator picks it) keeps a
    /// plan for each, instead of replacing the one plan at every switch.
    @Test func aTypeWithSeveralSchemasKeepsAPlanForEach() {
        func properties(_ keyPaths: [String]) -> [SchemaProperty] {
            keyPaths.map {
                SchemaProperty(keyPath: $0, type: .string, optional: false, decodableType: nil, decoder: nil, methodIdentity: nil)
            }
        }
        let pool = SchemaPool()
        let identity = ObjectIdentifier(Item.self)
        let schemas = [["kind", "radius"], ["kind", "side"], ["kind", "width", "height"]].map(properties)
        let plans = schemas.map { pool.plan(for: identity, $0) }
        for round in 0..<30 {
            let index = round % schemas.count
            #expect(pool.plan(for: identity, schemas[index]) === plans[index], "schema \(index), round \(round)")
        }
        // Another type's plans are its own.
        let other = pool.plan(for: ObjectIdentifier(Holder.self), schemas[0])
        #expect(other !== plans[0] && pool.plan(for: identity, schemas[0]) === plans[0])
    }

    /// The entities of such a type, decoded in alternation, each hold their own schema's keys.
    @Test func elementsWithAlternatingSchemasDecodeCorrectly() throws {
        struct Shape: Elevate.Decodable {
            let entity: [String: Any]
            init(json: Any) throws {
                let kind: String = try (Parser.parseEntity(json: json) { $0.addProperty(keyPath: "kind", type: .string) }) <-! "kind"
                entity = try Parser.parseEntity(json: json) { schema in
                    schema.addProperty(keyPath: "kind", type: .string)
                    if kind == "circle" {
                        schema.addProperty(keyPath: "radius", type: .int)
                    } else {
                        schema.addProperty(keyPath: "side", type: .int)
                        schema.addProperty(keyPath: "label", type: .string, optional: true)
                    }
                }
            }
        }
        let elements = (0..<40).map { $0 % 2 == 0 ? #"{"kind":"circle","radius":\#($0)}"# : #"{"kind":"square","side":\#($0),"label":"s\#($0)"}"# }
        let shapes: [Shape] = try Elevate.decodeArray(from: Data(("[" + elements.joined(separator: ",") + "]").utf8), atKeyPath: "")
        for (index, shape) in shapes.enumerated() {
            let expected = index % 2 == 0 ? "circle radius=\(index)" : "square label=s\(index) side=\(index)"
            let fields = shape.entity.filter { $0.key != "kind" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            #expect("\(shape.entity["kind"]!) " + fields.joined(separator: " ") == expected)
        }
    }

    /// Counts its live instances: what a decoded value that outlived its decode would show.
    final class Tracked: @unchecked Sendable {
        static let lock = NSLock()
        nonisolated(unsafe) static var live = 0
        let text: String
        init(_ text: String) {
            self.text = text
            Self.lock.withLock { Self.live += 1 }
        }
        deinit { Self.lock.withLock { Self.live -= 1 } }
    }

    final class TrackingDecoder: Elevate.Decoder, @unchecked Sendable {
        func decode(_ object: Any) throws -> Any { Tracked(object as! String) }
    }

    struct Holder: Elevate.Decodable {
        let tracked: Tracked

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "value", type: .string, decoder: TrackingDecoder())
            }
            tracked = entity <-! "value"
        }
    }

    struct RefusedValue: Error {}

    /// Refuses the value `"refuse"` with an error that is not a validation failure.
    final class RefusingDecoder: Elevate.Decoder, @unchecked Sendable {
        func decode(_ object: Any) throws -> Any {
            guard object as? String != "refuse" else { throw RefusedValue() }
            return object
        }
    }

    /// A tracked value, then properties that can fail after it was validated.
    struct TrackedThenChecked: Elevate.Decodable {
        let tracked: Tracked

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "value", type: .string, decoder: TrackingDecoder())
                schema.addProperty(keyPath: "check", type: .string, decoder: RefusingDecoder())
                schema.addProperty(keyPath: "count", type: .int)
            }
            tracked = entity <-! "value"
        }
    }

    /// Elements decoded inside an element's decode: a pass within a pass.
    struct Outer: Elevate.Decodable {
        let inner: [Holder]

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "text", type: .string)
            }
            let text: String = entity <-! "text"
            inner = try Elevate.decodeArray(from: Data(text.utf8), atKeyPath: "")
        }
    }

    @Test(.serialized, arguments: ["thrown", "invalid", "passes"])
    func noDecodedValueOutlivesAFailedDecodeOrAnyPass(case name: String) throws {
        let before = Tracked.lock.withLock { Tracked.live }
        let good = #"{"value":"v","check":"ok","count":1}"#
        switch name {
        case "thrown":
            let json = "[\(good),{\"value\":\"w\",\"check\":\"refuse\",\"count\":2}]"
            #expect(throws: RefusedValue.self) {
                try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "") as [TrackedThenChecked]
            }
        case "invalid":
            let json = "[\(good),{\"value\":\"w\",\"check\":\"ok\",\"count\":\"two\"}]"
            #expect(throws: ParserError.self) {
                try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "") as [TrackedThenChecked]
            }
        default:
            var seen: [String] = []
            try Elevate.forEachElement(from: .data(Data("[\(good),\(good)]".utf8)), atKeyPath: "") {
                (element: TrackedThenChecked) in seen.append(element.tracked.text)
            }
            #expect(seen == ["v", "v"])
            // JSON Lines and concatenated values too, and a body that throws half way.
            for framing in [JSONFraming.jsonLines, .concatenated] {
                try Elevate.forEachValue(from: .data(Data("\(good)\n\(good)\n".utf8)), framing: framing) {
                    (element: TrackedThenChecked) in seen.append(element.tracked.text)
                }
            }
            #expect(seen == ["v", "v", "v", "v", "v", "v"])
            #expect(throws: RefusedValue.self) {
                try Elevate.forEachElement(from: .data(Data("[\(good),\(good)]".utf8)), atKeyPath: "") {
                    (_: TrackedThenChecked) in throw RefusedValue()
                }
            }
            let inner = #"[{\"value\":\"x\"},{\"value\":\"y\"}]"#
            let outers: [Outer] = try Elevate.decodeArray(
                from: Data("[{\"text\":\"\(inner)\"},{\"text\":\"\(inner)\"}]".utf8), atKeyPath: "")
            #expect(outers.flatMap { $0.inner.map(\.tracked.text) } == ["x", "y", "x", "y"])
        }
        #expect(Tracked.lock.withLock { Tracked.live } == before)
    }

    @Test(.serialized, arguments: [1, 2])
    func noDecodedValueOutlivesTheDecode(workers: Int) throws {
        let json = "[" + (0..<40).map { #"{"value":"v\#($0)"}"# }.joined(separator: ",") + "]"
        let before = Tracked.lock.withLock { Tracked.live }
        do {
            var options = StreamingOptions()
            options.concurrency = workers
            let holders: [Holder] = try Elevate.decodeArray(
                from: .data(Data(json.utf8)), atKeyPath: "", options: options)
            #expect(holders.map(\.tracked.text) == (0..<40).map { "v\($0)" })
        }
        // Other suites may decode `Holder` too; none of them does, so the count is exact.
        #expect(Tracked.lock.withLock { Tracked.live } == before)
    }
}

/// A planned type's key paths are compared with the tape's keys as bytes made ready once (inline
/// words up to 7 bytes, two words up to 16, longer ones whole): every shape of key must find
/// what the same schema finds in the `[String: Any]` that `JSONSerialization` gives.
@Suite struct PlannedKeyTests {
    /// Key paths at the inline and word-compare boundaries, non-ASCII, dotted (literal in some
    /// elements, a nested path in others), and one that is absent from some elements.
    private static let keyPaths = [
        "a", "seven77", "eight888", "sixteen-bytes-16", "seventeen-bytes17", "a key much longer than sixteen bytes",
        "clé", "大阪", "outer.inner", "maybe",
    ]

    private struct Record: Elevate.Decodable, Equatable {
        var values: [String: String]

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                for keyPath in PlannedKeyTests.keyPaths {
                    schema.addProperty(keyPath: keyPath, type: .string, optional: keyPath == "maybe")
                }
            }
            values = [:]
            for keyPath in PlannedKeyTests.keyPaths {
                values[keyPath] = entity <-? keyPath
            }
        }
    }

    /// Elements whose keys differ from the schema's in one byte at the start, the middle or the
    /// end come first, so that a wrong compare would pick them.
    private static func element(_ number: Int) -> String {
        var members: [String] = []
        for keyPath in keyPaths where keyPath != "outer.inner" && keyPath != "maybe" {
            var decoy = Array(keyPath.utf8)
            decoy[(number % 3) * (decoy.count - 1) / 2] ^= 0x01
            members.append("\"\(String(decoding: decoy, as: UTF8.self))\": \"decoy\"")
            members.append("\"\(keyPath)\": \"\(keyPath) \(number)\"")
        }
        members.append(
            number % 2 == 0 ? "\"outer.inner\": \"literal \(number)\"" : "\"outer\": {\"inner\": \"nested \(number)\"}")
        if number % 3 == 0 { members.append("\"maybe\": \"here \(number)\"") }
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test func plannedKeysFindWhatFoundationLookupsFind() throws {
        let text = "[" + (0..<40).map(Self.element).joined(separator: ",\n") + "]"
        let data = Data(text.utf8)
        let onTheTape: [Record] = try Elevate.decodeArray(from: data, atKeyPath: "")
        let foundation = try JSONSerialization.jsonObject(with: data) as! [Any]
        let expected = try foundation.map { try Record(json: $0) }
        #expect(onTheTape == expected)
        #expect(onTheTape.count == 40)
        #expect(onTheTape[1].values["outer.inner"] == "nested 1" && onTheTape[2].values["outer.inner"] == "literal 2")
        #expect(onTheTape[3].values["maybe"] == "here 3" && onTheTape[4].values["maybe"] == nil)
        #expect(onTheTape[5].values["sixteen-bytes-16"] == "sixteen-bytes-16 5")
    }
}
