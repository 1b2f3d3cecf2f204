import Foundation
import Testing

@testable import Elevate

/// Elevate's `AsyncSequence` calls take sequences of single bytes (`URLSession.AsyncBytes`,
/// `AsyncStream<UInt8>`) and answer as for the same bytes in chunks.
@Suite struct AsyncByteSourceElevateTests {
    private typealias Item = NamedItem

    /// Both Elevate's and Swift's `Decodable`: the byte calls must pick `init(json:)` without
    /// ambiguity, as the chunk calls do.
    private struct BothItem: Elevate.Decodable, Swift.Decodable, Equatable {
        var id: Int
        var viaElevate = false
        init(json: Any) throws {
            id = try (json as? [String: Any])?["id"] as? Int ?? { throw ParserError.validation(failureReason: "id") }()
            viaElevate = true
        }
    }

    private struct ItemDecoder: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any { try Item(json: object) }
    }

    private static let document = Array(
        (#"{"meta": {"count": 40}, "items": ["#
            + (0..<40).map { #"{"id": \#($0), "name": "t\#($0 % 3)"}"# }.joined(separator: ", ") + "]}").utf8)

    private static func bytes(_ bytes: [UInt8]) -> AsyncStream<UInt8> {
        AsyncStream { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
    }

    @Test func everyElevateCallTakesASequenceOfBytes() async throws {
        let expected = try Elevate.decodeArray(from: .data(Data(Self.document)), atKeyPath: "items", as: Item.self)
        #expect(expected.count == 40)
        #expect(try await Self.bytes(Self.document).decodeArray(atKeyPath: "items", as: Item.self) == expected)
        let viaDecoder = try await Self.bytes(Self.document).decodeArray(atKeyPath: "items", with: ItemDecoder(), as: Item.self)
        #expect(viaDecoder == expected)
        var streamed: [Item] = []
        for try await item in Self.bytes(Self.document).decodedElements(atKeyPath: "items", as: Item.self) {
            streamed.append(item)
        }
        #expect(streamed == expected)
        var withDecoder: [Item] = []
        for try await item in Self.bytes(Self.document).decodedElements(atKeyPath: "items", with: ItemDecoder(), as: Item.self) {
            withDecoder.append(item)
        }
        #expect(withDecoder == expected)
        let first = try await Self.bytes(Array(#"{"item": {"id": 7, "name": "x"}}"#.utf8)).decodeObject(atKeyPath: "item", as: Item.self)
        #expect(first.id == 7)
        let viaDecoderObject = try await Self.bytes(Array(#"{"id": 8, "name": "y"}"#.utf8)).decodeObject(with: ItemDecoder(), as: Item.self)
        #expect(viaDecoderObject.name == "y")

        let lines = Array("{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}\n".utf8)
        var ids: [Int] = []
        for try await item in Self.bytes(lines).decodedValues(framing: .jsonLines, as: Item.self) { ids.append(item.id) }
        for try await item in Self.bytes(lines).decodedValues(framing: .jsonLines, with: ItemDecoder(), as: Item.self) {
            ids.append(item.id)
        }
        #expect(ids == [1, 2, 1, 2])
    }

    @Test func aTypeOfBothProtocolsIsDecodedWithInitJSON() async throws {
        var both: [BothItem] = []
        for try await item in Self.bytes(Self.document).decodedElements(atKeyPath: "items", as: BothItem.self) {
            both.append(item)
        }
        #expect(both.count == 40 && both.allSatisfy(\.viaElevate))
        let lines = Array("{\"id\": 1}\n{\"id\": 2}\n".utf8)
        var values: [BothItem] = []
        for try await item in Self.bytes(lines).decodedValues(framing: .jsonLines, as: BothItem.self) { values.append(item) }
        #expect(values.map(\.id) == [1, 2] && values.allSatisfy(\.viaElevate))
    }

    @Test func anInvalidElementFailsAsInChunks() async throws {
        let bad = Array(#"[{"id": 1, "name": "a"}, {"id": "x", "name": "b"}]"#.utf8)
        var fromBytes = ""
        var fromChunks = ""
        do { _ = try await Self.bytes(bad).decodeArray(as: Item.self) } catch { fromBytes = "\(error)" }
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(bad)
            continuation.finish()
        }
        do { _ = try await chunks.decodeArray(as: Item.self) } catch { fromChunks = "\(error)" }
        #expect(!fromBytes.isEmpty && fromBytes == fromChunks)
    }
}
