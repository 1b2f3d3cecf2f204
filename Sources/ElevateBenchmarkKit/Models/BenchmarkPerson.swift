import Elevate

/// The README's `Person` with `birthDate` kept as a string: what Elevate's schema costs without
/// date parsing.
///
/// One item of ``ElevateSampleData/SampleDocument/people``:
///
/// ```swift
/// let people: [BenchmarkPerson] = try Elevate.decodeArray(from: data, atKeyPath: "response.items")
/// ```
public struct BenchmarkPerson: Hashable, Sendable {
    /// A positive integer.
    public var identifier: Int
    /// First and last name.
    public var name: String
    /// Present in about half of the generated people.
    public var nickname: String?
    /// `yyyy-MM-dd`, undecoded.
    public var birthDate: String
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
        identifier: Int, name: String, nickname: String?, birthDate: String, isMember: Bool?,
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

extension BenchmarkPerson: Elevate.Decodable {
    /// Validates `json` against the README's person schema, `birthDate` as a plain `.string`.
    /// - Throws: ``ParserError/validation(failureReason:)`` when a property is missing or mistyped.
    /// - Parameter json: The JSON value, as Elevate passes it.
    public init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "identifier", type: .int)
            schema.addProperty(keyPath: "name", type: .string)
            schema.addProperty(keyPath: "nickname", type: .string, optional: true)
            schema.addProperty(keyPath: "birthDate", type: .string)
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
