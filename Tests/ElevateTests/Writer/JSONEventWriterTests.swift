import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Parses `bytes` into a ``JSONEventWriter`` and returns its text.
func rewrite(
    _ bytes: [UInt8], options: JSONWriter.Options = .default, parsing: JSONParsingOptions = .default
) throws -> [UInt8] {
    var output: [UInt8] = []
    let writer = JSONEventWriter(options: options) { output.append(contentsOf: $0) }
    let parser = JSONEventParser(handler: writer, options: parsing)
    try parser.parse(bytes)
    try parser.finish()
    try writer.finish()
    return output
}

@Suite struct JSONEventWriterTests {
    /// Parses, writes and parses again; the two event sequences must be the same.
    private func expectRoundTrip(_ bytes: [UInt8], pretty: Bool = false) throws {
        var output: [UInt8] = []
        let writer = JSONEventWriter(options: .init(prettyPrinted: pretty)) { output.append(contentsOf: $0) }
        let parser = JSONEventParser(handler: writer)
        try parser.parse(bytes)
        try parser.finish()
        try writer.finish()
        #expect(try recordEvents(output) == recordEvents(bytes))
    }

    static let documents = [
        #"{"name":"Zoë \"Z\" \u00e9\ud83d\ude00","list":[1,-2.5e3,true,false,null,{}],"nested":{"k":[[]]}}"#,
        #"[]"#, #"{}"#, #"[[],{},[[]],{"":{}}]"#, #""just a string""#, "42", "null", "true",
        #"{"a\nb":"tab\there","slash":"/","ctl":"\u0001\u001f","sep":"\u2028\u2029"}"#,
        "[" + String(repeating: "[1,", count: 200) + "2" + String(repeating: "]", count: 200) + "]",
    ]

    @Test(arguments: documents)
    func roundTripsEvents(_ document: String) throws {
        try expectRoundTrip(Array(document.utf8))
        try expectRoundTrip(Array(document.utf8), pretty: true)
    }

    @Test(arguments: SampleDocument.allCases)
    func roundTripsSampleDocuments(_ kind: SampleDocument) throws {
        // Several times the writer's buffer, so that it flushes more than once.
        try expectRoundTrip(Array(kind.data(targetSize: 300_000, seed: 7)))
    }

