import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

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

    // MARK: Random documents against a model, equality, hostile shapes

    /// Equality and hashing against the model: a respelled copy is equal both ways (as `JSONValue`
    /// and as `JSON`, with equal hashes), a copy with one value changed is unequal both ways, and
    /// `JSON` goes through both encoders and decoders unchanged.
    @Test func randomDocumentsCompareAndRoundTripConsistently() throws {
        let seed = randomTestSeed &+ 1
        print("JSONValueTests.randomDocumentsCompareAndRoundTripConsistently seed: \(seed) (ELEVATE_TEST_SEED=\(randomTestSeed))")
        var random = RandomDocuments.Generator(random: SplitMix64(seed: seed))
        var failures: [String] = []
        for round in 0..<150 where failures.count < 5 {
            let model = random.value(depth: 0)
            let text = RandomDocuments.render(model, seed: random.random.next())
            let view = try JSONValue(parsing: text)
            let other = try JSONValue(parsing: RandomDocuments.render(RandomDocuments.respelled(model, &random), seed: random.random.next()))
            var target = random.below(RandomDocuments.valueCount(model))
            let changed = try JSONValue(parsing: RandomDocuments.render(RandomDocuments.mutated(model, target: &target), seed: 3))
            func fail(_ message: String) { failures.append("round \(round), \(message), document \(text.prefix(200))") }
            if view != other || other != view { fail("a respelled copy is unequal") }
            if view == changed || changed == view { fail("a changed copy is equal") }
            let json = JSON(view)
            if json != JSON(other) || json.hashValue != JSON(other).hashValue { fail("JSON of a respelled copy differs") }
            if json == JSON(changed) { fail("JSON of a changed copy is equal") }
            if try JSON(foundationValue: view.foundationValue) != json { fail("JSON(foundationValue:) differs") }
            let elevate = try ElevateJSONDecoder().decode(JSON.self, from: ElevateJSONEncoder().encode(json))
            if elevate != json { fail("Elevate's encoder and decoder changed it to \(elevate)") }
            let foundation = try JSONDecoder().decode(JSON.self, from: JSONEncoder().encode(json))
            if !RandomDocuments.sameAfterFoundation(foundation, json) { fail("Foundation's encoder and decoder changed it") }
            if try JSONValue(parsing: JSONWriter.string(for: json)) != view { fail("JSONWriter's text differs") }
        }
        #expect(failures.isEmpty, "seed \(seed):\n\(failures.joined(separator: "\n"))")
    }

    @Test func randomDocumentsAgreeWithTheModelAndFoundation() throws {
        let seed = randomTestSeed &+ 2
        print("JSONValueTests.randomDocumentsAgreeWithTheModelAndFoundation seed: \(seed) (ELEVATE_TEST_SEED=\(randomTestSeed))")
        var random = RandomDocuments.Generator(random: SplitMix64(seed: seed))
        var failures: [String] = []
        for round in 0..<150 {
            let model = random.value(depth: 0)
            let text = RandomDocuments.render(model, seed: random.random.next())
            let view = try JSONValue(parsing: text)
            let tree = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            var issues = jsonDifferences(view.foundationValue, tree).map { "foundationValue \($0)" }
            try RandomDocuments.check(view, against: model, root: view, rootTree: view.foundationValue, path: [], random: &random, issues: &issues)
            // The description is JSON that reads back as the same value.
            let again = try JSONValue(parsing: view.description)
            if again != view || view != again { issues.append("description does not read back equal") }
            if again.description != view.description { issues.append("description is not stable") }
            if !issues.isEmpty {
                failures.append("round \(round), document \(text.prefix(300)):\n  " + issues.prefix(5).joined(separator: "\n  "))
            }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "seed \(seed):\n\(failures.joined(separator: "\n"))")
    }

    /// `==` compares an object's members by looking each key up in the other object. Looked up in
    /// document order from where the last one was found, keys in another order made that a scan of
    /// the whole object per key: two 20,000-member objects in reverse order took 44 s. Counted in
    /// members looked at, not timed.
    @Test func objectsInAnotherOrderCompareInLinearSteps() throws {
        let count = 3_000
        let keys = (0..<count).map { "key\($0)" }
        func object(_ keys: [String]) throws -> JSONValue {
            try JSONValue(parsing: "{" + keys.map { #""\#($0)":[\#($0.count)]"# }.joined(separator: ",") + "}")
        }
        var random = RandomDocuments.Generator(random: SplitMix64(seed: 7))
        var shuffled = keys
        shuffled.shuffle(using: &random.random)
        let forward = try object(keys)
        for other in [try object(keys.reversed()), try object(shuffled), try object(keys)] {
            var steps = 0
            #expect(JSONValue.isEqual(forward, other, steps: &steps))
            #expect(steps <= 8 * count, "\(steps) steps for \(count) members")
            steps = 0
            #expect(JSONValue.isEqual(other, forward, steps: &steps))
            #expect(steps <= 8 * count, "\(steps) steps for \(count) members")
        }
        // A differing value is still found, wherever it is.
        var changed = keys.map { #""\#($0)":[\#($0.count)]"# }
        changed[count / 2] = #""key\#(count / 2)":[0]"#
        let different = try JSONValue(parsing: "{" + changed.reversed().joined(separator: ",") + "}")
        #expect(forward != different && different != forward)
    }

    /// Keys that are the same text in other spellings are found by lookups (see
    /// `KeyEquivalenceTests`); `==` must still be symmetric. `{"café"(precomposed):1,
    /// "café"(decomposed):1}` equalled `{"café":1,"other":1}` (both of its keys found the one
    /// `café`), while the other way round `other` was missing.
    @Test func equalityWithKeysInOtherSpellingsIsSymmetric() throws {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let pairs: [(String, String)] = [
            (#"{"\#(precomposed)":1,"\#(decomposed)":1}"#, #"{"\#(precomposed)":1,"other":1}"#),
            (#"{"\#(precomposed)":1,"\#(decomposed)":1}"#, #"{"\#(decomposed)":1,"other":1}"#),
            (#"{"\u212Aelvin":1,"Kelvin":1}"#, #"{"Kelvin":1,"x":1}"#),
            (#"{"\#(precomposed)":1,"\#(decomposed)":2}"#, #"{"\#(decomposed)":2,"\#(precomposed)":1}"#),
            (#"{"\#(precomposed)":1}"#, #"{"\#(decomposed)":1}"#),
            (#"{"\#(precomposed)":1}"#, #"{"\#(decomposed)":2}"#),
        ]
        for (first, second) in pairs {
            let a = try JSONValue(parsing: first)
            let b = try JSONValue(parsing: second)
            #expect((a == b) == (b == a), "\(first) vs \(second)")
        }
        // Equal where every key finds its equal both ways.
        #expect(try JSONValue(parsing: pairs[3].0) == JSONValue(parsing: pairs[3].1))
        #expect(try JSONValue(parsing: pairs[4].0) == JSONValue(parsing: pairs[4].1))
        #expect(try JSONValue(parsing: pairs[5].0) != JSONValue(parsing: pairs[5].1))
    }

    /// Nesting as deep as the parser goes, read through every path that walks a whole value:
    /// none may need a stack frame per level beyond what a small stack holds.
    @Test func nestingAtTheDepthCeilingOnASmallStack() throws {
        let depth = JSONParsingOptions.depthCeiling
        var options = JSONParsingOptions()
        options.maximumDepth = .max
        let objects = String(repeating: #"{"a":"#, count: depth - 2) + #"{"a":[1]}"# + String(repeating: "}", count: depth - 2)
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let mixed = String(repeating: #"[{"k.1":"#, count: depth / 2) + "0" + String(repeating: "}]", count: depth / 2)
        for text in [objects, arrays, mixed] {
            let value = try JSONValue(parsing: text, options: options)
            let copy = try JSONValue(parsing: text, options: options)
            let path = text == objects ? Array(repeating: "a", count: depth - 1) + ["0"] : []
            onSmallStack {
                precondition(value == copy && copy == value)
                precondition(value.description == text.filter { $0 != " " })
                _ = value.foundationValue
                var tree: Any? = value.foundationValue
                precondition(tree != nil)
                tree = nil
                if !path.isEmpty {
                    precondition(value[keyPath: path.joined(separator: ".")]?.int == 1)
                }
            }
            #expect(try JSONValue(parsing: value.description, options: options) == value)
        }
    }

    /// A count shared by threads.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add(_ amount: Int) { lock.withLock { value += amount } }
        var total: Int { lock.withLock { value } }
    }

    /// Many threads reading one view at once, each in its own order, with its own hints: every
    /// answer is the one a single thread gets.
    @Test func concurrentReadersInDifferentOrdersAgree() throws {
        let seed = randomTestSeed &+ 3
        print("JSONValueTests.concurrentReadersInDifferentOrdersAgree seed: \(seed) (ELEVATE_TEST_SEED=\(randomTestSeed))")
        let keys = (0..<300).map { $0 % 3 == 0 ? "long key number \($0)" : "k\($0)" }
        let text = "{" + keys.enumerated().map { #""\#($1)":{"i":\#($0),"s":"v\#($0)","a":[\#($0),{"x":\#($0)}]}"# }
            .joined(separator: ",") + #","k1":"replaced"}"#
        let document = try JSONValue(parsing: text)
        let expected = keys.indices.map { $0 == 1 ? #""replaced""# : #"{"i":\#($0),"s":"v\#($0)","a":[\#($0),{"x":\#($0)}]}"# }
        let mismatches = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var random = SplitMix64(seed: seed &+ UInt64(worker))
            var order = Array(keys.indices)
            order.shuffle(using: &random)
            var hint: Int?
            var wrong = 0
            for _ in 0..<3 {
                for index in order {
                    let found = random.next() % 2 == 0 ? document.member(keys[index], hint: &hint) : document[keys[index]]
                    if found?.description != expected[index] { wrong += 1 }
                    if index != 1, document[keyPath: "\(keys[index]).a.1.x"]?.int != index { wrong += 1 }
                    if document.member("absent", hint: &hint) != nil { wrong += 1 }
                }
                order.reverse()
            }
            mismatches.add(wrong)
        }
        #expect(mismatches.total == 0)
    }

    /// 100,000 members, half of them repeated: counts, the last value of every key, the members
    /// in order, and a hinted walk reading them all in linear steps.
    @Test func aHundredThousandMembersWithDuplicates() throws {
        let count = 100_000
        var members: [String] = []
        members.reserveCapacity(count + count / 2)
        for index in 0..<count { members.append(#""k\#(index)":\#(index)"#) }
        for index in stride(from: 0, to: count, by: 2) { members.append(#""k\#(index)":-\#(index)"#) }
        let document = try JSONValue(parsing: "{" + members.joined(separator: ",") + "}")
        #expect(document.count == count)
        let keys = Array(document.keys)
        #expect(keys.count == count)
        #expect(keys.prefix(3) == ["k1", "k3", "k5"])
        #expect(keys.suffix(2) == ["k99996", "k99998"])
        var hint: Int?
        var wrong = 0
        for key in keys {
            let index = Int(key.dropFirst())!
            if document.member(key, hint: &hint)?.int != (index % 2 == 0 ? -index : index) { wrong += 1 }
        }
        #expect(wrong == 0)
        let tree = document.foundationValue as? [String: Any]
        #expect(tree?.count == count)
        #expect(tree?["k4"] as? Int == -4)
        #expect(JSON(document).count == count)
    }

    /// `Elements` is a `Collection`: subscripting its `endIndex` must trap, as `Array`'s does. It
    /// made a view of whatever entry followed the array (the next member's key, or past the last
    /// entry written, for the root), which later reads took for a value.
    @Test func subscriptingElementsAtTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let value = try JSONValue(parsing: #"{"a":[1,2],"b":3}"#)
            let elements = value["a"]!.elements!
            _ = elements[elements.endIndex]
        }
        await #expect(processExitsWith: .failure) {
            let elements = try JSONValue(parsing: "[]").elements!
            _ = elements[elements.startIndex]
        }
    }
}
