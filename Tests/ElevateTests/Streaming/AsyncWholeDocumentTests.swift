import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The whole-document calls on a chunk sequence (`decodeArray`, `decodeObject`, `summarizeValue`,
/// `forEachEvent`) answer exactly as their ``JSONInput`` twins, chunk sizes aside; and the
/// document and Codable entry points take every ``JSONInput``.
@Suite struct AsyncWholeDocumentTests {
    private struct Item: Elevate.Decodable, Equatable {
        var id: Int
        var tag: String

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .int)
                schema.addProperty(keyPath: "tag", type: .string)
            }
            id = entity <-! "id"
            tag = entity <-! "tag"
        }
    }

    private struct ItemDecoder: Elevate.Decoder {
        func decode(_ object: Any) throws -> Any { try Item(json: object) }
    }

    private struct CodableItem: Swift.Decodable, Equatable {
        var id: Int
        var tag: String
    }

    /// `data` in chunks of `size` bytes.
    private static func chunks(_ data: Data, size: Int) -> AsyncStream<[UInt8]> {
        let bytes = [UInt8](data)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
            }
            continuation.finish()
        }
    }

    private static let document = Data(
        (#"{"meta": {"count": 40, "name": "list"}, "items": ["#
            + (0..<40).map { #"{"id": \#($0), "tag": "t\#($0 % 3)"}"# }.joined(separator: ", ")
            + "]}").utf8)

    /// Every element of the second half fails; the sequence and the input list the same failures.
    private static let failing = Data(
        ("[" + (0..<20).map { $0 < 10 ? #"{"id": \#($0), "tag": "x"}"# : #"{"id": "\#($0)"}"# }
            .joined(separator: ", ") + "]").utf8)

    @Test(arguments: [1, 7, 4096], [1, 2])
    func decodeArrayOfChunksMatchesTheInput(chunkSize: Int, concurrency: Int) async throws {
        var options = StreamingOptions()
        options.concurrency = concurrency
        let expected = try Elevate.decodeArray(from: .data(Self.document), atKeyPath: "items", as: Item.self)
        let items = try await Self.chunks(Self.document, size: chunkSize)
            .decodeArray(atKeyPath: "items", as: Item.self, options: options)
        #expect(items == expected)
        #expect(items.count == 40)
        let tags = try await Self.chunks(Data(#"{"t": ["1", "22"]}"#.utf8), size: chunkSize)
            .decodeArray(atKeyPath: "t", with: StringToIntDecoder(), as: Int.self, options: options)
        #expect(tags == [1, 22])

        let syncError = #expect(throws: ParserError.self) {
            try Elevate.decodeArray(from: .data(Self.failing), as: Item.self, options: options)
        }
        let asyncError = await #expect(throws: ParserError.self) {
            try await Self.chunks(Self.failing, size: chunkSize).decodeArray(as: Item.self, options: options)
        }
        #expect(asyncError?.failureReason == syncError?.failureReason)
        #expect(asyncError?.failureReason.contains("at index 19 with parser") == true, "\(String(describing: asyncError))")
    }

    @Test(arguments: [1, 5, 4096])
    func decodeObjectOfChunksMatchesTheInput(chunkSize: Int) async throws {
        let count = try await Self.chunks(Self.document, size: chunkSize).decodeObject(atKeyPath: "meta.count", as: Int.self)
        #expect(count == 40)
        let first = try await Self.chunks(Self.document, size: chunkSize).decodeObject(atKeyPath: "items.0", as: Item.self)
        #expect(first == (try Elevate.decodeObject(from: .data(Self.document), atKeyPath: "items.0", as: Item.self)))
        let all = try await Self.chunks(Self.document, size: chunkSize).decodeObject(atKeyPath: "items", as: [Item].self)
        #expect(all.count == 40)
        let viaDecoder = try await Self.chunks(Self.document, size: chunkSize)
            .decodeObject(atKeyPath: "items.1", with: ItemDecoder(), as: Item.self)
        #expect(viaDecoder == all[1])

        let missing = await #expect(throws: ParserError.self) {
            try await Self.chunks(Self.document, size: chunkSize).decodeObject(atKeyPath: "meta.nope", as: Item.self)
        }
        #expect(missing?.failureReason == "Required key path [meta.nope] was missing or null")
    }

    @Test(arguments: [1, 3, 4096])
    func summarizeAndForwardChunksAsTheInput(chunkSize: Int) async throws {
        let summary = try await Self.chunks(Self.document, size: chunkSize).summarizeValue(atKeyPath: "items")
        #expect(summary == JSONContainerSummary(kind: .array, count: 40))
        #expect(summary == (try Elevate.summarizeValue(from: .data(Self.document), atKeyPath: "items")))
        #expect(try await Self.chunks(Self.document, size: chunkSize).summarizeValue(atKeyPath: "nope") == nil)

        var written: [UInt8] = []
        let writer = JSONEventWriter { written.append(contentsOf: $0) }
        let found = try await Self.chunks(Self.document, size: chunkSize).forEachEvent(atKeyPath: "meta", to: writer)
        try writer.finish()
        #expect(found)
        #expect(String(decoding: written, as: UTF8.self) == #"{"count":40,"name":"list"}"#)
    }

    /// A document cut off, and bytes that are not JSON: the same errors as from the input.
    @Test func badChunksFailAsTheInputDoes() async throws {
        for bad in [Data(#"{"items": [1, 2"#.utf8), Data(#"{"items": [1, }"#.utf8)] {
            let syncError = #expect(throws: ParserError.self) {
                try Elevate.decodeArray(from: .data(bad), atKeyPath: "items", as: Int.self)
            }
            let asyncError = await #expect(throws: ParserError.self) {
                try await Self.chunks(bad, size: 2).decodeArray(atKeyPath: "items", as: Int.self)
            }
            #expect(asyncError?.failureReason == syncError?.failureReason)
        }
    }

    /// Cancelled while the source waits: `CancellationError`, not an "unexpected end of input".
    @Test func cancellingWhileTheSourceWaitsThrowsCancellationError() async throws {
        let (source, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(Array(#"{"items": [1, 2"#.utf8))
        let chunks = AnnouncingChunks(source)
        let task = Task { try await chunks.decodeArray(atKeyPath: "items", as: Int.self) }
        // Cancel once the decode has read the first chunk and asks for the second, which never
        // comes: it is then waiting on its source, whatever the machine's speed.
        try await chunks.waitForPull(2)
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("a cancelled decode returned \(result)")
            return
        }
        #expect(error is CancellationError, "ended with \(error)")
        withExtendedLifetime(continuation) {}
    }

    /// `JSONValue(parsing:)` and `ElevateJSONDecoder.decode(_:from:)` read data, files, file handles
    /// and chunk sequences alike.
    @Test func documentsAndCodableTakeEveryInput() async throws {
        let scratch = try ScratchDirectory()
        let url = scratch.url.appendingPathComponent("items.json")
        try Self.document.write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }

        let expected = try JSONValue(parsing: Self.document)
        for input in [JSONInput.data(Self.document), .file(url), .fileHandle(handle)] {
            #expect(try JSONValue(parsing: input) == expected)
        }
        try handle.seek(toOffset: 0)
        let decoder = ElevateJSONDecoder()
        let items = try decoder.decode([CodableItem].self, from: JSONInput.fileHandle(handle), atKeyPath: "items")
        #expect(items.count == 40)
        #expect(try decoder.decode([CodableItem].self, from: JSONInput.file(url), atKeyPath: "items") == items)
        let fromChunks = try await decoder.decode(
            [CodableItem].self, from: Self.chunks(Self.document, size: 9), atKeyPath: "items")
        #expect(fromChunks == items)

        let invalid = await #expect(throws: DecodingError.self) {
            try await decoder.decode(CodableItem.self, from: Self.chunks(Data("{\"id\": }".utf8), size: 3))
        }
        if case .dataCorrupted(let context) = invalid {
            #expect(context.underlyingError is JSONSyntaxError)
        } else {
            Issue.record("expected dataCorrupted, got \(String(describing: invalid))")
        }
    }
}
