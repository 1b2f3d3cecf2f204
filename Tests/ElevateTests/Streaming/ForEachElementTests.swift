import Foundation
import Testing

@testable import Elevate

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

private func temporaryFile(_ contents: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-\(UUID().uuidString).json")
    try Data(contents.utf8).write(to: url)
    return url
}

private let document =
    #"{"meta": {"skip": [1, 2, {"deep": true}]}, "data": {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]}}"#

@Suite struct ForEachElementTests {
    @Test func forEachElementFromDataAndFile() throws {
        var seen: [Item] = []
        let count = try Elevate.forEachElement(atKeyPath: "data.items", from: .data(Data(document.utf8)), as: Item.self)
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
        try Elevate.forEachElement(atKeyPath: "data.items", from: .file(url), as: Item.self, options: options) {
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
            try Elevate.forEachElement(atKeyPath: "items", from: .data(Data(json.utf8)), as: Item.self) {
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
                atKeyPath: "items", from: .data(Data(json.utf8)), as: Item.self,
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
            try Elevate.forEachElement(atKeyPath: "items", from: .data(Data(json.utf8)), as: Item.self) { _ in seen += 1
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
            try Elevate.forEachElement(atKeyPath: "data.items", from: .data(Data(document.utf8)), as: Item.self) { _ in
                seen += 1
                if seen == 2 { throw Enough() }
            }
        }
        #expect(seen == 2)
    }

    @Test func missingOrMistypedArray() {
        #expect(throws: ParserError.self) {
            try Elevate.forEachElement(atKeyPath: "nope", from: .data(Data(document.utf8)), as: Item.self) { _ in }
        }
        #expect(throws: ParserError.self) {
            try Elevate.forEachElement(atKeyPath: "data", from: .data(Data(document.utf8)), as: Item.self) { _ in }
        }
    }

