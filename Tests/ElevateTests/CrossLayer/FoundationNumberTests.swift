import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// An `NSNumber` means the same to every part of the library that takes Foundation values: the
/// mutable `JSON`, the writer and Elevate's schema. A Boolean is one only when it was made from a
/// `Bool`; an `Int8` or `UInt8` is a number, though its type code is the one `BOOL` also has.
@Suite struct FoundationNumberTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let number: NSNumber
        let json: JSON
        let text: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "Bool", number: NSNumber(value: true), json: true, text: "true"),
        Case(name: "Int8", number: NSNumber(value: Int8(1)), json: 1, text: "1"),
        Case(name: "negative Int8", number: NSNumber(value: Int8(-3)), json: -3, text: "-3"),
        Case(name: "UInt8", number: NSNumber(value: UInt8(200)), json: 200, text: "200"),
        Case(name: "Int64", number: NSNumber(value: Int64.min), json: .number(.int(Int(Int64.min))), text: "-9223372036854775808"),
        Case(name: "UInt64", number: NSNumber(value: UInt64.max), json: .number(.uint(UInt.max)), text: "18446744073709551615"),
        Case(name: "Double", number: NSNumber(value: 2.5), json: 2.5, text: "2.5"),
        Case(name: "Float", number: NSNumber(value: Float(0.1)), json: 0.1, text: "0.1"),
        Case(name: "NSDecimalNumber", number: NSDecimalNumber(string: "12.345"), json: .number(.double(12.345)), text: "12.345"),
    ]

    @Test(arguments: cases) func theMutableJSONReadsIt(_ sample: Case) throws {
        #expect(try JSON(foundationValue: sample.number) == sample.json)
    }

    @Test(arguments: cases) func theWriterWritesIt(_ sample: Case) throws {
        #expect(try JSONWriter.string(for: [sample.number] as [Any]) == "[\(sample.text)]")
    }

    @Test(arguments: cases) func theSchemaTypesIt(_ sample: Case) throws {
        let isBool = sample.name == "Bool"
        let entity = try? Parser.parseEntity(json: ["v": sample.number] as [String: Any]) { schema in
            schema.addProperty(keyPath: "v", type: .bool)
        }
        #expect((entity != nil) == isBool)
        if case .number(.int(let integer)) = sample.json {
            let entity = try Parser.parseEntity(json: ["v": sample.number] as [String: Any]) { schema in
                schema.addProperty(keyPath: "v", type: .int)
            }
            #expect((entity <-! "v") as Int == integer)
        }
    }
}
