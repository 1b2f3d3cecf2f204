import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

@Suite struct JSONEventParserTests {
    static let sample = """
        {"name":"Zoë \\"Z\\" \\u00e9\\ud83d\\ude00","list":[1,-2.5e3,true,false,null,{}],"nested":{"k":[[]]},
         "big":18446744073709551615, "text":"a\\\\b\\/c\\n"}
        """

    @Test func deliversEventsInOrder() throws {
        let events = try recordEvents(Array(#"{"a":[1,"x",true,null]}"#.utf8))
        #expect(events == ["{", "key:a", "[", "n:1", "s:x", "b:true", "null", "]", "}"])
    }

    @Test func sameEventsWhateverTheChunking() throws {
        let bytes = Array(Self.sample.utf8)
        let whole = try recordEvents(bytes)
        #expect(try recordEvents(bytes, chunkSizes: [1]) == whole)
        var generator = SplitMix64(seed: randomTestSeed)
        for _ in 0..<50 {
            let sizes = (0..<8).map { _ in Int.random(in: 1...17, using: &generator) }
            #expect(
                try recordEvents(bytes, chunkSizes: sizes) == whole,
                "chunk sizes \(sizes), ELEVATE_TEST_SEED=\(randomTestSeed)")
        }
        #expect(whole.contains("s:Zoë \"Z\" é😀"))
    }

    @Test func handlerCanStopTheParse() throws {
        final class StopAtSecond: JSONEventHandler {
            var numbers = 0
            func number(_ value: JSONNumberText) throws {
                numbers += 1
                if numbers == 2 { throw JSONEventParser.Stop() }
            }
        }
        let handler = StopAtSecond()
        let parser = JSONEventParser(handler: handler)
        try parser.parse(Array("[1,2,3,4,".utf8))
        try parser.parse(Array("oops".utf8))
        try parser.finish()
        #expect(parser.isStopped)
        #expect(handler.numbers == 2)
    }

    @Test func handlerErrorsPropagate() {
        struct Boom: Error {}
        final class Thrower: JSONEventHandler {
            func null() throws { throw Boom() }
        }
        let parser = JSONEventParser(handler: Thrower())
        #expect(throws: Boom.self) { try parser.parse(Array("[null]".utf8)) }
    }

    @Test func truncatedInputIsReportedByFinish() {
        let error = syntaxError(#"{"a": [1, 2"#)
        #expect(error?.kind == .truncated)
        #expect(error?.byteOffset == 11)
    }

    @Test func errorsCarryOffsetLineAndColumn() throws {
        let error = try #require(syntaxError("{\n  \"a\": 1,\n  \"b\": tru }"))
        #expect(error.kind == .syntax)
        #expect(error.line == 3)
        // The first byte of the offending token, `tru`.
        #expect(error.byteOffset == 19)
        #expect(error.column == 8)
        #expect(error.description.contains("line 3"))
    }

    @Test func lineCountingSpansChunks() throws {
        let text = Array("[\n1,\n2,\n3,\n x]".utf8)
        var columns: Set<Int> = []
        for size in [1, 2, 3, 100] {
            do {
                _ = try recordEvents(text, chunkSizes: [size])
                Issue.record("accepted invalid input")
            } catch let error as JSONSyntaxError {
                #expect(error.line == 5, "chunk size \(size)")
                // The offending byte itself, `x`.
                #expect(error.column == 2, "chunk size \(size)")
                columns.insert(error.column)
            }
        }
        #expect(columns.count == 1)
    }

    @Test func rejectsFormFeedAndVerticalTabAsWhitespace() {
        #expect(syntaxError("[\u{0C}]")?.kind == .invalidWhitespace)
        #expect(syntaxError("[1,\u{0B}2]")?.kind == .invalidWhitespace)
        #expect(syntaxError("[1,\u{0B}2]")?.byteOffset == 3)
    }

    @Test func rejectsUTF8ThatYAJLLetsThrough() {
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        let surrogate: [UInt8] = [0x22, 0xED, 0xA0, 0x80, 0x22]
        let aboveMax: [UInt8] = [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]
        for bytes in [overlong, surrogate, aboveMax] {
            let kind = syntaxError(bytes)?.kind
            #expect(kind == .invalidUTF8, "\(bytes)")
        }
    }

    @Test func rejectsUnpairedSurrogateEscapes() {
        for text in [#"["\ud800"]"#, #"["\ud800abc"]"#, #"["\uD888\u1234"]"#, #"["\udc00"]"#, #"{"\ud800":1}"#] {
            #expect(syntaxError(text) != nil, "\(text)")
        }
        // Split across chunks, the raw text comes from the carried bytes.
        let split = Array(#"["abc\ud800", 1]"#.utf8)
        #expect(throws: JSONSyntaxError.self) { try recordEvents(split, chunkSizes: [1]) }
        #expect(throws: Never.self) { try recordEvents(Array(#"["?\ud83d\ude00?"]"#.utf8), chunkSizes: [3]) }
    }

    @Test func skipsByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
        #expect(try recordEvents(bytes) == ["[", "n:1", "]"])
        #expect(try recordEvents(bytes, chunkSizes: [1]) == ["[", "n:1", "]"])
        #expect(syntaxError([0xEF, 0xBB]) != nil)
    }

    /// The first bytes of a mark and then something else: an error at byte 0 whose excerpt goes
    /// on with the bytes after them, as any error's does in the chunk they came in (they were
    /// parsed alone, and the excerpt stopped; found by the split parse's fuzz target).
    @Test func aPartialByteOrderMarkIsAnErrorWithTheBytesAfterIt() throws {
        let bytes: [UInt8] = [0xEF, 0xBB] + Array("\n{\"a\":1}\n[2] [3] [4]".utf8)
        let whole = try #require(syntaxError(bytes))
        #expect(whole.byteOffset == 0 && whole.line == 1 && whole.column == 1)
        #expect(whole.excerpt == JSONSyntaxError.excerptText(bytes.prefix(16)))
        // Chunked, the excerpt ends with the chunk, as for any error.
        let chunked = try #require(syntaxError(bytes, chunkSize: 4))
        #expect(chunked.byteOffset == 0)
        #expect(chunked.excerpt == JSONSyntaxError.excerptText(bytes.prefix(4)))
    }

    @Test func enforcesMaximumDepth() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(syntaxError(deep)?.kind == .depthLimitExceeded)
        #expect(syntaxError(deep, options: JSONParsingOptions(maximumDepth: 1000)) == nil)
    }

    @Test func enforcesMaximumTokenSize() throws {
        let options = JSONParsingOptions(maximumTokenSize: 1000)
        let bytes = Array(("[\"" + String(repeating: "a", count: 5000) + "\"]").utf8)
        #expect(throws: JSONSyntaxError.self) { try recordEvents(bytes, chunkSizes: [100], options: options) }
    }

    @Test func longTokensSplitAcrossManyChunksStayCorrect() throws {
        let body = String(repeating: "abcdefgh", count: 40_000)
        let bytes = Array(("[\"" + body + "\",1]").utf8)
        #expect(try recordEvents(bytes, chunkSizes: [1000]) == ["[", "s:" + body, "n:1", "]"])
    }

    @Test func commentsAndMultipleValuesAreOptIn() throws {
        #expect(syntaxError("[1] // c") != nil)
        #expect(
            try recordEvents(Array("[1 /* c */] // c".utf8), options: JSONParsingOptions(allowsComments: true))
                == ["[", "n:1", "]"])
        #expect(syntaxError("1 2") != nil)
        #expect(
            try recordEvents(Array("1 2\n[3]".utf8), options: JSONParsingOptions(allowsMultipleValues: true))
                == ["n:1", "n:2", "[", "n:3", "]"])
    }

    /// Found by FuzzJSONLines: `JSONValueBuilder.value(from:)` read `1"a,:1}04:` as `1`. After a
    /// complete top-level value, YAJL lexes what follows to reject it as trailing garbage, but an
    /// unterminated string is an incomplete token to its lexer, not garbage: the chunk is accepted,
    /// `yajl_complete_parse` lexes one more space (still inside the string) and reports success.
    /// The parser now rejects an open token after a complete document itself, at the token's quote.
    @Test func anUnterminatedStringAfterTheDocumentIsTrailingGarbage() throws {
        let finding = [UInt8](try Fixtures.data("fuzz", "json-lines-unterminated-string-after-a-value.jsonl"))
        let firstLine = Array(finding.prefix(while: { $0 != 0x0D }))
        #expect(throws: JSONSyntaxError.self) { try JSONValueBuilder.value(from: Data(firstLine)) }
        let cases: [(text: String, offset: Int)] = [
            (#"1"a,:1}04:"#, 1), (#"{}""#, 2), (#"[] "abc"#, 3), (#""a" "b"#, 4), (#"{"k":1}  "x\u12"#, 9),
            ("true\n\"", 5),
        ]
        for (text, offset) in cases {
            let bytes = Array(text.utf8)
            for chunkSize in 1...bytes.count {
                let error = try #require(syntaxError(bytes, chunkSize: chunkSize), "\(text) in chunks of \(chunkSize)")
                #expect(error.kind == .syntax && error.message.contains("trailing garbage"), "\(text): \(error)")
                #expect(error.byteOffset == offset, "\(text) in chunks of \(chunkSize): \(error)")
            }
        }
        // An unterminated block comment is the same gap, where comments are allowed.
        final class Ignore: JSONEventHandler {}
        let parser = JSONEventParser(handler: Ignore(), options: JSONParsingOptions(allowsComments: true))
        try parser.parse(Array("[1] /* open".utf8))
        #expect(throws: JSONSyntaxError.self) { try parser.finish() }
        let closed = JSONEventParser(handler: Ignore(), options: JSONParsingOptions(allowsComments: true))
        try closed.parse(Array("[1] /* closed */ // and a line comment".utf8))
        try closed.finish()
    }

    @Test(.timeLimit(.minutes(6))) func aMillionOpenBracketsHitTheDepthLimit() throws {
        let arrays = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try #require(syntaxError(arrays))
        #expect(error.kind == .depthLimitExceeded)
        #expect(error.byteOffset <= 513)
        #expect(ParseOutcome.of(arrays, chunkSizes: [65_536]) == .rejected(.depthLimitExceeded))
        let objects = Array(String(repeating: #"{"a":"#, count: 200_000).utf8)
        #expect(syntaxError(objects)?.kind == .depthLimitExceeded)
    }

    @Test(.timeLimit(.minutes(6))) func nestingUpToTheLimitParses() throws {
        let depth = 500
        let text = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        var value = try JSONValueBuilder.value(from: Data(text.utf8))
        for _ in 0..<depth {
            value = try #require((value as? [String: Any])?["a"])
        }
        #expect(value as? Int == 1)
        let limit = JSONParsingOptions.default.maximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(syntaxError(atLimit) == nil)
        #expect(syntaxError("[" + atLimit + "]")?.kind == .depthLimitExceeded)
    }

    @Test(.timeLimit(.minutes(6))) func everyPrefixParsesOrIsRejected() throws {
        let document = Array(JSONEventParserTests.sample.utf8)
        var outcomes: [ParseOutcome: Int] = [:]
        for length in 0...document.count {
            let prefix = Array(document[..<length])
            let outcome = ParseOutcome.of(prefix)
            outcomes[outcome, default: 0] += 1
            switch outcome {
            case .accepted:
                #expect(length == document.count, "prefix of \(length) bytes accepted")
            case .rejected(.truncated):
                break
            default:
                Issue.record("prefix of \(length) bytes: \(outcome)")
            }
            #expect(ParseOutcome.of(prefix, chunkSizes: [1]) == outcome, "prefix of \(length) bytes, byte by byte")
        }
        print("prefixes of \(document.count) bytes: \(outcomes)")
        // A document that is a number is complete at several lengths.
        let number = Array("-12.5e+3".utf8)
        let accepted = (0...number.count).filter { ParseOutcome.of(Array(number[..<$0])) == .accepted }
        #expect(accepted == [2, 3, 5, 8])
    }

    @Test(.timeLimit(.minutes(6))) func nulBytesAreRejectedUnlessEscaped() throws {
        let documents: [[UInt8]] = [
            [0x00],
            [0x00] + Array("[1]".utf8),
            Array("[1,".utf8) + [0x00] + Array("2]".utf8),
            Array("[1]".utf8) + [0x00],
            Array(#"["a"#.utf8) + [0x00] + Array(#"b"]"#.utf8),
            Array(#"{"a"#.utf8) + [0x00] + Array(#"b":1}"#.utf8),
        ]
        for document in documents {
            for sizes in corpusChunkings {
                let outcome = ParseOutcome.of(document, chunkSizes: sizes)
                guard case .rejected = outcome else {
                    Issue.record("\(document): \(outcome)")
                    continue
                }
            }
        }
        let escaped = try #require(
            try JSONValueBuilder.value(from: Data(#"{"k\u0000":"a\u0000b"}"#.utf8)) as? [String: Any])
        #expect(escaped["k\u{0}"] as? String == "a\u{0}b")
    }

    @Test(.timeLimit(.minutes(6))) func aLargeStringInSmallChunksIsCorrect() throws {
        final class StringCheck: JSONEventHandler {
            let expected: [UInt8]
            var matched = false
            init(expected: [UInt8]) { self.expected = expected }
            func string(_ value: JSONText) {
                matched =
                    expected.count == value.count
                    && value.withUnsafeBytes { text in
                        expected.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, $0.count) == 0 }
                    }
            }
        }
        let size = 32 << 20
        var body = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        while body.count < size { body += body }
        body.removeLast(body.count - size)
        var document: [UInt8] = [UInt8(ascii: "["), UInt8(ascii: "\"")]
        document += body
        document += Array("\",1]".utf8)
        let check = StringCheck(expected: body)
        let parser = JSONEventParser(handler: check)
        let elapsed = try ContinuousClock().measure {
            try document.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let end = min(buffer.count, offset + 65_536)
                    try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                    offset = end
                }
            }
            try parser.finish()
        }
        print("32 MiB string in 64 KiB chunks: \(elapsed)")
        #expect(check.matched)
        #expect(parser.bytesParsed == document.count)
    }

    @Test func aLongDocumentGivesTheSameEventsWhateverTheChunking() throws {
        let bytes = Array(ErrorPlacement.longDocument(rows: 2000).utf8)
        let whole = try recordEvents(bytes)
        #expect(whole.count > 8000)
        for chunkSize in ErrorPlacement.longChunkings.dropFirst() {
            #expect(try recordEvents(bytes, chunkSizes: [chunkSize]) == whole, "chunks of \(chunkSize)")
        }
    }

    /// Valid non-ASCII text of every length parses to the same bytes.
    @Test func validTextOfEveryLengthIsDeliveredWhole() throws {
        for length in 0..<40 {
            let text = String(repeating: "a", count: length) + "é😀" + String(repeating: "z", count: length % 9)
            let events = try recordEvents(Array(#"{"\#(text)":"\#(text)"}"#.utf8))
            #expect(events.contains { $0.contains(text) }, "\(events)")
        }
    }

    /// A handler that stops while `finish()` replays a long held-back token ends cleanly.
    @Test func stoppingDuringFinishIsNotAnError() throws {
        final class StopAtNumber: JSONEventHandler {
            var numbers = 0
            func number(_ value: JSONNumberText) throws {
                numbers += 1
                throw JSONEventParser.Stop()
            }
        }
        // A number at the top level ends with the input: the chunks after the first 150 000
        // bytes (more than the 64 KiB hold threshold) are held back and replayed by finish().
        let bytes = Array(String(repeating: "7", count: 200_000).utf8)
        let handler = StopAtNumber()
        let parser = JSONEventParser(handler: handler)
        try parser.parse(Array(bytes[..<150_000]))
        try parser.parse(Array(bytes[150_000..<150_010]))
        try parser.parse(Array(bytes[150_010...]))
        #expect(handler.numbers == 0)
        try parser.finish()
        #expect(handler.numbers == 1)
        #expect(parser.isStopped)
    }
}

extension JSONEventParserTests {
    @Test func trailingNumberAfterTheDocumentIsGarbageNotTruncation() {
        let error = syntaxError("[1] 2")
        #expect(error?.kind == .syntax)
        #expect(error?.message.contains("trailing garbage") == true)
        #expect(syntaxError("[1, 2")?.kind == .truncated)
        #expect(syntaxError("[tr")?.kind == .truncated)
    }
}

extension JSONEventParserTests {
}

// MARK: - Re-entrant calls from a handler (issue #26 item 7)

/// A handler that, at its `callAt`-th event, calls its own parser back, and records every event.
final class ReentrantHandler: JSONEventHandler {
    enum Call { case finish, parse }
    var events: [String] = []
    var caught: [any Error] = []
    weak var parser: JSONEventParser?
    let call: Call
    let callAt: Int
    let letsErrorOut: Bool

    init(call: Call, at callAt: Int, letsErrorOut: Bool) {
        (self.call, self.callAt, self.letsErrorOut) = (call, callAt, letsErrorOut)
    }

    private func record(_ event: String) throws {
        events.append(event)
        guard events.count == callAt, let parser else { return }
        do {
            switch call {
            case .finish: try parser.finish()
            case .parse: try parser.parse(Array("[9]".utf8))
            }
        } catch {
            caught.append(error)
            if letsErrorOut { throw error }
        }
    }

    func startObject() throws { try record("{") }
    func key(_ key: JSONText) throws { try record("key:" + key.string) }
    func endObject() throws { try record("}") }
    func startArray() throws { try record("[") }
    func endArray() throws { try record("]") }
    func number(_ value: JSONNumberText) throws { try record("n:" + value.text) }
}

@Suite struct JSONEventParserReentrancyTests {
    static let document = #"[1,2,[3,4],{"a":5}]"#
    static let expected = ["[", "n:1", "n:2", "[", "n:3", "n:4", "]", "{", "key:a", "n:5", "}", "]"]

    /// Caught by the handler: the re-entrant call throws and does nothing, and the outer parse
    /// delivers every event once and ends cleanly.
    @Test(arguments: [ReentrantHandler.Call.finish, .parse], [1, 5, 12])
    func aCaughtReentrantCallChangesNothing(_ call: ReentrantHandler.Call, _ at: Int) throws {
        for chunkSize in [1, 3, 1000] {
            let handler = ReentrantHandler(call: call, at: at, letsErrorOut: false)
            let parser = JSONEventParser(handler: handler)
            handler.parser = parser
            try parseInChunks(parser, Array(Self.document.utf8), chunkSize: chunkSize)
            try parser.finish()
            #expect(handler.events == Self.expected, "chunk size \(chunkSize)")
            #expect(handler.caught.count == 1)
            let error = handler.caught.first as? JSONEventParser.ReentrantCallError
            #expect(error?.call == (call == .finish ? "finish" : "parse"))
        }
    }

    /// Let out of the handler: the outer parse ends with it, having delivered each event once.
    @Test(arguments: [ReentrantHandler.Call.finish, .parse])
    func anEscapingReentrantCallEndsTheParseWithItsError(_ call: ReentrantHandler.Call) throws {
        let handler = ReentrantHandler(call: call, at: 5, letsErrorOut: true)
        let parser = JSONEventParser(handler: handler)
        handler.parser = parser
        #expect(throws: JSONEventParser.ReentrantCallError.self) {
            try parser.parse(Array(Self.document.utf8))
            try parser.finish()
        }
        #expect(handler.events == Array(Self.expected.prefix(5)))
        // The parser stays failed with that error, as after any handler error.
        #expect(throws: JSONEventParser.ReentrantCallError.self) { try parser.finish() }
    }

    /// A re-entrant call from the events `finish()` itself delivers (a number at the very end of
    /// the input is only known complete then).
    @Test func reentrantCallDuringFinish() throws {
        let handler = ReentrantHandler(call: .parse, at: 1, letsErrorOut: false)
        let parser = JSONEventParser(handler: handler)
        handler.parser = parser
        try parser.parse(Array("42".utf8))
        try parser.finish()
        #expect(handler.events == ["n:42"])
        #expect(handler.caught.first is JSONEventParser.ReentrantCallError)
    }
}

// MARK: - A parser restarted for the next document

/// JSON Lines restarts one parser for every line instead of making a new one: a restarted parser
/// must read the next document exactly as a new one would, whatever the last one left behind
/// (an error inside an object, a token open across chunks, a handler that threw or stopped, a
/// partial byte order mark, an open comment, a long token held back).
@Suite struct JSONEventParserRestartTests {
    typealias Recorder = EventBatchReceiverTests.OffsetRecorder

    /// Documents that leave state behind, with the event at which the handler throws (if any).
    static let firstDocuments: [(text: [UInt8], throwAt: (Int, any Error)?)] = [
        (Array(#"{"a":1,"a":2}"#.utf8), nil),
        (Array("[[[[[[".utf8), nil),
        (Array(#"["a string open across chunks"#.utf8), nil),
        ([0xEF, 0xBB], nil),
        (Array(#"{"k":[1,"\u00e9\n",2]}"#.utf8), nil),
        (Array("tru".utf8), nil),
        (Array("[1,\n2,\n\n3".utf8), nil),
        (Array("[1, /* open comment".utf8), nil),
        (Array(#"{"k":[1,2,3,4]}"#.utf8), (3, EventBatchReceiverTests.Boom())),
        (Array(#"{"k":[1,2,3,4]}"#.utf8), (2, JSONEventParser.Stop())),
        (Array(("[\"" + String(repeating: "x", count: 5_000)).utf8), nil),
        (Array("[1]\u{0C}[2]".utf8), nil),
    ]

    /// Documents read after a restart: lines and columns, escapes, duplicate keys, a byte order
    /// mark, errors at a chunk's start and inside a split token.
    static let secondDocuments: [[UInt8]] = [
        Array("[1,\n\"é\\u00e9\",\n{\"x\":null, \"y\":[true,false]}]".utf8),
        Array("[\n1,\n2 x]".utf8),
        Array(#"{"a":{"b":1,"b":2}}"#.utf8),
        [0xEF, 0xBB, 0xBF] + Array("[\"after a mark\"]".utf8),
        Array(#"  "\ud800"  "#.utf8),
        Array("[[[[[1]]]]]".utf8),
        Array("{\"k\": /* c */ 5}".utf8),
    ]

    /// Everything a parse shows: events with offsets, then how it ended.
    static func outcome(of parser: JSONEventParser, _ recorder: Recorder, _ bytes: [UInt8], chunkSizes: [Int]) -> String {
        recorder.events = []
        recorder.offsets = []
        var end: String
        do {
            try parseInChunks(parser, bytes, chunkSizes: chunkSizes)
            end = "finished"
        } catch let error as JSONSyntaxError {
            end = "\(error) excerpt=\(error.excerpt)"
        } catch {
            end = "\(error)"
        }
        let events = zip(recorder.events, recorder.offsets).map { "\($0)@\($1)" }
        return events.joined(separator: " ") + " | \(end) | parsed=\(parser.bytesParsed) stopped=\(parser.isStopped)"
    }

    @Test(arguments: [false, true])
    func aRestartedParserReadsLikeANewOne(strictOptions: Bool) {
        var options = JSONParsingOptions.default
        if strictOptions {
            options.rejectsDuplicateKeys = true
            options.allowsComments = true
            options.maximumDepth = 5
        }
        for chunkSizes in [[Int.max], [1], [3, 7]] {
            for second in Self.secondDocuments {
                for skipsByteOrderMark in [true, false] {
                    let freshRecorder = Recorder()
                    let fresh = JSONEventParser(handler: freshRecorder, options: options, skipsByteOrderMark: skipsByteOrderMark)
                    freshRecorder.parser = fresh
                    let expected = Self.outcome(of: fresh, freshRecorder, second, chunkSizes: chunkSizes)
                    for (first, throwAt) in Self.firstDocuments {
                        let recorder = Recorder()
                        let parser = JSONEventParser(handler: recorder, options: options, skipsByteOrderMark: true)
                        recorder.parser = parser
                        recorder.failure = throwAt
                        _ = Self.outcome(of: parser, recorder, first, chunkSizes: chunkSizes)
                        recorder.failure = nil
                        parser.restart(skipsByteOrderMark: skipsByteOrderMark)
                        let found = Self.outcome(of: parser, recorder, second, chunkSizes: chunkSizes)
                        #expect(
                            found == expected,
                            "after \(String(decoding: first.prefix(40), as: UTF8.self)), chunks \(chunkSizes)")
                    }
                }
            }
        }
    }
}
