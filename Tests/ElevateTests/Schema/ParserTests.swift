import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Runs `parseEntity(data:)` and returns the validation failure text, or nil on success.
private func validationFailure(_ json: String, _ build: @escaping (Schema) -> Void) -> String? {
    do {
        _ = try Parser.parseEntity(data: Data(json.utf8), closure: build)
        return nil
    } catch ParserError.validation(let reason) {
        return reason
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

private func entity(_ json: String, _ build: @escaping (Schema) -> Void) throws -> [String: Any] {
    try Parser.parseEntity(data: Data(json.utf8), closure: build)
}

@Suite struct ParserTests {
    @Test func keepsElevateTexts() {
        #expect(ParserError.validation(failureReason: "x").description == "Parser Validation Error - x")
        #expect(ParserError.deserialization(failureReason: "y").description == "Parser Deserialization Error - y")
        #expect(ParserError.validation(failureReason: "x").debugDescription == "Parser Validation Error - x")
        #expect(ParserError.validation(failureReason: "x").failureReason == "x")
    }

    @Test func aggregatesFailuresInSchemaOrder() {
        let reason = validationFailure(#"{"b": "text", "c": null}"#) { schema in
            schema.addProperty(keyPath: "a", type: .string)
            schema.addProperty(keyPath: "b", type: .int)
            schema.addProperty(keyPath: "c", type: .bool)
            schema.addProperty(keyPath: "d", type: .bool, optional: true)
        }
        #expect(
            reason == """
                Required key path [a] was missing or null
                Value for key path [b] is of incorrect type
                Required key path [c] was missing or null
                """)
    }

    @Test func arrayElementFailuresNameIndexAndParser() {
        struct Item: Elevate.Decodable {
            init(json: Any) throws {
                _ = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "id", type: .int) }
            }
        }
        let reason = validationFailure(#"{"items": [{"id": 1}, {"id": "x"}, {}]}"#) { schema in
            schema.addProperty(keyPath: "items", type: .array, decodableType: Item.self)
        }
        #expect(
            reason == """
                Error parsing array object at index 1 with parser [Item]
                Value for key path [id] is of incorrect type
                --
                Error parsing array object at index 2 with parser [Item]
                Required key path [id] was missing or null
                --
                """)
    }

    @Test func optionalMissingOrNullIsLeftOut() throws {
        let result = try entity(#"{"a": null}"#) { schema in
            schema.addProperty(keyPath: "a", type: .string, optional: true)
            schema.addProperty(keyPath: "b", type: .string, optional: true)
        }
        #expect(result.isEmpty)
    }

    @Test func keyPathsSplitOnDotsButLiteralKeysWin() throws {
        let json = #"{"a.b": 1, "a": {"b": 2, "c": 3}, "x": {"y": {"z": 4}}}"#
        let result = try entity(json) { schema in
            schema.addProperty(keyPath: "a.b", type: .int)
            schema.addProperty(keyPath: "a.c", type: .int)
            schema.addProperty(keyPath: "x.y.z", type: .int)
            schema.addProperty(keyPath: "x", type: .dictionary)
        }
        #expect(result["a.b"] as? Int == 1)
        #expect(result["a.c"] as? Int == 3)
        #expect(result["x.y.z"] as? Int == 4)
        let fromJSON = try Parser.parseEntity(json: try JSONValueBuilder.value(from: Data(json.utf8))) { schema in
            schema.addProperty(keyPath: "a.b", type: .int)
            schema.addProperty(keyPath: "a.c", type: .int)
        }
        #expect(fromJSON["a.b"] as? Int == 1)
        #expect(fromJSON["a.c"] as? Int == 3)
    }

    @Test func keyPathsIndexArrays() throws {
        let result = try entity(#"{"items": [{"name": "a"}, {"name": "b"}], "m": {"0": "zero"}}"#) { schema in
            schema.addProperty(keyPath: "items.1.name", type: .string)
            schema.addProperty(keyPath: "items.0", type: .dictionary)
            schema.addProperty(keyPath: "m.0", type: .string)
            schema.addProperty(keyPath: "items.2.name", type: .string, optional: true)
        }
        #expect(result["items.1.name"] as? String == "b")
        #expect((result["items.0"] as? [String: Any])?["name"] as? String == "a")
        #expect(result["m.0"] as? String == "zero")
        #expect(result["items.2.name"] == nil)
    }

    @Test func emptyKeyPathIsTheRoot() throws {
        let result = try entity(#"{"a": 1}"#) { $0.addProperty(keyPath: "", type: .dictionary) }
        #expect((result[""] as? [String: Any])?["a"] as? Int == 1)
    }

    @Test func numbersAreStrict() {
        func accepts(_ literal: String, _ type: SchemaPropertyProtocol) -> Bool {
            validationFailure(#"{"v": \#(literal)}"#) { $0.addProperty(keyPath: "v", type: type) } == nil
        }
        #expect(!accepts("-1", .uint))
        #expect(accepts("18446744073709551615", .uint))
        #expect(!accepts("18446744073709551616", .uint))
        #expect(!accepts("1.5", .int))
        #expect(accepts("3.0", .int))
        #expect(accepts("-9223372036854775808", .int))
        #expect(!accepts("9223372036854775808", .int))
        #expect(!accepts("1e39", .float))
        #expect(accepts("3.4e38", .float))
        #expect(!accepts("1e400", .double))
        #expect(!accepts("1e-400", .double))
        #expect(accepts("123456789012345678901234567890", .double))
        #expect(!accepts("1", .bool))
        #expect(!accepts("true", .int))
        #expect(!accepts("\"1\"", .int))
        #expect(accepts("true", .bool))
    }

    @Test func integersAreExactOverTheirWholeRange() throws {
        let result = try entity(#"{"u": 18446744073709551615, "i": -9223372036854775808, "f": 0.1}"#) { schema in
            schema.addProperty(keyPath: "u", type: .uint)
            schema.addProperty(keyPath: "i", type: .int)
            schema.addProperty(keyPath: "f", type: .float)
        }
        #expect(result["u"] as? UInt == UInt.max)
        #expect(result["i"] as? Int == Int.min)
        #expect(result["f"] as? Float == 0.1)
    }

    @Test func urlsAreCheckedTheSameEverywhere() {
        func accepts(_ text: String) -> Bool {
            validationFailure(#"{"u": "\#(text)"}"#) { $0.addProperty(keyPath: "u", type: .url) } == nil
        }
        #expect(accepts("https://example.com/a?b=c#d"))
        #expect(accepts("relative/path"))
        #expect(accepts("mailto:someone@example.com"))
        #expect(!accepts("not a url"))
        #expect(!accepts("https://exa mple.com"))
        #expect(!accepts("bad%zzescape"))
        #expect(!accepts(""))
        #expect(!accepts("1http://x"))
    }

    @Test func invalidJSONIsADeserializationErrorWithPosition() {
        do {
            _ = try entity("{\n\"a\": [1, 2,]\n}") { $0.addProperty(keyPath: "a", type: .array) }
            Issue.record("accepted invalid JSON")
        } catch ParserError.deserialization(let reason) {
            #expect(reason.contains("line 2"))
            #expect(reason.contains("byte offset"))
            #expect(reason.contains("column"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func scalarRootIsAValidationError() {
        #expect(throws: ParserError.self) {
            _ = try entity("1") { $0.addProperty(keyPath: "a", type: .int) }
        }
        #expect(
            validationFailure("\"a\"") { $0.addProperty(keyPath: "a", type: .int, optional: true) }
                == "JSON object was not of type: [String: Any] or [Any]")
        // A decodable handed a nested scalar says so, in Elevate's words.
        do {
            _ = try Parser.parseEntity(json: 1) { $0.addProperty(keyPath: "a", type: .int) }
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "Parser Validation Error - JSON object was not of type: [String: Any] or [Any]")
        }
        // The root itself may be anything.
        let root = try? entity("1") { $0.addProperty(keyPath: "", type: .int) }
        #expect(root?[""] as? Int == 1)
    }

    @Test func nonValidationErrorsFromDecodersPropagateUnchanged() {
        struct Custom: Error {}
        struct Failing: Elevate.Decoder {
            func decode(_ object: Any) throws -> Any { throw Custom() }
        }
        #expect(throws: Custom.self) {
            _ = try entity(#"{"a": 1}"#) { $0.addProperty(keyPath: "a", type: .int, decoder: Failing()) }
        }
    }

    @Test func neverCrashesWhereElevateForceCast() throws {
        struct WrongType: Elevate.Decoder {
            func decode(_ object: Any) throws -> Any { "not an Int" }
        }
        let data = Data(#"{"o": {"a": 1}, "list": [{"a": 1}]}"#.utf8)
        #expect(throws: ParserError.self) {
            let _: Int = try Elevate.decodeObject(from: data, atKeyPath: "o", with: WrongType())
        }
        #expect(throws: ParserError.self) {
            let _: [Int] = try Elevate.decodeArray(from: data, atKeyPath: "list", with: WrongType())
        }
        #expect(throws: ParserError.self) { _ = try Int(json: 1.5) }
        #expect(throws: ParserError.self) {
            let _: [Int] = try Elevate.decodeArray(from: Data(#"{"n": [1, 2.5]}"#.utf8), atKeyPath: "n")
        }
        let ints: [Int] = try Elevate.decodeArray(from: Data(#"{"n": [1, 2]}"#.utf8), atKeyPath: "n")
        #expect(ints == [1, 2])
    }

    @Test func decodeArrayReportsMissingAndWrongType() {
        let data = Data(#"{"a": 1, "n": null}"#.utf8)
        #expect(throws: ParserError.self) { let _: [Int] = try Elevate.decodeArray(from: data, atKeyPath: "missing") }
        do {
            let _: [Int] = try Elevate.decodeArray(from: data, atKeyPath: "a")
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "Parser Validation Error - Value for key path [a] is of incorrect type")
        }
        do {
            let _: [Int] = try Elevate.decodeArray(from: data, atKeyPath: "n")
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "Parser Validation Error - Required key path [n] was missing or null")
        }
    }

    @Test func parseEntityOnJSONSerializationTrees() throws {
        let data = Data(#"{"b": true, "i": 1, "d": 1.5, "s": "x", "u": 18446744073709551615}"#.utf8)
        let tree = try JSONSerialization.jsonObject(with: data)
        let result = try Parser.parseEntity(json: tree) { schema in
            schema.addProperty(keyPath: "b", type: .bool)
            schema.addProperty(keyPath: "i", type: .int)
            schema.addProperty(keyPath: "d", type: .double)
            schema.addProperty(keyPath: "s", type: .string)
            schema.addProperty(keyPath: "u", type: .uint)
        }
        #expect(result["b"] as? Bool == true)
        #expect(result["i"] as? Int == 1)
        #expect(result["u"] as? UInt == UInt.max)
        let boolAsInt = try? Parser.parseEntity(json: tree) { $0.addProperty(keyPath: "b", type: .int) }
        #expect(boolAsInt == nil)
        let intAsBool = try? Parser.parseEntity(json: tree) { $0.addProperty(keyPath: "i", type: .bool) }
        #expect(intAsBool == nil)
    }

    @Test func operatorsBindTighterThanNilCoalescing() throws {
        let result = try entity(#"{"a": 5}"#) { schema in
            schema.addProperty(keyPath: "a", type: .int, optional: true)
            schema.addProperty(keyPath: "b", type: .int, optional: true)
        }
        let a: Int = result <-? "a" ?? 0
        let b: Int = result <-? "b" ?? 7
        #expect(a == 5)
        #expect(b == 7)
        let missing: [Int]? = result <--? "c"
        #expect(missing == nil)
    }

    @Test func arrayOperatorsReadTypedAndFoundationArrays() throws {
        // Decoded on the tape: a typed [Int]. Built by hand: a [Any] whose elements are cast.
        let decoded = try entity(#"{"a": [1, 2]}"#) {
            $0.addProperty(keyPath: "a", type: .array, decodableType: Int.self)
        }
        let handMade: [String: Any] = ["a": [1, 2] as [Any], "mixed": [1, "two"] as [Any]]
        for entity in [decoded, handMade] {
            let required: [Int] = entity <--! "a"
            let optional: [Int]? = entity <--? "a"
            #expect(required == [1, 2])
            #expect(optional == [1, 2])
            let asStrings: [String]? = entity <--? "a"
            #expect(asStrings == nil)
        }
        let mixed: [Int]? = handMade <--? "mixed"
        #expect(mixed == nil)
    }

    @Test func primitiveDecodables() throws {
        #expect(try String(json: "x") == "x")
        #expect(try Int(json: 3) == 3)
        #expect(try UInt(json: 3) == 3)
        #expect(throws: ParserError.self) { _ = try UInt(json: -1) }
        #expect(try Double(json: 1) == 1)
        #expect(try Float(json: 0.5) == 0.5)
        #expect(try Bool(json: true) == true)
        #expect(throws: ParserError.self) { _ = try Bool(json: 1) }
        let dictionary = try [String: Any](json: ["a": 1] as [String: Any])
        #expect(dictionary["a"] as? Int == 1)
    }
}

extension ParserTests {
    @Test func arraysOfDecodablesAreDecodable() throws {
        #expect(try [Int](json: [1, 2, 3] as [Any]) == [1, 2, 3])
        do {
            _ = try withValidationReport { try [Int](json: [1, 2.5, "x"] as [Any]) }
            Issue.record("no error")
        } catch let report as ValidationReport {
            #expect(report.error.failureReason.contains("index 1"))
            #expect(report.error.failureReason.contains("index 2"))
            #expect(report.failures.map(\.path) == ["[1]", "[2]"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
