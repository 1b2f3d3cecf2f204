import Foundation
import Testing

@testable import Elevate

/// Decoding an array's elements on several threads gives exactly what one thread gives: the same
/// elements in the same order, the same errors.
@Suite struct ParallelDecodingTests {
    private struct Item: Elevate.Decodable, Equatable {
        let id: Int
        let tags: [String]
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .int)
                schema.addProperty(keyPath: "tags", type: .array, decodableType: String.self)
            }
            id = entity <-! "id"
            tags = entity <--! "tags"
        }
    }

    private struct Custom: Error, Equatable { let index: Int }

    private func document(_ count: Int, invalidEvery: Int? = nil) -> Data {
        let items = (0..<count).map { index -> String in
            if let invalidEvery, index % invalidEvery == invalidEvery - 1 {
                return #"{"id": "x\#(index)", "tags": [1]}"#
            }
            return #"{"id": \#(index), "tags": ["t\#(index)"]}"#
        }
        return Data(#"{"items": [\#(items.joined(separator: ","))]}"#.utf8)
    }

    private func decode(_ data: Data, workers: Int) throws -> [Item] {
        try ArrayDecoding.decode(.data(data), atKeyPath: "items", methodName: "Item", workers: workers) {
            try decodeElement($0, as: Item.self)
        }
    }

    @Test(arguments: [2, 3, 8]) func sameElementsInOrder(workers: Int) throws {
        let data = document(5_000)
        #expect(try decode(data, workers: workers) == decode(data, workers: 1))
    }

    @Test(arguments: [2, 4]) func sameAggregatedFailures(workers: Int) throws {
        let data = document(1_000, invalidEvery: 97)
        func failure(_ workers: Int) -> ValidationReport? {
            do {
                _ = try withValidationReport { try decode(data, workers: workers) }
            } catch let report as ValidationReport {
                return report
            } catch {
                Issue.record("unexpected \(error)")
            }
            return nil
        }
        let sequential = try #require(failure(1))
        let parallel = try #require(failure(workers))
        #expect(parallel.error.failureReason == sequential.error.failureReason)
        #expect(parallel.failures == sequential.failures)
        #expect(parallel.failures.first?.path == "items[96].id")
    }

    @Test func otherErrorsStopWithTheFirstInDocumentOrder() throws {
        let data = document(3_000)
        #expect(throws: Custom(index: 700)) {
            _ = try ArrayDecoding.decode(.data(data), atKeyPath: "items", methodName: "Item", workers: 4) { element in
                let item = try decodeElement(element, as: Item.self)
                if item.id >= 700, item.id % 100 == 0 { throw Custom(index: item.id) }
                return item
            }
        }
    }

    @Test func syntaxErrorsAreTheSame() {
        var text = String(decoding: document(2_000), as: UTF8.self)
        text.removeLast(3)
        text += ", x]}"
        let data = Data(text.utf8)
        var texts: [String] = []
        for workers in [1, 2] {
            do {
                _ = try decode(data, workers: workers)
            } catch {
                texts.append("\(error)")
            }
        }
        #expect(texts.count == 2)
        #expect(texts.first == texts.last)
    }

    @Test func repeatedArrayKeyTakesTheLast() throws {
        let data = Data(#"{"items": [{"id": 1, "tags": []}], "items": [{"id": 2, "tags": []}]}"#.utf8)
        #expect(try decode(data, workers: 2).map(\.id) == [2])
    }

    private func streamed(_ data: Data, workers: Int, skipping: Bool = false) -> (ids: [Int], error: String?) {
        var options = StreamingOptions()
        options.concurrency = workers
        options.skipsInvalidElements = skipping
        var ids: [Int] = []
        do {
            try Elevate.forEachElement(atKeyPath: "items", from: .data(data), as: Item.self, options: options) {
                ids.append($0.id)
            }
            return (ids, nil)
        } catch {
            return (ids, "\(error)")
        }
    }

    @Test func forEachElementDeliversInOrderWithTheSameErrors() throws {
        let valid = document(4_000)
        #expect(streamed(valid, workers: 3).ids == Array(0..<4_000))
        let invalid = document(2_000, invalidEvery: 501)
        let sequential = streamed(invalid, workers: 1)
        let parallel = streamed(invalid, workers: 2)
        #expect(parallel.error == sequential.error)
        #expect(parallel.ids == sequential.ids)
        #expect(sequential.ids.count == 500)
        let skippedSequential = streamed(invalid, workers: 1, skipping: true)
        let skippedParallel = streamed(invalid, workers: 4, skipping: true)
        #expect(skippedParallel.error == skippedSequential.error)
        #expect(skippedParallel.ids == skippedSequential.ids)
    }

    @Test func aThrowingBodyStopsTheWorkers() throws {
        struct Enough: Error {}
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func increment() { lock.withLock { value += 1 } }
            var count: Int { lock.withLock { value } }
        }
        let decodes = Counter()
        let data = document(20_000)
        var options = StreamingOptions()
        options.concurrency = 2
        var seen = 0
        #expect(throws: Enough.self) {
            try Elevate.forEachElement(
                atKeyPath: "items", from: .data(data), with: CountingDecoder(counter: decodes.increment), as: Item.self,
                options: options
            ) { _ in
                seen += 1
                if seen == 100 { throw Enough() }
            }
        }
        let afterReturn = decodes.count
        Thread.sleep(forTimeInterval: 0.05)
        #expect(decodes.count == afterReturn)
        #expect(afterReturn < 1_000)
    }

    private struct CountingDecoder: Elevate.Decoder, @unchecked Sendable {
        let counter: () -> Void
        func decode(_ object: Any) throws -> Any {
            counter()
            return try Item(json: object)
        }
    }

    @Test func asyncElementsWithWorkers() async throws {
        let data = document(3_000)
        let chunks = AsyncStream<[UInt8]> { continuation in
            var offset = 0
            let bytes = Array(data)
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(offset + 10_000, bytes.count)]))
                offset += 10_000
            }
            continuation.finish()
        }
        var options = StreamingOptions()
        options.concurrency = 2
        var ids: [Int] = []
        for try await item in chunks.decodedElements(atKeyPath: "items", as: Item.self, options: options) {
            ids.append(item.id)
        }
        #expect(ids == Array(0..<3_000))
    }
}