    @Test func elementSizeIsBounded() {
        let big = #"{"items": [{"id": 1, "name": "\#(String(repeating: "x", count: 10_000))"}]}"#
        do {
            try Elevate.forEachElement(
                atKeyPath: "items", from: .data(Data(big.utf8)), as: Item.self,
                options: StreamingOptions(maximumElementSize: 1000)
            ) { _ in }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.contains("maximum element size"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func jsonLinesNameTheLine() throws {
        let lines = "{\"id\": 1, \"name\": \"a\"}\n\n{\"id\": 2, \"name\": \"b\"}\r\n{\"id\": 3, \"name\": \"c\"}"
        var ids: [Int] = []
        let count = try Elevate.forEachValue(from: .data(Data(lines.utf8)), framing: .jsonLines, as: Item.self) {
            ids.append($0.id)
        }
        #expect(count == 3)
        #expect(ids == [1, 2, 3])

        let broken = "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"} {}\n"
        do {
            try Elevate.forEachValue(from: .data(Data(broken.utf8)), framing: .jsonLines, as: Item.self) { _ in }
            Issue.record("no error")
        } catch ParserError.deserialization(let reason) {
            #expect(reason.contains("line 2"))
        }
        let invalid = "{\"id\": 1, \"name\": \"a\"}\n{\"id\": \"2\", \"name\": \"b\"}\n"
        do {
            try Elevate.forEachValue(from: .data(Data(invalid.utf8)), framing: .jsonLines, as: Item.self) { _ in }
            Issue.record("no error")
        } catch ParserError.validation(let reason) {
            #expect(reason.contains("line 2"))
        }
    }

    @Test func jsonLinesAcrossChunks() throws {
        let lines = (0..<200).map { #"{"id": \#($0), "name": "n\#($0)"}"# }.joined(separator: "\n") + "\n"
        let url = try temporaryFile(lines)
        defer { try? FileManager.default.removeItem(at: url) }
        var ids: [Int] = []
        try Elevate.forEachValue(
            from: .file(url), framing: .jsonLines, as: Item.self, options: StreamingOptions(chunkSize: 13)
        ) { ids.append($0.id) }
        #expect(ids == Array(0..<200))
    }

    @Test func concatenatedValues() throws {
        let text = #"{"id": 1, "name": "a"}{"id": 2, "name": "b"} {"id": 3, "name": "c"}"#
        var ids: [Int] = []
        try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .concatenated, as: Item.self) {
            ids.append($0.id)
        }
        #expect(ids == [1, 2, 3])
    }

    @Test func asyncSequenceOfChunks() async throws {
        let bytes = Array(document.utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 5) {
                continuation.yield(Array(bytes[start..<min(start + 5, bytes.count)]))
            }
            continuation.finish()
        }
        var names: [String] = []
        for try await item in chunks.decodedElements(atKeyPath: "data.items", as: Item.self) {
            names.append(item.name)
        }
        #expect(names == ["a", "b", "c"])
    }

    @Test func asyncSequenceStopsReadingWhenTheConsumerStops() async throws {
        let element = #"{"id": 1, "name": "a"},"#
        let pulled = Counter()
        let chunks = AsyncStream<[UInt8]>(unfolding: {
            let n = pulled.increment()
            if n == 1 { return Array(#"{"items": ["#.utf8) }
            return Array(element.utf8)  // an endless array
        })
        var taken = 0
        for try await _ in chunks.decodedElements(atKeyPath: "items", as: Item.self) {
            taken += 1
            if taken == 3 { break }
        }
        #expect(taken == 3)
        #expect(pulled.value < 10)
    }

    @Test func asyncSequenceHonoursCancellation() async throws {
        let pulled = Counter()
        // An endless root array, one element per chunk, produced slowly.
        let chunks = AsyncStream<[UInt8]>(unfolding: {
            if pulled.increment() == 1 { return Array("[".utf8) }
            try? await Task.sleep(nanoseconds: 1_000_000)
            return Array(#"{"id": 1, "name": "a"},"#.utf8)
        })
        let task = Task {
            var count = 0
            for try await _ in chunks.decodedElements(atKeyPath: "", as: Item.self) {
                count += 1
            }
            return count
        }
        // Cancel once the iteration is under way (a chunk past the first has been asked for),
        // whatever the machine's speed: a fixed sleep raced the first pulls.
        while pulled.value < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        let result = await task.result
        switch result {
        case .success: Issue.record("the iteration ended without an error")
        case .failure(let error): #expect(error is CancellationError)
        }
        #expect(pulled.value > 1)
    }

    @Test func summarizeAndForwardSubtrees() throws {
        let input = JSONInput.data(Data(document.utf8))
        #expect(
            try Elevate.summarizeValue(atKeyPath: "data.items", from: input)
                == JSONContainerSummary(kind: .array, count: 3))
        #expect(
            try Elevate.summarizeValue(atKeyPath: "data", from: input) == JSONContainerSummary(kind: .object, count: 1))
        #expect(
            try Elevate.summarizeValue(atKeyPath: "data.items.0.id", from: input)
                == JSONContainerSummary(kind: .scalar, count: 0))
        #expect(try Elevate.summarizeValue(atKeyPath: "nothing", from: input) == nil)
        let recorder = EventRecorder()
        #expect(try Elevate.forEachEvent(atKeyPath: "data.items.1", from: input, to: recorder))
        #expect(recorder.events == ["{", "key:id", "n:2", "key:name", "s:b", "}"])
    }

    @Test func progressIsReportedOncePerChunkUpToTheSize() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let text = "[" + (0..<3000).map { "\($0)" }.joined(separator: ",") + "]"
        try Data(text.utf8).write(to: url)
        let reports = ProgressLog()
        let options = StreamingOptions(chunkSize: 4096, progress: { reports.append($0) })
        #expect(try summarizeValue(atKeyPath: "", from: .file(url), options: options)?.count == 3000)
        let seen = reports.values
        #expect(seen.count == (text.utf8.count + 4095) / 4096)
        #expect(seen == seen.sorted())
        #expect(seen.last == text.utf8.count)
    }

