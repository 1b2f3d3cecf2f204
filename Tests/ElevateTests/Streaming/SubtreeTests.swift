import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

private let document = NamedItem.document

/// `summarizeValue(from:atKeyPath:)` and `forEachEvent(from:atKeyPath:to:)`: what sits at a key
/// path, counted without building it or forwarded as events, with the same rules for repeated keys
/// and dotted key paths as the calls that decode.
@Suite struct SubtreeTests {
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
        let summary = try summarizeValue(from: .data(Data(text.utf8)), atKeyPath: "a.b")
        #expect(summary?.count == count)
        // The repeated spelling's own value is still replaced whole by its later occurrence.
        let repeated = try summarizeValue(from: .data(Data(#"{"a":{"b":[1]},"a":{"b":[1,2]}}"#.utf8)), atKeyPath: "a.b")
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
            #expect(try forEachEvent(from: .data(Data(text.utf8)), atKeyPath: "a.b", to: recorder), "\(text)")
            #expect(recorder.events == sent, "\(text)")
        }
        // Several top-level values at the same spelling are all sent, as before.
        let recorder = EventRecorder()
        let multiple = StreamingOptions(parsing: JSONParsingOptions(allowsMultipleValues: true))
        try forEachEvent(from: .data(Data(#"{"a.b":1} {"a.b":2} {"a":{"b":3}}"#.utf8)), atKeyPath: "a.b", to: recorder, options: multiple)
        #expect(recorder.events == ["n:1", "n:2"])
        // A repeat of the spelling that was sent is still refused, at the repeated key.
        let unwrapped = StreamingOptions(wrapsErrorsInParserError: false)
        for (text, offset) in [(#"{"a":{"b":[1]},"a.b":[2],"a":3}"#, 25), (#"{"a.b":[1],"a.b":[2]}"#, 11)] {
            #expect {
                try forEachEvent(from: .data(Data(text.utf8)), atKeyPath: "a.b", to: EventRecorder(), options: unwrapped)
            } throws: { error in
                (error as? JSONSyntaxError).map { $0.kind == .duplicateKey && $0.byteOffset == offset } ?? false
            }
        }
    }

    @Test func summarizeAndForwardSubtrees() throws {
        let input = JSONInput.data(Data(document.utf8))
        #expect(
            try Elevate.summarizeValue(from: input, atKeyPath: "data.items")
                == JSONContainerSummary(kind: .array, count: 3))
        #expect(
            try Elevate.summarizeValue(from: input, atKeyPath: "data") == JSONContainerSummary(kind: .object, count: 1))
        #expect(
            try Elevate.summarizeValue(from: input, atKeyPath: "data.items.0.id")
                == JSONContainerSummary(kind: .scalar, count: 0))
        #expect(try Elevate.summarizeValue(from: input, atKeyPath: "nothing") == nil)
        let recorder = EventRecorder()
        #expect(try Elevate.forEachEvent(from: input, atKeyPath: "data.items.1", to: recorder))
        #expect(recorder.events == ["{", "key:id", "n:2", "key:name", "s:b", "}"])
    }

    @Test func forwardingReadsTheRestToJudgeIt() throws {
        // The value is sent as it is read; the rest is still parsed, since a repeated key later
        // would replace the value already sent: invalid JSON after it is an error.
        let text = #"{"a": {"b": [1, 2]}, "rest": "#.utf8 + [0x0C] + Array("tail".utf8)
        let recorder = EventRecorder()
        #expect(throws: ParserError.self) {
            try Elevate.forEachEvent(from: .data(Data(text)), atKeyPath: "a.b", to: recorder)
        }
        #expect(recorder.events == ["[", "n:1", "n:2", "]"])
    }
}
