import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Parses `bytes` into a tape, feeding the parser the pieces that `splits` cuts.
private func value(_ bytes: [UInt8], splits: [Int] = [], options: JSONParsingOptions = .default) throws -> JSONValue {
    let builder = JSONTapeBuilder()
    let parser = JSONEventParser(handler: builder, options: options)
    var start = 0
    for cut in splits.sorted() where cut > start && cut < bytes.count {
        try parser.parse(Array(bytes[start..<cut]))
        start = cut
    }
    try parser.parse(Array(bytes[start...]))
    try parser.finish()
    return try #require(builder.takeValue())
}

/// A generated people document, as the benchmark parses.
private func peopleDocument() throws -> Data {
    SampleDocument.people.data(targetSize: 2_000_000, seed: SampleDocument.defaultSeed)
}

/// The tape and its builder: layout, skipping, duplicates, reuse, depth, chunking, memory.
@Suite struct JSONTapeTests {
    @Test func containersRecordTheirEndAndCount() throws {
        let root = try value(Array(#"{"a":[1,2,[3,4]],"b":{"c":null},"d":"a long string value"}"#.utf8))
        let tape = root.tape
        #expect(tape.kind(at: 0) == .object)
        #expect(tape.end(of: 0) == tape.wordCount)
        #expect(tape.count(ofContainer: 0) == 3)
        // "a"'s value: the array of three; skipping it lands on key "b".
        let array = try #require(root["a"])
        #expect(array.count == 3)
        #expect(tape.kind(at: array.endIndex) == .inlineKey)
        #expect(tape.string(at: array.endIndex) == "b")
        #expect(try #require(array[2]).count == 2)
        #expect(root["d"]?.string == "a long string value")
    }

    @Test func shortTextIsInlineAndNumbersTakeOneOrTwoWords() throws {
        let root = try value(Array(#"["short","longer text",1,-5,1.5,0.1,18446744073709551615,true]"#.utf8))
        let tape = root.tape
        let kinds = (root.elements.map { Array($0) } ?? []).map { tape.kind(at: $0.index) }
        #expect(kinds == [.inlineString, .string, .int56, .int56, .double56, .double64, .uint64, .true])
        #expect(tape.byteCount == "longer text".utf8.count)
        #expect(tape.wordCount == 1 + 8 + 2)
    }

    @Test func textOfAMebibyteAndMoreKeepsItsLength() throws {
        let long = String(repeating: "é", count: (1 << 19) + 3)  // 2^20 + 6 bytes: past the inline length field.
        let root = try value(Array(#"{"\#(long)":"\#(long)","k":"\#(long)x"}"#.utf8), splits: [1000, 700_000])
        #expect(root.count == 2)
        #expect(root[long]?.string == long)
        #expect(root["k"]?.string == long + "x")
        #expect(Array(root.keys) == [long, "k"])
        #expect(try JSONValue(parsing: root.description) == root)
    }

    @Test func siblingObjectsShareRepeatedKeys() throws {
        let record = #"{"identifier":1,"description":"x","nickname":"y"}"#
        let one = try value(Array("[\(record)]".utf8))
        let many = try value(Array("[\(Array(repeating: record, count: 100).joined(separator: ","))]".utf8))
        #expect(many.tape.byteCount == one.tape.byteCount)
        // An optional member in one record and not the next does not stop the sharing.
        let mixed = try value(
            Array(#"[{"identifier":1,"nickname":"a","description":"x"},{"identifier":2,"description":"y"}]"#.utf8))
        #expect(mixed.tape.byteCount == "identifiernicknamedescription".utf8.count)
    }

    @Test func duplicateKeysAreShadowedWhole() throws {
        let text = #"{"user":{"name":"alice","role":"admin"},"user":{"name":"bob"}}"#
        let root = try value(Array(text.utf8))
        #expect(root.count == 1)
        #expect(root[keyPath: "user.role"] == nil)
        #expect(root[keyPath: "user.name"]?.string == "bob")
        #expect(root.tape.isShadowed(1))
        #expect(Array(root.keys) == ["user"])
        #expect(root.members.map(\.value.description) == [#"{"name":"bob"}"#])
        #expect(root.description == #"{"user":{"name":"bob"}}"#)
    }

    @Test(arguments: [4, 12, 13, 40, 300])
    func duplicatesFoundInObjectsOfAnySize(_ size: Int) throws {
        // Keys k0…k(size-1), then k1 and k(size-1) again with new values: pairwise and hashed paths.
        var members = (0..<size).map { #""k\#($0)":\#($0)"# }
        members.append(#""k1":"again""#)
        members.append(#""k\#(size - 1)":"last""#)
        let root = try value(Array("{\(members.joined(separator: ","))}".utf8))
        #expect(root.count == size)
        #expect(root["k1"]?.string == "again")
        #expect(root["k\(size - 1)"]?.string == "last")
        #expect(root["k0"]?.int == 0)
        #expect(Array(root.keys).count == size)
        #expect(Set(root.keys).count == size)
        let tree = try #require(root.foundationValue as? [String: Any])
        #expect(tree.count == size)
        #expect(tree["k1"] as? String == "again")
    }

    @Test func siblingWithDuplicatesIsNotTrustedForTheNext() throws {
        let text = #"[{"a":1,"a":2},{"a":3,"a":4},{"a":5}]"#
        let root = try value(Array(text.utf8))
        #expect(root.elements.map { $0.map { $0.count } } == [1, 1, 1])
        #expect(root[keyPath: "1.a"]?.int == 4)
        #expect(root.description == #"[{"a":2},{"a":4},{"a":5}]"#)
    }

    /// Keys of one length that share their first eight bytes (what duplicates are screened by)
    /// are told apart by the rest; keys repeated word for word are still found.
    @Test func duplicatesAmongKeysWithACommonPrefix() throws {
        let text = #"{"prefix__1":1,"prefix__2":2,"prefix__10":3,"prefix__1":4,"short":5,"short":6}"#
        let root = try value(Array(text.utf8))
        #expect(root.count == 4)
        #expect(root["prefix__1"]?.int == 4 && root["prefix__2"]?.int == 2 && root["prefix__10"]?.int == 3)
        #expect(root["short"]?.int == 6)
        let distinct = #"{"prefix__1":1,"prefix__2":2,"prefix__3":3}"#
        #expect(try value(Array(distinct.utf8)).count == 3)
        let options = JSONParsingOptions(rejectsDuplicateKeys: true)
        #expect(throws: JSONSyntaxError.self) { _ = try value(Array(text.utf8), options: options) }
        #expect(try value(Array(distinct.utf8), options: options).count == 3)
    }

    /// A document parsed with `rejectsDuplicateKeys` fails at the repeated key's opening quote,
    /// with its line and column, however the input is read (one rejecter: the parser's).
    @Test func rejectingDuplicatesGivesTheRepeatedKeysPosition() throws {
        let text = "{\"list\":[{\"a\":1},\n{\"a\":1,\"b\":2,\"a\":3}]}"
        let options = JSONParsingOptions(rejectsDuplicateKeys: true)
        let secondA = text.utf8.count - #""a":3}]}"#.utf8.count
        func check(_ error: JSONSyntaxError) {
            #expect(error.kind == .duplicateKey)
            #expect(error.byteOffset == secondA)
            #expect(error.line == 2 && error.column == 14, "\(error)")
            #expect(error.message == #"duplicate key "a" in one object"#)
        }
        #expect { _ = try value(Array(text.utf8), options: options) } throws: { check($0 as! JSONSyntaxError); return true }
        #expect { _ = try JSONValue(parsing: text, options: options) } throws: { check($0 as! JSONSyntaxError); return true }
        // A file read in small chunks, the repeat far from where its object ends.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dup-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let padded = String(text.dropLast(3)) + String(repeating: " ", count: 5000) + "}]}"
        try Data(padded.utf8).write(to: scratch)
        #expect {
            _ = try JSONValue(contentsOf: scratch, options: options, chunkSize: 16)
        } throws: { check($0 as! JSONSyntaxError); return true }
        // Large objects too, and the same key at different levels is no repeat.
        let big = "{" + (0..<50).map { #""k\#($0)":0"# }.joined(separator: ",") + #","k7":1}"#
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: big, options: options) }
        #expect(try JSONValue(parsing: #"{"a":1,"b":{"a":2}}"#, options: options).count == 2)
    }

    @Test func chunkingDoesNotChangeTheValue() throws {
        let text =
            Array(
                #"{"people":[{"name":"Zoë \"Z\" Ångström","age":42,"tags":["a","bb","ccc dddd eeee"]},"#.utf8)
            + Array(#"{"name":"x","age":1.25e3,"big":123456789012345678901234567890,"n":null,"t":true}]}"#.utf8)
        let whole = try value(text)
        let byByte = try value(text, splits: Array(1..<text.count))
        #expect(whole == byByte)
        #expect(whole.description == byByte.description)
        let seed = randomTestSeed &+ 5
        print("JSONTapeTests.chunkingDoesNotChangeTheValue seed: \(seed) (ELEVATE_TEST_SEED=\(randomTestSeed))")
        var random = SeededGenerator(state: seed)
        for _ in 0..<50 {
            let splits = (0..<Int(random.next() % 8)).map { _ in Int(random.next() % UInt64(text.count)) }
            let chunked = try value(text, splits: splits)
            #expect(chunked.description == whole.description, "seed \(seed), splits \(splits)")
        }
    }

    @Test func deepNestingNeedsNoCallStack() throws {
        let depth = JSONParsingOptions.depthCeiling
        let text = Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
        let options = JSONParsingOptions(maximumDepth: .max)
        var root: JSONValue? = try JSONValue(parsing: Data(text), options: options)
        let copy = try JSONValue(parsing: Data(text), options: options)
        #expect(root == copy)
        #expect(root?.description.utf8.count == 2 * depth)
        var tree: Any? = root?.foundationValue
        var level = 0
        while let array = tree as? [Any] {
            level += 1
            tree = array.first
        }
        #expect(level == depth)
        #expect(root?[keyPath: Array(repeating: "0", count: depth - 1).joined(separator: ".")]?.count == 0)
        root = nil
        // The Foundation tree is freed by the runtime, one level at a time; the tape in one go.
        tree = nil
        // Deeper than the ceiling is an error, whatever the option says, never a crash.
        let deeper = Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        #expect(throws: JSONSyntaxError.self) { _ = try JSONValue(parsing: Data(deeper), options: options) }
        #expect(throws: JSONSyntaxError.self) {
            _ = try JSONValueBuilder.value(from: Data(deeper), options: JSONParsingOptions(maximumDepth: .max))
        }
    }

    @Test func aViewOutlivesItsBuilder() throws {
        var builder: JSONTapeBuilder? = JSONTapeBuilder()
        let parser = JSONEventParser(handler: builder!)
        try parser.parse(Array(#"{"kept":"a string longer than seven"}"#.utf8))
        try parser.finish()
        let view = try #require(builder?.takeValue())
        builder = nil
        #expect(view["kept"]?.string == "a string longer than seven")
    }

    @Test func resetReusesStorageOnlyWhenNoViewRemains() throws {
        let builder = JSONTapeBuilder()
        func element(_ text: String) throws -> JSONValue {
            builder.reset()
            let parser = JSONEventParser(handler: builder)
            try parser.parse(Array(text.utf8))
            try parser.finish()
            return try #require(builder.takeValue())
        }
        let first = try element(#"{"name":"first element, long"}"#)
        let firstTape = ObjectIdentifier(first.tape)
        let second = try element(#"{"name":"second element, long","extra":[1,2,3]}"#)
        #expect(ObjectIdentifier(second.tape) != firstTape)
        #expect(first["name"]?.string == "first element, long")
        #expect(first.count == 1)
        // Views dropped: the next element reuses the tape.
        let secondTape = ObjectIdentifier(second.tape)
        _ = consume second
        let third = try element(#"[3]"#)
        #expect(ObjectIdentifier(third.tape) == secondTape)
        #expect(third.description == "[3]")
    }

    @Test func manyValuesWithoutResetKeepTheLast() throws {
        let options = JSONParsingOptions(allowsMultipleValues: true)
        #expect(try JSONValue(parsing: #"[1] {"a":2} "three""#, options: options).string == "three")
    }

    @Test(
        .enabled(if: SharedCorpus.hasNativeJSON, Comment(rawValue: SharedCorpus.missingMessage)),
        arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
    func tapeSizeOnLargeDocuments(_ name: String) throws {
        let data = try SharedCorpus.nativeJSONData(name)
        let root = try JSONValue(parsing: data)
        let ratio = Double(root.tape.usedBytes) / Double(data.count)
        print(
            "\(name): \(data.count) bytes, tape \(root.tape.wordCount * 8) + arena \(root.tape.byteCount) = \(String(format: "%.2f", ratio))×"
        )
        #expect(ratio <= 1.5)
    }

    @Test func tapeSizeOnThePeopleDocument() throws {
        let data = try peopleDocument()
        let root = try JSONValue(parsing: data)
        let ratio = Double(root.tape.usedBytes) / Double(data.count)
        print(
            "people: \(data.count) bytes, tape \(root.tape.wordCount * 8) + arena \(root.tape.byteCount) = \(String(format: "%.2f", ratio))×"
        )
        #expect(ratio <= 1.5)
    }

    /// `rejectsDuplicateKeys` names the first key that repeats, in document order, as the parser's
    /// own check does: an object of more than 12 keys (checked through a hash table, from its last
    /// key back) named the last repeat instead, `B` here, at its line and column.
    @Test(arguments: [0, 11, 20])
    func aDocumentNamesTheFirstRepeatWhateverTheObjectsSize(_ fillers: Int) throws {
        let text = #"{"A":1,"B":1,"A":2,"B":2"# + (0..<fillers).map { ",\"f\($0)\":0" }.joined() + "}"
        #expect {
            try JSONValue(parsing: text, options: JSONParsingOptions(rejectsDuplicateKeys: true))
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.kind == .duplicateKey && error.message.contains(#""A""#) && error.byteOffset == 13
                && error.line == 1 && error.column == 14
        }
    }

    /// Keys and strings at the arena's length boundary (a length of 2^20 - 1 and more is stored in
    /// the arena, not in the entry): repeated in one object, shared between siblings, looked up,
    /// compared and written back.
    @Test func keysAndStringsAroundTheLongLengthMarker() throws {
        for length in [JSONTape.longLength - 1, JSONTape.longLength, JSONTape.longLength + 1] {
            let long = String(repeating: "k", count: length - 1)
            let keyA = long + "a"
            let keyB = long + "b"
            let text = #"[{"\#(keyA)":1,"\#(keyB)":2,"\#(keyA)":3},{"\#(keyA)":"\#(keyB)","\#(keyB)":4},{"x":"\#(keyA)"}]"#
            let value = try JSONValue(parsing: text)
            #expect(value[0]?.count == 2)
            #expect(value[0]?[keyA]?.int == 3)
            #expect(value[0]?[keyB]?.int == 2)
            #expect(value[0]?[long] == nil)
            #expect(value[1]?[keyA]?.string == keyB)
            #expect(value[1]?[keyB]?.int == 4)
            #expect(value[2]?["x"]?.string?.utf8.count == length)
            #expect(Array(value[0]!.keys) == [keyB, keyA])
            let again = try JSONValue(parsing: value.description)
            #expect(again == value && value == again)
            #expect(again[0] != again[1])
            #expect(JSON(value)[0][keyA] == 3)
        }
    }
}
