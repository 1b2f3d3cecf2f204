import Elevate
import Foundation
import Testing

// ElevateJSONDecoder against Foundation's JSONDecoder: the same values for valid input, the same
// DecodingError case and coding path for invalid input, over a corpus of models and documents.

// MARK: Models

enum Genre: String, Codable, Hashable { case fiction, poetry, science }
enum Format: Int, Codable, Hashable { case hardcover = 1, paperback = 2 }

struct Book: Codable, Hashable {
    var title: String
    var pages: Int
    var tags: [String]
    var rating: Double?
    var genre: Genre
    var format: Format?
}

struct Library: Codable, Hashable {
    var name: String
    var books: [Book]
    var byIsbn: [String: Book]
    var counts: [String: Int]?
    var shelves: [Int: String]?
    var owner: Owner?
    struct Owner: Codable, Hashable { var name: String; var since: Int }
}

struct Optionals: Codable, Hashable {
    var values: [Int?]
    var names: [String?]?
    var flag: Bool?
    var nested: [[Double]]?
}

struct Integers: Codable, Hashable {
    var i8: Int8
    var i16: Int16
    var i32: Int32
    var i64: Int64
    var u8: UInt8
    var u16: UInt16
    var u32: UInt32
    var u64: UInt64
    var i: Int
    var u: UInt
}

struct Floats: Codable, Hashable {
    var f: Float
    var d: Double
}

struct Specials: Codable, Hashable {
    var date: Date
    var data: Data
    var url: URL
    var decimal: Decimal
    var dates: [Date]?
}

struct SnakeModel: Codable, Hashable {
    var firstName: String
    var lastName: String?
    var homeAddress: Address
    var tagsByName: [String: Int]
    var __private: Int?
    struct Address: Codable, Hashable { var streetName: String; var zipCode: Int }
}

class Animal: Codable, Equatable {
    var name: String
    init(name: String) { self.name = name }
    static func == (a: Animal, b: Animal) -> Bool { a.isEqual(b) }
    func isEqual(_ other: Animal) -> Bool { name == other.name && type(of: self) == type(of: other) }
}

/// Superclass through `superDecoder()` (its own object under "super").
final class Dog: Animal {
    var breed: String
    enum CodingKeys: String, CodingKey { case breed }
    required init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }
    override func isEqual(_ other: Animal) -> Bool { super.isEqual(other) && breed == (other as? Dog)?.breed }
}

/// Superclass sharing the subclass's object.
final class Cat: Animal {
    var lives: Int
    enum CodingKeys: String, CodingKey { case lives }
    required init(from decoder: any Swift.Decoder) throws {
        lives = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .lives)
        try super.init(from: decoder)
    }
    override func isEqual(_ other: Animal) -> Bool { super.isEqual(other) && lives == (other as? Cat)?.lives }
}

/// Superclass under a key of its own, through `superDecoder(forKey:)`.
final class Bird: Animal {
    var wings: Int
    enum CodingKeys: String, CodingKey { case wings, parent }
    required init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        wings = try container.decode(Int.self, forKey: .wings)
        try super.init(from: container.superDecoder(forKey: .parent))
    }
    override func isEqual(_ other: Animal) -> Bool { super.isEqual(other) && wings == (other as? Bird)?.wings }
}

/// Hand-written `init(from:)` with nested keyed and unkeyed containers, `decodeNil` and `contains`.
struct Place: Swift.Decodable, Hashable {
    var latitude: Double
    var longitude: Double
    var labels: [String]
    var hasNote: Bool
    var noteIsNull: Bool
    var keys: Set<String>
    var firstPoint: [Int]

    enum Keys: String, CodingKey { case location, labels, note, points }
    enum LocationKeys: String, CodingKey { case lat, lon }

    init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let location = try container.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
        latitude = try location.decode(Double.self, forKey: .lat)
        longitude = try location.decode(Double.self, forKey: .lon)
        var labels = try container.nestedUnkeyedContainer(forKey: .labels)
        var collected: [String] = []
        while !labels.isAtEnd {
            if try labels.decodeNil() { collected.append("<nil>") } else { collected.append(try labels.decode(String.self)) }
        }
        self.labels = collected
        hasNote = container.contains(.note)
        noteIsNull = hasNote ? try container.decodeNil(forKey: .note) : false
        keys = Set(container.allKeys.map(\.stringValue))
        var points = try container.nestedUnkeyedContainer(forKey: .points)
        var first = try points.nestedUnkeyedContainer()
        firstPoint = [try first.decode(Int.self), try first.decode(Int.self)]
    }
}

