import Elevate
import Foundation
import Testing

// ElevateJSONEncoder against Foundation's JSONEncoder. With .sortedKeys both texts are determined,
// so they are compared byte for byte (compact and pretty); without it member order is unspecified,
// so the streamed text is compared by parsing both, and byte for byte for models whose members are
// declared in sorted order. Every value is also read back with ElevateJSONDecoder.

// MARK: Models

/// Properties declared in key order, so streamed text equals Foundation's sorted text.
struct SortedPerson: Codable, Hashable, Sendable {
    var addresses: [SortedAddress]
    var born: Int
    var isMember: Bool?
    var name: String
    var nickname: String?
    var score: Double
}

struct SortedAddress: Codable, Hashable, Sendable {
    var city: String
    var street: String
}

enum Shape: Codable, Hashable, Sendable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case point
}

struct Texts: Codable, Hashable, Sendable {
    var a: String
    var b: [String]
}

class Vehicle: Codable, @unchecked Sendable {
    var wheels: Int
    init(wheels: Int) { self.wheels = wheels }
}

/// Encodes its superclass through `superEncoder()`, under "super".
final class Car: Vehicle, @unchecked Sendable {
    var brand: String
    init(brand: String) {
        self.brand = brand
        super.init(wheels: 4)
    }
    enum CodingKeys: String, CodingKey { case brand }
    required init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        brand = try container.decode(String.self, forKey: .brand)
        try super.init(from: container.superDecoder())
    }
    override func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(brand, forKey: .brand)
        try super.encode(to: container.superEncoder())
    }
}

/// Encodes its superclass into the same container.
final class Bike: Vehicle, @unchecked Sendable {
    var gears: Int
    init(gears: Int) {
        self.gears = gears
        super.init(wheels: 2)
    }
    enum CodingKeys: String, CodingKey { case gears }
    required init(from decoder: any Swift.Decoder) throws {
        gears = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .gears)
        try super.init(from: decoder)
    }
    override func encode(to encoder: any Swift.Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gears, forKey: .gears)
    }
}

/// Hand-written containers used out of order: nested containers written after the parent moved on.
struct Interleaved: Swift.Encodable, Sendable {
    enum Keys: String, CodingKey { case a, b, c, list, info, extra }
    func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        var info = container.nestedContainer(keyedBy: Keys.self, forKey: .info)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try container.encode("after", forKey: .b)
        try info.encode(true, forKey: .a)
        try list.encode(1)
        var inner = list.nestedContainer(keyedBy: Keys.self)
        try list.encode(3)
        try inner.encode("late", forKey: .c)
        try info.encodeNil(forKey: .b)
        var extra = container.superEncoder(forKey: .extra).unkeyedContainer()
        try extra.encode(contentsOf: [1, 2])
    }
}

/// An unkeyed container whose held-back element is written after the next element.
struct LateElement: Swift.Encodable, Sendable {
    func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        let slot = container.superEncoder()
        try container.encode(2)
        var single = slot.singleValueContainer()
        try single.encode("late")
    }
}

/// The same key twice: the last value wins.
struct RepeatedKey: Swift.Encodable, Sendable {
    enum Keys: String, CodingKey { case a, b }
    func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try container.encode(Texts(a: "x", b: []), forKey: .b)
        try container.encode(2, forKey: .a)
    }
}

/// An error thrown inside a member and caught: the member is left out.
struct SwallowedError: Swift.Encodable, Sendable {
    enum Keys: String, CodingKey { case a, b, c }
    struct Failing: Swift.Encodable {
        func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            throw CancellationError()
        }
    }
    func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try? container.encode(Failing(), forKey: .b)
        try container.encode(3, forKey: .c)
    }
}

struct Nothing: Swift.Encodable, Sendable {
    func encode(to encoder: any Swift.Encoder) throws {}
}

struct Numbers: Codable, Hashable, Sendable {
    var doubles: [Double]
    var floats: [Float]
    var int64s: [Int64]
    var uint64s: [UInt64]
    var decimals: [Decimal]
}

