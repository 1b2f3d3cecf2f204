import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The parser records YAJL's events and hands them to the handler in batches: nothing of that may
/// show. These tests cross batch boundaries (more events than one batch holds) and mix text that is
/// recorded by address with text that is copied (escaped, split across chunks).
@Suite struct EventBatchReceiverTests {
    /// Records every event with `currentByteOffset` as read inside the call, and throws the
    /// given error at the given event.
    final class OffsetRecorder: JSONEventHandler {
        weak var parser: JSONEventParser?
        var events: [String] = []
        var offsets: [Int] = []
        var failure: (at: Int, error: any Error)?

        private func record(_ event: String) throws {
            if let failure, events.count == failure.at { throw failure.error }
            events.append(event)
            offsets.append(parser?.currentByteOffset ?? -1)
        }
        func startObject() throws { try record("{") }
        func key(_ key: JSONText) throws { try record("key:" + key.string) }
        func endObject() throws { try record("}") }
        func startArray() throws { try record("[") }
        func endArray() throws { try record("]") }
        func string(_ value: JSONText) throws { try record("s:" + value.string) }
        func number(_ value: JSONNumberText) throws { try record("n:" + value.text) }
        func bool(_ value: Bool) throws { try record("b:\(value)") }
        func null() throws { try record("null") }
    }

    struct Boom: Error, Equatable {}

    /// An array of `count` small objects, some with escaped strings, with a known end offset for
    /// each value token.
    static func document(count: Int) -> [UInt8] {
        var text = "["
        for index in 0..<count {
            if index > 0 { text += "," }
            let name = index % 3 == 0 ? #"esc\"aped \u00e9 \#(index)"# : "plain \(index)"
            text += #"{"id":\#(index),"name":"\#(name)","ok":true,"none":null}"#
        }
        return Array((text + "]").utf8)
    }

    static func parse(
        _ bytes: [UInt8], chunkSize: Int, failure: (at: Int, error: any Error)? = nil
    ) -> (recorder: OffsetRecorder, parser: JSONEventParser, error: (any Error)?) {
        let recorder = OffsetRecorder()
        recorder.failure = failure
        let parser = JSONEventParser(handler: recorder)
        recorder.parser = parser
        do {
            try parseInChunks(parser, bytes, chunkSize: chunkSize)
            return (recorder, parser, nil)
        } catch {
            return (recorder, parser, error)
        }
    }

    /// A handler passed as its own type gets a loop compiled for that type; one passed as
    /// `any JSONEventHandler` is called through the protocol. Both must see the same events, the
    /// same offsets, and stop at the same event with the same error.
    @Test(arguments: [nil, 4_000] as [Int?])
    func aHandlerPassedAsAnExistentialSeesWhatOnePassedAsItsOwnTypeSees(failingAt: Int?) throws {
        let bytes = Self.document(count: 1_500)
        func run(_ make: (OffsetRecorder) -> JSONEventParser) -> (OffsetRecorder, (any Error)?) {
            let recorder = OffsetRecorder()
            recorder.failure = failingAt.map { ($0, Boom()) }
            let parser = make(recorder)
            recorder.parser = parser
            do {
                try parseInChunks(parser, bytes, chunkSize: 4096)
                return (recorder, nil)
            } catch {
                return (recorder, error)
            }
        }
        let concrete = run { JSONEventParser(handler: $0) }
        let existential = run { recorder in
            let handler: any JSONEventHandler = recorder
            return JSONEventParser(handler: handler)
        }
        #expect(concrete.0.events.count == (failingAt ?? 15_002))
        #expect(existential.0.events == concrete.0.events)
        #expect(existential.0.offsets == concrete.0.offsets)
        #expect((existential.1 as? Boom) == (concrete.1 as? Boom))
        #expect((concrete.1 == nil) == (failingAt == nil))
    }