    @Test func syntaxErrorsCanBeThrownUnwrapped() throws {
        let options = StreamingOptions(wrapsErrorsInParserError: false)
        let error = #expect(throws: JSONSyntaxError.self) {
            try summarizeValue(atKeyPath: "a", from: .data(Data("{\"a\": [1,\n,2]}".utf8)), options: options)
        }
        #expect(error?.line == 2)
        #expect(throws: JSONInputError.self) {
            try forEachEvent(
                atKeyPath: "", from: .file(URL(fileURLWithPath: "/no/such/file.json")), to: EventRecorder(),
                options: options)
        }
        #expect(throws: ParserError.self) {
            try summarizeValue(atKeyPath: "a", from: .data(Data("{".utf8)))
        }
    }
}

@Suite struct StreamingEdgeTests {
    @Test func forwardingReadsTheRestToJudgeIt() throws {
        // The value is sent as it is read; the rest is still parsed, since a repeated key later
        // would replace the value already sent: invalid JSON after it is an error.
        let text = #"{"a": {"b": [1, 2]}, "rest": "#.utf8 + [0x0C] + Array("tail".utf8)
        let recorder = EventRecorder()
        #expect(throws: ParserError.self) {
            try Elevate.forEachEvent(atKeyPath: "a.b", from: .data(Data(text)), to: recorder)
        }
        #expect(recorder.events == ["[", "n:1", "n:2", "]"])
    }

    @Test func jsonLinesAcceptExactlyOneValuePerLine() {
        var parsing = JSONParsingOptions()
        parsing.allowsMultipleValues = true
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(
                from: .data(Data("1 2\n".utf8)), framing: .jsonLines, as: Int.self,
                options: StreamingOptions(parsing: parsing)
            ) { _ in }
        }
    }

    @Test func jsonLinesFailuresCarryTheLine() {
        do {
            _ = try withValidationReport {
                try Elevate.forEachValue(from: .data(Data("1\n\"x\"\n".utf8)), framing: .jsonLines, as: Int.self) { _ in
                }
            }
            Issue.record("no error")
        } catch let report as ValidationReport {
            #expect(report.error.failureReason.hasPrefix("Error parsing line 2 with parser [Int]"))
            #expect(report.failures.first?.path == "[line 2]")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func asyncIterationEndsAfterAnError() async throws {
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("[1, 2, x".utf8))
            continuation.yield(Array(", 3]".utf8))
            continuation.finish()
        }
        var iterator = chunks.decodedElements(atKeyPath: "", as: Int.self).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 2)
        await #expect(throws: ParserError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }
}

extension StreamingEdgeTests {
    @Test func asyncJSONLinesAndConcatenatedValues() async throws {
        let text = Array("{\"id\": 1}\n{\"id\": 2}\n\n{\"id\": 3}\n".utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: text.count, by: 4) {
                continuation.yield(Array(text[start..<min(start + 4, text.count)]))
            }
            continuation.finish()
        }
        var ids: [Int] = []
        for try await id in chunks.decodedValues(framing: .jsonLines, atKeyPath: "id", as: Int.self) {
            ids.append(id)
        }
        #expect(ids == [1, 2, 3])

        let concatenated = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("[1][2]".utf8))
            continuation.yield(Array(" [3]".utf8))
            continuation.finish()
        }
        var arrays: [[Int]] = []
        for try await array in concatenated.decodedValues(framing: .concatenated, as: [Int].self) {
            arrays.append(array)
        }
        #expect(arrays == [[1], [2], [3]])
    }

    @Test func asyncElementsWithADecoder() async throws {
        struct Doubler: Elevate.Decoder {
            func decode(_ object: Any) throws -> Any { try Int(json: object) * 2 }
        }
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(#"{"n": [1, 2, 3]}"#.utf8))
            continuation.finish()
        }
        var doubled: [Int] = []
        for try await value in chunks.decodedElements(atKeyPath: "n", with: Doubler(), as: Int.self) {
            doubled.append(value)
        }
        #expect(doubled == [2, 4, 6])
    }
}