struct CamelKeys: Codable, Hashable, Sendable {
    var myURLProperty: Int
    var simpleKey: String
    var HTTPServer: Bool
    var _leading: Int
    var trailing_: Int
    var aB1C: Int
    var ÄpfelBirne: Int
    var nested: [String: SortedAddress]
}

final class Node: Codable, @unchecked Sendable {
    var child: Node?
    var items: [Int]
    init(depth: Int) {
        items = [depth]
        child = depth > 0 ? Node(depth: depth - 1) : nil
    }
}

// MARK: Corpus

/// One value, encoded by both encoders with the same settings.
struct EncodingCase: Sendable, CustomTestStringConvertible {
    let name: String
    let encode: @Sendable (ElevateJSONEncoder, JSONEncoder) throws -> (elevate: Data, foundation: Data)
    var testDescription: String { name }

    init<T: Swift.Encodable & Sendable>(_ name: String, _ value: T) {
        self.name = name
        encode = { elevate, foundation in (try elevate.encode(value), try foundation.encode(value)) }
    }
}

let encodingCorpus: [EncodingCase] = [
    EncodingCase(
        "nested structs",
        [
            SortedPerson(
                addresses: [SortedAddress(city: "London", street: "1 Main St")], born: 1815, isMember: true,
                name: "Ada", nickname: nil, score: 0.1),
            SortedPerson(addresses: [], born: -1, isMember: nil, name: "B/\"c\"", nickname: "x", score: 1e300),
        ]),
    EncodingCase(
        "library",
        Library(
            name: "L", books: [Book(title: "T", pages: 3, tags: ["a"], rating: 4.5, genre: .poetry, format: .paperback)],
            byIsbn: ["1": Book(title: "U", pages: 1, tags: [], rating: nil, genre: .fiction, format: nil)],
            counts: ["x": 1, "y": 2], shelves: [3: "three", -1: "minus"], owner: .init(name: "O", since: 2))),
    EncodingCase("optionals", Optionals(values: [1, nil, 3], names: nil, flag: nil, nested: [[1.5], []])),
    EncodingCase(
        "integers",
        Integers(
            i8: .min, i16: .max, i32: .min, i64: .min, u8: .max, u16: .max, u32: .max, u64: .max, i: .max, u: .max)),
    EncodingCase(
        "numbers",
        Numbers(
            doubles: [0, -0.0, 1, 0.1, 1e16, 1e-7, Double("5e-324")!, .greatestFiniteMagnitude, Double("123456789012345680000")!, -2.5],
            floats: [0.1, 1, 3.4e38, Float("1e-45")!], int64s: [.min, .max, 0], uint64s: [.max, 0, 1 << 63],
            decimals: [Decimal(string: "12.3400")!, Decimal(string: "-0.000000000000000000000000000001")!, 0])),
    EncodingCase("enums with associated values", [Shape.circle(radius: 1), .rectangle(width: 2, height: 3), .point]),
    EncodingCase("raw value enums", [Genre.science: [Format.hardcover]]),
    EncodingCase("int-keyed dictionary", [1: "a", -20: "b", 300: "c"]),
    EncodingCase("string-keyed dictionary of arrays", ["b": [1, 2], "a": [], "c": [3]]),
    EncodingCase("empty containers", Texts(a: "", b: [])),
    EncodingCase("strings", Texts(a: "a/b \u{1}\u{1f}\u{7f} \u{2028}\u{2029} é 😀 \"q\" \\ \t\n\r\u{8}\u{c}", b: ["", "/"])),
    EncodingCase("url and decimal", [Specials(
        date: Date(timeIntervalSince1970: 1.5), data: Data([0, 1, 255]), url: URL(string: "https://x.org/a b?c=d#e")!,
        decimal: Decimal(string: "3.14159265358979323846")!, dates: [Date(timeIntervalSince1970: -86400)])]),
    EncodingCase("dates in dictionaries", ["d": [Date(timeIntervalSince1970: 0)], "e": []]),
    EncodingCase("data in arrays", [[Data([1, 2, 3])], []]),
    EncodingCase("superEncoder", [Car(brand: "Volvo")]),
    EncodingCase("shared container with superclass", [Bike(gears: 21)]),
    EncodingCase("nested containers out of order", Interleaved()),
    EncodingCase("held-back element", LateElement()),
    EncodingCase("repeated key", [RepeatedKey()]),
    EncodingCase("caught error", SwallowedError()),
    EncodingCase("nothing encoded, nested", ["n": Nothing()]),
    EncodingCase("camel keys", CamelKeys(
        myURLProperty: 1, simpleKey: "k", HTTPServer: true, _leading: 2, trailing_: 3, aB1C: 4, ÄpfelBirne: 5,
        nested: ["someKey": SortedAddress(city: "c", street: "s")])),
    EncodingCase("top-level string", "hello"),
    EncodingCase("top-level integer", Int64.min),
    EncodingCase("top-level double", 2.5),
    EncodingCase("top-level nil", Int?.none),
    EncodingCase("top-level empty array", [Int]()),
    EncodingCase("top-level empty dictionary", [String: Int]()),
    EncodingCase("top-level date", Date(timeIntervalSince1970: 1000)),
    EncodingCase("mutable JSON value", ["a": [1, 2.5, nil, true, "s"], "b": ["c": [:]]] as JSON),
]

