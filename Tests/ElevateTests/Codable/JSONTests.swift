import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate
@testable import ElevateJSON

@Suite("JSON, the mutable value")
struct JSONTests {
    @Test func literalsAndReads() throws {
        let json: JSON = ["a": 1, "b": [true, nil], "c": 2.5, "d": "x", "e": ["f": 18446744073709551615 as UInt].foundationJSON]
        #expect(json["a"].int == 1)
        #expect(json["b"][0].bool == true)
        #expect(json["b"][1].isNull)
        #expect(json["b"][9].isNull)
        #expect(json["c"].double == 2.5)
        #expect(json["d"].string == "x")
        #expect(json["missing"]["deeper"][3].isNull)
        #expect(try json.number(at: "e", "f") == .uint(18446744073709551615))
    }

    @Test func chainedSetsCreateMissingLevels() throws {
        var json: JSON = [:]
        json["items"][3]["name"] = "x"
        #expect(json["items"].count == 4)
        #expect(json["items"][0].isNull)
        #expect(try json.string(at: "items", 3, "name") == "x")
        json["items"][3]["name"] = nil
        #expect(try json.value(at: "items", 3, "name") == .null)
        json["items"][3].removeValue(forKey: "name")
        #expect(throws: JSON.AccessError.self) { try json.value(at: "items", 3, "name") }
        var scalar: JSON = 5
        scalar["k"] = true
        #expect(scalar == ["k": true])
    }

