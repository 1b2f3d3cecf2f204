import Elevate
import Foundation
import Testing

// The examples of Elevate's README, written as a user of `import Elevate` writes them.

struct Person {
    let identifier: Int
    let name: String
    let nickname: String?
    let birthDate: Date
    let isMember: Bool?
    let addresses: [Address]
}

struct Address: Equatable {
    let street: String
    let city: String
}

struct Avatar: Equatable {
    let URL: URL
    let width: Int
    let height: Int
}

extension Person: Elevate.Decodable {
    fileprivate struct KeyPath {
        static let id = "identifier"
        static let name = "name"
        static let nickname = "nickname"
        static let birthDate = "birthDate"
        static let isMember = "isMember"
        static let addresses = "addresses"
    }

    init(json: Any) throws {
        let dateDecoder = DateDecoder(dateFormatString: "yyyy-MM-dd")

        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: KeyPath.id, type: .int)
            schema.addProperty(keyPath: KeyPath.name, type: .string)
            schema.addProperty(keyPath: KeyPath.nickname, type: .string, optional: true)
            schema.addProperty(keyPath: KeyPath.birthDate, type: .string, decoder: dateDecoder)
            schema.addProperty(keyPath: KeyPath.isMember, type: .bool, optional: true)
            schema.addProperty(keyPath: KeyPath.addresses, type: .array, decodableType: Address.self)
        }

        self.identifier = entity <-! KeyPath.id
        self.name = entity <-! KeyPath.name
        self.nickname = entity <-? KeyPath.nickname
        self.birthDate = entity <-! KeyPath.birthDate
        self.isMember = entity <-? KeyPath.isMember
        self.addresses = entity <--! KeyPath.addresses
    }
}

extension Address: Elevate.Decodable {
    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "street", type: .string)
            schema.addProperty(keyPath: "city", type: .string)
        }
        self.street = entity <-! "street"
        self.city = entity <-! "city"
    }
}

extension Address: Elevate.Encodable {
    var json: Any { ["street": street, "city": city] }
}

extension Person: Elevate.Encodable {
    var json: Any {
        var json: [String: Any] = [
            KeyPath.id: identifier,
            KeyPath.name: name,
            KeyPath.birthDate: birthDate,
            KeyPath.addresses: addresses.json,
        ]

        if let nickname = nickname { json[KeyPath.nickname] = nickname }
        if let isMember = isMember { json[KeyPath.isMember] = isMember }

        return json
    }
}

extension Avatar: Elevate.Decodable {
    init(json: Any) throws {
        self = try AvatarDecoder().decode(json) as! Avatar
    }
}

class AvatarDecoder: Elevate.Decoder {
    func decode(_ object: Any) throws -> Any {
        let urlKeyPath = "url"
        let widthKeyPath = "width"
        let heightKeyPath = "height"

        let entity = try Parser.parseEntity(json: object) { schema in
            schema.addProperty(keyPath: urlKeyPath, type: .url)
            schema.addProperty(keyPath: widthKeyPath, type: .int)
            schema.addProperty(keyPath: heightKeyPath, type: .int)
        }

        return Avatar(
            URL: entity <-! urlKeyPath,
            width: entity <-! widthKeyPath,
            height: entity <-! heightKeyPath
        )
    }
}

class AlternateAvatarDecoder: Elevate.Decoder {
    func decode(_ object: Any) throws -> Any {
        let locationKeyPath = "location"
        let wKeyPath = "w"
        let hKeyPath = "h"

        let entity = try Parser.parseEntity(json: object) { schema in
            schema.addProperty(keyPath: locationKeyPath, type: .url)
            schema.addProperty(keyPath: wKeyPath, type: .int)
            schema.addProperty(keyPath: hKeyPath, type: .int)
        }

        return Avatar(
            URL: entity <-! locationKeyPath,
            width: entity <-! wKeyPath,
            height: entity <-! hKeyPath
        )
    }
}

func utcDate(_ year: Int, _ month: Int, _ day: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: DateComponents(year: year, month: month, day: day))!
}

@Suite struct ReadmeExampleTests {
    static let peopleJSON = Data(
        """
        {"response": {"count": 2, "items": [
          {"identifier": 1, "name": "Ada", "nickname": "Countess", "birthDate": "1815-12-10", "isMember": true,
           "addresses": [{"street": "1 St James's Square", "city": "London"}]},
          {"identifier": 2, "name": "Grace", "birthDate": "1906-12-09",
           "addresses": [{"street": "Navy Yard", "city": "Arlington"}, {"street": "Yale", "city": "New Haven"}]}
        ]}}
        """.utf8)

