import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `<-!` and friends find a key of a small entity by comparing it with each key instead of hashing
/// it: the answers must be the dictionary's own, whatever the keys look like.
@Suite struct EntityLookupTests {
    /// What the operators read: the value where ``entityIndex(_:at:)`` finds it.
    private func entityValue(_ entity: [String: Any], at keyPath: String) -> Any? {
        entityIndex(entity, at: keyPath).map { entity.values[$0] }
    }

    /// Keys that are equal as Swift strings but built differently: literals, runtime strings
    /// past the inline size, and canonically equivalent spellings.
    private static let longKey = "a key path longer than fifteen bytes"
    private static let keys: [String] = [
        "id", "name", longKey, String(longKey.reversed().reversed()), "caf\u{E9}", "cafe\u{301}",
        "\u{1F600}", "", "a.b.c",
    ]

    private func sameAnswers(_ entity: [String: Any], _ probes: [String]) {
        for probe in probes {
            let expected = entity[probe].map { "\($0)" }
            #expect(entityValue(entity, at: probe).map { "\($0)" } == expected, "key \(probe.debugDescription)")
        }
    }

    @Test func smallEntitiesAnswerAsTheDictionaryDoes() {
        var entity: [String: Any] = [:]
        for (index, key) in Self.keys.prefix(7).enumerated() { entity[key] = index }
        #expect(entity.count <= 8)
        // Both spellings of café are one key, for the scan as for the dictionary.
        sameAnswers(entity, Self.keys + ["missing", "ID", "caf", String(repeating: "x", count: 40)])
        #expect(entityValue(entity, at: "cafe\u{301}") as? Int == entity["caf\u{E9}"] as? Int)
    }

    @Test func largeEntitiesAnswerAsTheDictionaryDoes() {
        var entity: [String: Any] = [:]
        for index in 0..<40 { entity["key\(index)"] = index }
        for (index, key) in Self.keys.enumerated() { entity[key] = 100 + index }
        sameAnswers(entity, Self.keys + (0..<45).map { "key\($0)" })
    }

    @Test func operatorsReadRuntimeBuiltKeys() throws {
        let long = Self.longKey
        let entity = try Parser.parseEntity(json: ["id": 7, long: "value", "caf\u{E9}": true]) { schema in
            schema.addProperty(keyPath: "id", type: .int)
            schema.addProperty(keyPath: String(long.reversed().reversed()), type: .string)
            schema.addProperty(keyPath: "cafe\u{301}", type: .bool)
        }
        let id: Int = entity <-! String("i" + "d")
        let value: String = entity <-! long
        let flag: Bool? = entity <-? "caf\u{E9}"
        let absent: String? = entity <-? "nickname"
        #expect(id == 7 && value == "value" && flag == true && absent == nil)
    }

    @Test func absentKeysOfSmallEntitiesAreAbsentInEverySpelling() {
        let small: [String: Any] = ["id": 1, "name": "n", "isMember": true]
        sameAnswers(small, ["id", "name", "isMember", "nickname", "", "ID", "name ", String("i" + "d")])
        #expect(entityValue(small, at: "nickname") == nil)
        // The scan compares as the dictionary does: the other spelling of café is found, not
        // reported absent.
        let mixed: [String: Any] = ["id": 1, "caf\u{E9}": 2]
        sameAnswers(mixed, ["cafe\u{301}", "caf\u{E9}", "id", "nickname"])
        #expect(entityValue(mixed, at: "cafe\u{301}") as? Int == 2)
        let long: [String: Any] = ["id": 1, Self.longKey: 2]
        sameAnswers(long, [String(Self.longKey.reversed().reversed()), "id", "nickname"])
    }
}
