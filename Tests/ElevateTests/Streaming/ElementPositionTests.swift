import ElevateTestSupport
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `StreamingOptions.elementPositions`: each delivered element's index, byte range and line, in
/// order, just before the body gets it. Every range is checked by slicing the input: the slice is
/// the element's text exactly (no whitespace or separator around it), and parses to the element.
@Suite struct ElementPositionTests {
    /// Collects the positions reported on the parsing thread.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [ElementPosition] = []
        var positions: [ElementPosition] { lock.withLock { stored } }
        func record(_ position: ElementPosition) { lock.withLock { stored.append(position) } }
    }

    /// The elements of every kind that the crafted arrays hold, each as its text.
    static let elementTexts: [String] = [
        #"{"a": "],\"[", "b": [1, {"c": "}"}], "d": null}"#,
        "12",
        "-3.5e-2",
        "0",
        "true",
        "false",
        "null",
        #""plain""#,
        #""with ] , \" [ { } and \\ \" escapes \u00e9\n""#,
        #""""#,
        "[]",
        "{}",
        "[[[]], [\"]\"], {\"x\": [true, false]}]",
        "\"\u{00E9}t\u{00E9} \u{1F600}\"",
        "1.5E+300",
    ]

    /// An array of `texts` with `separator` between them and `padding` inside its brackets.
    static func array(_ texts: [String], separator: String = " ,\n\t ", padding: String = " \r\n  ") -> String {
        "[" + padding + texts.joined(separator: separator) + padding + "]"
    }

    /// The positions `forEachElement` (or, for `lines`, JSON Lines `forEachValue`) reports for
    /// `text` read as `input` makes it, with the elements delivered: each checked against the
    /// slice of the input its range names.
    @discardableResult
    static func checkedPositions(
        _ text: String, keyPath: String = "", lines: Bool = false, workers: Int = 1,
        resumingFrom checkpoint: StreamCheckpoint? = nil, input: (Data) -> JSONInput = { .data($0) },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [ElementPosition] {
        let bytes = Data(text.utf8)
        let recorder = Recorder()
        var options = StreamingOptions()
        options.concurrency = workers
        options.resumingFrom = checkpoint
        options.elementPositions = { recorder.record($0) }
        var elements: [JSON] = []
        if lines {
            try forEachValue(from: input(bytes), framing: .jsonLines, as: JSON.self, options: options) {
                elements.append($0)
            }
        } else {
            try forEachElement(from: input(bytes), atKeyPath: keyPath, as: JSON.self, options: options) {
                elements.append($0)
            }
        }
        let positions = recorder.positions
        #expect(positions.count == elements.count, sourceLocation: sourceLocation)
        for (position, element) in zip(positions, elements) {
            try expect(position, in: bytes, is: element, sourceLocation: sourceLocation)
        }
        return positions
    }

    /// The slice `position` names is a whole JSON value equal to `element`, without whitespace
    /// around it, and `position.line` is the line of its first byte.
    static func expect(
        _ position: ElementPosition, in bytes: Data, is element: JSON, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let slice = bytes[position.byteRange]
        let whitespace: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        #expect(
            !slice.isEmpty && !whitespace.contains(slice.first!) && !whitespace.contains(slice.last!),
            "\(position)", sourceLocation: sourceLocation)
        let parsed = try ElevateJSONDecoder().decode(JSON.self, from: Data(slice))
        #expect(
            parsed == element, "\(position): \(String(decoding: slice, as: UTF8.self))", sourceLocation: sourceLocation)
        if let line = position.line {
            #expect(
                line == bytes[..<position.byteRange.lowerBound].count(where: { $0 == 0x0A }) + 1,
                sourceLocation: sourceLocation)
        }
    }

    /// `text` in chunks of `size` bytes, as an asynchronous sequence.
    static func chunks(of text: String, size: Int) -> AsyncStream<[UInt8]> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
            }
            continuation.finish()
        }
    }

    /// The texts `positions` name in `text`.
    static func slices(of positions: [ElementPosition], in text: String) -> [String] {
        let bytes = Array(text.utf8)
        return positions.map { String(decoding: bytes[$0.byteRange], as: UTF8.self) }
    }

    @Test(arguments: [1, 2])
    func eachRangeIsTheElementsTextExactly(workers: Int) throws {
        let text = Self.array(Self.elementTexts)
        let positions = try Self.checkedPositions(text, workers: workers)
        #expect(positions.map(\.index) == Array(Self.elementTexts.indices))
        #expect(Self.slices(of: positions, in: text) == Self.elementTexts)
        #expect(positions.allSatisfy { $0.line != nil })
        // Nothing between the elements but separators: tight packing too.
        let tight = Self.array(Self.elementTexts, separator: ",", padding: "")
        #expect(Self.slices(of: try Self.checkedPositions(tight, workers: workers), in: tight) == Self.elementTexts)
    }

    @Test func anEmptyArrayReportsNothing() throws {
        for text in ["[]", "[ \n ]", #"{"a": {"items": []}}"#] {
            #expect(try Self.checkedPositions(text, keyPath: text.hasPrefix("{") ? "a.items" : "").isEmpty)
        }
    }

    /// The array at a key path: offsets are the whole input's, past what comes before the array.
    @Test(arguments: [1, 2])
    func theArrayAtAKeyPath(workers: Int) throws {
        let text =
            #"{"before": [1, "], [", {"items": 2}],"# + "\n"
            + #" "a": {"x": "items", "items": "# + Self.array(Self.elementTexts) + "},\n"
            + #" "after": [3, 4]}"#
        let positions = try Self.checkedPositions(text, keyPath: "a.items", workers: workers)
        #expect(Self.slices(of: positions, in: text) == Self.elementTexts)
    }

    /// Chunks of 1 and 3 bytes, through an asynchronous sequence: the same positions as one chunk.
    @Test(arguments: [1, 3])
    func smallChunks(size: Int) async throws {
        let text = #"{"a": {"items": "# + Self.array(Self.elementTexts) + "}}"
        let whole = try Self.checkedPositions(text, keyPath: "a.items")
        let chunks = Self.chunks(of: text, size: size)
        let recorder = Recorder()
        var options = StreamingOptions()
        options.elementPositions = { recorder.record($0) }
        var count = 0
        for try await _ in chunks.decodedElements(atKeyPath: "a.items", as: JSON.self, options: options) { count += 1 }
        #expect(count == Self.elementTexts.count)
        #expect(recorder.positions == whole)
    }

    /// A file read in the smallest chunks, with a string element far longer than a chunk (the
    /// parser holds chunks back while such a token is open) among small ones.
    @Test(arguments: [1, 2])
    func aFileInSmallChunksWithALongString(workers: Int) throws {
        let long = "\"" + String(repeating: #"ab\"c],"#, count: 30_000) + "\""
        var texts = Self.elementTexts
        texts.insert(long, at: 3)
        texts.append(long)
        texts += Self.elementTexts
        let text = Self.array(texts)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("positions-\(UUID()).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = Recorder()
        var options = StreamingOptions()
        options.chunkSize = JSONInput.minimumChunkSize
        options.concurrency = workers
        options.elementPositions = { recorder.record($0) }
        try forEachElement(from: .file(url), as: JSON.self, options: options) { _ in }
        #expect(Self.slices(of: recorder.positions, in: text) == texts)
        #expect(recorder.positions.map(\.index) == Array(texts.indices))
    }

    /// Resumed from a checkpoint: indices go on from the checkpoint's, offsets and lines are the
    /// input's, the same as the whole run gave.
    @Test(arguments: [1, 2])
    func aResumedStreamReportsTheInputsPositions(workers: Int) throws {
        let text = #"{"meta": 1, "items": "# + Self.array(Self.elementTexts) + "}\n"
        let checkpoints = StreamCheckpointTests.Recorder()
        let recorder = Recorder()
        var options = StreamingOptions()
        options.checkpoints = { checkpoints.record($0) }
        options.elementPositions = { recorder.record($0) }
        try forEachElement(from: .data(Data(text.utf8)), atKeyPath: "items", as: JSON.self, options: options) { _ in }
        let whole = recorder.positions
        #expect(whole.count == Self.elementTexts.count)
        for checkpoint in checkpoints.checkpoints.dropLast() {
            let resumed = try Self.checkedPositions(text, keyPath: "items", workers: workers, resumingFrom: checkpoint)
            #expect(resumed == Array(whole[checkpoint.index...]), "\(checkpoint)")
        }
    }

    /// Gzip input: offsets in the inflated text, as checkpoints are.
    @Test(arguments: [1, 2])
    func gzipInputHasOffsetsInItsText(workers: Int) throws {
        let text = Self.array(Self.elementTexts)
        let plain = try Self.checkedPositions(text, workers: workers)
        let gzip = try Self.checkedPositions(text, workers: workers) { .data(GzipFixture.member($0)) }
        #expect(gzip == plain)
    }

    /// Each position comes just before its element reaches the body: a body that throws at
    /// element 3 has had positions 0...3, with one worker or several.
    @Test(arguments: [1, 2])
    func aBodyThatThrowsHadItsElementsPosition(workers: Int) throws {
        struct Thrown: Error {}
        let text = Self.array((0..<200).map { #"{"n": \#($0)}"# })
        let recorder = Recorder()
        var options = StreamingOptions()
        options.concurrency = workers
        options.elementPositions = { recorder.record($0) }
        var seen: [Int] = []
        #expect(throws: Thrown.self) {
            try forEachElement(from: .data(Data(text.utf8)), as: JSON.self, options: options) { element in
                // The position of this element is already reported when it arrives.
                seen.append(recorder.positions.count)
                if seen.count == 4 { throw Thrown() }
            }
        }
        #expect(recorder.positions.map(\.index) == [0, 1, 2, 3])
        #expect(seen == [1, 2, 3, 4])
    }

    /// Elements skipped as invalid get no position; the others keep their index in the array.
    @Test(arguments: [1, 2])
    func skippedElementsGetNoPosition(workers: Int) throws {
        struct Item: Codable { var id: Int }
        let text = #"[{"id": 0}, {"id": "x"}, {"id": 2}, 3, {"id": 4}]"#
        let recorder = Recorder()
        var options = StreamingOptions()
        options.concurrency = workers
        options.skipsInvalidElements = true
        options.elementPositions = { recorder.record($0) }
        #expect(throws: ParserError.self) {
            try forEachElement(from: .data(Data(text.utf8)), as: Item.self, options: options) { _ in }
        }
        #expect(recorder.positions.map(\.index) == [0, 2, 4])
        #expect(Self.slices(of: recorder.positions, in: text) == [#"{"id": 0}"#, #"{"id": 2}"#, #"{"id": 4}"#])
    }

    /// The Elevate module's `forEachElement` reports positions too.
    @Test func elevateTypes() throws {
        struct Named: Elevate.Decodable {
            var name: String
            init(json: Any) throws {
                let entity = try Parser.parseEntity(json: json) { $0.addProperty(keyPath: "name", type: .string) }
                name = entity <-! "name"
            }
        }
        let texts = [#"{"name": "a]"}"#, #"{"name": "b", "x": [1, 2]}"#]
        let text = #"{"people": "# + Self.array(texts) + "}"
        let recorder = Recorder()
        var options = StreamingOptions()
        options.elementPositions = { recorder.record($0) }
        try Elevate.forEachElement(from: .data(Data(text.utf8)), atKeyPath: "people", as: Named.self, options: options)
        { _ in }
        #expect(Self.slices(of: recorder.positions, in: text) == texts)
    }

    /// Without the option, no offsets are read: the stream has no position finder at all.
    @Test func nothingIsTrackedWithoutTheOption() throws {
        let stream = ElementStream<Int>(
            keyPath: "", methodName: "Int", options: StreamingOptions(), decode: { _ in 0 }, deliver: { _ in })
        #expect(!stream.reportsPositions)
    }

    // MARK: JSON Lines

    /// Blank lines, `\r\n` endings, leading and trailing spaces, a byte order mark and a last line
    /// without a newline: each range is the value alone, each line the input's.
    static let lines = "\u{FEFF}  {\"a\": \"x]\\\"\"}  \r\n\n   \n\t[1, 2]\r\n\"s\\n\"\n  42 \r\n\r\ntrue\nnull"
    static let lineValues = [#"{"a": "x]\""}"#, "[1, 2]", #""s\n""#, "42", "true", "null"]

    static func checkedLinePositions(
        _ text: String, workers: Int = 1, resumingFrom checkpoint: StreamCheckpoint? = nil,
        input: (Data) -> JSONInput = { .data($0) }, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [ElementPosition] {
        try checkedPositions(
            text, lines: true, workers: workers, resumingFrom: checkpoint, input: input, sourceLocation: sourceLocation)
    }

    @Test(arguments: [1, 2])
    func jsonLinesRangesAreTheValuesAlone(workers: Int) throws {
        let positions = try Self.checkedLinePositions(Self.lines, workers: workers)
        #expect(Self.slices(of: positions, in: Self.lines) == Self.lineValues)
        #expect(positions.map(\.index) == Array(0..<6))
        #expect(positions.map(\.line) == [1, 4, 5, 6, 8, 9])
        let gzip = try Self.checkedLinePositions(Self.lines, workers: workers) { .data(GzipFixture.member($0)) }
        #expect(gzip == positions)
    }

    @Test func jsonLinesResumed() throws {
        let checkpoints = StreamCheckpointTests.Recorder()
        var options = StreamingOptions()
        options.checkpoints = { checkpoints.record($0) }
        let whole = try Self.checkedLinePositions(Self.lines)
        try forEachValue(from: .data(Data(Self.lines.utf8)), framing: .jsonLines, as: JSON.self, options: options) {
            _ in
        }
        for checkpoint in checkpoints.checkpoints {
            let resumed = try Self.checkedLinePositions(Self.lines, resumingFrom: checkpoint)
            #expect(resumed == Array(whole[checkpoint.index...]), "\(checkpoint)")
        }
    }

    @Test(arguments: [1, 3])
    func jsonLinesInSmallChunks(size: Int) async throws {
        let whole = try Self.checkedLinePositions(Self.lines)
        let chunks = Self.chunks(of: Self.lines, size: size)
        let recorder = Recorder()
        var options = StreamingOptions()
        options.elementPositions = { recorder.record($0) }
        for try await _ in chunks.decodedValues(framing: .jsonLines, as: JSON.self, options: options) {}
        #expect(recorder.positions == whole)
    }

    @Test(arguments: [1, 2])
    func jsonLinesBodyThatThrows(workers: Int) throws {
        struct Thrown: Error {}
        let text = (0..<100).map { #"{"n": \#($0)}"# }.joined(separator: "\n")
        let recorder = Recorder()
        var options = StreamingOptions()
        options.concurrency = workers
        options.elementPositions = { recorder.record($0) }
        var count = 0
        #expect(throws: Thrown.self) {
            try forEachValue(from: .data(Data(text.utf8)), framing: .jsonLines, as: JSON.self, options: options) { _ in
                count += 1
                if count == 4 { throw Thrown() }
            }
        }
        #expect(recorder.positions.map(\.index) == [0, 1, 2, 3])
    }

    // MARK: Differential

    /// Every JSONTestSuite document that is a valid array: each range, sliced and parsed, is the
    /// element delivered.
    @Test(
        .enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)),
        arguments: SharedCorpus.testParsingFiles(prefix: "y_"))
    func jsonTestSuiteArrays(name: String) throws {
        let bytes = Data(try SharedCorpus.testParsingBytes(name))
        guard let whole = try? ElevateJSONDecoder().decode(JSON.self, from: bytes), case .array(let elements) = whole
        else { return }
        let recorder = Recorder()
        var options = StreamingOptions()
        options.elementPositions = { recorder.record($0) }
        var delivered: [JSON] = []
        try forEachElement(from: .data(bytes), as: JSON.self, options: options) { delivered.append($0) }
        #expect(delivered == elements, "\(name)")
        #expect(recorder.positions.map(\.index) == Array(elements.indices), "\(name)")
        for (position, element) in zip(recorder.positions, delivered) {
            try Self.expect(position, in: bytes, is: element)
        }
    }
}
