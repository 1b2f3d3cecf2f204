import ElevateJSON
import Foundation

/// ``BenchmarkPerson`` as `Swift.Codable`, for `JSONDecoder` and `JSONEncoder`: the same fields,
/// `birthDate` a string.
public struct CodablePerson: Swift.Codable, Hashable, Sendable {
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
    public var addresses: [CodableAddress]
}

/// ``BenchmarkPersonWithDate`` as `Swift.Decodable`: `birthDate` a `Date`, for a `JSONDecoder`
/// whose `dateDecodingStrategy` is ``CodablePersonWithDate/dateDecodingStrategy``.
public struct CodablePersonWithDate: Swift.Decodable, Hashable, Sendable {
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
    public var addresses: [CodableAddress]

    /// `.formatted` with a `yyyy-MM-dd`, `en_US_POSIX` `DateFormatter` in the current time zone:
    /// what `DateDecoder(dateFormatString: "yyyy-MM-dd")` matches.
    public static var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return .formatted(formatter)
    }
}

/// An address of a ``CodablePerson`` or ``CodablePersonWithDate``.
public struct CodableAddress: Swift.Codable, Hashable, Sendable {
    /// The street line.
    public var street: String
    /// The city.
    public var city: String
}

/// The envelope of the people document, `{"response": {"count": …, "items": [...]}}`, for
/// `JSONDecoder`, which has no key paths.
public struct CodablePeopleResponse<Person: Swift.Decodable & Sendable>: Swift.Decodable, Sendable {
    /// The `response` object.
    public struct Response: Swift.Decodable, Sendable {
        /// The people.
        public var items: [Person]
    }

    /// The `response` object.
    public var response: Response
}


// MARK: - Written by @TapeDecodable (BenchmarkModelExpansionTests checks it; see there to rewrite it)

extension CodablePerson: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .identifier, .name, .nickname, .birthDate, .isMember, .addresses:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.identifier = try container.decodeProperty(\Self.identifier, forKey: .identifier)
        self.name = try container.decodeProperty(\Self.name, forKey: .name)
        self.nickname = try container.decodeProperty(\Self.nickname, forKey: .nickname)
        self.birthDate = try container.decodeProperty(\Self.birthDate, forKey: .birthDate)
        self.isMember = try container.decodeProperty(\Self.isMember, forKey: .isMember)
        self.addresses = try container.decodeProperty(\Self.addresses, forKey: .addresses)
    }
}

extension CodablePersonWithDate: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .identifier, .name, .nickname, .birthDate, .isMember, .addresses:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.identifier = try container.decodeProperty(\Self.identifier, forKey: .identifier)
        self.name = try container.decodeProperty(\Self.name, forKey: .name)
        self.nickname = try container.decodeProperty(\Self.nickname, forKey: .nickname)
        self.birthDate = try container.decodeProperty(\Self.birthDate, forKey: .birthDate)
        self.isMember = try container.decodeProperty(\Self.isMember, forKey: .isMember)
        self.addresses = try container.decodeProperty(\Self.addresses, forKey: .addresses)
    }
}

extension CodableAddress: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .street, .city:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.street = try container.decodeProperty(\Self.street, forKey: .street)
        self.city = try container.decodeProperty(\Self.city, forKey: .city)
    }
}

extension CodablePeopleResponse: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .response:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.response = try container.decodeProperty(\Self.response, forKey: .response)
    }
}

extension CodablePeopleResponse.Response: ElevateJSON.TapeDecodable {
    public init(fromTape value: ElevateJSON.TapeDecodingValue) throws {
        _ = { (key: CodingKeys) in
            switch key {
            case .items:
                break
            }
        }
        let container = try value.container(keyedBy: CodingKeys.self)
        self.items = try container.decodeProperty(\Self.items, forKey: .items)
    }
}
