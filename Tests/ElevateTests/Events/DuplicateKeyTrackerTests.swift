import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `JSONParsingOptions.rejectsDuplicateKeys`: a key repeated in one object is an error at the
/// repeated key, in every API that parses, whatever the chunking; keys of different objects and
/// of nested objects are independent.
@Suite struct DuplicateKeyTrackerTests {
    private var rejecting: JSONParsingOptions {
        var options = JSONParsingOptions()
        options.rejectsDuplicateKeys = true
        return options
    }

    private func error(_ text: String, chunkSize: Int = .max) -> JSONSyntaxError? {
        final class Sink: JSONEventHandler {}
        let parser = JSONEventParser(handler: Sink(), options: rejecting)
        let bytes = Array(text.utf8)
        do {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + min(chunkSize, bytes.count))
                try bytes[start..<end].withUnsafeBytes { try parser.parse($0) }
                start = end
            }
            try parser.finish()
            return nil
        } catch let error as JSONSyntaxError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test(arguments: [1, 3, 1 << 20])
    func aRepeatedKeyIsReportedAtItsQuote(chunkSize: Int) throws {
        // The escaped key spells "a" again, at the outer level; the inner "a"s are in objects of
        // their own.
        let text = #"{"a": 1, "b": {"a": 2, "c": [{"a": 3}, {"a": 4}]}, "\u0061": 5}"#
        let found = try #require(error(text, chunkSize: chunkSize))
        #expect(found.kind == .duplicateKey)
        let quote = try #require(text.utf8.firstIndex(of: UInt8(ascii: "\\")))
        #expect(found.byteOffset == text.utf8.distance(from: text.utf8.startIndex, to: quote) - 1)
        #expect(found.message == "duplicate key \"a\" in one object")
    }

    @Test func distinctKeysPass() {
        #expect(error(#"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}], "c": {}}"#) == nil)
        #expect(error(#"[{"x": 1}, {"x": 1}]"#) == nil)
    }

    @Test func everyAPIHonoursIt() throws {
        var options = StreamingOptions()
        options.parsing = rejecting
        let data = Data(#"{"items": [1, 2], "items": [3]}"#.utf8)
        #expect(throws: (any Error).self) {
            let _: [Int] = try Elevate.decodeArray(from: .data(data), atKeyPath: "items", options: options)
        }
        #expect(throws: JSONSyntaxError.self) {
            _ = try JSONValue(parsing: data, options: rejecting)
        }
        #expect(throws: JSONSyntaxError.self) { _ = try JSONValueBuilder.value(from: data, options: rejecting) }
        // Without the option, the last occurrence wins.
        #expect(try JSONValue(parsing: data)["items"]?.count == 1)
    }
}
