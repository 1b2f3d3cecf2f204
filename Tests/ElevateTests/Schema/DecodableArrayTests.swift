import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// An array decoded as an Elevate `Decodable` (`[T](json:)`) reports its failing elements as a
/// schema's `.array` property does: the first hundred in full, the rest counted, so that a huge
/// array of invalid elements keeps a bounded report.
@Suite struct DecodableArrayTests {
    @Test func failingElementsAreBoundedInTheReport() throws {
        let foundation: [Any] = (0..<150).map { _ in "not a number" }
        let view = try JSONValue(parsing: Data("[\((0..<150).map { _ in "\"x\"" }.joined(separator: ","))]".utf8))
        for json in [foundation as Any, view as Any] {
            #expect {
                _ = try [Int](json: json)
            } throws: { error in
                guard case ParserError.validation(let reason) = error else { return false }
                return reason.components(separatedBy: "Error parsing array object").count - 1 == 100
                    && reason.hasSuffix("… and 50 more invalid elements")
            }
        }
    }
}
