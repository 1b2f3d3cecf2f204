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
}
