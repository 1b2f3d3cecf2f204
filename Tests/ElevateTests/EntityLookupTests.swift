import Foundation
import Testing

@testable import Elevate

/// `<-!` and friends find a key by its bits before hashing it: the answers must be the
/// dictionary's own, whatever the keys look like.
@Suite struct EntityLookupTests {
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
        // Both spellings of café are one key: the scan misses the other spelling, the hash finds it.
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

    @Test func sameRepresentationImpliesEquality() {
        for first in Self.keys {
            for second in Self.keys where hasSameRepresentation(first, second) {
                #expect(first == second)
            }
            #expect(hasSameRepresentation(first, first))
        }
    }
}