extension StreamingEdgeTests {
    /// A handler that stops while `finish()` replays a long held-back token ends cleanly.
    @Test func stoppingDuringFinishIsNotAnError() throws {
        final class StopAtString: JSONEventHandler {
            var strings = 0
            func string(_ value: JSONText) throws {
                strings += 1
                throw JSONEventParser.Stop()
            }
        }
        let body = String(repeating: "a", count: 200_000)
        let bytes = Array("[\"\(body)\"]".utf8)
        let handler = StopAtString()
        let parser = JSONEventParser(handler: handler)
        // 150 000 bytes open the string (more than the 64 KiB hold threshold); the remaining
        // 50 000 are fewer than those buffered, so they are held back and replayed by finish().
        try parser.parse(Array(bytes[..<150_000]))
        try parser.parse(Array(bytes[150_000..<150_010]))
        try parser.parse(Array(bytes[150_010...]))
        #expect(handler.strings == 0)
        try parser.finish()
        #expect(handler.strings == 1)
        #expect(parser.isStopped)
    }

    @Test func jsonLinesLimitHoldsWhateverTheChunking() {
        let line = "[" + String(repeating: "1,", count: 70) + "1]\n"
        for chunkSize in [7, 64, 100, 1 << 20] {
            #expect(throws: ParserError.self, "chunk size \(chunkSize)") {
                try Elevate.forEachValue(
                    from: .data(Data(line.utf8)), framing: .jsonLines, as: [Int].self,
                    options: StreamingOptions(maximumElementSize: 100, chunkSize: chunkSize)
                ) { _ in }
            }
        }
    }

    @Test func byteOrderMarkOnlyAtTheStartOfJSONLines() throws {
        let first = [0xEF, 0xBB, 0xBF] + Array("1\n2\n".utf8)
        #expect(try Elevate.forEachValue(from: .data(Data(first)), framing: .jsonLines, as: Int.self) { _ in } == 2)
        let later = Array("1\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("2\n".utf8)
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(from: .data(Data(later)), framing: .jsonLines, as: Int.self) { _ in }
        }
    }

    /// Only a whole byte order mark may stand alone on the first line: the first bytes of one
    /// (a fuzz finding) are invalid text, not a blank line or an empty input, in every framing
    /// and however the input is split.
    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func aPartialByteOrderMarkIsAnErrorNotABlankLine(framing: JSONFraming) async throws {
        for mark in [[0xEF], [0xEF, 0xBB]] as [[UInt8]] {
            for rest in ["\n1\n", " \n", "\n", ""] {
                let bytes = mark + Array(rest.utf8)
                var error: ParserError?
                do {
                    try Elevate.forEachValue(from: .data(Data(bytes)), framing: framing, as: Int.self) { _ in }
                } catch let caught as ParserError {
                    error = caught
                }
                #expect(error?.description.contains("line 1, column 1") == true, "\(bytes) \(framing)")
                var chunkedError: (any Error)?
                do {
                    let chunks = AsyncStream<[UInt8]> { continuation in
                        for byte in bytes { continuation.yield([byte]) }
                        continuation.finish()
                    }
                    for try await _ in chunks.decodedValues(framing: framing, as: Int.self) {}
                } catch {
                    chunkedError = error
                }
                #expect(chunkedError is ParserError, "\(bytes) \(framing), one byte at a time")
            }
        }
        let whole = [0xEF, 0xBB, 0xBF] + Array("\n1\n".utf8)
        #expect(try Elevate.forEachValue(from: .data(Data(whole)), framing: framing, as: Int.self) { _ in } == 1)
    }

    @Test func decodeObjectReadsArraysOfDecodables() throws {
        let data = Data(#"{"list": [1, 2, 3]}"#.utf8)
        let list: [Int] = try Elevate.decodeObject(from: data, atKeyPath: "list")
        #expect(list == [1, 2, 3])
    }
}
