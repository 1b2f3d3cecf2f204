import ElevateTestSupport
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Checkpoints and resuming: every checkpoint `forEachElement` gives resumes the stream exactly
/// where it was, for data and files, with one worker or several; a checkpoint that does not end an
/// element is refused; errors after resuming are at the input's positions.
@Suite struct StreamCheckpointTests {
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
    }

    /// Pretty-printed, with scalars of every kind in `extra`, and more document after the array.
    static let document = Data(
        ("{\"meta\": {\"n\": 40},\n \"items\": [\n"
            + (0..<40).map { #"  {"id": \#($0), "name": "n\#($0)", "extra": [true, null, "s,]", 1.5e3]}"# }
            .joined(separator: ",\n")
            + "\n ],\n \"after\": {\"ignored\": [1, 2]}}\n").utf8)

    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [StreamCheckpoint] = []
        var checkpoints: [StreamCheckpoint] { lock.withLock { stored } }
        func record(_ checkpoint: StreamCheckpoint) { lock.withLock { stored.append(checkpoint) } }
    }

    static func run(
        _ input: JSONInput, from checkpoint: StreamCheckpoint? = nil, workers: Int = 1, recorder: Recorder? = nil
    ) throws -> [Item] {
        var options = StreamingOptions()
        options.concurrency = workers
        options.resumingFrom = checkpoint
        if let recorder { options.checkpoints = { recorder.record($0) } }
        var items: [Item] = []
        try forEachElement(from: input, atKeyPath: "items", as: Item.self, options: options) { items.append($0) }
        return items
    }

    @Test(arguments: [1, 2])
    func everyCheckpointResumesWhereItWas(workers: Int) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoints-\(UUID()).json")
        try Self.document.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = Recorder()
        let all = try Self.run(.data(Self.document), workers: workers, recorder: recorder)
        #expect(all.count == 40)
        let checkpoints = recorder.checkpoints
        #expect(checkpoints.map(\.index) == Array(1...40))
        for checkpoint in checkpoints {
            // The byte before each offset closes the element: its `}`.
            #expect(Self.document[checkpoint.byteOffset - 1] == UInt8(ascii: "}"))
            for input in [JSONInput.data(Self.document), .file(url)] {
                let rest = try Self.run(input, from: checkpoint, workers: workers)
                #expect(rest == Array(all[checkpoint.index...]), "\(checkpoint)")
            }
        }
        // Checkpoints of a resumed run go on from where it started.
        let resumed = Recorder()
        _ = try Self.run(.file(url), from: checkpoints[9], workers: workers, recorder: resumed)
        #expect(resumed.checkpoints == Array(checkpoints[10...]))
    }

    /// A checkpoint inside a string, inside a number, after a separator, or at index 0 is refused.
    @Test func aCheckpointThatDoesNotEndAnElementIsRefused() throws {
        let text = String(decoding: Self.document, as: UTF8.self)
        // Inside the string "n3": just after its `n`.
        let stringStart = try #require(text.range(of: "\"n3\"")).lowerBound.utf16Offset(in: text) + 2
        // Just past the separator after element 2.
        let separator = try #require(text.range(of: "},\n  {\"id\": 3")).lowerBound.utf16Offset(in: text) + 2
        for offset in [stringStart + 1, separator, 5] {
            #expect(throws: ParserError.self) { try Self.run(.data(Self.document), from: StreamCheckpoint(index: 3, byteOffset: offset)) }
        }
        #expect(throws: ParserError.self) { try Self.run(.data(Self.document), from: StreamCheckpoint(index: 0, byteOffset: separator - 1)) }
        // Inside the string "s,]" of an element: ends nothing, and the text after it is not an array's rest.
        let inString = try #require(text.range(of: "\"s,")).upperBound.utf16Offset(in: text)
        #expect(throws: ParserError.self) { try Self.run(.data(Self.document), from: StreamCheckpoint(index: 3, byteOffset: inString)) }
    }

    /// An error after the checkpoint is reported at the input's offset, line and column.
    @Test func anErrorAfterResumingIsAtTheInputsPosition() throws {
        let bad = Data(String(decoding: Self.document, as: UTF8.self).replacingOccurrences(of: "\"n20\"", with: "x20").utf8)
        let recorder = Recorder()
        _ = try? Self.run(.data(bad), recorder: recorder)
        let checkpoint = recorder.checkpoints[9]
        var expected: JSONSyntaxError?
        var options = StreamingOptions()
        options.wrapsErrorsInParserError = false
        do { try forEachElement(from: .data(bad), atKeyPath: "items", as: Item.self, options: options) { _ in } } catch let error as JSONSyntaxError { expected = error }
        options.resumingFrom = checkpoint
        var resumed: JSONSyntaxError?
        do { try forEachElement(from: .data(bad), atKeyPath: "items", as: Item.self, options: options) { _ in } } catch let error as JSONSyntaxError { resumed = error }
        let full = try #require(expected)
        let again = try #require(resumed)
        #expect(again.byteOffset == full.byteOffset && again.line == full.line && again.column == full.column, "\(again) vs \(full)")
        #expect(again.message.contains("resuming from element 10"))
    }

    /// A Codable element's error names its index in the whole array.
    @Test func codingPathsCountFromTheArraysStart() throws {
        let bad = Data(String(decoding: Self.document, as: UTF8.self).replacingOccurrences(of: #""id": 25,"#, with: #""id": "x","#).utf8)
        let recorder = Recorder()
        _ = try? Self.run(.data(bad), recorder: recorder)
        do {
            _ = try Self.run(.data(bad), from: recorder.checkpoints[19])
            Issue.record("no error")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 25", "id"])
        }
    }

    /// An asynchronous sequence resumed is the input from the checkpoint on (an HTTP range request).
    @Test func anAsyncSequenceFromTheCheckpointResumes() async throws {
        let recorder = Recorder()
        let all = try Self.run(.data(Self.document), recorder: recorder)
        let checkpoint = recorder.checkpoints[29]
        let rest = [UInt8](Self.document[checkpoint.byteOffset...])
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: rest.count, by: 7) { continuation.yield(Array(rest[start..<min(start + 7, rest.count)])) }
            continuation.finish()
        }
        var options = StreamingOptions()
        options.resumingFrom = checkpoint
        var items: [Item] = []
        for try await item in chunks.decodedElements(atKeyPath: "items", as: Item.self, options: options) { items.append(item) }
        #expect(items == Array(all[30...]))
    }

    /// Compressed input is read from its start only: an offset into the text is not one into the file.
    @Test func gzipCannotBeResumed() throws {
        let recorder = Recorder()
        _ = try Self.run(.data(Self.document), recorder: recorder)
        let gzip = GzipFixture.member(Self.document)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID()).json.gz")
        try gzip.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // The whole run reads it, through gzip; resuming is refused, for a file and for data.
        #expect(try Self.run(.file(url)).count == 40)
        for input in [JSONInput.file(url), .data(gzip)] {
            #expect(throws: ParserError.self) { try Self.run(input, from: StreamCheckpoint(index: 1, byteOffset: 5)) }
        }
    }

    /// JSON Lines: every checkpoint resumes at the next line, with the input's line numbers.
    @Test(arguments: [1, 2])
    func jsonLinesCheckpointsResumeAtTheNextLine(workers: Int) throws {
        // A blank line, an invalid line (skipped), and a last line without a newline.
        var lines = (0..<30).map { #"{"id": \#($0), "name": "n\#($0)"}"# }
        lines.insert("", at: 10)
        lines.insert(#"{"id": "bad", "name": "x"}"#, at: 20)
        let data = Data(lines.joined(separator: "\n").utf8)
        func run(from checkpoint: StreamCheckpoint? = nil, recorder: Recorder? = nil) throws -> [Item] {
            var options = StreamingOptions()
            options.concurrency = workers
            options.skipsInvalidElements = true
            options.resumingFrom = checkpoint
            if let recorder { options.checkpoints = { recorder.record($0) } }
            var items: [Item] = []
            do {
                try forEachValue(from: .data(data), framing: .jsonLines, as: Item.self, options: options) { items.append($0) }
            } catch ParserError.validation(let reason) {
                // The invalid line, named by its line in the input, resumed or not.
                #expect(reason.contains("line 21"), "\(reason)")
            }
            return items
        }
        let recorder = Recorder()
        let all = try run(recorder: recorder)
        #expect(all.count == 30)
        let checkpoints = recorder.checkpoints
        #expect(checkpoints.count == 30)
        for checkpoint in checkpoints {
            #expect(checkpoint.byteOffset == data.count || data[checkpoint.byteOffset - 1] == UInt8(ascii: "\n"))
            let rest = try run(from: checkpoint)
            #expect(rest == all.filter { item in checkpoints.firstIndex(of: checkpoint)! < all.firstIndex(of: item)! }, "\(checkpoint)")
        }
        // An offset inside a line is refused.
        #expect(throws: ParserError.self) {
            try forEachValue(
                from: .data(data), framing: .jsonLines, as: Item.self,
                options: StreamingOptions().resuming(from: StreamCheckpoint(index: 3, byteOffset: 40))) { _ in }
        }
    }

    @Test func aPipeCannotBeResumed() throws {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Self.document)
        try pipe.fileHandleForWriting.close()
        #expect(throws: ParserError.self) {
            try Self.run(.fileHandle(pipe.fileHandleForReading), from: StreamCheckpoint(index: 1, byteOffset: 100))
        }
    }
}

extension StreamingOptions {
    /// These options, resuming from `checkpoint`.
    fileprivate func resuming(from checkpoint: StreamCheckpoint) -> StreamingOptions {
        var options = self
        options.resumingFrom = checkpoint
        return options
    }
}