    @Test func decodesPeopleWithDateDecoder() throws {
        let people: [Person] = try Elevate.decodeArray(from: Self.peopleJSON, atKeyPath: "response.items")
        #expect(people.count == 2)
        #expect(people[0].name == "Ada")
        #expect(people[0].nickname == "Countess")
        #expect(people[0].isMember == true)
        #expect(people[1].nickname == nil)
        #expect(people[1].isMember == nil)
        #expect(
            people[1].addresses == [
                Address(street: "Navy Yard", city: "Arlington"), Address(street: "Yale", city: "New Haven"),
            ])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        #expect(people[1].birthDate == formatter.date(from: "1906-12-09"))
        #expect(people[0].birthDate == formatter.date(from: "1815-12-10"))
    }

    @Test func decodesAvatarsWithTwoDecoders() throws {
        let data1 = Data(
            #"{"response": {"avatar": {"url": "https://example.com/a.png", "width": 64, "height": 32}}}"#.utf8)
        let data2 = Data(
            #"{"alternative": {"response": {"avatar": {"location": "https://example.com/b.png", "w": 8, "h": 9}}}}"#
                .utf8)
        let avatar1: Avatar = try Elevate.decodeObject(from: data1, atKeyPath: "response.avatar", with: AvatarDecoder())
        let avatar2: Avatar = try Elevate.decodeObject(
            from: data2, atKeyPath: "alternative.response.avatar", with: AlternateAvatarDecoder())
        #expect(avatar1 == Avatar(URL: URL(string: "https://example.com/a.png")!, width: 64, height: 32))
        #expect(avatar2 == Avatar(URL: URL(string: "https://example.com/b.png")!, width: 8, height: 9))
        let avatar3: Avatar = try Elevate.decodeObject(from: data1, atKeyPath: "response.avatar")
        #expect(avatar3 == avatar1)
    }

    @Test func dateDecoderAsPropertyTransformer() throws {
        let dateDecoder = DateDecoder(dateFormatString: "yyyy-MM-dd 'at' HH:mm")
        let data = Data(#"{"dateString": "2017-03-04 at 10:30"}"#.utf8)
        let entity = try Parser.parseEntity(data: data) { schema in
            schema.addProperty(keyPath: "dateString", type: .string, decoder: dateDecoder)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd 'at' HH:mm"
        let date: Date = entity <-! "dateString"
        #expect(date == formatter.date(from: "2017-03-04 at 10:30"))
    }

    @Test func encodableRoundTrip() throws {
        let address = Address(street: "Main", city: "Springfield")
        let json = [address, address].json as! [Any]
        #expect(json.count == 2)
        let back = try json.map { try Address(json: $0) }
        #expect(back == [address, address])
        let person = Person(
            identifier: 7, name: "Kim", nickname: nil, birthDate: utcDate(2000, 1, 2), isMember: false,
            addresses: [address])
        let personJSON = person.json as! [String: Any]
        #expect(personJSON["nickname"] == nil)
        #expect(personJSON["isMember"] as? Bool == false)
        #expect((personJSON["addresses"] as? [Any])?.count == 1)
    }

    @Test func stringToIntDecoder() throws {
        let entity = try Parser.parseEntity(data: Data(#"{"n": "42"}"#.utf8)) { schema in
            schema.addProperty(keyPath: "n", type: .string, decoder: StringToIntDecoder())
        }
        let n: Int = entity <-! "n"
        #expect(n == 42)
    }
}

extension ReadmeExampleTests {
    @Test func collectionsOfEncodables() throws {
        let address = Address(street: "Main", city: "Springfield")
        let byName = ["home": address].json as? [String: Any]
        #expect((byName?["home"] as? [String: Any])?["city"] as? String == "Springfield")
        let byNumber = [1: "one"].json as? [String: Any]
        #expect(byNumber?["1"] as? String == "one")
        let set = Set([1, 2]).json as? [Any]
        #expect(set?.count == 2)
        #expect(URL(string: "https://example.com")!.json as? String == "https://example.com")
    }
}

// The `Elevate.Encodable` example of the DocC article Migrating from Elevate (once in the README),
// as written there.
private struct Pet {
    let name: String
    let tags: [String]
    let nickname: String?
}

extension Pet: Elevate.Encodable {
    var json: Any {
        var json: [String: Any] = ["name": name, "tags": tags.json]
        if let nickname { json["nickname"] = nickname }
        return json
    }
}

extension ReadmeExampleTests {
    @Test func encodingAsInElevate() throws {
        let pets = [Pet(name: "Rex", tags: ["good"], nickname: nil)]
        let text = try JSONWriter.string(for: pets.json, options: JSONWriter.Options(sortedKeys: true))
        #expect(text == #"[{"name":"Rex","tags":["good"]}]"#)
        let named = try JSONWriter.string(
            for: Pet(name: "Rex", tags: [], nickname: "R").json, options: JSONWriter.Options(sortedKeys: true))
        #expect(named == #"{"name":"Rex","nickname":"R","tags":[]}"#)
    }
}

@Suite struct EncoderReadmeExampleTests {
    struct Person: Codable {
        var name: String
        var birthDate: Date
        var homePage: URL?
    }

    @Test func readmeExample() throws {
        let encoder = ElevateJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode([Person(name: "Ada", birthDate: Date(timeIntervalSince1970: 0), homePage: nil)])
        #expect(
            text(data) == """
                [
                  {
                    "birth_date" : "1970-01-01T00:00:00Z",
                    "name" : "Ada"
                  }
                ]
                """)
        let json: JSON = ["id": JSON(UInt.max), "ratio": 0.1]
        #expect(try JSONWriter.string(for: json, options: .init(sortedKeys: true)) == #"{"id":18446744073709551615,"ratio":0.1}"#)
    }
}
