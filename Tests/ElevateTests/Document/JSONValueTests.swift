import Foundation
import Testing

@testable import Elevate

private func parse(_ text: String) throws -> JSONValue {
    try JSONValue(parsing: text)
}

/// Chunks of a byte array, as an asynchronous sequence.
private struct Chunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let pieces: [[UInt8]]

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: [[UInt8]]
        mutating func next() async throws -> [UInt8]? {
            remaining.isEmpty ? nil : remaining.removeFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: pieces) }
}

/// The public view: lookups, typed reads, iteration, text, trees, equality, the document API.
@Suite struct JSONValueTests {
    // MARK: The tree JSONValueBuilder builds, on every corpus document

    @Test(
        .enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)),
        arguments: SharedCorpus.testParsingFiles(prefix: "y_"))
    func foundationValueMatchesTheValueBuilder(_ name: String) async throws {
        let data = Data(try SharedCorpus.testParsingBytes(name))
        let value = try JSONValue(parsing: data)
        let expected = try JSONValueBuilder.value(from: data)
        let differences = jsonDifferences(value.foundationValue, expected)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        // Compact text parses back to an equal value, whatever the chunking.
        let reparsed = try JSONValue(parsing: value.description)
        #expect(reparsed == value, "\(value.description)")
        let bytes = Array(data)
        let byByte = try await JSONValue(parsing: Chunks(pieces: bytes.map { [$0] }))
        #expect(byByte == value)
        #expect(byByte.description == value.description)
    }

    @Test(
        .enabled(if: SharedCorpus.hasNativeJSON, Comment(rawValue: SharedCorpus.missingMessage)),
        arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
    func foundationValueMatchesOnLargeDocuments(_ name: String) async throws {
        let data = try SharedCorpus.nativeJSONData(name)
        let value = try JSONValue(parsing: data)
        let differences = jsonDifferences(value.foundationValue, try JSONValueBuilder.value(from: data))
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
        // From a file in small chunks, and from an async sequence of uneven chunks.
        let file = try #require(SharedCorpus.nativeJSON).appendingPathComponent(name)
        let fromFile = try JSONValue(contentsOf: file, chunkSize: 4093)
        #expect(fromFile == value)
        let bytes = Array(data)
        let seed = UInt64(bytes.count)
        print("JSONValueTests.foundationValueMatchesOnLargeDocuments(\(name)) split seed: \(seed)")
        var state = seed
        var pieces: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = Int(state >> 33) % 9000 + 1
            pieces.append(Array(bytes[offset..<min(bytes.count, offset + size)]))
            offset += size
        }
        let fromChunks = try await JSONValue(parsing: Chunks(pieces: pieces))
        #expect(fromChunks == value)
        // JSONSerialization reads our text back to the same tree.
        let text = Data(value.description.utf8)
        let foundation = try JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed])
        #expect(jsonDifferences(value.foundationValue, foundation).isEmpty)
    }

    // MARK: Reading

    @Test func kindsCountsAndNull() throws {
        let root = try parse(#"{"o":{},"a":[1,[2]],"s":"x","n":1,"b":false,"z":null}"#)
        #expect(root.kind == .object)
        #expect(root.count == 6)
        #expect(root["o"]?.kind == .object)
        #expect(root["o"]?.count == 0)
        #expect(root["a"]?.kind == .array)
        #expect(root["a"]?.count == 2)
        #expect(root["s"]?.kind == .string)
        #expect(root["s"]?.count == 0)
        #expect(root["n"]?.kind == .number)
        #expect(root["b"]?.kind == .bool)
        #expect(root["z"]?.kind == .null)
        #expect(root["z"]?.isNull == true)
        #expect(root["s"]?.isNull == false)
        #expect(root["missing"] == nil)
        #expect(root[0] == nil)
        #expect(root["a"]?["x"] == nil)
        #expect(root["a"]?[1]?[0]?.int == 2)
        #expect(root["a"]?[2] == nil)
        #expect(root["a"]?[-1] == nil)
    }

    @Test func keyPaths() throws {
        let root = try parse(#"{"a.b":1,"a":{"b":2,"list":[{"x":"first"},{"x":"second"}],"0":"zero"},"top":[[5,6]]}"#)
        #expect(root[keyPath: ""] == root)
        #expect(root[keyPath: "a.b"]?.int == 1)  // The literal dotted key wins.
        #expect(root[keyPath: "a.list.1.x"]?.string == "second")
        #expect(root[keyPath: "a.0"]?.string == "zero")  // In an object, "0" is a key.
        #expect(root[keyPath: "top.0.1"]?.int == 6)
        #expect(root[keyPath: "top.2"] == nil)
        #expect(root[keyPath: "a.list.x"] == nil)
        #expect(root[keyPath: "a.b.c"] == nil)
        #expect(root[keyPath: "nothing"] == nil)
        let array = try parse(#"[{"k":"v"}]"#)
        #expect(array[keyPath: "0.k"]?.string == "v")
        #expect(array[keyPath: "0"]?.count == 1)
        #expect(array[keyPath: "+0"] == nil)
    }

    @Test func typedReadsAreStrict() throws {
        let root = try parse(
            #"[3, 3.0, 3.5, 9007199254740993.0, 9007199254740993, -1, 18446744073709551615, 1, true, "1", null, -0, 1e300, 1e15]"#
        )
        func at(_ index: Int) -> JSONValue { root[index]! }
        #expect(at(0).int == 3)
        #expect(at(0).double == 3)
        #expect(at(1).int == 3)
        #expect(at(1).uint == 3)
        #expect(at(2).int == nil)
        #expect(at(2).double == 3.5)
        #expect(at(3).int == nil)  // Rounded already: not exactly 9007199254740993.
        #expect(at(3).uint == nil)
        #expect(at(4).int == 9_007_199_254_740_993)
        #expect(at(4).double == nil)  // A Double would round it.
        #expect(at(5).int == -1)
        #expect(at(5).uint == nil)
        #expect(at(6).uint == UInt.max)
        #expect(at(6).int == nil)
        #expect(at(7).bool == nil)
        #expect(at(8).bool == true)
        #expect(at(8).int == nil)
        #expect(at(9).int == nil)
        #expect(at(9).string == "1")
        #expect(at(10).string == nil)
        #expect(at(10).isNull)
        #expect(at(11).number == .double(-0.0))
        #expect(at(11).double?.sign == .minus)
        #expect(at(11).int == 0)
        #expect(at(12).int == nil)
        #expect(at(12).double == 1e300)
        #expect(at(13).int == 1_000_000_000_000_000)
        #expect(at(0).string == nil)
    }

    @Test func largeNumbersKeepTheirText() throws {
        let text = "123456789012345678901234567890"
        let root = try parse("[\(text), 1e400, -9223372036854775809, 1e-400]")
        #expect(root[0]?.number == .large(text))
        #expect(root[0]?.int == nil)
        #expect(root[0]?.double == nil)
        #expect(root[1]?.number == .large("1e400"))
        #expect(root[2]?.number == .large("-9223372036854775809"))
        #expect(root[3]?.number == .large("1e-400"))
        #expect(root.description == "[\(text),1e400,-9223372036854775809,1e-400]")
        #expect((root.foundationValue as? [Any])?.first as? JSONLargeNumber == JSONLargeNumber(text: text))
    }

    @Test func numbersRoundTripExactly() throws {
        let root = try parse(
            "[0, -1, 36028797018963967, 36028797018963968, -36028797018963968, -36028797018963969, 9223372036854775807, -9223372036854775808, 0.1, 1.5, -2.25e-300, 5e-324, 1.7976931348623157e308]"
        )
        let expected: [JSONNumber?] = [
            .int(0), .int(-1), .int(36_028_797_018_963_967), .int(36_028_797_018_963_968),
            .int(-36_028_797_018_963_968), .int(-36_028_797_018_963_969), .int(Int.max), .int(Int.min),
            .double(0.1), .double(1.5), .double(-2.25e-300), .double(Double("5e-324")!), .double(1.7976931348623157e308),
        ]
        #expect(root.elements.map { $0.map(\.number) } == expected)
        #expect(try parse(root.description) == root)
    }

    @Test func iteration() throws {
        let root = try parse(#"{"b":1,"a":[true,"two",{"three":3}],"c":null}"#)
        #expect(Array(root.keys) == ["b", "a", "c"])
        #expect(root.members.map(\.key) == ["b", "a", "c"])
        #expect(root.members.map(\.value.kind) == [.number, .array, .null])
        let elements = try #require(root["a"]?.elements)
        #expect(elements.count == 3)
        #expect(!elements.isEmpty)
        #expect(elements.map(\.kind) == [.bool, .string, .object])
        #expect(elements[elements.index(after: elements.startIndex)].string == "two")
        #expect(root.elements == nil)
        #expect(try parse("[]").elements?.isEmpty == true)
        #expect(Array(try parse("[1]").members).isEmpty)
        #expect(Array(try parse("5").keys).isEmpty)
    }

    @Test func hintedLookupReadsKeysInOrder() throws {
        let root = try parse(#"{"a":1,"b":2,"c":3,"dddddddddd":4}"#)
        var hint: Int?
        #expect(root.member("a", hint: &hint)?.int == 1)
        let afterA = hint
        #expect(root.member("b", hint: &hint)?.int == 2)
        #expect(hint != afterA)
        #expect(root.member("dddddddddd", hint: &hint)?.int == 4)
        #expect(root.member("a", hint: &hint)?.int == 1)  // Wraps around.
        #expect(root.member("zz", hint: &hint) == nil)
        #expect(root.isObject && !root.isArray)
        let string = try #require(root["dddddddddd"].map { _ in try parse(#""héllo, wörld""#) })
        #expect(string.withUTF8 { Array($0) } == Array("héllo, wörld".utf8))
        #expect(try parse(#""short""#).withUTF8 { Array($0) } == Array("short".utf8))
        #expect(root.withUTF8 { _ in 1 } == nil)
    }

    // MARK: Text, trees, equality

    @Test func descriptionIsCompactEscapedJSON() throws {
        let text = #"{"quote\"back\\slash":"tab\there\nnew\u0001ctl","é":"ü€😀","n":[1,-0,1.5,1e-05,true,false,null]}"#
        let root = try parse(text)
        #expect(
            root.description
                == #"{"quote\"back\\slash":"tab\there\nnew\u0001ctl","é":"ü€😀","n":[1,-0.0,1.5,1e-05,true,false,null]}"#
        )
        #expect(root.debugDescription.hasPrefix("JSONValue("))
        let back = try JSONSerialization.jsonObject(with: Data(root.description.utf8))
        #expect(jsonDifferences(root.foundationValue, back).isEmpty)
        #expect(try parse(#""x""#).description == #""x""#)
        #expect(try parse("{}").description == "{}")
        #expect(try parse("[[],{}]").description == "[[],{}]")
    }

    @Test func equalityIsStructural() throws {
        #expect(try parse(#"{"a":1,"b":[1,2]}"#) == parse(#"{"b":[1,2.0],"a":1.0}"#))
        #expect(try parse(#"{"a":1,"a":2}"#) == parse(#"{"a":2}"#))
        #expect(try parse(#"{"a":1}"#) != parse(#"{"a":1,"b":2}"#))
        #expect(try parse(#"[1,2]"#) != parse(#"[2,1]"#))
        #expect(try parse("9007199254740993") != parse("9007199254740992.0"))
        #expect(try parse("18446744073709551615") == parse("18446744073709551615"))
        #expect(try parse("18446744073709551615") != parse("-1"))
        #expect(try parse(#""a""#) != parse(#""b""#))
        #expect(try parse("true") != parse("1"))
        #expect(try parse("null") == parse("null"))
        #expect(try parse("-0") == parse("0"))
        let root = try parse(#"[{"x":1},{"x":1}]"#)
        #expect(root[0] == root[1])
    }

    // MARK: The document API

    @Test func syntaxErrorsArePositioned() throws {
        do {
            _ = try JSONValue(parsing: "{\n  \"a\": tru }")
            Issue.record("expected an error")
        } catch let error as JSONSyntaxError {
            #expect(error.line == 2)
            #expect(error.byteOffset > 0)
        }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "[1,") }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Data()) }
    }

    @Test func filesAndAsyncChunks() async throws {
        let directory = FileManager.default.temporaryDirectory
        let url = directory.appendingPathComponent("jsonvalue-\(UUID().uuidString).json")
        let text = #"{"items":[{"name":"a"},{"name":"b"}],"total":2}"#
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = try JSONValue(contentsOf: url, chunkSize: 7)
        #expect(fromFile[keyPath: "items.1.name"]?.string == "b")
        #expect(try fromFile == parse(text))
        let bytes = Array(text.utf8)
        let fromChunks = try await JSONValue(parsing: Chunks(pieces: [Array(bytes[..<5]), Array(bytes[5...])]))
        #expect(fromChunks == fromFile)
        #expect(throws: CocoaError.self) {
            try JSONValue(contentsOf: directory.appendingPathComponent("no-such-\(UUID().uuidString).json"))
        }
    }

    @Test func valuesCrossThreads() async throws {
        let root = try parse(#"{"shared":["across","tasks"]}"#)
        let count = await Task.detached { root["shared"]?.count ?? 0 }.value
        #expect(count == 2)
    }
}
