import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `JSONStreamWriter`: values written one at a time as a JSON array, JSON Lines or concatenated
/// values, handed to the sink in chunks of about its buffer size; a value that fails leaves the
/// stream unchanged, and a writer released unfinished writes nothing more.
@Suite struct JSONStreamWriterTests {
    @Test func streamWriterAcceptsEncodable() throws {
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: .jsonLines) { output.append(contentsOf: $0) }
        try writer.write(EncodablePerson(name: "Ada", age: 36))
        try writer.finish()
        let parsed = try JSONValueBuilder.value(from: Data(output))
        #expect(treesEqual(parsed, ["name": "Ada", "age": 36]))
    }

    private static func collect(
        framing: JSONFraming, options: JSONWriter.Options = .default,
        _ body: (JSONStreamWriter) throws -> Void
    ) throws -> String {
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: framing, options: options) { output.append(contentsOf: $0) }
        try body(writer)
        try writer.finish()
        return String(decoding: output, as: UTF8.self)
    }

    @Test(arguments: [0, 1, 2, 100_000])
    func streamWritesAValidArray(count: Int) throws {
        var output: [UInt8] = []
        var chunkSizes: [Int] = []
        let writer = JSONStreamWriter(framing: .array) { chunk in
            chunkSizes.append(chunk.count)
            output.append(contentsOf: chunk)
        }
        for index in 0..<count {
            try writer.write(["index": index, "name": "item \(index)", "ratio": Double(index) / 4])
        }
        try writer.finish()
        let parsed = try #require(try JSONValueBuilder.value(from: Data(output)) as? [Any])
        #expect(parsed.count == count)
        if count > 0 {
            #expect(
                treesEqual(
                    parsed[count - 1],
                    ["index": count - 1, "name": "item \(count - 1)", "ratio": Double(count - 1) / 4]))
        }
        // The writer hands its buffer on once a value takes it to the buffer size: every chunk but
        // the last holds at least that and at most one value (under 64 bytes here) more, and the
        // last one holds the rest, the closing bracket included.
        let size = JSONStreamWriter.bufferSize
        #expect(chunkSizes.dropLast().allSatisfy { $0 >= size && $0 < size + 64 }, "\(chunkSizes)")
        #expect(chunkSizes.last.map { $0 > 0 && $0 < size + 64 } == true)
        #expect(chunkSizes.reduce(0, +) == output.count)
        if output.count < size { #expect(chunkSizes.count == 1) }
        if count == 100_000 { #expect(chunkSizes.count > 50, "a 5 MB stream in 64 KiB chunks") }
    }

    @Test func streamFramings() throws {
        #expect(try Self.collect(framing: .array) { _ in } == "[]")
        #expect(
            try Self.collect(framing: .array) {
                try $0.write(1); try $0.write("two"); try $0.write([3])
            } == #"[1,"two",[3]]"#)
        #expect(
            try Self.collect(framing: .array, options: .init(prettyPrinted: true)) {
                try $0.write(["a": [1]]); try $0.write([Any]())
            } == "[\n  {\n    \"a\": [\n      1\n    ]\n  },\n  []\n]")
        #expect(
            try Self.collect(framing: .jsonLines, options: .init(prettyPrinted: true)) {
                try $0.write(["a": [1, 2]]); try $0.write("x\ny"); try $0.write(3)
            } == "{\"a\":[1,2]}\n\"x\\ny\"\n3\n")
        #expect(try Self.collect(framing: .jsonLines) { _ in } == "")
        let concatenated = try Self.collect(framing: .concatenated) {
            try $0.write(1); try $0.write(2); try $0.write([3])
        }
        #expect(concatenated == "1\n2\n[3]")
        let events = try recordEvents(Array(concatenated.utf8), options: .init(allowsMultipleValues: true))
        #expect(events == ["n:1", "n:2", "[", "n:3", "]"])
    }

    @Test func failedValueLeavesTheStreamUnchanged() throws {
        let text = try Self.collect(framing: .array) { writer in
            try writer.write(1)
            #expect(writerError { try writer.write(["ok": 1, "bad": [Date()]]) }?.path == "bad[0]")
            #expect(writerError { try writer.write(Double.nan) }?.kind == .nonFiniteNumber)
            try writer.write(2)
        }
        #expect(text == "[1,2]")
    }

    @Test func writingAfterFinishThrows() throws {
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: .array) { output.append(contentsOf: $0) }
        try writer.write(1)
        try writer.finish()
        try writer.finish()
        #expect(String(decoding: output, as: UTF8.self) == "[1]")
        #expect(writerError { try writer.write(2) }?.kind == .writerFinished)
        #expect(writer.isFinished)
        #expect(writer.count == 1)
    }

    @Test func sinkErrorsEndTheWriter() throws {
        struct Full: Error {}
        let writer = JSONStreamWriter(framing: .jsonLines) { _ in throw Full() }
        try writer.write(1)
        #expect(throws: Full.self) { try writer.flush() }
        #expect(throws: Full.self) { try writer.write(2) }
        #expect(throws: Full.self) { try writer.finish() }
    }

    @Test func streamToFileHandle() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        let writer = JSONStreamWriter(fileHandle: handle, framing: .array)
        for index in 0..<10_000 { try writer.write(["i": index]) }
        try writer.finish()
        try handle.close()
        let parsed = try #require(try JSONValueBuilder.value(from: Data(contentsOf: url)) as? [Any])
        #expect(parsed.count == 10_000)
    }

    /// Both writers released unfinished write nothing more: what is buffered is dropped and an
    /// array stays open, so that output cut short by an error never reads as complete.
    @Test(arguments: [JSONFraming.array, .jsonLines, .concatenated, .jsonTextSequence])
    func unfinishedStreamWriterWritesNothingWhenReleased(framing: JSONFraming) throws {
        var output: [UInt8] = []
        do {
            let writer = JSONStreamWriter(framing: framing) { output.append(contentsOf: $0) }
            try writer.write(1)
            try writer.write([2, 3])
        }
        #expect(output.isEmpty)

        // What was flushed stays; the rest does not follow.
        do {
            let writer = JSONStreamWriter(framing: framing) { output.append(contentsOf: $0) }
            try writer.write(1)
            try writer.flush()
            try writer.write(2)
        }
        #expect(
            String(decoding: output, as: UTF8.self) == (framing == .array ? "[1" : framing == .jsonLines ? "1\n" : framing == .jsonTextSequence ? "\u{1E}1\n" : "1"))
    }

    @Test func finishedAndFailedWritersAreReleasedQuietly() throws {
        var output: [UInt8] = []
        do {
            let writer = JSONStreamWriter(framing: .array) { output.append(contentsOf: $0) }
            try writer.write(1)
            try writer.finish()
        }
        #expect(String(decoding: output, as: UTF8.self) == "[1]")
        struct Full: Error {}
        do {
            let writer = JSONStreamWriter(framing: .array) { _ in throw Full() }
            try writer.write(1)
            #expect(throws: Full.self) { try writer.finish() }
        }
    }

    @Test func longStringsAcrossTheStreamBuffer() throws {
        var random = SeededGenerator(state: 0x10C)
        var strings: [String] = []
        for length in [JSONStreamWriter.bufferSize - 1, JSONStreamWriter.bufferSize, 3 * JSONStreamWriter.bufferSize + 7] {
            var text = ""
            while text.utf8.count < length { text += WriterSamples.hostileScalars.randomElement(using: &random)! }
            strings.append(text)
        }
        for framing in [JSONFraming.array, .jsonLines, .concatenated, .jsonTextSequence] {
            var output: [UInt8] = []
            let writer = JSONStreamWriter(framing: framing) { output.append(contentsOf: $0) }
            for string in strings { try writer.write([string: string]) }
            try writer.finish()
            let values = try WriterSamples.readBack(output, framing: framing)
            #expect(values.count == strings.count)
            for (value, string) in zip(values, strings) { #expect(treesEqual(value, [string: string])) }
        }
    }

    @Test(arguments: [JSONFraming.array, .jsonLines], [false, true])
    func streamWriterRoundTripsManyValues(framing: JSONFraming, pretty: Bool) throws {
        var random = SeededGenerator(state: 0x57E4 + (pretty ? 1 : 0))
        var trees: [Any] = []
        var output: [UInt8] = []
        var chunks = 0
        let writer = JSONStreamWriter(framing: framing, options: .init(prettyPrinted: pretty)) {
            chunks += 1
            output.append(contentsOf: $0)
        }
        for _ in 0..<2_000 {
            let tree = WriterSamples.randomTree(&random, maximumDepth: 3)
            trees.append(tree)
            try writer.write(tree)
        }
        try writer.finish()
        try writer.finish()
        #expect(writerError { try writer.write(1) }?.kind == .writerFinished)
        #expect(writer.count == trees.count)
        #expect(chunks > 1)
        let values = try WriterSamples.readBack(output, framing: framing)
        #expect(values.count == trees.count)
        #expect(zip(values, trees).allSatisfy(treesEqual))
        if framing == .jsonLines {
            // One value per line, whatever the options.
            #expect(output.count { $0 == UInt8(ascii: "\n") } == trees.count)
        }
    }

    /// Every write is accounted for: a full disk (`/dev/full`) or a closed handle is an error from
    /// the call that reached the file, from every later call, and from `finish()`.
    @Test(arguments: [JSONFraming.array, .jsonLines, .concatenated, .jsonTextSequence])
    func streamWriterReportsFileHandleErrors(framing: JSONFraming) throws {
        if let full = FileHandle(forWritingAtPath: "/dev/full") {
            let writer = JSONStreamWriter(fileHandle: full, framing: framing)
            try writer.write(["small": 1])
            #expect(throws: (any Error).self) { try writer.finish() }
            #expect(throws: (any Error).self) { try writer.finish() }
            #expect(throws: (any Error).self) { try writer.write(2) }

            // Filling the buffer fails in write itself.
            let second = JSONStreamWriter(fileHandle: full, framing: framing)
            var failedAt: Int?
            for index in 0..<10_000 {
                do { try second.write(String(repeating: "x", count: 100)) } catch {
                    failedAt = index
                    break
                }
            }
            #expect(failedAt != nil)
            #expect(throws: (any Error).self) { try second.flush() }
            #expect(throws: (any Error).self) { try second.finish() }
            try full.close()
        }

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-adv-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        let writer = JSONStreamWriter(fileHandle: handle, framing: framing)
        try writer.write(1)
        try writer.flush()
        try handle.close()
        try writer.write(2)
        #expect(throws: (any Error).self) { try writer.finish() }
        #expect(throws: (any Error).self) { try writer.write(3) }
        #expect(try Data(contentsOf: url) == Data((framing == .array ? "[1" : framing == .jsonLines ? "1\n" : framing == .jsonTextSequence ? "\u{1E}1\n" : "1").utf8))
    }
}
