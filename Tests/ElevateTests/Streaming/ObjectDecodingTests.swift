import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `decodeObject(from:atKeyPath:)`: the value at a key path decoded as Elevate does it, a
/// one-property schema of type `.dictionary` (or the primitive's own type).
@Suite struct ObjectDecodingTests {
    @Test func decodeObjectReadsArraysOfDecodables() throws {
        let data = Data(#"{"list": [1, 2, 3]}"#.utf8)
        let list: [Int] = try Elevate.decodeObject(from: data, atKeyPath: "list")
        #expect(list == [1, 2, 3])
    }
}
