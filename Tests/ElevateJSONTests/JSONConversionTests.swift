import ElevateJSON
import Foundation
import Testing

/// `JSON` to and from `Codable` values without a round trip through text, for Lift's users who
/// build and read JSON by hand.
@Suite struct JSONConversionTests {
    struct Money: Codable, Equatable {
        var amount: Decimal
        var currency: String
    }

    struct Payment: Codable, Equatable {
        var id: Int
        var money: Money
        var date: Date
        var note: String?
        var tags: [String]
    }

    static let payments = [
        Payment(
            id: 1, money: Money(amount: Decimal(string: "1234567.5")!, currency: "SEK"),
            date: Date(timeIntervalSince1970: 1_700_000_000), note: nil, tags: ["a", "b"]),
        Payment(
            id: 2, money: Money(amount: Decimal(string: "0.1")!, currency: "EUR"),
            date: Date(timeIntervalSince1970: 0), note: "hi", tags: []),
    ]

    /// The JSON a value encodes to is what the encoder's text parses to, and decodes back to it.
    @Test func encodingAndDecodingWithoutText() throws {
        let encoder = ElevateJSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = ElevateJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let json = try JSON(encoding: ["payments": Self.payments], encoder: encoder)
        let viaText = JSON(try JSONValue(parsing: encoder.encode(["payments": Self.payments])))
        #expect(json == viaText)
        // A nil optional is left out, as the encoder leaves it out.
        #expect(json["payments"][0]["note"] == .null && (try? json.value(at: "payments", 0, "note")) == nil)
        #expect(try json.decode([Payment].self, at: "payments", decoder: decoder) == Self.payments)
        #expect(try json.decode(Payment.self, at: "payments", 1, decoder: decoder) == Self.payments[1])
        #expect(try json.decode(Decimal.self, at: "payments", 0, "money", "amount") == Self.payments[0].money.amount)
        // A Decimal of 21 digits stays exact: the JSON keeps its text.
        let long = Decimal(string: "12345678901234567890.5")!
        let exact = try JSON(encoding: Money(amount: long, currency: "SEK"))
        #expect(exact["amount"] == .number(.large("12345678901234567890.5")))
        #expect(try exact.decode(Money.self).amount == long)
    }

    /// Errors say where: a missing step is an `AccessError` with the path, a value of another type a
    /// `DecodingError` whose coding path starts with the path.
    @Test func errorsKeepTheFullPath() throws {
        let json: JSON = ["items": [["n": 1], ["n": "x"]]]
        #expect(try json.decode(Int.self, at: "items", 0, "n") == 1)
        #expect {
            try json.decode(Int.self, at: "items", 1, "n")
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["items", "Index 1", "n"]
        }
        #expect {
            try json.decode([[String: Int]].self, at: "items")
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["items", "Index 1", "n"]
        }
        #expect {
            try json.decode(Int.self, at: "items", 5)
        } throws: { error in
            (error as? JSON.AccessError) == JSON.AccessError(path: "items[5]", reason: .missing)
        }
    }

    /// Lift's optional read: nil for missing or null, an error for a value of another type.
    @Test func optionalReadsAreNilOnlyForMissingOrNull() throws {
        let json: JSON = ["a": 1, "b": JSON.null, "c": "x"]
        #expect(try json.decodeIfPresent(Int.self, at: "a") == 1)
        #expect(try json.decodeIfPresent(Int.self, at: "b") == nil)
        #expect(try json.decodeIfPresent(Int.self, at: "missing") == nil)
        #expect(throws: DecodingError.self) { try json.decodeIfPresent(Int.self, at: "c") }
    }

    /// A Foundation object (`[String: Any]`, as `JSONSerialization` or a plist gives it) decodes
    /// through `JSON` without being written out as text.
    @Test func foundationObjectsDecodeWithoutText() throws {
        let object: [String: Any] = ["id": 7, "money": ["amount": 12.5, "currency": "SEK"] as [String: Any]]
        struct Payment: Codable, Equatable { var id: Int; var money: Money }
        let payment = try JSON(foundationValue: object).decode(Payment.self)
        #expect(payment == Payment(id: 7, money: Money(amount: 12.5, currency: "SEK")))
    }

    /// A value decodes as `JSON` itself unchanged, nested or not.
    @Test func decodingAsJSONGivesTheSameValue() throws {
        var json: JSON = ["k": [1, 2.5, "s", true, nil, ["x": JSON(UInt.max)]]]
        for _ in 0..<200 { json = [json] }
        #expect(try json.decode(JSON.self) == json)
    }
}
