import Elevate
import Foundation
import _FuzzSupport

/// `Parser.parseEntity(data:)` with a schema over every property type (plain, with a
/// `Decodable` type and with a `Decoder`), `decodeArray`/`decodeObject` of a small `Decodable`:
/// only `ParserError` may come out; a parsed entity holds each property as its schema's Swift
/// type; and streaming validation agrees with validating the built tree
/// (`parseEntity(json: foundationTree(from:))`) on success or failure.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let data = Data(input.bytes)
    let properties = Property.all.filter { _ in !input.chance(3) }
    let optional = properties.map { _ in !input.chance(4) }
    let schema: (Schema) -> Void = { schema in
        for (property, optional) in zip(properties, optional) { property.add(to: schema, optional: optional) }
    }

    let streamed = expectingParserError { try Parser.parseEntity(data: data, closure: schema) }
    if let entity = streamed {
        for (property, optional) in zip(properties, optional) { property.check(entity, optional: optional) }
    }
    // The same schema over the tree, when the data is JSON at all.
    if let tree = try? foundationTree(from: data) {
        let validated = expectingParserError { try Parser.parseEntity(json: tree, closure: schema) }
        fuzzCheck(
            (streamed == nil) == (validated == nil),
            """
            parseEntity(data:) \(streamed == nil ? "failed" : "succeeded") but parseEntity(json:) \
            \(validated == nil ? "failed" : "succeeded"); properties \(properties.map(\.keyPath)), optional \(optional)
            """)
        if let streamed, let validated {
            fuzzCheck(
                Set(streamed.keys) == Set(validated.keys),
                "entity keys differ: \(streamed.keys.sorted()) vs \(validated.keys.sorted())")
        }
    }

    let keyPath = ["", "items", "a.items"][input.next(below: 3)]
    _ = expectingParserError { () -> [Item] in try Elevate.decodeArray(from: data, atKeyPath: keyPath) }
    _ = expectingParserError { () -> Item in try Elevate.decodeObject(from: data, atKeyPath: keyPath) }
    _ = expectingParserError { () -> [Item] in try Elevate.decodeObject(from: data, atKeyPath: keyPath) }
    return 0
}

/// The result, nil after a `ParserError`; any other error is a finding.
func expectingParserError<T>(_ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch is ParserError {
        return nil
    } catch {
        fuzzFailure("threw \(type(of: error)), not ParserError: \(error)")
    }
}

/// A small `Elevate.Decodable`, nested in the schema and decoded by `decodeArray`.
struct Item: Elevate.Decodable {
    var id: Int
    var name: String?
    var tags: [String]?
    var children: [Item]?

    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "id", type: .int)
            schema.addProperty(keyPath: "name", type: .string, optional: true)
            schema.addProperty(keyPath: "tags", type: .array, optional: true)
            schema.addProperty(keyPath: "children", type: .array, optional: true, decodableType: Item.self)
        }
        id = entity <-! "id"
        name = entity <-? "name"
        tags = entity <--? "tags"
        children = entity <--? "children"
    }
}

/// One schema property and how to read it back from the entity.
struct Property {
    let keyPath: String
    let add: (Schema, String, Bool) -> Void
    /// Reads the value as the Swift type the schema promises; false when the cast fails.
    let read: ([String: Any], String) -> Bool

    func add(to schema: Schema, optional: Bool) { add(schema, keyPath, optional) }

    func check(_ entity: [String: Any], optional: Bool) {
        fuzzCheck(
            optional || entity[keyPath] != nil, "required property [\(keyPath)] is missing from a parsed entity")
        if let value = entity[keyPath] {
            fuzzCheck(read(entity, keyPath), "property [\(keyPath)] holds \(type(of: value)): \(value)")
        }
    }

    static func plain<T>(_ keyPath: String, _ type: SchemaPropertyProtocol, as: T.Type) -> Property {
        Property(
            keyPath: keyPath, add: { $0.addProperty(keyPath: $1, type: type, optional: $2) },
            read: { (($0 <-? $1) as T?) != nil })
    }

    static var all: [Property] {
        [
            .plain("s", .string, as: String.self),
            .plain("i", .int, as: Int.self),
            .plain("u", .uint, as: UInt.self),
            .plain("f", .float, as: Float.self),
            .plain("d", .double, as: Double.self),
            .plain("b", .bool, as: Bool.self),
            .plain("a", .array, as: [Any].self),
            .plain("o", .dictionary, as: [String: Any].self),
            .plain("url", .url, as: URL.self),
            .plain("o.s", .string, as: String.self),
            .plain("a.b.c", .int, as: Int.self),
            .plain("0", .double, as: Double.self),
            Property(
                keyPath: "items",
                add: { $0.addProperty(keyPath: $1, type: .array, optional: $2, decodableType: Item.self) },
                read: { (($0 <--? $1) as [Item]?) != nil }),
            Property(
                keyPath: "item",
                add: { $0.addProperty(keyPath: $1, type: .dictionary, optional: $2, decodableType: Item.self) },
                read: { (($0 <-? $1) as Item?) != nil }),
            Property(
                keyPath: "n",
                add: { $0.addProperty(keyPath: $1, type: .string, optional: $2, decoder: StringToIntDecoder()) },
                read: { (($0 <-? $1) as Int?) != nil }),
            Property(
                keyPath: "date",
                add: {
                    $0.addProperty(
                        keyPath: $1, type: .string, optional: $2, decoder: DateDecoder(dateFormatString: "yyyy-MM-dd"))
                },
                read: { (($0 <-? $1) as Date?) != nil }),
        ]
    }
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
