import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Differences from Elevate 4.0.0 found by running the same schemas, decodable types, decoders and
/// inputs through the original Elevate (built on Linux from its 4.0.0 sources) and this library.
/// Each test asserts Elevate's answer where it is the documented behaviour, or pins a deliberate
/// difference that README.md lists. The expected values are written out: nothing here depends on
/// the original Elevate.
@Suite struct ElevateDifferentialTests {
    private struct Address: Elevate.Decodable, Equatable {
        let street: String
        let city: String
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "street", type: .string)
                schema.addProperty(keyPath: "city", type: .string)
            }
            street = entity <-! "street"
            city = entity <-! "city"
        }
    }

    /// Optional arrays read with `<--!`, as Elevate's README shows for arrays that may be absent.
    private struct Tagged: Elevate.Decodable {
        let tags: [String]
        let addresses: [Address]
        let nickname: String?
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "tags", type: .array, optional: true, decodableType: String.self)
                schema.addProperty(keyPath: "addresses", type: .array, optional: true, decodableType: Address.self)
                schema.addProperty(keyPath: "nickname", type: .string, optional: true)
            }
            tags = entity <--! "tags"
            addresses = entity <--! "addresses"
            nickname = entity <-! "nickname"
        }
    }

    // MARK: Bugs fixed

    /// Elevate's `<--!` returns `[]` for an optional array property that was missing or null, and
    /// `<-!` into an optional type returns nil; both stopped the program here.
    @Test func extractionOperatorsOnAbsentOptionalProperties() throws {
        for text in [#"{}"#, #"{"tags": null, "addresses": null, "nickname": null}"#] {
            let tagged: Tagged = try Elevate.decodeObject(from: Data(text.utf8))
            #expect(tagged.tags.isEmpty, "\(text)")
            #expect(tagged.addresses.isEmpty, "\(text)")
            #expect(tagged.nickname == nil, "\(text)")
        }
        let entity = try Parser.parseEntity(data: Data(#"{"n": "x"}"#.utf8)) { schema in
            schema.addProperty(keyPath: "ids", type: .array, optional: true, decoder: StringToIntDecoder())
        }
        let ids: [Int] = entity <--! "ids"
        #expect(ids.isEmpty)
        let present: Tagged = try Elevate.decodeObject(from: Data(#"{"tags": ["a"], "nickname": "n"}"#.utf8))
        #expect(present.tags == ["a"])
        #expect(present.nickname == "n")
    }

    /// An array element that `StringToIntDecoder` cannot read names the decoder as Elevate does,
    /// `[Elevate.StringToIntDecoder]` (Elevate's is a class, which prints with its module), not
    /// `[StringToIntDecoder()]`.
    @Test func stringToIntDecoderIsNamedAsInElevate() {
        let expected = "Error parsing array object at index 1 with parser [Elevate.StringToIntDecoder]\n"
            + "Could not convert String to Int\n--"
        #expect(
            parserFailureReason {
                _ = try Parser.parseEntity(data: Data(#"{"ids": ["1", "x"]}"#.utf8)) {
                    $0.addProperty(keyPath: "ids", type: .array, decoder: StringToIntDecoder())
                }
            } == expected)
        #expect(
            parserFailureReason {
                let _: [Int] = try Elevate.decodeArray(
                    from: Data(#"{"ids": ["1", "x"]}"#.utf8), atKeyPath: "ids", with: StringToIntDecoder())
            } == expected)
    }

    /// A schema other than one `.array` property given an array is Elevate's
    /// "Invalid property list for json array." (most often a decodable handed an array where it
    /// expects an object), not a "missing" failure for every key path.
    @Test func arrayWhereAnObjectIsExpectedHasElevatesText() throws {
        let invalid = "Invalid property list for json array."
        let nested = Data(#"{"addresses": [[{"street": "s", "city": "c"}]]}"#.utf8)
        #expect(
            parserFailureReason { let _: [Address] = try Elevate.decodeArray(from: nested, atKeyPath: "addresses") }
                == "Error parsing array object at index 0 with parser [Address]\n\(invalid)\n--")
        #expect(
            parserFailureReason {
                _ = try Parser.parseEntity(data: nested) {
                    $0.addProperty(keyPath: "addresses", type: .array, decodableType: Address.self)
                }
            } == "Error parsing array object at index 0 with parser [Address]\n\(invalid)\n--")
        let root = Data(#"[{"street": "s", "city": "c"}]"#.utf8)
        #expect(parserFailureReason { let _: Address = try Elevate.decodeObject(from: root) } == invalid)
        #expect(parserFailureReason { _ = try Address(json: [["street": "s", "city": "c"]] as [Any]) } == invalid)
        #expect(parserFailureReason { _ = try Address(json: JSONValue(parsing: root)) } == invalid)
        for schema in [
            [("a", SchemaPropertyProtocol.int)], [("", .string)], [("", .dictionary)], [("", .array), ("x", .array)], [],
        ] {
            let build = { (s: Schema) in
                for (keyPath, type) in schema {
                    s.addProperty(keyPath: keyPath, type: type, decoder: type == .array ? StringToIntDecoder() : nil)
                }
            }
            #expect(parserFailureReason { _ = try Parser.parseEntity(data: Data("[1, 2]".utf8), closure: build) } == invalid, "\(schema)")
            #expect(parserFailureReason { _ = try Parser.parseEntity(json: [1, 2] as [Any], closure: build) } == invalid, "\(schema)")
        }
        // The addition stays: key paths that start with an array index read the array.
        let indexed = try Parser.parseEntity(json: [1, ["name": "b"]] as [Any]) { schema in
            schema.addProperty(keyPath: "0", type: .int)
            schema.addProperty(keyPath: "1.name", type: .string)
        }
        #expect(indexed["0"] as? Int == 1)
        #expect(indexed["1.name"] as? String == "b")
        let indexedData = try Parser.parseEntity(data: Data(#"[1, {"name": "b"}]"#.utf8)) { schema in
            schema.addProperty(keyPath: "0", type: .int)
            schema.addProperty(keyPath: "1.name", type: .string)
        }
        #expect(indexedData["1.name"] as? String == "b")
        let element: Address = try Elevate.decodeObject(from: root, atKeyPath: "0")
        #expect(element.city == "c")
        // One `.array` property reads the root array, as in Elevate.
        let whole = try Parser.parseEntity(json: [1, 2] as [Any]) {
            $0.addProperty(keyPath: "", type: .array, decodableType: Int.self)
        }
        #expect(whole[""] as? [Int] == [1, 2])
    }
}

extension ElevateDifferentialTests {
    // MARK: Deliberate differences the differential tests found, now listed in README.md

    /// Elevate read `true` as `1` for a number property (`NSNumber` bridging); here it is a
    /// validation error, as `1` is for `.bool`.
    @Test func booleansAreNotNumbers() {
        for type in [SchemaPropertyProtocol.int, .uint, .float, .double] {
            #expect(
                parserFailureReason {
                    _ = try Parser.parseEntity(data: Data(#"{"n": true}"#.utf8)) { $0.addProperty(keyPath: "n", type: type) }
                } == "Value for key path [n] is of incorrect type", "\(type)")
        }
        #expect(parserFailureReason { _ = try Int(json: true) } == "JSON object was not of type: Int")
        #expect(parserFailureReason { _ = try Double(json: NSNumber(value: false)) } == "JSON object was not of type: Double")
        #expect(
            parserFailureReason { let _: [Double] = try Elevate.decodeArray(from: Data("[1.5, true]".utf8)) }
                == "Error parsing array object at index 1 with parser [Double]\nJSON object was not of type: Double\n--")
    }

    /// `-0` is the `Double` `-0.0` (Elevate, through `JSONSerialization`, gave `0.0`).
    @Test func negativeZeroKeepsItsSign() throws {
        let entity = try Parser.parseEntity(data: Data(#"{"d": -0, "f": -0, "i": -0, "u": -0}"#.utf8)) { schema in
            schema.addProperty(keyPath: "d", type: .double)
            schema.addProperty(keyPath: "f", type: .float)
            schema.addProperty(keyPath: "i", type: .int)
            schema.addProperty(keyPath: "u", type: .uint)
        }
        let double: Double = entity <-! "d"
        let float: Float = entity <-! "f"
        #expect(double == 0 && double.sign == .minus)
        #expect(float == 0 && float.sign == .minus)
        #expect(entity["i"] as? Int == 0)
        #expect(entity["u"] as? UInt == 0)
    }

    private final class AsDoubleDecoder: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any {
            guard let number = object as? Double else {
                throw ParserError.validation(failureReason: "not a Double: \(type(of: object))")
            }
            return number
        }
    }

    private final class AsNSNumberDecoder: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any {
            guard let number = object as? NSNumber else {
                throw ParserError.validation(failureReason: "not a number: \(type(of: object))")
            }
            return number.doubleValue
        }
    }

    /// Decoders are handed native Swift numbers, not `NSNumber`s: `as? Double` of the integer `5`
    /// fails (it worked in Elevate), `as? NSNumber` reads any number.
    @Test func decodersAreHandedNativeNumbers() throws {
        let data = Data(#"{"prices": [5, 2.5], "box": {"price": 5, "ok": true}}"#.utf8)
        #expect(
            parserFailureReason {
                let _: [Double] = try Elevate.decodeArray(from: data, atKeyPath: "prices", with: AsDoubleDecoder())
            } == "Error parsing array object at index 0 with parser [\(AsDoubleDecoder())]\nnot a Double: Int\n--")
        let prices: [Double] = try Elevate.decodeArray(from: data, atKeyPath: "prices", with: AsNSNumberDecoder())
        #expect(prices == [5, 2.5])
        let entity = try Parser.parseEntity(data: data) { $0.addProperty(keyPath: "box", type: .dictionary) }
        let box: [String: Any] = entity <-! "box"
        #expect(box["price"] is Int)
        #expect(box["price"] as? Double == nil)
        #expect((box["price"] as? NSNumber)?.doubleValue == 5)
        #expect(box["ok"] as? Bool == true)
        #expect(box["ok"] as? Int == nil)
    }
}