/// Settings under which the corpus is compared.
struct EncoderSettings: Sendable, CustomTestStringConvertible {
    let name: String
    let configure: @Sendable (ElevateJSONEncoder, JSONEncoder) -> Void
    var testDescription: String { name }
}

let encoderSettings: [EncoderSettings] = [
    EncoderSettings(name: "defaults") { _, _ in },
    EncoderSettings(name: "snake case, iso8601, deferred data") { elevate, foundation in
        elevate.keyEncodingStrategy = .convertToSnakeCase
        foundation.keyEncodingStrategy = .convertToSnakeCase
        elevate.dateEncodingStrategy = .iso8601
        foundation.dateEncodingStrategy = .iso8601
        elevate.dataEncodingStrategy = .deferredToData
        foundation.dataEncodingStrategy = .deferredToData
    },
    EncoderSettings(name: "seconds, custom data, without escaping slashes") { elevate, foundation in
        elevate.dateEncodingStrategy = .secondsSince1970
        foundation.dateEncodingStrategy = .secondsSince1970
        elevate.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.count)
        }
        foundation.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.count)
        }
        elevate.outputFormatting = .withoutEscapingSlashes
        foundation.outputFormatting = .withoutEscapingSlashes
    },
    EncoderSettings(name: "milliseconds, formatted, custom keys") { elevate, foundation in
        elevate.dateEncodingStrategy = .millisecondsSince1970
        foundation.dateEncodingStrategy = .millisecondsSince1970
        let upper: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            TestKey(path.last!.stringValue.uppercased())
        }
        elevate.keyEncodingStrategy = .custom(upper)
        foundation.keyEncodingStrategy = .custom(upper)
    },
    EncoderSettings(name: "formatted dates") { elevate, foundation in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZ"
        elevate.dateEncodingStrategy = .formatted(formatter)
        foundation.dateEncodingStrategy = .formatted(formatter)
    },
    EncoderSettings(name: "custom dates, one writing nothing") { elevate, foundation in
        let custom: @Sendable (Date, any Swift.Encoder) throws -> Void = { date, encoder in
            guard date.timeIntervalSince1970 != 0 else { return }
            var container = encoder.unkeyedContainer()
            try container.encode(date.timeIntervalSince1970)
        }
        elevate.dateEncodingStrategy = .custom(custom)
        foundation.dateEncodingStrategy = .custom(custom)
    },
]

struct TestKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Both texts parsed, for comparing text whose member order is unspecified.
func parsedJSON(_ data: Data) throws -> JSON {
    try JSON(JSONValue(parsing: data))
}

func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