    @Test func typedReadsNameTheFullPath() {
        let json: JSON = ["items": [[:], [:], [:], ["name": 7]]]
        #expect {
            try json.string(at: "items", 3, "name")
        } throws: { error in
            (error as? JSON.AccessError)?.description == "items[3].name: expected a string, found a number"
        }
        #expect {
            try json.int(at: "items", 9, "name")
        } throws: { error in
            (error as? JSON.AccessError) == JSON.AccessError(path: "items[9]", reason: .missing)
        }
    }

    @Test func appendAndMerge() {
        var json: JSON = nil
        json.append(1)
        json.append("two")
        #expect(json == [1, "two"])
        var scalar: JSON = "solo"
        scalar.append(2)
        #expect(scalar == ["solo", 2])
        var settings: JSON = ["ui": ["theme": "dark", "size": 12], "list": [1, 2]]
        settings.merge(["ui": ["size": 14], "beta": true, "list": [3]])
        #expect(settings == ["ui": ["theme": "dark", "size": 14], "beta": true, "list": [3]])
        #expect(settings.merging(7) == 7)
    }

    @Test func equalityAndHashingFollowJSONValues() {
        let a: JSON = ["x": [1, 2.0, "s"], "y": JSON.null]
        let b: JSON = ["y": JSON.null, "x": [1.0, 2, "s"]]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != ["x": [1, 2, "t"], "y": JSON.null])
        #expect(JSON(9_007_199_254_740_993) != JSON(9_007_199_254_740_992.0))
        #expect(Set([a, b]).count == 1)
    }

    @Test func fromTheReadOnlyViewExactly() throws {
        let value = try JSONValue(parsing: #"{"n":[1, -2, 18446744073709551615, 1.5, 1e400], "s":"é", "d":1, "d":2}"#)
        let json = JSON(value)
        #expect(json["n"] == [1, -2, JSON(UInt.max), 1.5, JSON(.large("1e400"))])
        #expect(json["s"] == "é")
        #expect(json["d"] == 2)
    }

    @Test func deepNestingConvertsComparesAndHashesWithoutRecursion() throws {
        // Conversion, ==, hash(into:) and taking the value apart use work lists. Destroying the value
        // is Swift's own recursive release of nested arrays, one level per frame, so this runs on a
        // thread with a large stack (see the JSON type's documentation).
        // As deep as the parser goes (JSONParsingOptions.depthCeiling).
        let depth = JSONParsingOptions.depthCeiling
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var options = JSONParsingOptions()
        options.maximumDepth = .max
        let value = try JSONValue(parsing: text, options: options)
        let levels = LargeStack.run {
            let json = JSON(value)
            precondition(json == json)
            var hasher = Hasher()
            json.hash(into: &hasher)
            var current = json
            var levels = 0
            while case .array(let elements) = current, let first = elements.first {
                current = first
                levels += 1
            }
            return levels
        }
        #expect(levels == depth - 1)
    }

    @Test func foundationShapeBothWays() throws {
        let tree = try JSONSerialization.jsonObject(with: Data(#"{"a":[1,2.5,true,null,"s"],"b":{"c":-3}}"#.utf8))
        let json = try JSON(foundationValue: tree)
        #expect(json == ["a": [1, 2.5, true, nil, "s"], "b": ["c": -3]])
        let back = json.foundationValue as? [String: Any]
        #expect((back?["b"] as? [String: Any])?["c"] as? Int == -3)
        #expect(try JSON(foundationValue: ["x": Optional<Int>.none as Any, "y": Int8(3), "z": Decimal(string: "0.1")!]) == ["x": JSON.null, "y": 3, "z": 0.1])
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: ["when": [Date()]]) }
        let written = try JSONWriter.string(for: (["k": [1, JSON(.large("1e400"))]] as JSON).foundationValue)
        #expect(written == #"{"k":[1,1e400]}"#)
    }

    @Test func codableRoundTripsThroughBothDecoders() throws {
        let json: JSON = ["a": [1, -2, 2.5, "x", true, nil], "b": ["c": ["d": 18446744073709551615 as UInt].foundationJSON]]
        let data = try JSONEncoder().encode(json)
        #expect(try JSONDecoder().decode(JSON.self, from: data) == json)
        #expect(try ElevateJSONDecoder().decode(JSON.self, from: data) == json)
        struct Envelope: Swift.Decodable { var payload: JSON }
        let envelope = try ElevateJSONDecoder().decode(Envelope.self, from: Data(#"{"payload":{"n":1e400}}"#.utf8))
        #expect(envelope.payload["n"] == JSON(.large("1e400")))
    }

    /// `JSONNumber.uint` is documented for integers above `Int.max`, but it is a public case:
    /// `JSON(.uint(5))` equalled `JSON(5.0)`, which equals `JSON(5)`, yet not `JSON(5)` itself
    /// (with equal hashes): `==` was not transitive.
    @Test func aSmallUnsignedNumberEqualsTheSameInteger() {
        #expect(JSON(.uint(5)) == JSON(5.0))
        #expect(JSON(5.0) == JSON(5))
        #expect(JSON(.uint(5)) == JSON(5))
        #expect(JSON(5) == JSON(.uint(5)))
        #expect(JSON(-1) != JSON(.uint(UInt.max)))
        #expect(Set([JSON(.uint(5)), JSON(5), JSON(5.0)]).count == 1)
        #expect(JSON(.uint(5)).int == 5)
        #expect(JSONValue.numbersEqual(.int(Int.max), .uint(UInt(Int.max))))
    }

    /// A number beyond 64 bits is never written as a different number. `Decimal(string:)` rounds
    /// to 38 digits instead of failing, so `JSONEncoder` (handed a `Decimal`) must throw for one a
    /// `Decimal` cannot hold; `ElevateJSONEncoder` writes its exact text, as `JSONWriter` does
    /// (issue #26 item 8).
    @Test func aLargeNumberADecimalCannotHoldIsNotRounded() throws {
        let digits = "1234567890123456789012345678901234567890123456789"
        for text in [digits, "-" + digits, "1" + String(repeating: "0", count: 40) + "1", "1e400"] {
            let json: JSON = ["n": JSON(.large(text))]
            #expect(String(decoding: try ElevateJSONEncoder().encode(json), as: UTF8.self) == #"{"n":\#(text)}"#)
            do {
                let written = try JSONValue(parsing: try JSONEncoder().encode(json))["n"]
                Issue.record("Foundation wrote \(text) as \(written?.description ?? "nothing")")
            } catch is EncodingError {
            }
        }
        // Those a Decimal holds exactly still encode, whatever their spelling.
        for (text, expected) in [
            ("123456789012345678901234567890", "123456789012345678901234567890"),
            ("-18446744073709551616", "-18446744073709551616"),
            ("1234567890123456789012345678901234567800000", "1234567890123456789012345678901234567800000"),
        ] {
            let data = try ElevateJSONEncoder().encode(["n": JSON(.large(text))] as JSON)
            #expect(try JSONValue(parsing: data)["n"] == JSONValue(parsing: expected), "\(text)")
        }
    }

    /// `JSON(foundationValue: JSONSerialization.jsonObject(with: data))`, the documented way in:
    /// Foundation on Linux gives an `NSDecimalNumber` for a number a `Double` or `Int64` cannot
    /// hold exactly, and taking its `doubleValue` lost the integers beyond 64 bits
    /// (`-9223372036854775809` became `-9.223372036854776e+18`) and rounded 17-digit decimals to
    /// the wrong `Double` (`0.12345678901234567` became `0.12345678901234565`, not `…66`).
    @Test func foundationDecimalNumbersConvertExactly() throws {
        let texts = [
            "123456789012345678901234567890", "-9223372036854775809", "0.12345678901234567", "-73.98765432109876543",
            "3.141592653589793238462643383279", "18446744073709551616", "0.1", "9007199254740993", "1e-7",
        ]
        for text in texts {
            let data = Data("[\(text)]".utf8)
            let converted = try JSON(foundationValue: JSONSerialization.jsonObject(with: data))
            #expect(converted == JSON(try JSONValue(parsing: data)), "\(text): \(converted)")
        }
        // A Decimal that is not a number has no JSON form (it was read as 0).
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [Decimal.nan]) }
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [NSDecimalNumber.notANumber]) }
        // Nor do NaN and infinities, which made a JSON that is not equal to itself.
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: ["x": Double.nan]) }
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [NSNumber(value: Double.infinity)]) }
        #expect(throws: JSON.AccessError.self) { try JSON(foundationValue: [-Float.infinity]) }
        #expect(try JSON(foundationValue: [Decimal(string: "-0.000000000000000000000000000001")!]) == [-1e-30])
    }
}

extension Dictionary where Key == String, Value == UInt {
    /// A test helper: an object of unsigned numbers.
    var foundationJSON: JSON { .object(mapValues { JSON($0) }) }
}

/// Runs a closure on a thread with a 1 GiB stack and waits for its result.
enum LargeStack {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        runOnThread(stackSize: 1 << 30, body)!
    }
}
