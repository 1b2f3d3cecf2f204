import Foundation
import Testing

@testable import Elevate

/// The spellings from before the API took one shape still compile and forward to their
/// replacements (the tests are deprecated themselves, to keep the build free of warnings).
@Suite struct DeprecatedSpellingTests {
    private static let document = Data(#"{"items": [1, 2, 3]}"#.utf8)
    private static let lines = Data("1\n2\n".utf8)

    private static func file(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-old-\(UUID()).json")
        try data.write(to: url)
        return url
    }

    private final class IgnoringHandler: JSONEventHandler {}

    /// Decodes an object as its `n` member, parsed from a string.
    private struct MemberN: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any {
            let entity = try Parser.parseEntity(json: object) { $0.addProperty(keyPath: "n", type: .string) }
            return Int(entity["n"] as! String)!
        }
    }

    @available(*, deprecated)
    @Test func synchronousSpellings() throws {
        let url = try Self.file(Self.document)
        defer { try? FileManager.default.removeItem(at: url) }
        var seen: [Int] = []
        #expect(try Elevate.forEachElement(ofArrayAt: "items", contentsOf: url, as: Int.self) { seen.append($0) } == 3)
        #expect(
            try Elevate.forEachElement(ofArrayAt: "items", from: Self.document, as: Int.self) { seen.append($0) } == 3)
        #expect(try Elevate.forEachElement(ofArrayAt: "items", in: .data(Self.document), as: Int.self) { _ in } == 3)
        let strings = Data(#"{"items": ["4", "5"]}"#.utf8)
        let stringsURL = try Self.file(strings)
        defer { try? FileManager.default.removeItem(at: stringsURL) }
        #expect(
            try Elevate.forEachElement(ofArrayAt: "items", from: strings, with: StringToIntDecoder(), as: Int.self) {
                seen.append($0)
            } == 2)
        #expect(
            try Elevate.forEachElement(
                ofArrayAt: "items", contentsOf: stringsURL, with: StringToIntDecoder(), as: Int.self
            ) { _ in } == 2)
        #expect(seen == [1, 2, 3, 1, 2, 3, 4, 5])
        let framing: JSONValueFraming = .jsonLines
        #expect(try Elevate.forEachValue(in: .data(Self.lines), framing: framing, as: Int.self) { _ in } == 2)

        let items: [Int] = try Elevate.decodeArray(contentsOf: url, atKeyPath: "items")
        #expect(items == [1, 2, 3])
        let parsed: [Int] = try Elevate.decodeArray(
            contentsOf: stringsURL, atKeyPath: "items", with: StringToIntDecoder())
        #expect(parsed == [4, 5])
        var options = StreamingOptions()
        options.concurrency = 2
        let parallel: [Int] = try Elevate.decodeArray(from: Self.document, atKeyPath: "items", options: options)
        #expect(parallel == [1, 2, 3])
        let parallelParsed: [Int] = try Elevate.decodeArray(
            from: strings, atKeyPath: "items", with: StringToIntDecoder(), options: options)
        #expect(parallelParsed == [4, 5])
        let object: [String: [Int]] = try Elevate.decodeObject(contentsOf: url)
        #expect(object["items"] == [1, 2, 3])
        let objectURL = try Self.file(Data(#"{"o": {"n": "7"}}"#.utf8))
        defer { try? FileManager.default.removeItem(at: objectURL) }
        let decodedObject: Int = try Elevate.decodeObject(contentsOf: objectURL, atKeyPath: "o", with: MemberN())
        #expect(decodedObject == 7)

        #expect(try Elevate.summarizeValue(atKeyPath: "items", in: .data(Self.document))?.count == 3)
        #expect(try Elevate.forEachEvent(atKeyPath: "items", in: .data(Self.document), to: IgnoringHandler()))
        let writerFraming: JSONStreamWriter.Framing = .jsonLines
        #expect(JSONStreamWriter(framing: writerFraming) { _ in }.framing == .jsonLines)
    }

    @available(*, deprecated)
    @Test func asynchronousSpellings() async throws {
        func chunks(_ data: Data) -> AsyncStream<Data> {
            AsyncStream { continuation in
                continuation.yield(data)
                continuation.finish()
            }
        }
        var read: [Int] = []
        for try await value in Elevate.elements(ofArrayAt: "items", from: chunks(Self.document), as: Int.self) {
            read.append(value)
        }
        let strings = Data(#"["8"]"#.utf8)
        for try await value in Elevate.elements(
            ofArrayAt: "", from: chunks(strings), with: StringToIntDecoder(), as: Int.self)
        {
            read.append(value)
        }
        for try await value in Elevate.values(in: chunks(Self.lines), framing: .jsonLines, as: Int.self) {
            read.append(value)
        }
        #expect(read == [1, 2, 3, 8, 1, 2])
    }
}