    @Test(arguments: [1, 7, 4096, Int.max])
    func eventsAndOffsetsAreTheSameWhateverTheChunking(chunkSize: Int) throws {
        let bytes = Self.document(count: 1_500)  // about 9,000 events: several batches
        let reference = Self.parse(bytes, chunkSize: Int.max)
        #expect(reference.error == nil)
        #expect(reference.recorder.events == (try recordEvents(bytes)))
        let run = Self.parse(bytes, chunkSize: chunkSize)
        #expect(run.error == nil)
        #expect(run.recorder.events == reference.recorder.events)
        // Inside every call, currentByteOffset is just past the event's token: after a value's
        // last byte, a key's closing quote, a bracket. (A number's end is known only from the
        // byte after it, so it may be reported later when the input is cut right after it.)
        for (event, offset) in zip(run.recorder.events, run.recorder.offsets) where !event.hasPrefix("n:") {
            let last = bytes[offset - 1]
            switch event.first {
            case "{": #expect(last == UInt8(ascii: "{"))
            case "}": #expect(last == UInt8(ascii: "}"))
            case "[": #expect(last == UInt8(ascii: "["))
            case "]": #expect(last == UInt8(ascii: "]"))
            case "k", "s": #expect(last == UInt8(ascii: "\""))
            case "b": #expect(last == UInt8(ascii: "e"))
            default: #expect(last == UInt8(ascii: "l"))
            }
        }
        if chunkSize == Int.max {
            let numbers = zip(run.recorder.events, run.recorder.offsets).filter { $0.0.hasPrefix("n:") }
            for (event, offset) in numbers {
                let text = Array(event.dropFirst(2).utf8)
                #expect(Array(bytes[(offset - text.count)..<offset]) == text)
            }
        }
    }

    @Test(arguments: [1_023, 1_024, 1_025, 5_000])
    func aHandlerErrorWinsOverALaterSyntaxError(at failingEvent: Int) {
        var bytes = Self.document(count: 1_500)
        bytes.removeLast()
        bytes += Array(",[1,}".utf8)  // a syntax error after every event the handler sees
        let run = Self.parse(bytes, chunkSize: Int.max, failure: (failingEvent, Boom()))
        #expect(run.error as? Boom == Boom())
        #expect(run.recorder.events.count == failingEvent)
        // The parser stays failed with the handler's error.
        #expect(throws: Boom.self) { try run.parser.parse(Array("1".utf8)) }
    }

    @Test func aHandlerErrorInTheLastBatchWinsOverTheSyntaxErrorAfterIt() {
        // Fewer events than a batch: they are delivered after YAJL has already met the error.
        let run = Self.parse(Array("[1,2,3,}".utf8), chunkSize: Int.max, failure: (2, Boom()))
        #expect(run.error as? Boom == Boom())
        #expect(run.recorder.events == ["[", "n:1"])
    }

    @Test func eventsBeforeASyntaxErrorAreAllDelivered() throws {
        var bytes = Self.document(count: 1_500)
        let complete = try recordEvents(bytes)
        bytes.removeLast()
        bytes += Array(",]".utf8)
        let run = Self.parse(bytes, chunkSize: Int.max)
        let error = try #require(run.error as? JSONSyntaxError)
        #expect(error.byteOffset == bytes.count - 1)
        #expect(run.recorder.events == Array(complete.dropLast()))
    }

