import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `ElevateJSONDecoder`'s strategies (keys, dates, data, non-conforming floats) give what
/// `JSONDecoder` gives with the same strategies.
@Suite("ElevateJSONDecoder strategies against JSONDecoder's")
struct ElevateJSONDecoderStrategiesTests {
    @Test func nonConformingFloats() {
        let configure: (JSONDecoder, ElevateJSONDecoder) -> Void = { foundation, elevate in
            foundation.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            elevate.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        expectSameAsFoundation(Floats.self, #"{"f":"inf","d":"-inf"}"#, configure: configure)
        expectSameAsFoundation(Floats.self, #"{"f":"nope","d":1}"#, configure: configure)
        let nan = try? ElevateJSONDecoder().decode(Double.self, from: Data(#""nan""#.utf8))
        #expect(nan == nil)
    }

    @Test func dateStrategies() {
        let numeric = #"{"date":1700000000,"data":[1,2,3],"url":"https://e.com","decimal":0,"dates":[1.5]}"#
        expectSameAsFoundation(Specials.self, numeric) { f, e in
            f.dateDecodingStrategy = .secondsSince1970
            e.dateDecodingStrategy = .secondsSince1970
            f.dataDecodingStrategy = .deferredToData
            e.dataDecodingStrategy = .deferredToData
        }
        expectSameAsFoundation(Specials.self, numeric) { f, e in
            f.dateDecodingStrategy = .millisecondsSince1970
            e.dateDecodingStrategy = .millisecondsSince1970
            f.dataDecodingStrategy = .deferredToData
            e.dataDecodingStrategy = .deferredToData
        }
        for text in ["2024-02-29T12:34:56Z", "2024-02-29T12:34:56+02:00", "2024-02-30T12:34:56Z", "2024-02-29"] {
            expectSameAsFoundation(Specials.self, #"{"date":"\#(text)","data":"","url":"u","decimal":0}"#) { f, e in
                f.dateDecodingStrategy = .iso8601
                e.dateDecodingStrategy = .iso8601
            }
        }
        for zone in ["UTC", "GMT+0530", "America/New_York"] {
            for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ss", "dd/MM/yyyy"] {
                for text in ["2024-02-29", "2023-02-29", "1999-12-31T23:59:59", "31/12/1999", "1500-01-01", "2024-1-5"] {
                    let formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.timeZone = TimeZone(identifier: zone)
                    formatter.dateFormat = format
                    expectSameAsFoundation(
                        Specials.self, #"{"date":"\#(text)","data":"","url":"u","decimal":0,"dates":["\#(text)"]}"#
                    ) { f, e in
                        f.dateDecodingStrategy = .formatted(formatter)
                        e.dateDecodingStrategy = .formatted(formatter)
                    }
                }
            }
        }
        expectSameAsFoundation(Specials.self, #"{"date":"7","data":"AQ==","url":"u","decimal":0}"#) { f, e in
            f.dateDecodingStrategy = .custom { decoder in
                Date(timeIntervalSince1970: Double(try decoder.singleValueContainer().decode(String.self))! * 2)
            }
            e.dateDecodingStrategy = .custom { decoder in
                Date(timeIntervalSince1970: Double(try decoder.singleValueContainer().decode(String.self))! * 2)
            }
            f.dataDecodingStrategy = .custom { _ in Data([9]) }
            e.dataDecodingStrategy = .custom { _ in Data([9]) }
        }
    }

    static let snakeInputs: [String] = [
        #"{"first_name":"A","last_name":"B","home_address":{"street_name":"S","zip_code":1},"tags_by_name":{"some_tag":1},"__private":3}"#,
        #"{"first_name":"A","home_address":{"street_name":"S","zip_code":1},"tags_by_name":{}}"#,
        #"{"firstName":"A","home_address":{"street_name":"S","zip_code":1},"tags_by_name":{}}"#,
        #"{"first__name":"A","home_address":{"street_name":"S","zip_code":"1"},"tags_by_name":{}}"#,
        #"{"first_name":"A","home_address":{"street_name":"S"},"tags_by_name":{}}"#,
    ]

    @Test(arguments: snakeInputs)
    func snakeCase(_ json: String) {
        expectSameAsFoundation(SnakeModel.self, json) { f, e in
            f.keyDecodingStrategy = .convertFromSnakeCase
            e.keyDecodingStrategy = .convertFromSnakeCase
        }
    }

    @Test func customKeyStrategy() {
        let upper: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            AnyKey(stringValue: path.last!.stringValue.lowercased())
        }
        expectSameAsFoundation(Book.self, #"{"TITLE":"T","PAGES":3,"TAGS":[],"GENRE":"poetry"}"#) { f, e in
            f.keyDecodingStrategy = .custom(upper)
            e.keyDecodingStrategy = .custom(upper)
        }
    }

    /// `JSONDecoder` converts the keys of every object inside a `JSON` with its key strategy (a
    /// `JSON` decodes through keyed containers); `ElevateJSONDecoder` copied the value off the tape
    /// with the keys as written, so the same `payload` decoded to `{"some_key":…}` instead of
    /// `{"someKey":…}`, and a `JSON` encoded with `convertToSnakeCase` did not read back.
    @Test func aJSONPropertyFollowsTheKeyDecodingStrategy() throws {
        struct Envelope: Swift.Codable, Equatable { var payload: JSON }
        let data = Data(#"{"payload":{"some_key":{"inner_key":[1,{"deep_key":"x_y"}]},"big":18446744073709551616}}"#.utf8)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let elevate = ElevateJSONDecoder()
        elevate.keyDecodingStrategy = .convertFromSnakeCase
        let decoded = try elevate.decode(Envelope.self, from: data)
        #expect(decoded.payload["someKey"]["innerKey"][1]["deepKey"] == "x_y")
        // Numbers are still exact (Foundation's reads this one as a Double).
        #expect(decoded.payload["big"] == JSON(.large("18446744073709551616")))
        #expect(try foundation.decode(Envelope.self, from: data).payload["someKey"] == decoded.payload["someKey"])

        let encoder = ElevateJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let original = Envelope(payload: ["someKey": ["innerKey": [1, 2.5, nil]]])
        #expect(try elevate.decode(Envelope.self, from: encoder.encode(original)) == original)

        // Upper case for the keys with an underscore, so that "payload" still finds the property.
        let shout: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            let key = path.last!.stringValue
            return StringCodingKey(key.contains("_") ? key.uppercased() : key)
        }
        elevate.keyDecodingStrategy = .custom(shout)
        foundation.keyDecodingStrategy = .custom(shout)
        let custom = try elevate.decode(Envelope.self, from: data)
        #expect(custom.payload["SOME_KEY"]["INNER_KEY"][1]["DEEP_KEY"] == "x_y")
        #expect(try foundation.decode(Envelope.self, from: data).payload["SOME_KEY"] == custom.payload["SOME_KEY"])
        // The default strategy keeps the keys as written.
        #expect(try ElevateJSONDecoder().decode(Envelope.self, from: data).payload["some_key"]["inner_key"][0] == 1)
    }
}

// MARK: - Key strategies on large objects (issue #26 item 4)

/// Counts the calls of a `.custom` key strategy closure.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// A few properties read from an object of thousands of members: two present (one near the end,
/// one in the middle), two missing.
private struct FewOfMany: Codable, Equatable {
    var last: Int
    var missingA: Int?
    var missingB: String?
    var middle: Int
}

/// A type whose only property collides, after snake-case conversion, with another JSON key.
private struct OnlyAB: Codable, Equatable {
    var aB: Int
}

@Suite("ElevateJSONDecoder key strategies cost linear time on large objects")
struct CodableKeyStrategyCostTests {
    /// An object of `count` filler members `k0`... plus the given members spliced in.
    static func largeObject(_ count: Int, prefix: String = "", middle: String, suffix: String) -> String {
        var members: [String] = (0..<count).map { #""k_\#($0)":\#($0)"# }
        members.insert(middle, at: count / 2)
        return "{" + prefix + members.joined(separator: ",") + "," + suffix + "}"
    }

    @Test func customClosureIsCalledAboutOncePerMember() throws {
        let members = 20_000
        let counter = CallCounter()
        let json = Self.largeObject(members, middle: #""MIDDLE":7"#, suffix: #""LAST":9"#)
        let lowercase: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            counter.increment()
            return AnyKey(stringValue: path.last!.stringValue.lowercased())
        }
        let decoder = ElevateJSONDecoder()
        decoder.keyDecodingStrategy = .custom(lowercase)
        let value = try decoder.decode(FewOfMany.self, from: Data(json.utf8))
        #expect(value == FewOfMany(last: 9, missingA: nil, missingB: nil, middle: 7))
        // Every member converted at most about once for the whole object, not once per property.
        #expect(counter.value <= 2 * members, "closure called \(counter.value) times for \(members) members")

        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .custom { path in AnyKey(stringValue: path.last!.stringValue.lowercased()) }
        #expect(try foundation.decode(FewOfMany.self, from: Data(json.utf8)) == value)
    }

    @Test func snakeCaseOnMoreMembersThanTheCacheHoldsMatchesFoundation() throws {
        let json = Self.largeObject(10_000, middle: #""middle":7"#, suffix: #""last":9"#)
        let elevate = ElevateJSONDecoder()
        elevate.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let value = try elevate.decode(FewOfMany.self, from: Data(json.utf8))
        #expect(value == FewOfMany(last: 9, missingA: nil, missingB: nil, middle: 7))
        #expect(try foundation.decode(FewOfMany.self, from: Data(json.utf8)) == value)
        // The keys themselves through a dictionary keyed by converted names.
        let all = try elevate.decode([String: Int].self, from: Data(json.utf8))
        #expect(all.count == 10_002)
    }

    @Test func snakeCaseDuplicatesAndCollisionsOnLargeObjectsAsOnSmallOnes() throws {
        let elevate = ElevateJSONDecoder()
        elevate.keyDecodingStrategy = .convertFromSnakeCase
        for filler in [0, 3, 10_000] {
            // A repeated key: the last occurrence wins, the library's rule.
            let repeated = Self.largeObject(filler, middle: #""a_b":1"#, suffix: #""a_b":2"#)
            #expect(try elevate.decode(OnlyAB.self, from: Data(repeated.utf8)) == OnlyAB(aB: 2), "filler \(filler)")
            // Two keys that convert to one name: the first in document order, as Foundation.
            let colliding = Self.largeObject(filler, middle: #""zz":0"#, suffix: #""a_b":1,"aB":2"#)
            #expect(try elevate.decode(OnlyAB.self, from: Data(colliding.utf8)) == OnlyAB(aB: 1), "filler \(filler)")
            let collidingFirst = Self.largeObject(filler, prefix: #""aB":1,"a_b":2,"#, middle: #""zz":0"#, suffix: #""zz2":0"#)
            #expect(try elevate.decode(OnlyAB.self, from: Data(collidingFirst.utf8)) == OnlyAB(aB: 1), "filler \(filler)")
        }
    }
}
