import Foundation
import Testing

@testable import Elevate

/// Defects found reviewing the repeated-key, count and extract changes: each test failed before
/// its fix.
@Suite struct ReviewFindingsTests {
    /// A key path with dots has two spellings, the split path and the literal dotted root key; the
    /// streaming calls take the first value found in document order. A repeat of the other
    /// spelling's key replaced nothing that was counted, yet it threw the count away (the count
    /// of the repeat's value, or nothing, was reported instead).
    @Test(arguments: [
        (#"{"a.b":[1],"a":{"b":[1,2]},"a":{"b":[1,2,3]}}"#, 1),
        (#"{"a":{"b":[1,2]},"a.b":[1],"a.b":[1,2,3]}"#, 2),
        (#"{"a.b":{"x":1},"a":1,"a":2}"#, 1),
    ] as [(String, Int)])
    func countKeepsTheValueFoundWhenTheOtherSpellingRepeats(_ text: String, _ count: Int) throws {
        let summary = try summarizeValue(atKeyPath: "a.b", from: .data(Data(text.utf8)))
        #expect(summary?.count == count)
        // The repeated spelling's own value is still replaced whole by its later occurrence.
        let repeated = try summarizeValue(atKeyPath: "a.b", from: .data(Data(#"{"a":{"b":[1]},"a":{"b":[1,2]}}"#.utf8)))
        #expect(repeated == JSONContainerSummary(kind: .array, count: 2))
    }
}