    @Test func eventsBeforeADepthErrorAreAllDelivered() throws {
        let prefix = Self.document(count: 400)
        var options = JSONParsingOptions.default
        options.maximumDepth = 3
        var bytes = Array(prefix.dropLast())
        bytes += Array(#",[[[1]]]]"#.utf8)
        let recorder = EventRecorder()
        let parser = JSONEventParser(handler: recorder, options: options)
        #expect(throws: JSONSyntaxError.self) { try parser.parseAll(Data(bytes)) }
        let expected = try recordEvents(Array(prefix.dropLast()) + Array("]".utf8))
        #expect(recorder.events == Array(expected.dropLast()) + ["[", "["])
    }

    @Test(arguments: [1_000, 1_024, 3_000])
    func stopEndsTheParseAtItsEvent(at stoppingEvent: Int) {
        let bytes = Self.document(count: 1_500)
        let run = Self.parse(bytes, chunkSize: Int.max, failure: (stoppingEvent, JSONEventParser.Stop()))
        #expect(run.error == nil)
        #expect(run.parser.isStopped)
        #expect(run.recorder.events.count == stoppingEvent)
        // What was accepted ends with the token of the event that stopped the parse.
        let reference = Self.parse(bytes, chunkSize: Int.max)
        #expect(run.parser.bytesParsed == reference.recorder.offsets[stoppingEvent])
        #expect(run.parser.bytesParsed < bytes.count)
    }

    @Test func longEscapedTextIsCopiedWhole() throws {
        // Escaped strings are copied out of YAJL's decode buffer; many of them, and one long
        // enough (1.5 MB) that the arena is let go of after its batch, in one batch.
        let long = String(repeating: #"\u00e9\n"#, count: 500_000)
        var text = "["
        for index in 0..<2_000 { text += #""\u00e9\#(index)","# }
        text += "\"\(long)\"]"
        let events = try recordEvents(Array(text.utf8))
        #expect(events.count == 2_003)
        #expect(events[1] == "s:é0")
        #expect(events[2_000] == "s:é1999")
        #expect(events[2_001] == "s:" + String(repeating: "é\n", count: 500_000))
    }

    /// Reads how much room the parser's arena has at each string event (see
    /// `JSONEventParser.arenaCapacity`).
    final class ArenaWatcher: JSONEventHandler {
        weak var parser: JSONEventParser?
        var strings: [(length: Int, arena: Int)] = []
        func string(_ value: JSONText) throws { strings.append((value.bytes.count, parser?.arenaCapacity ?? -1)) }
        func key(_ key: JSONText) throws { try string(key) }
    }

    /// A long escaped string or key (decoded into YAJL's buffer) or one split across chunks (joined
    /// in YAJL's lexer buffer) reaches the handler from there, during YAJL's callback, rather than
    /// copied into the arena first: a copy held the whole text once more (a 50 MB key peaked at
    /// 188 MB in `elevate validate`, 52 MB of it the copy). Short ones are still copied.
    @Test(arguments: [("escaped", Int.max), ("split across chunks", 4096)])
    func aLongTextIsHandedOverWhereYAJLKeepsIt(_ form: String, chunkSize: Int) throws {
        // Decoded into YAJL's buffer (700,000 "é", 1.4 MB), or joined from 4 KiB chunks (1.5 MB).
        let escaped = form == "escaped"
        let long = "\"" + String(repeating: escaped ? #"\u00e9"# : "x", count: escaped ? 700_000 : 1_500_000) + "\""
        for text in ["[\"\\n\",\(long),\"\\t\"]", "{\"\\n\":1,\(long):2}"] {
            let watcher = ArenaWatcher()
            let parser = JSONEventParser(handler: watcher)
            watcher.parser = parser
            try parseInChunks(parser, Array(text.utf8), chunkSize: chunkSize)
            #expect(watcher.strings.count == 3 || watcher.strings.count == 2)
            let longOne = try #require(watcher.strings.first { $0.length > 1 << 20 })
            #expect(longOne.arena < 1 << 20, "the arena held \(longOne.arena) bytes for a text of \(longOne.length)")
        }
        // Its text, offsets and errors are as before.
        let bytes = Array("[\"\\n\",\(long),\"\\t\"]".utf8)
        let run = Self.parse(bytes, chunkSize: chunkSize)
        #expect(run.error == nil)
        #expect(run.recorder.events.count == 5)
        #expect(run.recorder.events[2].count == (escaped ? 700_000 : 1_500_000) + 2)
        let whole = Self.parse(bytes, chunkSize: Int.max)
        #expect(run.recorder.offsets == whole.recorder.offsets)
    }

    /// `count` escaped strings of sixteen bytes each once decoded, in one array.
    static func escapedStrings(count: Int) -> (bytes: [UInt8], events: [String]) {
        var text = "["
        var events = ["["]
        for index in 0..<count {
            let digits = String(index + 100_000)  // six digits
            text += (index > 0 ? "," : "") + #""\"quoted\" x\#(digits)""#
            events.append("s:\"quoted\" x\(digits)")
        }
        return (Array((text + "]").utf8), events + ["]"])
    }

    @Test(arguments: [1, 7, Int.max])
    func copiedTextPastTheArenaKeepsEveryEventsText(chunkSize: Int) {
        // Copied text fills the arena long before a batch is full (sixteen bytes each, 1,024
        // events a batch): the events that point into it are delivered before it grows, and
        // every one of them still reads its own text.
        let (bytes, expected) = Self.escapedStrings(count: 3_000)
        let run = Self.parse(bytes, chunkSize: chunkSize)
        #expect(run.error == nil)
        #expect(run.recorder.events == expected)
        let reference = Self.parse(bytes, chunkSize: Int.max)
        #expect(run.recorder.offsets == reference.recorder.offsets)
    }

    @Test(arguments: [250, 255, 256, 257, 258, 600])
    func aHandlerErrorAtADeliveryForTheArenaEndsTheParseThere(at failingEvent: Int) {
        // The first delivery made to let the arena grow comes at the 257th string (4,096 bytes
        // hold 256): errors and stops just before, at and after it behave as anywhere else.
        let (bytes, expected) = Self.escapedStrings(count: 1_000)
        let run = Self.parse(bytes, chunkSize: Int.max, failure: (failingEvent, Boom()))
        #expect(run.error as? Boom == Boom())
        #expect(run.recorder.events == Array(expected.prefix(failingEvent)))
        let stopped = Self.parse(bytes, chunkSize: Int.max, failure: (failingEvent, JSONEventParser.Stop()))
        #expect(stopped.error == nil)
        #expect(stopped.parser.isStopped)
        #expect(stopped.recorder.events == Array(expected.prefix(failingEvent)))
        let reference = Self.parse(bytes, chunkSize: Int.max)
        #expect(stopped.parser.bytesParsed == reference.recorder.offsets[failingEvent])
    }

    @Test(arguments: [1_022, 1_023, 1_024, 1_025, 2_048])
    func anErrorRightAfterABatchPointsAtItsToken(afterEvents count: Int) throws {
        // The offending token is found from the last event recorded: the last one pending, or,
        // once a batch has gone to the handler, the last one of that batch.
        let values = Array(repeating: "1", count: count - 1).joined(separator: ",")
        let head = Array("[\(values),".utf8)
        let bytes = head + Array(",2]".utf8)
        let run = Self.parse(bytes, chunkSize: Int.max)
        let error = try #require(run.error as? JSONSyntaxError)
        #expect(error.byteOffset == head.count)
        #expect(run.recorder.events.count == count)
    }

    @Test(arguments: [1_023, 1_024, 1_025])
    func aScalarTouchingTheLastOfABatchIsRejected(afterEvents count: Int) throws {
        // Whether a top-level literal touches a number is judged from the last event recorded,
        // here the last of a batch just delivered.
        let head = Array((1...count).map(String.init).joined(separator: " ").utf8)
        let recorder = EventRecorder()
        let parser = JSONEventParser(handler: recorder, options: JSONParsingOptions(allowsMultipleValues: true))
        let error = try #require(throws: JSONSyntaxError.self) { try parser.parseAll(Data(head + Array("true".utf8))) }
        #expect(error.byteOffset == head.count)
        #expect(recorder.events.count == count)
    }

    @Test(arguments: [1, 2, 3, Int.max])
    func emptyTextReadInPlaceEndsAtItsClosingQuote(chunkSize: Int) throws {
        // Empty strings and keys in the chunk take the fast path: YAJL points them at their
        // closing quote. (In a debug build each end is also checked against YAJL's count.)
        let bytes = Array(#"["",{"":"","a":""}, "" ,[""]]"#.utf8)
        let run = Self.parse(bytes, chunkSize: chunkSize)
        #expect(run.error == nil)
        #expect(run.recorder.events == (try recordEvents(bytes)))
        for (event, offset) in zip(run.recorder.events, run.recorder.offsets) where event == "s:" || event == "key:" {
            #expect(bytes[offset - 1] == UInt8(ascii: "\""))
            #expect(bytes[offset - 2] == UInt8(ascii: "\""))
        }
        #expect(run.recorder.offsets == Self.parse(bytes, chunkSize: Int.max).recorder.offsets)
    }
}
