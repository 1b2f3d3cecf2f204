import Elevate
import Foundation

/// The README's `Person`, exactly as the README writes it: a `DateDecoder` for `yyyy-MM-dd` is
/// created inside every `init(json:)`.
///
/// ```swift
/// let people: [BenchmarkPersonWithDate] = try Elevate.decodeArray(from: data, atKeyPath: "response.items")
/// ```
public struct BenchmarkPersonWithDate: Hashable, Sendable {
    /// A positive integer.
    public var identifier: Int
    /// First and last name.
    public var name: String
    /// Present in about half of the generated people.
    public var nickname: String?
    /// Midnight of the birth day, in the current time zone.
    public var birthDate: Date
    /// Present in about 70% of the generated people.
    public var isMember: Bool?
    /// One to three addresses.
    public var addresses: [BenchmarkAddress]

    /// Creates a person.
    /// - Parameters:
    ///   - identifier: See ``identifier``.
    ///   - name: See ``name``.
    ///   - nickname: See ``nickname``.
    ///   - birthDate: See ``birthDate``.
    ///   - isMember: See ``isMember``.
    ///   - addresses: See ``addresses``.
    public init(
        identifier: Int, name: String, nickname: String?, birthDate: Date, isMember: Bool?,
        addresses: [BenchmarkAddress]
    ) {
        self.identifier = identifier
        self.name = name
        self.nickname = nickname
        self.birthDate = birthDate
        self.isMember = isMember
        self.addresses = addresses
    }
}

extension BenchmarkPersonWithDate: Elevate.Decodable {
    /// Validates `json` against the README's person schema, decoding `birthDate` with a
    /// `DateDecoder(dateFormatString: "yyyy-MM-dd")` made here, per person, as the README does.
    /// - Throws: ``ParserError/validation(failureReason:)`` when a property is missing, mistyped,
    ///   or the date does not match the format.
    /// - Parameter json: The JSON value, as Elevate passes it.
    public init(json: Any) throws {
        let dateDecoder = DateDecoder(dateFormatString: "yyyy-MM-dd")

        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "identifier", type: .int)
            schema.addProperty(keyPath: "name", type: .string)
            schema.addProperty(keyPath: "nickname", type: .string, optional: true)
            schema.addProperty(keyPath: "birthDate", type: .string, decoder: dateDecoder)
            schema.addProperty(keyPath: "isMember", type: .bool, optional: true)
            schema.addProperty(keyPath: "addresses", type: .array, decodableType: BenchmarkAddress.self)
        }
        self.identifier = entity <-! "identifier"
        self.name = entity <-! "name"
        self.nickname = entity <-? "nickname"
        self.birthDate = entity <-! "birthDate"
        self.isMember = entity <-? "isMember"
        self.addresses = entity <--! "addresses"
    }
}
