import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The failure reason of the `ParserError` that `body` throws; nil when it throws nothing, and
/// "unexpected …" for any other error. Shared by the suites that compare texts with Elevate's.
func parserFailureReason(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as ParserError {
        return error.failureReason
    } catch {
        return "unexpected \(error)"
    }
}

/// Behaviours Elevate 4 documents and its own test suite relies on: call shapes that must
/// compile, and the exact texts of its errors.
@Suite struct ElevateCompatibilityTests {
    private struct Pair: Elevate.Decodable, Equatable {
        let a: Int
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "a", type: .int) }
            a = entity <-! "a"
        }
        init(a: Int) { self.a = a }
    }

    private final class PairDecoder: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any { try Pair(json: object) }
    }

    @Test func keyPathDefaultsToTheRoot() throws {
        let object: Pair = try Elevate.decodeObject(from: Data(#"{"a": 1}"#.utf8))
        #expect(object == Pair(a: 1))
        let objectWithDecoder: Pair = try Elevate.decodeObject(from: Data(#"{"a": 2}"#.utf8), with: PairDecoder())
        #expect(objectWithDecoder == Pair(a: 2))
        let array: [Pair] = try Elevate.decodeArray(from: Data(#"[{"a": 1}, {"a": 2}]"#.utf8))
        #expect(array == [Pair(a: 1), Pair(a: 2)])
        let arrayWithDecoder: [Pair] = try Elevate.decodeArray(from: Data(#"[{"a": 3}]"#.utf8), with: PairDecoder())
        #expect(arrayWithDecoder == [Pair(a: 3)])
    }

    @Test func decodeObjectReadsPrimitivesAsTheirOwnType() throws {
        let data = Data(#"{"r": {"s": "x", "i": -3, "u": 4, "f": 1.5, "d": 2.25, "b": true}}"#.utf8)
        #expect(try Elevate.decodeObject(from: data, atKeyPath: "r.s") as String == "x")
        #expect(try Elevate.decodeObject(from: data, atKeyPath: "r.i") as Int == -3)
        #expect(try Elevate.decodeObject(from: data, atKeyPath: "r.u") as UInt == 4)
        #expect(try Elevate.decodeObject(from: data, atKeyPath: "r.f") as Float == 1.5)
        #expect(try Elevate.decodeObject(from: data, atKeyPath: "r.d") as Double == 2.25)
        #expect(try Elevate.decodeObject(from: data, atKeyPath: "r.b") as Bool == true)
        #expect(
            parserFailureReason { let _: Int = try Elevate.decodeObject(from: data, atKeyPath: "r.s") }
                == "Value for key path [r.s] is of incorrect type")
    }

    @Test func decodingMethodsMayBeNil() throws {
        let entity = try Parser.parseEntity(data: Data(#"{"a": 1, "b": "x"}"#.utf8)) { schema in
            schema.addProperty(keyPath: "a", type: .int, optional: false, decodableType: nil)
            schema.addProperty(keyPath: "b", type: .string, optional: false, decoder: nil)
        }
        #expect(entity["a"] as? Int == 1)
        #expect(entity["b"] as? String == "x")
    }

    @Test func primitiveInitializersUseElevatesTexts() {
        let object: [String: Any] = ["k": 1]
        #expect(parserFailureReason { _ = try String(json: 1) } == "JSON object was not of type: String")
        #expect(parserFailureReason { _ = try Int(json: "1") } == "JSON object was not of type: Int")
        #expect(parserFailureReason { _ = try UInt(json: object) } == "JSON object was not of type: UInt")
        #expect(parserFailureReason { _ = try Float(json: "x") } == "JSON object was not of type: Float")
        #expect(parserFailureReason { _ = try Double(json: "x") } == "JSON object was not of type: Double")
        #expect(parserFailureReason { _ = try Bool(json: 1) } == "JSON object was not of type: Bool")
        #expect(
            parserFailureReason { _ = try [String: String](json: "x") }
                == "JSON object was not of type: Dictionary<String, String>")
    }

    @Test func invalidURLHasItsOwnText() {
        let text = parserFailureReason {
            _ = try Parser.parseEntity(data: Data(#"{"u": "not a url", "n": 1}"#.utf8)) { schema in
                schema.addProperty(keyPath: "u", type: .url)
                schema.addProperty(keyPath: "n", type: .url)
            }
        }
        #expect(
            text == """
                Required key path [u] could not be parsed to valid URL
                Value for key path [n] is of incorrect type
                """)
    }

    @Test func parseEntityOfAScalarSaysWhatItNeeds() {
        #expect(
            parserFailureReason { _ = try Parser.parseEntity(json: "text") { $0.addProperty(keyPath: "a", type: .int) } }
                == "JSON object was not of type: [String: Any] or [Any]")
    }

    @Test func arrayWithoutADecodingMethodIsAnError() {
        #expect(
            parserFailureReason {
                _ = try Parser.parseEntity(data: Data(#"{"items": [1]}"#.utf8)) {
                    $0.addProperty(keyPath: "items", type: .array)
                }
            } == "A decoding method was not provided for `items` array")
    }

    @Test func anArrayRootIsTheOneArrayProperty() throws {
        let entity = try Parser.parseEntity(json: [["a": 1], ["a": 2]] as [Any]) {
            $0.addProperty(keyPath: "whatever", type: .array, decodableType: Pair.self)
        }
        #expect(entity["whatever"] as? [Pair] == [Pair(a: 1), Pair(a: 2)])
    }

    @Test func dateDecoderNamesDate() {
        #expect(
            parserFailureReason { _ = try DateDecoder(dateFormatString: "yyyy-MM-dd").decode("yesterday") }
                == "DateParser string could not be parsed to Date with the given formatter.")
    }

    @Test func deserializationErrorsStartWithElevatesPrefix() {
        let text = parserFailureReason {
            _ = try Parser.parseEntity(data: Data("not json".utf8)) { $0.addProperty(keyPath: "a", type: .int) }
        }
        #expect(
            text?.hasPrefix("JSON data deserialization failed with error: \"Invalid JSON at line 1, column ") == true,
            "\(text ?? "")")
        #expect(text?.contains("(byte offset ") == true)
    }

    @Test func arrayFailuresNameTheDecoderInstance() {
        let text = parserFailureReason {
            _ = try Parser.parseEntity(data: Data(#"{"items": [{"b": 1}]}"#.utf8)) {
                $0.addProperty(keyPath: "items", type: .array, decoder: PairDecoder())
            }
        }
        #expect(text?.hasPrefix("Error parsing array object at index 0 with parser [ElevateTests.") == true)
        #expect(text?.contains("PairDecoder]\nRequired key path [a] was missing or null\n--") == true)
    }

    @Test func typeCheckIsReachable() {
        final class NotJSON {}
        #expect(!Parser.isValue(NotJSON(), ofType: .dictionary))
        #expect(Parser.isValue(["a": 1] as [String: Any], ofType: .dictionary))
        #expect(Parser.isValue("https://example.com", ofType: .url))
    }

    @available(*, deprecated, message: "exercises the deprecated Elevate 1.x/2.x names")
    @Test func legacyNamesStillWork() throws {
        let data = Data(#"{"r": {"a": 5}, "n": "x", "list": [{"a": 1}]}"#.utf8)
        let properties = try Parser.parseProperties(data: data) { make in
            make.propertyForKeyPath("n", type: .String)
            make.propertyForKeyPath("list", type: .Array, decodedToType: Pair.self)
            make.propertyForKeyPath("r", type: .Dictionary, decoder: PairDecoder())
        }
        #expect(properties["n"] as? String == "x")
        #expect(properties["list"] as? [Pair] == [Pair(a: 1)])
        #expect(properties["r"] as? Pair == Pair(a: 5))
        let object: Pair = try Parser.parseObject(data: data, forKeyPath: "r")
        #expect(object == Pair(a: 5))
        let decoded: Pair = try Parser.parseObject(data: data, forKeyPath: "r", withDecoder: PairDecoder())
        #expect(decoded == Pair(a: 5))
        let fromJSON = try Parser.parseProperties(json: ["a": 1] as [String: Any]) { make in
            make.propertyForKeyPath("a", type: .Int)
        }
        #expect(fromJSON["a"] as? Int == 1)
        let types: [SchemaPropertyProtocol] = [.String, .UInt, .Int, .Float, .Double, .Bool, .Array, .Dictionary, .URL]
        #expect(types == [.string, .uint, .int, .float, .double, .bool, .array, .dictionary, .url])
    }

    @Test func deliberateDifferencesListedInTheReadme() throws {
        // An invalid URL is an error even for an optional property, which the text does not call
        // required; on a view and on Foundation values alike.
        #expect(
            parserFailureReason {
                _ = try Parser.parseEntity(data: Data(#"{"u": "not a url"}"#.utf8)) {
                    $0.addProperty(keyPath: "u", type: .url, optional: true)
                }
            } == "Optional key path [u] could not be parsed to valid URL")
        #expect(
            parserFailureReason {
                _ = try Parser.parseEntity(json: ["u": "not a url"] as [String: Any]) {
                    $0.addProperty(keyPath: "u", type: .url, optional: true)
                }
            } == "Optional key path [u] could not be parsed to valid URL")
        // parseEntity(data:) of a root array looks the key path up; "" is the root.
        let root = Data("[1, 2]".utf8)
        #expect(
            parserFailureReason {
                _ = try Parser.parseEntity(data: root) {
                    $0.addProperty(keyPath: "items", type: .array, decodableType: Int.self)
                }
            } == "Required key path [items] was missing or null")
        let entity = try Parser.parseEntity(data: root) {
            $0.addProperty(keyPath: "", type: .array, decodableType: Int.self)
        }
        #expect(entity[""] as? [Any] as? [Int] == [1, 2])
        // Beyond 2^53, a number with a fraction or exponent is not an integer.
        #expect(
            parserFailureReason {
                _ = try Parser.parseEntity(data: Data(#"{"n": 9007199254740993.0}"#.utf8)) {
                    $0.addProperty(keyPath: "n", type: .int)
                }
            } == "Value for key path [n] is of incorrect type")
        for (text, type) in [("12345678901234567890.0", SchemaPropertyProtocol.uint), ("1.2345678901234567e19", .uint)]
        {
            let json: Any = try JSONSerialization.jsonObject(with: Data(#"{"n": \#(text)}"#.utf8))
            for parsed in [
                {
                    try Parser.parseEntity(data: Data(#"{"n": \#(text)}"#.utf8)) {
                        $0.addProperty(keyPath: "n", type: type)
                    }
                },
                { try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "n", type: type) } },
            ] {
                #expect(parserFailureReason { _ = try parsed() } == "Value for key path [n] is of incorrect type", "\(text)")
            }
        }
        // Integers written as integers stay exact up to UInt.max.
        let exact = try Parser.parseEntity(data: Data(#"{"n": 12345678901234567890}"#.utf8)) {
            $0.addProperty(keyPath: "n", type: .uint)
        }
        #expect(exact["n"] as? UInt == 12_345_678_901_234_567_890)
    }

    /// A non-final class conforms, as in Elevate 4's own performance tests, and arrays of it (and of
    /// a subclass) decode as arrays of the class.
    class Animal: Elevate.Decodable {
        let name: String
        required init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "name", type: .string) }
            name = entity <-! "name"
        }
    }

    final class Dog: Animal {}

    @Test func nonFinalClassesConformAndDecodeAsArrayElements() throws {
        let data = Data(#"{"animals": [{"name": "a"}, {"name": "b"}], "dogs": [{"name": "c"}], "none": []}"#.utf8)
        let entity = try Parser.parseEntity(data: data) { schema in
            schema.addProperty(keyPath: "animals", type: .array, decodableType: Animal.self)
            schema.addProperty(keyPath: "dogs", type: .array, decodableType: Dog.self)
            schema.addProperty(keyPath: "none", type: .array, decodableType: Animal.self)
        }
        let animals: [Animal] = entity <--! "animals"
        let dogs: [Dog] = entity <--! "dogs"
        let none: [Animal] = entity <--! "none"
        #expect(animals.map(\.name) == ["a", "b"])
        #expect(dogs.map(\.name) == ["c"])
        #expect(none.isEmpty)
    }
}
