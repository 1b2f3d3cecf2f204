import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

private struct Item: Swift.Decodable, Equatable {
    var id: Int
}

private struct Entity: Elevate.Decodable, Equatable {
    var id: Int
    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "id", type: .int) }
        id = entity <-! "id"
    }
}

/// `decodeLossyArray`: the elements that decode, and each other one with its index, where it ends
/// and its own error, for Codable and Elevate types, on one thread and on workers.
@Suite struct LossyArrayTests {
    static let text = #"{"items": [{"id": 1}, {"id": "x"}, {"id": 3}, 5, {"id": 4}]}"#
    static var data: Data { Data(text.utf8) }

    /// The offset just past the element at `index` of the items.
    static func end(of index: Int) -> Int {
        let ends = ["{\"id\": 1}", "{\"id\": \"x\"}", "{\"id\": 3}", "5", "{\"id\": 4}"].map { element in
            text.utf8.count - text.components(separatedBy: element)[1...].joined(separator: element).utf8.count
        }
        return ends[index]
    }

    @Test(arguments: [1, 2])
    func codableElementsAndFailures(workers: Int) throws {
        var options = StreamingOptions()
        options.concurrency = workers
        let result = try decodeLossyArray(from: .data(Self.data), atKeyPath: "items", as: Item.self, options: options)
        #expect(result.elements == [Item(id: 1), Item(id: 3), Item(id: 4)])
        #expect(result.failures.map(\.index) == [1, 3])
        #expect(result.failureCount == 2)
        #expect(result.failures.map(\.byteOffset) == [Self.end(of: 1), Self.end(of: 3)])
        let paths = result.failures.map { failure -> [String] in
            guard case DecodingError.typeMismatch(_, let context) = failure.error else { return [] }
            return context.codingPath.map(\.stringValue)
        }
        #expect(paths == [["items", "Index 1", "id"], ["items", "Index 3"]])
    }

    @Test(arguments: [1, 2])
    func elevateElementsAndFailures(workers: Int) throws {
        var options = StreamingOptions()
        options.concurrency = workers
        let result = try Elevate.decodeLossyArray(from: .data(Self.data), atKeyPath: "items", as: Entity.self, options: options)
        #expect(result.elements.map(\.id) == [1, 3, 4])
        #expect(result.failures.map(\.index) == [1, 3])
        for failure in result.failures {
            guard case ParserError.validation(let reason) = failure.error else {
                Issue.record("not a validation error: \(failure.error)")
                continue
            }
            #expect(!reason.isEmpty)
        }
    }

    /// The failures kept are bounded; all are counted. A file read in small chunks gives the same.
    @Test func failuresAreBoundedAndChunkingChangesNothing() throws {
        let many = "[" + (0..<500).map { $0 % 2 == 0 ? "{\"id\": \($0)}" : "\"bad\"" }.joined(separator: ",") + "]"
        var options = StreamingOptions()
        options.maximumReportedFailures = 10
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lossy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("many.json")
        try Data(many.utf8).write(to: url)
        options.chunkSize = 4096
        let whole = try decodeLossyArray(from: .data(Data(many.utf8)), as: Item.self, options: options)
        let chunked = try decodeLossyArray(from: .file(url), as: Item.self, options: options)
        #expect(whole.elements.count == 250 && whole.failures.count == 10 && whole.failureCount == 250)
        #expect(chunked.elements == whole.elements)
        #expect(chunked.failures.map(\.byteOffset) == whole.failures.map(\.byteOffset))
    }

    /// The input's own errors still throw: bad syntax, no array at the key path.
    @Test func inputErrorsStillThrow() {
        #expect(throws: (any Error).self) {
            try decodeLossyArray(from: .data(Data(#"[{"id": 1}, {"id": 2"#.utf8)), as: Item.self)
        }
        #expect(throws: (any Error).self) {
            try decodeLossyArray(from: .data(Self.data), atKeyPath: "missing", as: Item.self)
        }
        #expect(throws: (any Error).self) {
            try decodeLossyArray(from: .data(Data(#"{"items": 3}"#.utf8)), atKeyPath: "items", as: Item.self)
        }
    }
}
