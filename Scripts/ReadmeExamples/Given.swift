// The names that the README's and the DocC articles' code fragments say they are given
// ("Given: url, data, …"), or that an earlier block of the same article declared. It is compiled
// as a module of its own, which each fragment imports, so a fragment that declares one of these
// names itself shadows it instead of clashing. Scripts/check-examples.sh links it into every
// fragment it runs, so the values are real: small documents of the shape each fragment reads,
// and files written on first use into the temporary directory (the script gives every run a
// scratch TMPDIR of its own).
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

/// `Person` written back as JSON, for the fragments that stream people out.
extension Person: Elevate.Encodable {
    public var json: Any { ["identifier": identifier, "name": name] }
}

/// A log record read from JSON Lines.
public struct Event: Elevate.Decodable, Sendable {
    public let level: String
    public let message: String

    public init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "level", type: .string)
            schema.addProperty(keyPath: "message", type: .string)
        }
        level = entity <-! "level"
        message = entity <-! "message"
    }
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

/// A people document: what `data`, `url` and `chunks` hold. The README's and Getting Started's
/// examples read `response.items` and `response.owner`.
let peopleDocument = #"""
    {"response": {"items": [
        {"identifier": 1, "name": "Ada", "nickname": "Countess", "birthDate": "1815-12-10",
         "addresses": [{"street": "St James's Square", "city": "London"}]},
        {"identifier": 2, "name": "Grace", "birthDate": "1906-12-09",
         "addresses": [{"street": "Navy Yard", "city": "Arlington"}, {"street": "Yale", "city": "New Haven"}]}
    ], "owner": {"identifier": 3, "name": "Charles", "birthDate": "1791-12-26", "addresses": []}}}
    """#

/// The Codable streaming example's members, snake-case keys and ISO 8601 dates.
let membersDocument = #"""
    {"response": {"items": [
        {"full_name": "Ada Lovelace", "joined_on": "2024-03-01T09:30:00Z"},
        {"full_name": "Grace Hopper", "joined_on": "2024-03-02T14:00:00Z"}
    ]}}
    """#

/// A log as JSON Lines, one `Event` a line.
let logDocument = """
    {"level": "info", "message": "started"}
    {"level": "warning", "message": "disk at 91%"}

    {"level": "info", "message": "stopped"}

    """

/// A new file in the scratch directory, holding `text`.
func sampleFile(_ name: String, _ text: String) -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("elevate-examples-\(ProcessInfo.processInfo.processIdentifier)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent(name)
    try! Data(text.utf8).write(to: file)
    return file
}

/// `text` as gzip: one member of stored (uncompressed) deflate blocks, which any gzip reader
/// reads, written here so that the examples need neither zlib nor a `gzip` binary.
func gzipped(_ text: String) -> Data {
    let bytes = Array(text.utf8)
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    var gzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
    var start = 0
    repeat {
        let end = min(start + 65535, bytes.count)
        let length = UInt16(end - start)
        gzip += [end == bytes.count ? 1 : 0] + littleEndian(length) + littleEndian(~length) + bytes[start..<end]
        start = end
    } while start < bytes.count
    gzip += littleEndian(~crc) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
    return Data(gzip)
}

/// A new file in the scratch directory, holding `bytes`.
func sampleFile(_ name: String, bytes: Data) -> URL {
    let file = sampleFile(name, "")
    try! bytes.write(to: file)
    return file
}

/// `bytes` in chunks of 50 bytes, split wherever that falls (inside strings, between the bytes of
/// a character), as a socket would deliver them. A new sequence on every read, so that a fragment
/// may read `chunks` twice.
func chunked<Chunk: Sendable>(_ text: String, _ make: @escaping @Sendable ([UInt8]) -> Chunk) -> AsyncStream<Chunk> {
    let bytes = Array(text.utf8)
    return AsyncStream { continuation in
        for start in stride(from: 0, to: bytes.count, by: 50) {
            continuation.yield(make(Array(bytes[start..<min(start + 50, bytes.count)])))
        }
        continuation.finish()
    }
}

public let data = Data(peopleDocument.utf8)
public let url = sampleFile("people.json", peopleDocument)
public let membersURL = sampleFile("members.json", membersDocument)
public let logURL = sampleFile("log.jsonl", logDocument)
public let gzipURL = sampleFile("people.json.gz", bytes: gzipped(peopleDocument))
public let gzipLogURL = sampleFile("log.jsonl.gz", bytes: gzipped(logDocument))
public let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("out.json")
public var chunks: AsyncStream<[UInt8]> { chunked(peopleDocument) { $0 } }
public var socketChunks: AsyncStream<Data> { chunked(logDocument) { Data($0) } }
/// The people document one byte at a time, as `URLSession.bytes(from:)` delivers it.
public var bytes: AsyncStream<UInt8> {
    let bytes = Array(peopleDocument.utf8)
    return AsyncStream { continuation in
        for byte in bytes { continuation.yield(byte) }
        continuation.finish()
    }
}
public let handle: FileHandle = {
    let file = sampleFile("written.json", "")
    return try! FileHandle(forWritingTo: file)
}()
public let index = PeopleIndex()
public let events: [Item] = [Item(), Item()]
public let encoder = ElevateJSONEncoder()
public let records: [Record] = [Record(id: 1, name: "one"), Record(id: 2, name: "two")]
public let json: JSON = ["name": "Lift", "tags": ["a", "b"], "version": 2]
nonisolated(unsafe) public var names: [String] = []