@Suite struct ElevateJSONEncoderTests {
    @Test(arguments: encodingCorpus, encoderSettings)
    func sameTextAsJSONEncoder(_ testCase: EncodingCase, _ settings: EncoderSettings) throws {
        for formatting in [[], [.prettyPrinted]] as [JSONEncoder.OutputFormatting] {
            let elevate = ElevateJSONEncoder()
            let foundation = JSONEncoder()
            settings.configure(elevate, foundation)
            // Sorted: both texts are determined, compared byte for byte.
            elevate.outputFormatting.formUnion(ElevateJSONEncoder.OutputFormatting(formatting.union(.sortedKeys)))
            foundation.outputFormatting.formUnion(formatting.union(.sortedKeys))
            let sorted = try testCase.encode(elevate, foundation)
            #expect(text(sorted.elevate) == text(sorted.foundation), "sorted \(formatting)")

            // Streamed: the same JSON.
            elevate.outputFormatting.remove(.sortedKeys)
            foundation.outputFormatting.remove(.sortedKeys)
            let streamed = try testCase.encode(elevate, foundation)
            #expect(try parsedJSON(streamed.elevate) == parsedJSON(streamed.foundation), "\(text(streamed.elevate))")
        }
    }

    @Test(arguments: [[], [.prettyPrinted], [.prettyPrinted, .withoutEscapingSlashes]] as [JSONEncoder.OutputFormatting])
    func streamedTextIsJSONEncodersWhenDeclarationOrderIsSorted(_ formatting: JSONEncoder.OutputFormatting) throws {
        var people: [SortedPerson] = []
        for index in 0..<20 {
            let addresses: [SortedAddress] = (0..<index % 3).map { SortedAddress(city: "C/\($0)", street: "\($0) St") }
            let isMember: Bool? = index % 2 == 0 ? nil : true
            let nickname: String? = index % 3 == 0 ? "n" : nil
            people.append(
                SortedPerson(
                    addresses: addresses, born: index, isMember: isMember, name: "P\(index)", nickname: nickname,
                    score: Double(index) / 7))
        }
        let elevate = ElevateJSONEncoder()
        elevate.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
        let foundation = JSONEncoder()
        foundation.outputFormatting = formatting.union(.sortedKeys)
        #expect(text(try elevate.encode(people)) == text(try foundation.encode(people)))
    }

    @Test func roundTripsThroughElevateJSONDecoder() throws {
        let encoder = ElevateJSONEncoder()
        let decoder = ElevateJSONDecoder()
        let library = Library(
            name: "L", books: [Book(title: "T", pages: 3, tags: ["a"], rating: 4.5, genre: .poetry, format: nil)],
            byIsbn: [:], counts: nil, shelves: [1: "one"], owner: nil)
        #expect(try decoder.decode(Library.self, from: encoder.encode(library)) == library)
        let numbers = Numbers(
            doubles: [0.1, 1e-300, -0.0, 1e16], floats: [0.1, 3.4e38], int64s: [.min, .max], uint64s: [.max],
            decimals: [Decimal(string: "0.5")!])
        #expect(try decoder.decode(Numbers.self, from: encoder.encode(numbers)) == numbers)
        let specials = Specials(
            date: Date(timeIntervalSince1970: 12345.5), data: Data([9, 8]), url: URL(string: "https://a.b/c")!,
            decimal: Decimal(string: "12345678901234567890")!, dates: nil)
        #expect(try decoder.decode(Specials.self, from: encoder.encode(specials)) == specials)
        encoder.keyEncodingStrategy = .convertToSnakeCase
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let snake = SnakeModel(
            firstName: "A", lastName: nil, homeAddress: .init(streetName: "S", zipCode: 1), tagsByName: ["camelCase": 1],
            __private: 3)
        #expect(try decoder.decode(SnakeModel.self, from: encoder.encode(snake)) == snake)
        let car = try decoder.decode(Car.self, from: encoder.encode(Car(brand: "V")))
        #expect(car.brand == "V" && car.wheels == 4)
        let bike = try decoder.decode(Bike.self, from: encoder.encode(Bike(gears: 3)))
        #expect(bike.gears == 3 && bike.wheels == 2)
    }

    // MARK: Errors

