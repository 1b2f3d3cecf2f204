import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The key-path selector behind every streaming call (`KeyPathSelector`): it watches events stream
/// past and captures only the values at the key paths asked for, on tapes of their own that are
/// reused once no view of them is left.
@Suite struct KeyPathSelectorTests {
    /// What each entry point that takes a key path does with one of 31,000 components (62 KB),
    /// as a list of what went wrong: the value is at the path's literal dotted root key, and the
    /// split path leads nowhere past its second component.
    private static func longKeyPathFailures(document: Data, file: URL) -> [String] {
        let keyPath = Array(repeating: "a", count: 31_000).joined(separator: ".")
        var failures: [String] = []
        func check(_ name: String, _ body: () throws -> Bool) {
            do {
                if try !body() { failures.append("\(name): wrong result") }
            } catch {
                failures.append("\(name): \(String(describing: error).prefix(200))")
            }
        }
        check("forEachElement(Data)") {
            var elements: [Int] = []
            let count = try forEachElement(from: .data(document), atKeyPath: keyPath, as: Int.self) { elements.append($0) }
            return count == 3 && elements == [1, 2, 3]
        }
        check("decodeArray(file)") {
            try decodeArray(from: .file(file), atKeyPath: keyPath, as: Int.self) == [1, 2, 3]
        }
        check("ElevateJSONDecoder.decode(Data)") {
            try ElevateJSONDecoder().decode([Int].self, from: document, atKeyPath: keyPath) == [1, 2, 3]
        }
        check("Parser.parseEntity(data:)") {
            let entity = try Parser.parseEntity(data: document) { $0.addProperty(keyPath: keyPath, type: .array, decodableType: Int.self) }
            return (entity[keyPath] as? [Any])?.count == 3
        }
        check("Parser.parseEntity(data:), missing") {
            let entity = try Parser.parseEntity(data: document) {
                $0.addProperty(keyPath: keyPath + ".b", type: .array, optional: true, decodableType: Int.self)
            }
            return entity.isEmpty
        }
        check("missing split path") {
            do {
                _ = try forEachElement(from: .file(file), atKeyPath: keyPath + ".b", as: Int.self) { _ in }
                return false
            } catch ParserError.validation {
                return true
            }
        }
        return failures
    }

    /// A key path of 31,000 components used to overflow the stack when the key-path trie, a
    /// chain of one node per component, was released recursively: every streaming key-path call,
    /// `Parser.parseEntity(data:)` and `elevate extract` crashed, even on an 8 MiB stack. Each
    /// must find the value, on the test's thread and on a 512 KiB one. (`ExtractCommand` in
    /// process: `CommandPieceTests` in ElevateCLITests.)
    @Test(.timeLimit(.minutes(6))) func aKeyPathOf31000ComponentsWorksOnAnyStack() throws {
        let keyPath = Array(repeating: "a", count: 31_000).joined(separator: ".")
        let document = Data(("{\"a\":{\"a\":[0]},\"" + keyPath + "\":[1,2,3]}").utf8)
        let scratch = try ScratchDirectory()
        let file = scratch.url.appendingPathComponent("long-key.json")
        try document.write(to: file)
        #expect(Self.longKeyPathFailures(document: document, file: file) == [])

        final class Box: @unchecked Sendable { var failures = ["not run"] }
        let box = Box()
        onSmallStack {
            box.failures = Self.longKeyPathFailures(document: document, file: file)
        }
        #expect(box.failures == [])

        // The real tool, on its main thread.
        if ElevateBinary.url != nil {
            let result = try ElevateBinary.run(["extract", "--key-path", keyPath, file.path], in: scratch.url)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output == "[1,2,3]\n")
        }
    }

    @Test(arguments: [1, 2, 4])
    func viewsHeldFromStreamsKeepTheirValues(concurrency: Int) async throws {
        let seed = randomTestSeed &+ 4
        print("KeyPathSelectorTests.viewsHeldFromStreamsKeepTheirValues seed: \(seed) (ELEVATE_TEST_SEED=\(randomTestSeed))")
        let elements = RandomDocuments.streamElements(count: 600, seed: seed)
        let document = Data((#"{"before":[1,2],"items":["# + elements.joined(separator: ",") + #"],"after":{}}"#).utf8)
        let lines = Data(elements.joined(separator: "\n").utf8)
        var options = StreamingOptions()
        options.concurrency = concurrency
        options.chunkSize = 509

        var held: [RandomDocuments.Held] = []
        try Elevate.forEachElement(from: .data(document), atKeyPath: "items", as: RandomDocuments.Held.self, options: options) { held.append($0) }
        try RandomDocuments.checkHeld(held, elements, "forEachElement")

        held = []
        try Elevate.forEachValue(from: .data(lines), framing: .jsonLines, as: RandomDocuments.Held.self, options: options) { held.append($0) }
        try RandomDocuments.checkHeld(held, elements, "forEachValue")

        held = []
        let innerTexts = try elements.map { try JSONValue(parsing: $0)["inner"]!.description }
        try Elevate.forEachValue(from: .data(lines), framing: .jsonLines, atKeyPath: "inner", as: RandomDocuments.Held.self, options: options) {
            held.append($0)
        }
        try RandomDocuments.checkHeld(held, innerTexts, "forEachValue at a key path")

        held = []
        for try await value in ByteChunks(Array(document), size: 777).decodedElements(
            atKeyPath: "items", as: RandomDocuments.Held.self, options: options)
        {
            held.append(value)
        }
        try RandomDocuments.checkHeld(held, elements, "decodedElements")

        let decoded: [RandomDocuments.Held] = try Elevate.decodeArray(from: document, atKeyPath: "items")
        try RandomDocuments.checkHeld(decoded, elements, "decodeArray")
    }
}
