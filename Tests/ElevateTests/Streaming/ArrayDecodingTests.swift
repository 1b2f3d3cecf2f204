import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `decodeArray` of a document whose size is known (data, a regular file) allocates its result
/// once, at about its final size, instead of doubling it: the last doubling holds the old storage
/// and the new at once, up to twice the elements' own size at the peak.
@Suite struct ArrayDecodingTests {
    private struct Point: Elevate.Decodable {
        let x: Int
        let label: String

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "x", type: .int)
                schema.addProperty(keyPath: "label", type: .string)
            }
            x = entity <-! "x"
            label = entity <-! "label"
        }
    }

    /// `{"points":[…count points…]` followed by `trailing` bytes of another member.
    private static func document(count: Int, trailing: Int = 0) -> Data {
        var text = #"{"points":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"x":\#(index),"label":"point \#(index % 97)"}"#
        }
        text += "]"
        if trailing > 0 { text += #","padding":""# + String(repeating: "p", count: trailing) + #"""# }
        return Data((text + "}").utf8)
    }

    /// 5,000 elements: doubling would leave a capacity of 8,192.
    @Test func dataOfKnownSizeGetsItsResultSizedOnce() throws {
        let points: [Point] = try Elevate.decodeArray(from: Self.document(count: 5000), atKeyPath: "points")
        #expect(points.count == 5000)
        #expect(points.map(\.x) == Array(0..<5000))
        #expect(points.capacity < 5000 * 5 / 4, "capacity \(points.capacity)")
    }

    @Test func aFileOfKnownSizeGetsItsResultSizedOnce() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sizing-\(UUID()).json")
        try Self.document(count: 5000).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let points: [Point] = try Elevate.decodeArray(from: .file(url), atKeyPath: "points")
        #expect(points.map(\.x) == Array(0..<5000))
        #expect(points.capacity < 5000 * 5 / 4, "capacity \(points.capacity)")
    }

    /// An array followed by much more data is guessed too long: the result is still exact, and
    /// the reservation stays within twice the input's size.
    @Test func aGuessTooHighChangesNothingButCapacity() throws {
        let data = Self.document(count: 2000, trailing: 2_000_000)
        let points: [Point] = try Elevate.decodeArray(from: data, atKeyPath: "points")
        #expect(points.map(\.x) == Array(0..<2000))
        #expect(points.capacity * MemoryLayout<Point>.stride <= data.count * 2)
    }

    /// The guess is made at the first batch past 1,024 elements, which for 1,024 to 1,087 elements
    /// comes only once the parse is over and its parser is gone (this crashed reading the parser's
    /// position through an unowned reference), with one worker and with several.
    @Test(arguments: [1, 2]) func arraysThatReachTheSampleOnlyAtTheEndDecode(workers: Int) throws {
        var options = StreamingOptions()
        options.concurrency = workers
        for count in [1024, 1050, 1087, 1088] {
            let points = try Elevate.decodeArray(
                from: .data(Self.document(count: count)), atKeyPath: "points", as: Point.self, options: options)
            #expect(points.map(\.x) == Array(0..<count))
        }
    }

    /// Too few elements to guess from, or no size known: plain growth.
    @Test func theGuessNeedsASampleAndASize() {
        var offset = 1000
        let estimate = ArrayDecoding.ElementCountEstimate(arrayStart: 0, inputEnd: 10_000, position: { offset })
        // 100 elements in 1,000 bytes, 9,000 bytes to go: 900 more, and a sixteenth of those.
        #expect(estimate.expectedCount(after: 100, stride: 16) == 100 + 956)
        #expect(estimate.expectedCount(after: 100, stride: 32) == 20_000 / 32, "bounded by twice the input")
        offset = 10_000
        #expect(estimate.expectedCount(after: 100, stride: 16) == nil, "nothing left to read")
        offset = 0
        #expect(estimate.expectedCount(after: 100, stride: 16) == nil, "nothing read yet")
        #expect(estimate.expectedCount(after: 0, stride: 16) == nil)
    }
}
