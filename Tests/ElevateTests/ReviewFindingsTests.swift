import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

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

    /// `forEachEvent` (and `elevate extract`) sent the value at the literal dotted root key and
    /// then the value at the split path too, when both exist: the handler got two values (extract
    /// printed `[1]` and `[2]`, which is not one JSON text), and a repeat of the spelling never
    /// sent was refused as if its value had been written.
    @Test func forwardingSendsOnlyTheFirstSpellingOfAKeyPath() throws {
        for (text, sent) in [
            (#"{"a.b":[1],"a":{"b":[2]}}"#, ["[", "n:1", "]"]),
            (#"{"a":{"b":[2]},"a.b":[1]}"#, ["[", "n:2", "]"]),
            (#"{"a.b":[1],"a":1,"a":2}"#, ["[", "n:1", "]"]),
            (#"{"a":{"b":"x"},"a.b":[2],"a.b":[3]}"#, ["s:x"]),
        ] {
            let recorder = EventRecorder()
            #expect(try forEachEvent(atKeyPath: "a.b", from: .data(Data(text.utf8)), to: recorder), "\(text)")
            #expect(recorder.events == sent, "\(text)")
        }
        // Several top-level values at the same spelling are all sent, as before.
        let recorder = EventRecorder()
        let multiple = StreamingOptions(parsing: JSONParsingOptions(allowsMultipleValues: true))
        try forEachEvent(atKeyPath: "a.b", from: .data(Data(#"{"a.b":1} {"a.b":2} {"a":{"b":3}}"#.utf8)), to: recorder, options: multiple)
        #expect(recorder.events == ["n:1", "n:2"])
        // A repeat of the spelling that was sent is still refused, at the repeated key.
        let unwrapped = StreamingOptions(wrapsErrorsInParserError: false)
        for (text, offset) in [(#"{"a":{"b":[1]},"a.b":[2],"a":3}"#, 25), (#"{"a.b":[1],"a.b":[2]}"#, 11)] {
            #expect {
                try forEachEvent(atKeyPath: "a.b", from: .data(Data(text.utf8)), to: EventRecorder(), options: unwrapped)
            } throws: { error in
                (error as? JSONSyntaxError).map { $0.kind == .duplicateKey && $0.byteOffset == offset } ?? false
            }
        }
    }

    /// JSON Lines and concatenated values read at a dotted key path prefer the literal root key,
    /// as the in-memory calls do; a repeat of the split path's key dropped the literal key's value
    /// (giving the repeat's value, or "missing").
    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func valuesKeepTheLiteralDottedKeyWhenTheSplitPathRepeats(_ framing: JSONFraming) throws {
        let lines = [
            (#"{"a.b":1,"a":{"b":2},"a":{"b":3}}"#, 1),
            (#"{"a.b":1,"a":1,"a":2}"#, 1),
            (#"{"a":{"b":2},"a.b":1,"a.b":5}"#, 5),
            (#"{"a":{"b":2},"a":{"b":3}}"#, 3),
        ]
        for (line, value) in lines {
            #expect(try JSONValue(parsing: line)[keyPath: "a.b"]?.int == value, "in memory: \(line)")
        }
        var values: [Int] = []
        let text = lines.map(\.0).joined(separator: "\n") + "\n"
        try forEachValue(from: .data(Data(text.utf8)), framing: framing, atKeyPath: "a.b", as: Int.self) {
            values.append($0)
        }
        #expect(values == lines.map(\.1))
    }

    /// `rejectsDuplicateKeys` names the first key that repeats, in document order, as the parser's
    /// own check does: an object of more than 12 keys (checked through a hash table, from its last
    /// key back) named the last repeat instead, `B` here, at its line and column.
    @Test(arguments: [0, 11, 20])
    func aDocumentNamesTheFirstRepeatWhateverTheObjectsSize(_ fillers: Int) throws {
        let text = #"{"A":1,"B":1,"A":2,"B":2"# + (0..<fillers).map { ",\"f\($0)\":0" }.joined() + "}"
        #expect {
            try JSONValue(parsing: text, options: JSONDocumentOptions(rejectsDuplicateKeys: true))
        } throws: { error in
            guard let error = error as? JSONDocumentError else { return false }
            return error.key == "A" && error.byteOffset == 16 && error.line == 1 && error.column == 17
        }
    }
}