    struct Measurement: Swift.Encodable { var value: Double }
    struct FloatMeasurement: Swift.Encodable { var values: [Float] }

    @Test func nonConformingFloatThrowsAtItsPath() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            let input = [["k": Measurement(value: value)]]
            let ours = EncodingOutcome { text(try ElevateJSONEncoder().encode(input)) }
            let theirs = EncodingOutcome { text(try JSONEncoder().encode(input)) }
            #expect(ours == theirs)
            #expect(ours == .error("invalidValue", ["Index 0", "k", "value"]))
            #expect(encodingMessage { try ElevateJSONEncoder().encode(input) } == encodingMessage { try JSONEncoder().encode(input) })
        }
        let floats = FloatMeasurement(values: [1, .nan])
        #expect(EncodingOutcome { text(try ElevateJSONEncoder().encode(floats)) } == .error("invalidValue", ["values", "Index 1"]))
        #expect(encodingMessage { try ElevateJSONEncoder().encode(floats) } == encodingMessage { try JSONEncoder().encode(floats) })
        #expect(EncodingOutcome { text(try ElevateJSONEncoder().encode(Double.nan)) } == .error("invalidValue", []))
    }

    @Test func topLevelValueThatEncodesNothing() {
        for sorted in [false, true] {
            let encoder = ElevateJSONEncoder()
            if sorted { encoder.outputFormatting = .sortedKeys }
            #expect(EncodingOutcome { text(try encoder.encode(Nothing())) } == .error("invalidValue", []))
            #expect(encodingMessage { try encoder.encode(Nothing()) } == "Top-level Nothing did not encode any values.")
        }
        #expect(encodingMessage { try JSONEncoder().encode(Nothing()) } == "Top-level Nothing did not encode any values.")
    }

    struct Mismatch: Swift.Encodable {
        func encode(to encoder: any Swift.Encoder) throws {
            var array = encoder.unkeyedContainer()
            try array.encode(1)
            var object = encoder.container(keyedBy: TestKey.self)
            try object.encode(2, forKey: TestKey("a"))
        }
    }

    @Test func twoKindsOfContainerThrowWhereFoundationTraps() {
        #expect(EncodingOutcome { text(try ElevateJSONEncoder().encode([Mismatch()])) } == .error("invalidValue", ["Index 0"]))
    }

    struct Thrower: Swift.Encodable {
        struct Failure: Error {}
        func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.container(keyedBy: TestKey.self)
            try container.encode(1, forKey: TestKey("a"))
            throw Failure()
        }
    }

    @Test func errorsFromEncodeToReachTheCaller() {
        #expect(throws: Thrower.Failure.self) { try ElevateJSONEncoder().encode(["x": [Thrower()]]) }
    }

    @Test func codingPathsSeenByEncodeTo() throws {
        final class Recorder: @unchecked Sendable { var paths: [String] = [] }
        struct Probe: Swift.Encodable {
            let recorder: Recorder
            func encode(to encoder: any Swift.Encoder) throws {
                recorder.paths.append(encoder.codingPath.map(\.stringValue).joined(separator: "/"))
                var container = encoder.singleValueContainer()
                try container.encode(0)
            }
        }
        struct Holder: Swift.Encodable {
            let probe: Probe
            func encode(to encoder: any Swift.Encoder) throws {
                var container = encoder.container(keyedBy: TestKey.self)
                try container.encode([["k": probe]], forKey: TestKey("list"))
                var nested = container.nestedContainer(keyedBy: TestKey.self, forKey: TestKey("n"))
                try nested.encode(probe, forKey: TestKey("inner"))
                try probe.encode(to: container.superEncoder())
            }
        }
        let ours = Recorder()
        let theirs = Recorder()
        _ = try ElevateJSONEncoder().encode(Holder(probe: Probe(recorder: ours)))
        _ = try JSONEncoder().encode(Holder(probe: Probe(recorder: theirs)))
        // Foundation leaves the parent's key out of the path inside a nested container ("inner");
        // the Encoder contract, and this encoder, include it.
        #expect(theirs.paths == ["list/Index 0/k", "inner", "super"])
        #expect(ours.paths == ["list/Index 0/k", "n/inner", "super"])
    }

    @Test func userInfoReachesEncodeTo() throws {
        struct Reader: Swift.Encodable {
            static let key = CodingUserInfoKey(rawValue: "unit")!
            func encode(to encoder: any Swift.Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
            }
        }
        let encoder = ElevateJSONEncoder()
        encoder.userInfo = [Reader.key: "cm"]
        #expect(text(try encoder.encode([Reader()])) == #"["cm"]"#)
    }

    @Test func encodesToAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-encoder-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try ElevateJSONEncoder().encode(["a": 1], to: url)
        #expect(try Data(contentsOf: url) == Data(#"{"a":1}"#.utf8))
    }

    // MARK: Hostile input

    @Test(arguments: [126, 127, 128, 300, 1000])
    func deepNesting(_ depth: Int) throws {
        let node = Node(depth: depth)
        for formatting in [[], [.prettyPrinted], [.prettyPrinted, .sortedKeys]] as [JSONEncoder.OutputFormatting] {
            let elevate = ElevateJSONEncoder()
            elevate.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
            let foundation = JSONEncoder()
            // Node's members are declared in sorted order, so streamed text is Foundation's sorted text.
            foundation.outputFormatting = formatting.union(.sortedKeys)
            let ours = try elevate.encode(node)
            // Foundation refuses nesting beyond 512 levels; this encoder has no limit of its own.
            if depth < 500 { #expect(text(ours) == text(try foundation.encode(node)), "\(formatting)") }
        }
        let decoder = ElevateJSONDecoder()
        var options = decoder.parsingOptions
        options.maximumDepth = 2048
        decoder.parsingOptions = options
        var decoded: Node? = try decoder.decode(Node.self, from: ElevateJSONEncoder().encode(node))
        var levels = 0
        while let current = decoded {
            levels += 1
            decoded = current.child
        }
        #expect(levels == depth + 1)
    }

    @Test func hugeString() throws {
        let huge = String(repeating: "abc/\u{2028}é\n", count: 1 << 20)
        let value = Texts(a: huge, b: [huge])
        let elevate = ElevateJSONEncoder()
        elevate.outputFormatting = .sortedKeys
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        #expect(try elevate.encode(value) == foundation.encode(value))
        #expect(try ElevateJSONDecoder().decode(Texts.self, from: ElevateJSONEncoder().encode(value)) == value)
    }

    @Test func oneEncoderFromManyTasks() async throws {
        let encoder = ElevateJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let results = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<64 {
                group.addTask {
                    if index % 8 == 0 { encoder.outputFormatting = index % 16 == 0 ? .sortedKeys : [.sortedKeys] }
                    let value = CamelKeys(
                        myURLProperty: index, simpleKey: "\(index)", HTTPServer: index % 2 == 0, _leading: 0,
                        trailing_: 1, aB1C: 2, ÄpfelBirne: 3, nested: ["k\(index)": SortedAddress(city: "c", street: "s")])
                    return (index, try encoder.encode(value))
                }
            }
            var results: [Int: Data] = [:]
            for try await (index, data) in group { results[index] = data }
            return results
        }
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        foundation.outputFormatting = .sortedKeys
        for (index, data) in results {
            let value = CamelKeys(
                myURLProperty: index, simpleKey: "\(index)", HTTPServer: index % 2 == 0, _leading: 0, trailing_: 1,
                aB1C: 2, ÄpfelBirne: 3, nested: ["k\(index)": SortedAddress(city: "c", street: "s")])
            #expect(data == (try foundation.encode(value)))
        }
    }

    // MARK: Against JSONEncoder on random trees and hostile encode(to:)

    @Test func encoderMatchesJSONEncoderOnRandomTrees() throws {
        var random = SeededGenerator(state: 0xF0F0)
        for round in 0..<200 {
            var json = try JSON(foundationValue: WriterSamples.randomTree(&random, maximumDepth: 5))
            if round % 25 == 0 {
                for level in 0..<(120 + round) { json = level % 2 == 0 ? .array([json, .object([:])]) : .object(["k": json, "e": .array([])]) }
            }
            let tree = WriterSamples.Tree(json)
            for formatting in WriterSamples.formattings {
                let foundation = JSONEncoder()
                foundation.outputFormatting = formatting
                let elevate = ElevateJSONEncoder()
                elevate.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
                let expected = try foundation.encode(tree)
                let actual = try elevate.encode(tree)
                #expect(WriterSamples.text(actual) == WriterSamples.text(expected), "round \(round) \(formatting)")
                // Unsorted, the streamed text holds the same value.
                elevate.outputFormatting.remove(.sortedKeys)
                let streamed = try elevate.encode(tree)
                #expect(
                    treesEqual(try JSONValueBuilder.value(from: streamed, options: .init(maximumDepth: 2048)), try JSONValueBuilder.value(from: expected, options: .init(maximumDepth: 2048))),
                    "round \(round) \(formatting)")
            }
        }
    }

    /// An empty container in pretty output is `JSONEncoder`'s `[\n\n<indent>]` with an empty middle
    /// line, also nested past YAJL's 127 levels, where a child generator writes it (the blank line
    /// carried the child's indentation: trailing spaces, so not JSONEncoder's bytes).
    @Test(arguments: [1, 126, 127, 128, 200, 300])
    func prettyEmptyContainersPastYAJLsDepthAreJSONEncoders(depth: Int) throws {
        var json = JSON.object(["a": .array([]), "b": .object([:]), "c": .array([.array([]), .object([:])])])
        for level in 0..<depth { json = level % 2 == 0 ? .array([json]) : .object(["k": json]) }
        let tree = WriterSamples.Tree(json)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
        let elevate = ElevateJSONEncoder()
        elevate.outputFormatting = [.prettyPrinted, .sortedKeys]
        let expected = WriterSamples.text(try foundation.encode(tree))
        #expect(WriterSamples.text(try elevate.encode(tree)) == expected)
        // Streamed (members in encoding order, here already sorted): the same text.
        elevate.outputFormatting = [.prettyPrinted]
        #expect(WriterSamples.text(try elevate.encode(tree)) == expected)
        // No line ends in a space.
        #expect(!expected.contains(" \n"))
    }

    /// Encoder API uses that streaming cannot follow, each compared with JSONEncoder's text.
    struct Hostile: Swift.Encodable {
        var pattern: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: WriterSamples.AnyKey.self)
            switch pattern {
            case 0:
                // The same key twice: the last value wins.
                try container.encode(1, forKey: WriterSamples.AnyKey("a"))
                try container.encode([2, 3], forKey: WriterSamples.AnyKey("a"))
            case 1:
                // A nested container written to after later members.
                var nested = container.nestedContainer(keyedBy: WriterSamples.AnyKey.self, forKey: WriterSamples.AnyKey("n"))
                try container.encode("after", forKey: WriterSamples.AnyKey("z"))
                try nested.encode(true, forKey: WriterSamples.AnyKey("late"))
                var list = container.nestedUnkeyedContainer(forKey: WriterSamples.AnyKey("l"))
                try container.encode(0, forKey: WriterSamples.AnyKey("m"))
                try list.encode(1)
                var inner = list.nestedUnkeyedContainer()
                try list.encode(3)
                try inner.encode(2)
            case 2:
                // superEncoder, under "super" and under a key, used after the parent moved on.
                let superEncoder = container.superEncoder()
                let keyed = container.superEncoder(forKey: WriterSamples.AnyKey("s"))
                try container.encode(1, forKey: WriterSamples.AnyKey("x"))
                var single = superEncoder.singleValueContainer()
                try single.encode("base")
                var keyedContainer = keyed.container(keyedBy: WriterSamples.AnyKey.self)
                try keyedContainer.encode(Optional<Int>.none, forKey: WriterSamples.AnyKey("nil"))
            case 3:
                // Keys that need escaping, and two spellings of one key, which are equal Swift strings.
                for key in ["\"", "\\", "\u{0}", "/", "\u{2028}", "\u{1F}\u{7F}", "", " ", "é", "e\u{301}", "😀"] {
                    try container.encode(key, forKey: WriterSamples.AnyKey(key))
                }
            case 4:
                // Nested optionals and empty containers.
                let values: [Int??] = [nil, .some(nil), 3]
                try container.encode(values, forKey: WriterSamples.AnyKey("o"))
                try container.encodeIfPresent(Optional<Int?>.some(nil), forKey: WriterSamples.AnyKey("p"))
                try container.encodeIfPresent(Optional<Int?>.none, forKey: WriterSamples.AnyKey("q"))
                _ = container.nestedContainer(keyedBy: WriterSamples.AnyKey.self, forKey: WriterSamples.AnyKey("e"))
                _ = container.nestedUnkeyedContainer(forKey: WriterSamples.AnyKey("f"))
                try container.encode([String: Int](), forKey: WriterSamples.AnyKey("g"))
                try container.encode([[Int]](), forKey: WriterSamples.AnyKey("h"))
                try container.encode(WriterSamples.Empty(), forKey: WriterSamples.AnyKey("i"))
            default:
                // A nested container asked for twice under one key: the same object.
                var first = container.nestedContainer(keyedBy: WriterSamples.AnyKey.self, forKey: WriterSamples.AnyKey("n"))
                try first.encode(1, forKey: WriterSamples.AnyKey("a"))
                var second = container.nestedContainer(keyedBy: WriterSamples.AnyKey.self, forKey: WriterSamples.AnyKey("n"))
                try second.encode(2, forKey: WriterSamples.AnyKey("b"))
            }
        }
    }

    @Test(arguments: 0..<6)
    func encoderMatchesJSONEncoderOnHostileEncodeTo(pattern: Int) throws {
        for formatting in WriterSamples.formattings {
            let foundation = JSONEncoder()
            foundation.outputFormatting = formatting
            let elevate = ElevateJSONEncoder()
            elevate.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
            let value = [Hostile(pattern: pattern)]
            #expect(WriterSamples.text(try elevate.encode(value)) == WriterSamples.text(try foundation.encode(value)), "\(formatting)")
            // Streaming (unsorted) holds the same value.
            elevate.outputFormatting.remove(.sortedKeys)
            let streamed = try JSONSerialization.jsonObject(with: try elevate.encode(value)) as! NSArray
            let reference = try JSONSerialization.jsonObject(with: try foundation.encode(value)) as! NSArray
            #expect(streamed == reference, "\(formatting)")
        }
    }

    @Test func encoderErrorsOnNonFiniteNumbersNameThePath() throws {
        struct Holder: Swift.Encodable {
            var list: [Float]
        }
        for encoder in [ElevateJSONEncoder()] {
            do {
                _ = try encoder.encode([Holder(list: [1, .nan])])
                Issue.record("no error")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.map(\.stringValue) == ["Index 0", "list", "Index 1"])
            }
        }
    }
}

/// The debug description of the `EncodingError` that `body` throws.
func encodingMessage(_ body: () throws -> Any) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as EncodingError {
        if case .invalidValue(_, let context) = error { return context.debugDescription }
        return "\(error)"
    } catch {
        return "\(error)"
    }
}

/// What an encode call gave: its text, or its error's case and coding path.
enum EncodingOutcome: Equatable, CustomStringConvertible {
    case value(String)
    case error(String, [String])
    case otherError(String)

    init(_ body: () throws -> String) {
        do {
            self = .value(try body())
        } catch let error as EncodingError {
            switch error {
            case .invalidValue(_, let context): self = .error("invalidValue", context.codingPath.map(\.stringValue))
            @unknown default: self = .otherError("\(error)")
            }
        } catch {
            self = .otherError("\(error)")
        }
    }

    var description: String {
        switch self {
        case .value(let text): "value \(text)"
        case .error(let kind, let path): "\(kind) at \(path)"
        case .otherError(let text): "error \(text)"
        }
    }
}
