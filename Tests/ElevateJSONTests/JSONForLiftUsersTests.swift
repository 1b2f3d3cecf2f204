import ElevateJSON
import Foundation
import Testing

/// `JSON` as Lift's users build it: custom values and optionals in literals and subscripts, typed
/// collections, `JSON()`, and checks whose errors keep the path (#28 §3).
@Suite struct JSONForLiftUsersTests {
    struct Payment: JSONConvertible, Codable, Equatable {
        var id: Int
        var amount: Decimal
        var jsonRepresentation: JSON { ["id": id, "amount": amount] }
    }

    /// Lift's `["payment": payment, "date": date]`: custom values, variables and dates in a literal.
    @Test func customValuesAndVariablesGoIntoLiterals() throws {
        let payment = Payment(id: 7, amount: Decimal(string: "12345678901234567890.5")!)
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let name = "Ada"
        let age: Int16 = 36
        let json: JSON = ["payment": payment, "date": date, "name": name, "age": age, "ratio": Float(0.1)]
        #expect(json.description == #"{"age":36,"date":"2023-11-14T22:13:20.250Z","name":"Ada","payment":{"amount":12345678901234567890.5,"id":7},"ratio":0.1}"#)
        // Values come back: the Decimal exactly, the date to the millisecond.
        #expect(try json.decode(Payment.self, at: "payment") == payment)
        let back: Date? = json["date"]
        #expect(back == date)
    }

    /// Nested literals keep compiling whatever their elements' types, and mix with custom values.
    @Test func nestedHeterogeneousLiterals() {
        let payment = Payment(id: 1, amount: 2)
        let json: JSON = [
            "user": ["name": "Ada", "age": 36, "tags": ["a", 1, nil, ["deep": true]]],
            "payments": [payment, payment],
            "mixed": [1, "x", payment, JSON.null],
        ]
        #expect(json.description == #"{"mixed":[1,"x",{"amount":2,"id":1},null],"payments":[{"amount":2,"id":1},{"amount":2,"id":1}],"user":{"age":36,"name":"Ada","tags":["a",1,null,{"deep":true}]}}"#)
    }

    /// A nil optional in an object literal, or set through a subscript, leaves the member out (Lift);
    /// `JSON.null` and JSON's own `nil` write `null`; in an array, nil keeps its position as `null`.
    @Test func nilOptionalsLeaveMembersOut() {
        let missing: Int? = nil
        let present: Int? = 4
        var json: JSON = ["val": 1, "optional": missing, "present": present, "explicit": JSON.null, "literal": nil]
        #expect(json.description == #"{"explicit":null,"present":4,"val":1}"#)
        json["present"] = missing
        #expect(json["present"] == .null)
        #expect(json.object?["present"] == nil)
        json["set"] = present
        json["null"] = nil
        #expect(json.description == #"{"explicit":null,"null":null,"set":4,"val":1}"#)
        var list: JSON = [1, missing, 3]
        list[1] = present
        list[5] = missing
        #expect(list.description == "[1,4,3,null,null,null]")
    }

    /// `JSON()`, `JSON([1, 2])`, `JSON(dictionary)`, typed arrays in literals, `append` of custom values.
    @Test func initializersAndAppend() throws {
        var json = JSON()
        #expect(json == .null)
        json["payment"] = Payment(id: 1, amount: 1)
        json["when"] = Date(timeIntervalSince1970: 0)
        #expect(json.description == #"{"payment":{"amount":1,"id":1},"when":"1970-01-01T00:00:00.000Z"}"#)

        #expect(JSON([1, 2]) == [1, 2])
        let bytes: [UInt8] = [1, 2]
        #expect(JSON(bytes) == [1, 2])
        #expect(JSON(Data([1, 2]).base64EncodedString()) == "AQI=")
        let counts: [String: Int] = ["a": 1, "b": 2]
        #expect(JSON(counts) == ["a": 1, "b": 2])
        let payments = [Payment(id: 1, amount: 1), Payment(id: 2, amount: 2)]
        let body: JSON = ["payments": payments.jsonRepresentation, "counts": counts.jsonRepresentation]
        #expect(try body.decode([Payment].self, at: "payments") == payments)
        #expect(try body.decode([String: Int].self, at: "counts") == counts)

        var list = JSON()
        list.append(Payment(id: 3, amount: 3))
        list.append(Optional<Int>.none)
        list.append("x")
        #expect(list.description == #"[{"amount":3,"id":3},null,"x"]"#)
    }

