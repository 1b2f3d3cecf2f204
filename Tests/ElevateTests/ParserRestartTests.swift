import Testing

@testable import Elevate

/// JSON Lines restarts one parser for every line instead of making a new one: a restarted parser
/// must read the next document exactly as a new one would, whatever the last one left behind
/// (an error inside an object, a token open across chunks, a handler that threw or stopped, a
/// partial byte order mark, an open comment, a long token held back).
@Suite struct ParserRestartTests {
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
