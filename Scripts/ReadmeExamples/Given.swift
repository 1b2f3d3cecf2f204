// The names that the README's and the DocC articles' code fragments say they are given
// ("Given: url, data, …"), or that an earlier block of the same article declared. It is compiled
// as a module of its own, which each fragment imports, so a fragment that declares one of these
// names itself shadows it instead of clashing. Nothing here runs: the values only need a type.
import Elevate
import Foundation

/// The README's `Person`, as its first example declares it.
public struct Person: Elevate.Decodable, Sendable {
    public let identifier: Int
    public let name: String
    public let nickname: String?
    public let birthDate: Date
    public let addresses: [Address]

    public init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "identifier", type: .int)
            schema.addProperty(keyPath: "name", type: .string)
            schema.addProperty(keyPath: "nickname", type: .string, optional: true)
            schema.addProperty(keyPath: "birthDate", type: .string, decoder: DateDecoder(dateFormatString: "yyyy-MM-dd"))
            schema.addProperty(keyPath: "addresses", type: .array, decodableType: Address.self)
        }
        identifier = entity <-! "identifier"
        name = entity <-! "name"
        nickname = entity <-? "nickname"
        birthDate = entity <-! "birthDate"
        addresses = entity <--! "addresses"
    }
}

/// The README's `Address`.
public struct Address: Elevate.Decodable, Sendable {
    public let street: String
    public let city: String

    public init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "street", type: .string)
            schema.addProperty(keyPath: "city", type: .string)
        }
        street = entity <-! "street"
        city = entity <-! "city"
    }
}

/// A log record read from JSON Lines.
public struct Event: Elevate.Decodable, Sendable {
    public init(json: Any) throws { _ = try Parser.parseEntity(json: json) { _ in } }
}

/// Any Codable element type.
public struct Item: Codable, Sendable {}

/// The user's own store of decoded people.
public final class PeopleIndex: Sendable {
    public func add(_ person: Person) throws {}
}

/// The user's own handling of one event.
public func process(_ event: Event) {}

/// A record to write out.
public struct Record: Sendable {
    public let id: Int
    public let name: String
}

/// The event-layer article's handler.
public final class KeyCounter: JSONEventHandler {
    public var counts: [String: Int] = [:]
    public init() {}
    public func key(_ key: JSONText) throws { counts[key.string, default: 0] += 1 }
}

public let data = Data()
public let url = URL(fileURLWithPath: "people.json")
public let logURL = URL(fileURLWithPath: "log.jsonl")
public let outputURL = URL(fileURLWithPath: "out.json")
public let chunks = AsyncStream<[UInt8]> { $0.finish() }
public let socketChunks = AsyncStream<Data> { $0.finish() }
public let handle = FileHandle.standardOutput
public let index = PeopleIndex()
public let events: [Item] = []
public let encoder = ElevateJSONEncoder()
public let records: [Record] = []
public let json: JSON = [:]
nonisolated(unsafe) public var names: [String] = []