    @Test(.enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)))
    func roundTripsJSONTestSuite() throws {
        for name in SharedCorpus.testParsingFiles(prefix: "y_") {
            let bytes = try SharedCorpus.testParsingBytes(name)
            guard (try? recordEvents(bytes)) != nil else { continue }  // beyond this parser's rules
            try expectRoundTrip(bytes)
            try expectRoundTrip(bytes, pretty: true)
        }
    }

    @Test func compactOutputIsMinimal() throws {
        let text = #" { "a" : [ 1 , "x" , { } , [ ] , null ] , "b" : true } "#
        #expect(String(decoding: try rewrite(Array(text.utf8)), as: UTF8.self) == #"{"a":[1,"x",{},[],null],"b":true}"#)
    }

    @Test func numbersKeepTheirExactText() throws {
        let text = "[1.0,1e400,-0,123456789012345678901234567890,-1.5E-7,0.10000000000000000001]"
        #expect(String(decoding: try rewrite(Array(text.utf8)), as: UTF8.self) == text)
    }

    @Test func stringsAreEscapedLikeJSONWriter() throws {
        let value = "quote \" backslash \\ newline \n tab \t control \u{1} line \u{2028} paragraph \u{2029} é 😀 /"
        let source = try JSONWriter.bytes(for: [value])
        #expect(try rewrite(source) == source)
        #expect(String(decoding: source, as: UTF8.self).contains(#"\u2028"#))
    }

    @Test func prettyOutputMatchesJSONWriter() throws {
        let text = #"{"a":[1,{"b":[]},{}],"c":{"d":"e"}}"#
        let pretty = String(decoding: try rewrite(Array(text.utf8), options: .init(prettyPrinted: true)), as: UTF8.self)
        #expect(
            pretty == """
                {
                  "a": [
                    1,
                    {
                      "b": []
                    },
                    {}
                  ],
                  "c": {
                    "d": "e"
                  }
                }
                """)
    }

    /// Past YAJL's 127 levels, child generators take over; the text must be what ``JSONWriter``
    /// writes for the same value, compact and pretty.
    @Test(arguments: [false, true])
    func nestsDeeperThanYAJLAllows(pretty: Bool) throws {
        var value: Any = ["leaf", [] as [Any], ["k": 1] as [String: Any]] as [Any]
        for level in 0..<300 { value = level % 2 == 0 ? [value, level] as [Any] : ["x": value] as [String: Any] }
        let options = JSONWriter.Options(prettyPrinted: pretty, maximumDepth: 512)
        let expected = try JSONWriter.bytes(for: value, options: options)
        let rewritten = try rewrite(expected, options: options)
        #expect(String(decoding: rewritten, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func rejectsNestingBeyondTheMaximumDepth() throws {
        let text = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        let error = #expect(throws: JSONWriterError.self) {
            try rewrite(Array(text.utf8), options: .init(maximumDepth: 10))
        }
        #expect(error?.kind == .depthLimitExceeded)
    }

    @Test func writesSeveralTopLevelValuesOnePerLine() throws {
        let output = try rewrite(
            Array(#"{"a":1} [2] 3 "four""#.utf8), options: .init(prettyPrinted: true),
            parsing: .init(allowsMultipleValues: true))
        #expect(String(decoding: output, as: UTF8.self) == "{\n  \"a\": 1\n}\n[\n  2\n]\n3\n\"four\"")
    }

    @Test func rejectsEventsThatAreNotJSON() throws {
        func expectInvalid(_ events: (JSONEventWriter) throws -> Void) {
            let writer = JSONEventWriter { _ in }
            let error = #expect(throws: JSONWriterError.self) { try events(writer) }
            #expect(error?.kind == .invalidEventSequence)
        }
        expectInvalid { try $0.endArray() }
        expectInvalid { writer in
            try writer.startObject()
            try writer.endArray()
        }
        expectInvalid { writer in
            try writer.startObject()
            try writer.null()
        }
        expectInvalid { writer in
            try writer.startArray()
            try writer.bool(true)
            try writer.finish()
        }
    }

    @Test func flushesInBoundedChunks() throws {
        let document = Array(SampleDocument.numbers.data(targetSize: 1 << 20, seed: 3))
        var chunkSizes: [Int] = []
        var output: [UInt8] = []
        let writer = JSONEventWriter { chunk in
            chunkSizes.append(chunk.count)
            output.append(contentsOf: chunk)
        }
        let parser = JSONEventParser(handler: writer)
        try parser.parse(document)
        try parser.finish()
        try writer.finish()
        #expect(chunkSizes.count > 1)
        #expect(chunkSizes.allSatisfy { $0 < JSONEventWriter.bufferSize + 4096 })
        #expect(try recordEvents(output) == recordEvents(document))
    }

    @Test func extractsOneValueWithForEachEvent() throws {
        let text = #"{"response":{"items":[{"id":1,"n":1.50},{"id":2,"tags":["a"]}]},"tail":[1,2,3]}"#
        var output: [UInt8] = []
        let writer = JSONEventWriter { output.append(contentsOf: $0) }
        let found = try forEachEvent(from: .data(Data(text.utf8)), atKeyPath: "response.items.1", to: writer)
        try writer.finish()
        #expect(found)
        #expect(String(decoding: output, as: UTF8.self) == #"{"id":2,"tags":["a"]}"#)
    }

    @Test func unfinishedEventWriterWritesNothingWhenReleased() throws {
        var output: [UInt8] = []
        do {
            let writer = JSONEventWriter { output.append(contentsOf: $0) }
            try JSONEventParser(handler: writer).parseAll(Data("[1, 2]".utf8))
        }
        #expect(output.isEmpty)
        do {
            let writer = JSONEventWriter { output.append(contentsOf: $0) }
            try writer.startArray()
            try JSONEventParser(handler: writer).parse(Data("[1, 2".utf8))
        }
        #expect(output.isEmpty)
    }

    /// Parses `bytes` into a ``JSONEventWriter`` in chunks of the given sizes.
    static func rewriteInChunks(_ bytes: [UInt8], options: JSONWriter.Options, chunkSizes: [Int], parsing: JSONParsingOptions = .default) throws -> [UInt8] {
        var output: [UInt8] = []
        let writer = JSONEventWriter(options: options) { output.append(contentsOf: $0) }
        try parseInChunks(JSONEventParser(handler: writer, options: parsing), bytes, chunkSizes: chunkSizes)
        try writer.finish()
        return output
    }

    static func withKey(_ key: String, _ body: (JSONText) throws -> Void) throws {
        try Array(key.utf8).withUnsafeBytes { try body(JSONText(bytes: $0)) }
    }

    /// The event writer gives JSONWriter's text, byte for byte: a document written with sorted keys
    /// re-emitted in the same options is the same bytes, compact or pretty, at any depth.
    @Test func eventWriterTextIsJSONWritersText() throws {
        var random = SeededGenerator(state: 0xE7E7)
        for round in 0..<200 {
            var tree = WriterSamples.randomTree(&random, maximumDepth: 5)
            if round % 20 == 0 {
                // Past YAJL's 127 open containers, twice over, through objects and arrays.
                for level in 0..<(130 + round) {
                    if level % 3 == 0 {
                        tree = ["k\(level % 7)": tree, "z": [1] as [Any]] as [String: Any]
                    } else {
                        tree = [tree, [String: Any]()] as [Any]
                    }
                }
            }
            let maximumDepth = 1024
            for options in WriterSamples.optionCombinations where options.sortedKeys || round % 2 == 0 {
                var sorted = options
                sorted.sortedKeys = true
                sorted.maximumDepth = maximumDepth
                let expected = try JSONWriter.bytes(for: tree, options: sorted)
                let compact = try JSONWriter.bytes(for: tree, options: .init(sortedKeys: true, maximumDepth: maximumDepth))
                let chunks = [[1 << 20], [1, 2, 3, 7], [Int.random(in: 1...64, using: &random)]][round % 3]
                let rewritten = try Self.rewriteInChunks(
                    compact, options: sorted, chunkSizes: chunks, parsing: .init(maximumDepth: maximumDepth))
                #expect(
                    rewritten == expected,
                    "round \(round) \(options): \(String(decoding: rewritten.prefix(300), as: UTF8.self)) vs \(String(decoding: expected.prefix(300), as: UTF8.self))")
            }
        }
    }

    @Test func eventWriterKeepsRepeatedKeysAndSourceNumbers() throws {
        let document = #"{"a":1,"a":{"b":[1.0,-0,1E+2,1e400,123456789012345678901234567890]},"a":"\u00e9","e\u0301":0,"é":1}"#
        let bytes = Array(document.utf8)
        let compact = try rewrite(bytes)
        let expected = #"{"a":1,"a":{"b":[1.0,-0,1E+2,1e400,123456789012345678901234567890]},"a":"\#u{E9}","e\#u{301}":0,"\#u{E9}":1}"#
        #expect(String(decoding: compact, as: UTF8.self) == expected)
        #expect(Array(compact) == Array(expected.utf8))
        #expect(try recordEvents(try rewrite(bytes, options: .init(prettyPrinted: true))) == recordEvents(bytes))
        // Refusing repeats is the parser's job: the error reaches the caller, nothing claims success.
        var parsing = JSONParsingOptions()
        parsing.rejectsDuplicateKeys = true
        #expect(throws: (any Error).self) { _ = try rewrite(bytes, parsing: parsing) }
    }

    @Test func eventWriterRefusesBadSequencesDeepInside() throws {
        for depth in [1, 126, 127, 128, 200, 254, 255, 300] {
            // A close of the wrong kind, past the splice.
            var output: [UInt8] = []
            let writer = JSONEventWriter { output.append(contentsOf: $0) }
            for _ in 0..<depth { try writer.startArray() }
            try writer.startObject()
            try Self.withKey("k") { try writer.key($0) }
            #expect(writerError { try writer.endObject() }?.kind == .invalidEventSequence)
            #expect(throws: (any Error).self) { try writer.null() }
            #expect(throws: (any Error).self) { try writer.finish() }
            // Stopping inside a value: finish flushes what there is and says it is incomplete.
            let second = JSONEventWriter { _ in }
            for _ in 0..<depth {
                try second.startObject()
                try Self.withKey("a") { try second.key($0) }
            }
            try second.null()
            #expect(writerError { try second.finish() }?.kind == .invalidEventSequence)
            #expect(!second.isFinished)
        }
        // Depth limit at the parser's maximum, through the writer's own limit.
        let writer = JSONEventWriter(options: .init(maximumDepth: 300)) { _ in }
        for _ in 0..<300 { try writer.startArray() }
        #expect(writerError { try writer.startArray() }?.kind == .depthLimitExceeded)
    }

    @Test(.enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)))
    func eventWriterMatchesJSONWriterOnTheCorpus() throws {
        var checked = 0
        for name in SharedCorpus.testParsingFiles(prefix: "y_") {
            let bytes = try SharedCorpus.testParsingBytes(name)
            guard let tree = try? JSONValueBuilder.value(from: Data(bytes)) else { continue }
            for options in WriterSamples.optionCombinations {
                let rewritten = try rewrite(bytes, options: options)
                // Same value, same events, valid for Foundation.
                #expect(try recordEvents(rewritten) == recordEvents(bytes), "\(name)")
                #expect(treesEqual(try JSONValueBuilder.value(from: Data(rewritten)), tree), "\(name)")
                #expect((try? JSONSerialization.jsonObject(with: Data(rewritten), options: .fragmentsAllowed)) != nil, "\(name)")
            }
            checked += 1
        }
        #expect(checked > 50)
    }

    /// Every character that may need an escape, at every position of strings of 0 to 24 bytes (so at
    /// each place of the eight-byte words the writer scans), in every option combination: the same
    /// text as `JSONWriter`, which escapes through YAJL's generator.
    @Test func escapesAtEveryPositionAsJSONWriterDoes() throws {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{2028}", "\u{2029}", "/", "é", "\u{2027}", "€", "\u{7F}"]
        var strings: [String] = []
        for length in 0...24 {
            let plain = String(repeating: "a", count: length)
            for special in specials {
                for position in 0...length {
                    let index = plain.index(plain.startIndex, offsetBy: position)
                    strings.append(plain[..<index] + special + plain[index...])
                }
            }
        }
        for options in WriterSamples.optionCombinations {
            let expected = try JSONWriter.bytes(for: strings, options: options)
            let compact = try JSONWriter.bytes(for: strings)
            #expect(try Self.rewriteInChunks(compact, options: options, chunkSizes: [1 << 20]) == expected, "\(options)")
        }
    }
}