// MARK: Comparison

/// What a decode gave: the value, or the error's case and coding path.
enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
    case value(T)
    case error(String, [String])
    case otherError(String)

    init(_ body: () throws -> T) {
        do {
            self = .value(try body())
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let c): self = .error("typeMismatch", c.codingPath.map(\.stringValue))
            case .valueNotFound(_, let c): self = .error("valueNotFound", c.codingPath.map(\.stringValue))
            case .keyNotFound(let k, let c): self = .error("keyNotFound", c.codingPath.map(\.stringValue) + [k.stringValue])
            case .dataCorrupted(let c): self = .error("dataCorrupted", c.codingPath.map(\.stringValue))
            @unknown default: self = .otherError("\(error)")
            }
        } catch {
            self = .otherError("\(error)")
        }
    }

    var description: String {
        switch self {
        case .value(let value): "value \(value)"
        case .error(let kind, let path): "\(kind) at \(path)"
        case .otherError(let text): "error \(text)"
        }
    }
}

/// Decodes `json` with both decoders, configured alike, and expects the same outcome. Foundation
/// reports a number that does not fit its type as invalid JSON at the root; this decoder reports the
/// same case at the value's path (documented), so a root `dataCorrupted` matches any `dataCorrupted`.
func expectSameAsFoundation<T: Swift.Decodable & Equatable>(
    _ type: T.Type, _ json: String,
    configure: (JSONDecoder, ElevateJSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let data = Data(json.utf8)
    let foundation = JSONDecoder()
    let elevate = ElevateJSONDecoder()
    configure(foundation, elevate)
    let expected = Outcome { try foundation.decode(T.self, from: data) }
    let actual = Outcome { try elevate.decode(T.self, from: data) }
    if case .error("dataCorrupted", []) = expected, case .error("dataCorrupted", _) = actual { return }
    #expect(actual == expected, "\(json)", sourceLocation: sourceLocation)
}

@Suite("ElevateJSONDecoder against JSONDecoder")
struct CodableDecoderTests {
    static let librariesInputs: [String] = [
        #"{"name":"City","books":[{"title":"A","pages":10,"tags":["x","y"],"rating":4.5,"genre":"fiction","format":1},{"title":"B","pages":20,"tags":[],"rating":null,"genre":"poetry"}],"byIsbn":{"123":{"title":"C","pages":1,"tags":["z"],"genre":"science","format":2}},"counts":{"a":1,"b":2},"shelves":{"1":"one","2":"two"},"owner":{"name":"Ann","since":1999}}"#,
        #"{"name":"Empty","books":[],"byIsbn":{}}"#,
        #"{"books":[],"byIsbn":{}}"#,
        #"{"name":null,"books":[],"byIsbn":{}}"#,
        #"{"name":"X","books":[{"title":"A","pages":10,"tags":["x"],"genre":"drama"}],"byIsbn":{}}"#,
        #"{"name":"X","books":[{"title":"A","pages":10,"tags":["x"],"genre":"fiction","format":3}],"byIsbn":{}}"#,
        #"{"name":"X","books":[{"title":"A","pages":10,"tags":["x"],"genre":"fiction"},{"title":"B","pages":"20","tags":[],"genre":"fiction"}],"byIsbn":{}}"#,
        #"{"name":"X","books":[{"title":"A","pages":10,"tags":["x", 3],"genre":"fiction"}],"byIsbn":{}}"#,
        #"{"name":"X","books":[],"byIsbn":{"k":{"title":"A","tags":[],"genre":"fiction"}}}"#,
        #"{"name":"X","books":[],"byIsbn":{},"shelves":{"one":"x"}}"#,
        #"{"name":"X","books":{},"byIsbn":{}}"#,
        #"{"name":"X","books":null,"byIsbn":{}}"#,
        #"{"name":"X","books":[],"byIsbn":[]}"#,
        #"{"name":"X","books":[],"byIsbn":null}"#,
        #"{"name":"X","books":[],"byIsbn":{},"owner":{"name":"A"}}"#,
        #"{"name":"X","books":[],"byIsbn":{},"owner":[]}"#,
        #"{"name":"X","books":[null],"byIsbn":{}}"#,
        #"[]"#, #"null"#, #"3"#, #"{"name":1}"#, #"{"name":"X","#, #"{"name":"X"} x"#,
    ]

    @Test(arguments: librariesInputs)
    func library(_ json: String) {
        expectSameAsFoundation(Library.self, json)
        expectSameAsFoundation([String: Library].self, #"{"lib":\#(json)}"#)
        expectSameAsFoundation([Library?].self, "[null,\(json)]")
    }

    static let optionalsInputs: [String] = [
        #"{"values":[1,null,3],"names":["a",null],"flag":true,"nested":[[1.5],[]]}"#,
        #"{"values":[],"names":null}"#,
        #"{"values":[null,null]}"#,
        #"{"values":[1,"2"]}"#,
        #"{"values":[1],"flag":"yes"}"#,
        #"{"values":[1],"flag":1}"#,
        #"{"values":[1],"nested":[[1,"x"]]}"#,
        #"{"values":null}"#,
        #"{}"#,
    ]

    @Test(arguments: optionalsInputs)
    func optionals(_ json: String) {
        expectSameAsFoundation(Optionals.self, json)
    }

    static let integersInputs: [String] = [
        #"{"i8":-128,"i16":-32768,"i32":-2147483648,"i64":-9223372036854775808,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"i":9223372036854775807,"u":18446744073709551615}"#,
        #"{"i8":127,"i16":32767,"i32":2147483647,"i64":9223372036854775807,"u8":0,"u16":0,"u32":0,"u64":0,"i":0,"u":0}"#,
        #"{"i8":1.0,"i16":2e2,"i32":-0,"i64":3,"u8":4,"u16":5,"u32":6,"u64":7,"i":8,"u":9}"#,
        #"{"i8":128,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":0,"i":0,"u":0}"#,
        #"{"i8":0,"i16":0,"i32":0,"i64":0,"u8":-1,"u16":0,"u32":0,"u64":0,"i":0,"u":0}"#,
        #"{"i8":0,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":18446744073709551616,"i":0,"u":0}"#,
        #"{"i8":0,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":0,"i":1.5,"u":0}"#,
        #"{"i8":0,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":0,"i":1e30,"u":0}"#,
        #"{"i8":0,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":0,"i":9223372036854775808,"u":0}"#,
        #"{"i8":0,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":0,"i":true,"u":0}"#,
        #"{"i8":0,"i16":0,"i32":0,"i64":0,"u8":0,"u16":0,"u32":0,"u64":0,"i":null,"u":0}"#,
    ]

    @Test(arguments: integersInputs)
    func integers(_ json: String) {
        expectSameAsFoundation(Integers.self, json)
    }

    static let floatsInputs: [String] = [
        #"{"f":1.5,"d":-2.25}"#, #"{"f":0.1,"d":0.1}"#, #"{"f":3,"d":9007199254740993}"#,
        #"{"f":3.4028235e38,"d":1.7976931348623157e308}"#, #"{"f":1e39,"d":1}"#, #"{"f":1,"d":1e400}"#,
        #"{"f":1,"d":"1"}"#, #"{"f":"nan","d":1}"#, #"{"f":1,"d":"-inf"}"#, #"{"f":1,"d":5e-324}"#,
    ]

    @Test(arguments: floatsInputs)
    func floats(_ json: String) {
        expectSameAsFoundation(Floats.self, json)
    }

    @Test func nonConformingFloats() {
        let configure: (JSONDecoder, ElevateJSONDecoder) -> Void = { foundation, elevate in
            foundation.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            elevate.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        expectSameAsFoundation(Floats.self, #"{"f":"inf","d":"-inf"}"#, configure: configure)
        expectSameAsFoundation(Floats.self, #"{"f":"nope","d":1}"#, configure: configure)
        let nan = try? ElevateJSONDecoder().decode(Double.self, from: Data(#""nan""#.utf8))
        #expect(nan == nil)
    }

    static let specialsInputs: [String] = [
        #"{"date":1000.5,"data":"aGVsbG8=","url":"https://example.com/a?b=c","decimal":3.14,"dates":[0,-1.5]}"#,
        #"{"date":0,"data":"!!","url":"https://example.com","decimal":1}"#,
        #"{"date":"x","data":"aGVsbG8=","url":"https://example.com","decimal":1}"#,
        #"{"date":0,"data":"aGVsbG8=","url":"","decimal":1}"#,
        #"{"date":0,"data":"aGVsbG8=","url":"https://example.com","decimal":"1"}"#,
        #"{"date":0,"data":"aGVsbG8=","url":"https://example.com","decimal":12345678901234567890123}"#,
        #"{"date":0,"data":"aGVsbG8=","url":"https://example.com","decimal":-0.000123}"#,
    ]

    @Test(arguments: specialsInputs)
    func specialTypesWithDefaultStrategies(_ json: String) {
        expectSameAsFoundation(Specials.self, json)
    }

    @Test func dateStrategies() {
        let numeric = #"{"date":1700000000,"data":[1,2,3],"url":"https://e.com","decimal":0,"dates":[1.5]}"#
        expectSameAsFoundation(Specials.self, numeric) { f, e in
            f.dateDecodingStrategy = .secondsSince1970
            e.dateDecodingStrategy = .secondsSince1970
            f.dataDecodingStrategy = .deferredToData
            e.dataDecodingStrategy = .deferredToData
        }
        expectSameAsFoundation(Specials.self, numeric) { f, e in
            f.dateDecodingStrategy = .millisecondsSince1970
            e.dateDecodingStrategy = .millisecondsSince1970
            f.dataDecodingStrategy = .deferredToData
            e.dataDecodingStrategy = .deferredToData
        }
        for text in ["2024-02-29T12:34:56Z", "2024-02-29T12:34:56+02:00", "2024-02-30T12:34:56Z", "2024-02-29"] {
            expectSameAsFoundation(Specials.self, #"{"date":"\#(text)","data":"","url":"u","decimal":0}"#) { f, e in
                f.dateDecodingStrategy = .iso8601
                e.dateDecodingStrategy = .iso8601
            }
        }
        for zone in ["UTC", "GMT+0530", "America/New_York"] {
            for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ss", "dd/MM/yyyy"] {
                for text in ["2024-02-29", "2023-02-29", "1999-12-31T23:59:59", "31/12/1999", "1500-01-01", "2024-1-5"] {
                    let formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.timeZone = TimeZone(identifier: zone)
                    formatter.dateFormat = format
                    expectSameAsFoundation(
                        Specials.self, #"{"date":"\#(text)","data":"","url":"u","decimal":0,"dates":["\#(text)"]}"#
                    ) { f, e in
                        f.dateDecodingStrategy = .formatted(formatter)
                        e.dateDecodingStrategy = .formatted(formatter)
                    }
                }
            }
        }
        expectSameAsFoundation(Specials.self, #"{"date":"7","data":"AQ==","url":"u","decimal":0}"#) { f, e in
            f.dateDecodingStrategy = .custom { decoder in
                Date(timeIntervalSince1970: Double(try decoder.singleValueContainer().decode(String.self))! * 2)
            }
            e.dateDecodingStrategy = .custom { decoder in
                Date(timeIntervalSince1970: Double(try decoder.singleValueContainer().decode(String.self))! * 2)
            }
            f.dataDecodingStrategy = .custom { _ in Data([9]) }
            e.dataDecodingStrategy = .custom { _ in Data([9]) }
        }
    }

    @Test func duplicateKeysKeepTheLastOccurrence() throws {
        // The library's rule; Foundation on Linux keeps the first.
        let json = #"{"name":"Dup","name":"Last","books":[],"byIsbn":{}}"#
        #expect(try ElevateJSONDecoder().decode(Library.self, from: Data(json.utf8)).name == "Last")
    }

    @Test func decimalIsExactWhereTheTapeKeepsIt() throws {
        let decoder = ElevateJSONDecoder()
        let values = try decoder.decode(
            [Decimal].self, from: Data("[3.14, 18446744073709551615, 123456789012345678901234567890, 0.1]".utf8))
        #expect(values == [Decimal(string: "3.14")!, Decimal(string: "18446744073709551615")!,
                           Decimal(string: "123456789012345678901234567890")!, Decimal(string: "0.1")!])
    }

    static let snakeInputs: [String] = [
        #"{"first_name":"A","last_name":"B","home_address":{"street_name":"S","zip_code":1},"tags_by_name":{"some_tag":1},"__private":3}"#,
        #"{"first_name":"A","home_address":{"street_name":"S","zip_code":1},"tags_by_name":{}}"#,
        #"{"firstName":"A","home_address":{"street_name":"S","zip_code":1},"tags_by_name":{}}"#,
        #"{"first__name":"A","home_address":{"street_name":"S","zip_code":"1"},"tags_by_name":{}}"#,
        #"{"first_name":"A","home_address":{"street_name":"S"},"tags_by_name":{}}"#,
    ]

    @Test(arguments: snakeInputs)
    func snakeCase(_ json: String) {
        expectSameAsFoundation(SnakeModel.self, json) { f, e in
            f.keyDecodingStrategy = .convertFromSnakeCase
            e.keyDecodingStrategy = .convertFromSnakeCase
        }
    }

    @Test func customKeyStrategy() {
        let upper: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            AnyKey(stringValue: path.last!.stringValue.lowercased())
        }
        expectSameAsFoundation(Book.self, #"{"TITLE":"T","PAGES":3,"TAGS":[],"GENRE":"poetry"}"#) { f, e in
            f.keyDecodingStrategy = .custom(upper)
            e.keyDecodingStrategy = .custom(upper)
        }
    }

    static let animalsInputs: [String] = [
        #"{"breed":"lab","super":{"name":"Rex"}}"#,
        #"{"breed":"lab"}"#,
        #"{"breed":"lab","super":{"nom":"Rex"}}"#,
        #"{"breed":"lab","super":null}"#,
    ]

    @Test(arguments: animalsInputs)
    func superclassThroughSuperDecoder(_ json: String) {
        expectSameAsFoundation(AnimalBox<Dog>.self, #"{"animal":\#(json)}"#)
    }

    @Test func superclassSharingTheObject() {
        expectSameAsFoundation(AnimalBox<Cat>.self, #"{"animal":{"lives":9,"name":"Tom"}}"#)
        expectSameAsFoundation(AnimalBox<Cat>.self, #"{"animal":{"lives":9}}"#)
        expectSameAsFoundation(AnimalBox<Bird>.self, #"{"animal":{"wings":2,"parent":{"name":"Tweety"}}}"#)
        expectSameAsFoundation(AnimalBox<Bird>.self, #"{"animal":{"wings":2,"parent":{"name":1}}}"#)
        expectSameAsFoundation([Dog].self, #"[{"breed":"a","super":{"name":"A"}},{"breed":"b","super":{}}]"#)
    }

    static let placesInputs: [String] = [
        #"{"location":{"lat":1.5,"lon":-2},"labels":["a",null,"b"],"note":null,"points":[[1,2],[3,4]]}"#,
        #"{"location":{"lat":1.5,"lon":-2},"labels":[],"note":"n","points":[[1,2]],"extra":1}"#,
        #"{"location":{"lat":1.5},"labels":[],"points":[[1,2]]}"#,
        #"{"labels":[],"points":[[1,2]]}"#,
        #"{"location":null,"labels":[],"points":[[1,2]]}"#,
        #"{"location":{"lat":1,"lon":2},"labels":{},"points":[[1,2]]}"#,
        #"{"location":{"lat":1,"lon":2},"labels":[1],"points":[[1,2]]}"#,
        #"{"location":{"lat":1,"lon":2},"labels":[],"points":[[1]]}"#,
        #"{"location":{"lat":1,"lon":2},"labels":[],"points":[]}"#,
        #"{"location":{"lat":1,"lon":2},"labels":[],"points":[{}]}"#,
    ]

    @Test(arguments: placesInputs)
    func nestedContainers(_ json: String) {
        expectSameAsFoundation(Place.self, json)
    }

    @Test func topLevelScalarsAndUnkeyedEdges() {
        expectSameAsFoundation(String.self, #""x""#)
        expectSameAsFoundation(Int?.self, "null")
        expectSameAsFoundation([Int].self, "[1,2,null]")
        expectSameAsFoundation([[Int]].self, "[[1],[2,\"x\"]]")
        expectSameAsFoundation(Bool.self, "true")
        expectSameAsFoundation(Bool.self, "0")
        expectSameAsFoundation([String: [Int?]].self, #"{"a":[1,null],"b":[]}"#)
        expectSameAsFoundation([String: Int].self, #"{"a":1,"b":"2"}"#)
        expectSameAsFoundation(Int.self, "")
        expectSameAsFoundation(Int.self, "[1]")
    }
}

struct AnimalBox<A: Animal & Swift.Decodable>: Swift.Decodable, Equatable {
    var animal: A
    static func == (a: Self, b: Self) -> Bool { a.animal == b.animal }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
