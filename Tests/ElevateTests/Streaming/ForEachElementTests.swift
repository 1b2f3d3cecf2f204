import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

private struct Item: Elevate.Decodable, Equatable {
    let id: Int
    let name: String

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "id", type: .int)
            schema.addProperty(keyPath: "name", type: .string)
        }
        id = entity <-! "id"
        name = entity <-! "name"
    }
}

private let document = NamedItem.document

private func temporaryFile(_ contents: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-\(UUID().uuidString).json")
    try Data(contents.utf8).write(to: url)
    return url
}

/// `forEachElement(from:atKeyPath:as:)`: each element of the array at a key path decoded as soon as
/// it is complete and handed to the body, from data and files, with its errors.
@Suite struct ForEachElementTests {
    @Test func forEachElementFromDataAndFile() throws {
        var seen: [Item] = []
        let count = try Elevate.forEachElement(from: .data(Data(document.utf8)), atKeyPath: "data.items", as: Item.self)
        {
            seen.append($0)
        }
        #expect(count == 3)
        #expect(seen.map(\.id) == [1, 2, 3])

        let url = try temporaryFile(document)
        defer { try? FileManager.default.removeItem(at: url) }
        var names: [String] = []
        // Tiny chunks: every token is split somewhere.
        let options = StreamingOptions(chunkSize: 7)
        try Elevate.forEachElement(from: .file(url), atKeyPath: "data.items", as: Item.self, options: options) {
            names.append($0.name)
        }
        #expect(names == ["a", "b", "c"])
        let all: [Item] = try Elevate.decodeArray(from: .file(url), atKeyPath: "data.items")
        #expect(all == seen)
        let second: Item = try Elevate.decodeObject(from: .file(url), atKeyPath: "data.items.1")
        #expect(second == Item(id: 2, name: "b"))
    }

    @Test func invalidElementStopsTheStreamNamingItsIndex() throws {
        let json = #"{"items": [{"id": 1, "name": "a"}, {"id": "x", "name": "b"}, {"id": 3, "name": "c"}]}"#
        var seen: [Int] = []
        do {
            try Elevate.forEachElement(from: .data(Data(json.utf8)), atKeyPath: "items", as: Item.self) {
                seen.append($0.id)
            }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.hasPrefix("Error parsing array object at index 1 with parser [Item]"))
            #expect(reason.contains("Value for key path [id] is of incorrect type"))
        }
        #expect(seen == [1])
    }

    @Test func skippingInvalidElementsReportsThemAllAtTheEnd() throws {
        let json = #"{"items": [{"id": 1, "name": "a"}, {"id": "x"}, {"id": 3, "name": "c"}, 4]}"#
        var seen: [Int] = []
        do {
            try Elevate.forEachElement(
                from: .data(Data(json.utf8)), atKeyPath: "items", as: Item.self,
                options: StreamingOptions(skipsInvalidElements: true)
            ) { seen.append($0.id) }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.contains("index 1"))
            #expect(reason.contains("index 3"))
        }
        #expect(seen == [1, 3])
    }

    @Test func syntaxErrorsStopWithPosition() throws {
        let json = "{\"items\": [{\"id\": 1, \"name\": \"a\"},\n {\"id\": 2 \"name\": \"b\"}]}"
        var seen = 0
        do {
            try Elevate.forEachElement(from: .data(Data(json.utf8)), atKeyPath: "items", as: Item.self) { _ in seen += 1
            }
            Issue.record("no error")
        } catch ParserError.deserialization(let reason) {
            #expect(reason.contains("line 2"))
        }
        #expect(seen == 1)
    }

    @Test func bodyErrorsPropagateAndStopReading() {
        struct Enough: Error {}
        var seen = 0
        #expect(throws: Enough.self) {
            try Elevate.forEachElement(from: .data(Data(document.utf8)), atKeyPath: "data.items", as: Item.self) { _ in
                seen += 1
                if seen == 2 { throw Enough() }
            }
        }
        #expect(seen == 2)
    }

    @Test func missingOrMistypedArray() {
        #expect(throws: ParserError.self) {
            try Elevate.forEachElement(from: .data(Data(document.utf8)), atKeyPath: "nope", as: Item.self) { _ in }
        }
        #expect(throws: ParserError.self) {
            try Elevate.forEachElement(from: .data(Data(document.utf8)), atKeyPath: "data", as: Item.self) { _ in }
        }
    }

    @Test func elementSizeIsBounded() {
        let big = #"{"items": [{"id": 1, "name": "\#(String(repeating: "x", count: 10_000))"}]}"#
        do {
            try Elevate.forEachElement(
                from: .data(Data(big.utf8)), atKeyPath: "items", as: Item.self,
                options: StreamingOptions(maximumElementSize: 1000)
            ) { _ in }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.contains("maximum element size"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
