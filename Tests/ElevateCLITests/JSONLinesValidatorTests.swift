import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON
@testable import ElevateCLI

/// Any JSON value, as the decoder was handed it.
private struct AnyJSON: Elevate.Decodable {
    let value: Any
    init(json: Any) throws { value = json }
}

/// The line splitter of `elevate validate --json-lines`, which must split as the library's JSON
/// Lines framing does.
@Suite struct JSONLinesValidatorTests {
    @Test func theToolAcceptsAByteOrderMarkOnlyOnTheFirstLine() throws {
        let first = [0xEF, 0xBB, 0xBF] + Array("1\n2\n".utf8)
        let validator = JSONLinesValidator()
        try first.withUnsafeBytes { try validator.feed($0) }
        try validator.finish()
        #expect(validator.valueCount == 2)

        let later = Array("1\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("2\n".utf8)
        for split in 0...later.count {
            let validator = JSONLinesValidator()
            do {
                try later.withUnsafeBytes { bytes in
                    try validator.feed(UnsafeRawBufferPointer(rebasing: bytes[..<split]))
                    try validator.feed(UnsafeRawBufferPointer(rebasing: bytes[split...]))
                }
                try validator.finish()
                Issue.record("no error for split \(split)")
            } catch let failure as JSONLinesValidator.Failure {
                #expect(failure.line == 2)
            }
        }
    }

    /// The library and the tool agree on every line of a mixed corpus, whatever the chunking.
    @Test(arguments: [
        "1\n2\n", "[1] 2\n", "\n\n  \n", "{\"a\":1}\r\n[]\r\n", "1\n\u{FEFF}2", "tr\nue", "\"a\nb\"", "[1,\n2]",
        "1 // c\n", "  7  ", "\r", "\"\\u2028\"\n",
    ])
    func libraryAndToolAgree(text: String) throws {
        let bytes = Array(text.utf8)
        for chunkSize in [1, 3, bytes.count + 1] {
            let libraryLine: Int?
            do {
                try Elevate.forEachValue(
                    from: .data(Data(bytes)), framing: .jsonLines, as: AnyJSON.self,
                    options: StreamingOptions(chunkSize: chunkSize)
                ) { _ in }
                libraryLine = nil
            } catch ParserError.deserialization(let reason) {
                libraryLine = reason.firstMatch(of: /at line (\d+)/).flatMap { Int($0.1) }
            }
            let validator = JSONLinesValidator()
            var toolLine: Int?
            do {
                try bytes.withUnsafeBytes { all in
                    for start in stride(from: 0, to: all.count, by: chunkSize) {
                        try validator.feed(
                            UnsafeRawBufferPointer(rebasing: all[start..<min(start + chunkSize, all.count)]))
                    }
                }
                try validator.finish()
            } catch let failure as JSONLinesValidator.Failure {
                toolLine = failure.line
            }
            #expect(libraryLine == toolLine, "\(text.debugDescription), chunks of \(chunkSize)")
        }
    }
}