    /// Typed reads of collections and every integer width throw with the full path, never drop or
    /// wrap a value.
    @Test func typedCollectionReadsAreStrict() throws {
        let json: JSON = ["a": [1, 2, "x"], "m": ["k": 1, "l": 2.5], "big": 70000, "ok": [1, 2]]
        #expect(try json.decode([Int].self, at: "ok") == [1, 2])
        #expect(throws: DecodingError.self) { try json.decode([Int].self, at: "a") }
        #expect(throws: DecodingError.self) { try json.decode([String: Int].self, at: "m") }
        #expect(throws: DecodingError.self) { try json.decode(Int16.self, at: "big") }
        #expect(try json.decode(Int32.self, at: "big") == 70000)
        do {
            _ = try json.decode([Int].self, at: "a")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["a", "Index 2"])
        }
        // The subscript's read is the non-throwing form: nil for a wrong type, missing or null.
        let wrong: Int? = json["a"]
        #expect(wrong == nil)
        let right: Int? = json["big"]
        #expect(right == 70000)
        let string: String? = json["big"]
        #expect(string == nil)
        // Lift's optional read of a collection: nil when missing, an error for a wrong element.
        #expect(try json.decodeIfPresent([Int].self, at: "none") == nil)
        #expect(throws: DecodingError.self) { try json.decodeIfPresent([Int].self, at: "a") }
    }

    /// Lift's optional read is nil for missing or null, and throws for a value of another type on
    /// the way (the external Lift judge found it nil: a step into a number was "missing").
    @Test func optionalReadThrowsForAStepIntoAScalar() throws {
        let number: JSON = 1
        #expect(throws: JSON.AccessError(path: "", reason: .typeMismatch(expected: "an object", found: "a number"))) {
            try number.decodeIfPresent(Int.self, at: "val")
        }
        let json: JSON = ["a": 1, "n": JSON.null, "list": [1, 2]]
        #expect(throws: JSON.AccessError(path: "a", reason: .typeMismatch(expected: "an object", found: "a number"))) {
            try json.decodeIfPresent(Int.self, at: "a", "b")
        }
        #expect(throws: JSON.AccessError(path: "list", reason: .typeMismatch(expected: "an object", found: "an array"))) {
            try json.int(at: "list", "x")
        }
        #expect(throws: JSON.AccessError(path: "", reason: .typeMismatch(expected: "an array", found: "an object"))) {
            try json.int(at: 0)
        }
        // Missing, null, a step into null, an index beyond the end: nil.
        #expect(try json.decodeIfPresent(Int.self, at: "none") == nil)
        #expect(try json.decodeIfPresent(Int.self, at: "n") == nil)
        #expect(try json.decodeIfPresent(Int.self, at: "n", "deeper") == nil)
        #expect(try json.decodeIfPresent(Int.self, at: "list", 5) == nil)
        #expect(throws: JSON.AccessError(path: "list[5]", reason: .missing)) { try json.int(at: "list", 5) }
    }

    /// Lift's `assert` and `assertionFailure`: an error that names the path and says what is wrong.
    @Test func assertionsNameThePath() throws {
        let json: JSON = ["user": ["age": -3, "kind": "robot"]]
        let age = try json.int(at: "user", "age")
        #expect(throws: JSON.AccessError(path: "user.age", reason: .invalid("must not be negative"))) {
            try json.assert(age >= 0, "must not be negative", at: "user", "age")
        }
        try json.assert(age < 0, at: "user", "age")
        let error = json.assertionFailure("unknown kind", at: "user", "kind")
        #expect(error.description == "user.kind: unknown kind")
        #expect(JSON.AccessError(path: "", reason: .invalid("empty")).description == "root: empty")
    }

    /// The subscripts turn an array into an object when a key is set on it (Lift's `Jar`); the
    /// checked `set(_:at:)` refuses, and changes nothing.
    @Test func checkedSetRefusesToReplaceAnotherKind() throws {
        var json: JSON = ["items": [1, 2]]
        try json.set("x", at: "items", 3)
        try json.set(true, at: "meta", "seen")
        try json.set(Optional<Int>.none, at: "meta", "gone")
        #expect(json.description == #"{"items":[1,2,null,"x"],"meta":{"gone":null,"seen":true}}"#)
        let before = json
        #expect(throws: JSON.AccessError(path: "items", reason: .typeMismatch(expected: "an object", found: "an array"))) {
            try json.set(0, at: "items", "count")
        }
        #expect(throws: JSON.AccessError(path: "meta.seen", reason: .typeMismatch(expected: "an array", found: "a Boolean"))) {
            try json.set(0, at: "meta", "seen", 0)
        }
        #expect(throws: JSON.AccessError(path: "items[-1]", reason: .invalid("a negative index"))) {
            try json.set(0, at: "items", -1)
        }
        #expect(json == before)
        try json.set(["a": 1] as JSON)
        #expect(json == ["a": 1])
        // The subscript keeps Lift's rule: a Jar is never bound to one kind.
        var list: JSON = [1, 2]
        list["val"] = 1
        #expect(list == ["val": 1])
    }

    /// Lift's README, as a Lift user would write it with `JSON`.
    @Test func liftReadmeExample() throws {
        struct User: JSONConvertible, Codable, Equatable {
            let name: String
            let age: Int
            var jsonRepresentation: JSON { ["name": name, "age": age] }
        }
        let text = #"[{"name": "Adam", "age": 25}, {"name": "Eve", "age": 20}]"#
        let json = try JSON(JSONValue(parsing: Data(text.utf8)))
        var users: [User] = try json.decode()
        users.append(User(name: "Junior", age: 2))
        let out = JSON(users)
        #expect(out.description == #"[{"age":25,"name":"Adam"},{"age":20,"name":"Eve"},{"age":2,"name":"Junior"}]"#)
        #expect(try out.decode([User].self) == users)
    }
}
