// This target imports ElevateJSON and never Elevate: it is how Codable and JSON code uses the
// library. Swift's own `Decodable`, `Decoder` and `Encodable` must keep their meaning here; if
// ElevateJSON ever declares one of Elevate's protocol names, this file stops compiling.
import ElevateJSON
import Foundation
import Testing

/// Written as any Codable code is, with the bare names.
private struct Order: Codable, Equatable {
    var id: Int
    var items: [Item]
    var note: String?

    struct Item: Codable, Equatable {
        var sku: String
        var quantity: Int

        enum CodingKeys: String, CodingKey {
            case sku, quantity
        }

        init(sku: String, quantity: Int) {
            self.sku = sku
            self.quantity = quantity
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sku = try container.decode(String.self, forKey: .sku)
            quantity = try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sku, forKey: .sku)
            try container.encode(quantity, forKey: .quantity)
        }
    }
}

/// A generic function over the bare protocol names, as a service's helpers are written.
private func roundTrip<T: Decodable & Encodable>(_ value: T) throws -> T {
    try ElevateJSONDecoder().decode(T.self, from: ElevateJSONEncoder().encode(value))
}

@Suite struct SwiftCodableNamesTests {
    let json = Data(#"{"id": 7, "items": [{"sku": "a-1", "quantity": 2}, {"sku": "b-2"}], "note": null}"#.utf8)

    @Test func theBareNamesAreSwiftsAndBothDecodersAgree() throws {
        let ours = try ElevateJSONDecoder().decode(Order.self, from: json)
        let foundation = try JSONDecoder().decode(Order.self, from: json)
        #expect(ours == foundation)
        #expect(ours.items.map(\.quantity) == [2, 1])
        #expect(try roundTrip(ours) == ours)
    }

    @Test func streamingAndTheTapeAreHereWithoutElevate() throws {
        var skus: [String] = []
        let count = try forEachElement(from: .data(json), atKeyPath: "items", as: Order.Item.self) {
            skus.append($0.sku)
        }
        #expect(count == 2)
        #expect(skus == ["a-1", "b-2"])
        let value = try JSONValue(parsing: json)
        #expect(value[keyPath: "items.1.sku"]?.string == "b-2")
    }

    @Test func failuresAreReportedAsBefore() {
        // ParserError lives in this module, so a Codable stream's failures read the same whether
        // the caller imports Elevate or not.
        #expect(throws: ParserError.self) {
            try forEachElement(from: .data(json), atKeyPath: "missing", as: Order.Item.self) { _ in }
        }
    }
}
