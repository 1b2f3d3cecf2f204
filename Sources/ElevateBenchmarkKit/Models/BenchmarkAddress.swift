import Elevate

/// An address of a ``BenchmarkPerson``, decoded with Elevate's schema, as in Elevate's README.
public struct BenchmarkAddress: Hashable, Sendable {
    /// The street line, like `12 Main Street`.
    public var street: String
    /// The city.
    public var city: String

    /// Creates an address.
    /// - Parameters:
    ///   - street: See ``street``.
    ///   - city: See ``city``.
    public init(street: String, city: String) {
        self.street = street
        self.city = city
    }
}

extension BenchmarkAddress: Elevate.Decodable {
    /// Validates `json` against the README's address schema: two required strings.
    /// - Throws: ``ParserError/validation(failureReason:)`` when a property is missing or mistyped.
    /// - Parameter json: The JSON value, as Elevate passes it.
    public init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "street", type: .string)
            schema.addProperty(keyPath: "city", type: .string)
        }
        self.street = entity <-! "street"
        self.city = entity <-! "city"
    }
}
