import Foundation
import Testing

import Elevate

/// The public text views lend their bytes only inside a closure, so no pointer outlives the
/// handler call. This file imports Elevate without `@testable`, as a user would.
@Suite struct JSONTextTests {
    final class Collector: JSONEventHandler {
        var strings: [[UInt8]] = []
        var keys: [String] = []
        var numbers: [[UInt8]] = []
        var counts: [Int] = []
        var matches: [Bool] = []

        func key(_ key: JSONText) throws {
            keys.append(key.string)
            matches.append(key.equals(Array("kéy".utf8)))
        }
        func string(_ value: JSONText) throws {
            strings.append(value.withUnsafeBytes { Array($0) })
            counts.append(value.count)
        }
        func number(_ value: JSONNumberText) throws {
            numbers.append(value.withUnsafeBytes { Array($0) })
            #expect(value.text == String(decoding: numbers.last!, as: UTF8.self))
        }
    }

    @Test func viewsLendTheirBytesInsideAClosure() throws {
        let collector = Collector()
        let parser = JSONEventParser(handler: collector)
        try parser.parse(Array(#"{"kéy":["a\"b", "", -1.5e3]}"#.utf8))
        try parser.finish()
        #expect(collector.keys == ["kéy"])
        #expect(collector.matches == [true])
        #expect(collector.strings == [Array("a\"b".utf8), []])
        #expect(collector.counts == [3, 0])
        #expect(collector.numbers == [Array("-1.5e3".utf8)])
    }

    @Test func withUnsafeBytesRethrowsAndReturns() throws {
        struct Marker: Error {}
        final class Thrower: JSONEventHandler {
            func string(_ value: JSONText) throws {
                let first = value.withUnsafeBytes { $0.first }
                #expect(first == UInt8(ascii: "x"))
                try value.withUnsafeBytes { _ in throw Marker() }
            }
        }
        let parser = JSONEventParser(handler: Thrower())
        #expect(throws: Marker.self) { try parser.parse(Array(#"["x"]"#.utf8)) }
    }
}
