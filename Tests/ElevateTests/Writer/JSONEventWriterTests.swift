import ElevateSampleData
import Foundation
import Testing

@testable import Elevate

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
        let found = try forEachEvent(atKeyPath: "response.items.1", from: .data(Data(text.utf8)), to: writer)
        try writer.finish()
        #expect(found)
        #expect(String(decoding: output, as: UTF8.self) == #"{"id":2,"tags":["a"]}"#)
    }
}
