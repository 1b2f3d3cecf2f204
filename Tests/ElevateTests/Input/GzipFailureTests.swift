import ElevateTestSupport
import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// Gzip that fails partway (truncated, corrupt): every byte inflated before the failure is read,
/// and judged, before the error, through every input form and with any number of workers, as for
/// plain input that ends in a read error. Stored blocks (level 0) make the inflatable prefix known:
/// a cut at compressed byte `k` of a one-block member leaves `k - 15` bytes of text (a 10-byte
/// header, a 5-byte block header).
@Suite struct GzipFailureTests {
    /// 3,000 JSON Lines of about 14 bytes, one stored block.
    static let lines = (0..<3_000).map { "{\"i\": \($0)}\n" }.joined()

    /// The text before a cut at compressed byte `cut`.
    static func prefix(cut: Int) -> Substring.UTF8View { lines.utf8.prefix(cut - 15)[...] }

    /// Runs `body` on a scratch file holding `bytes`, with options of 4 KiB reads, `workers`, and
    /// runs of 64 bytes (so that the runs of a split parse are many, and one is being cut when the
    /// input fails).
    static func withCutFile<R>(
        _ bytes: Data, workers: Int, _ body: (URL, StreamingOptions) throws -> R
    ) throws -> R {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).gz")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions(chunkSize: 4096, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = 64
        return try body(url, options)
    }

    /// Every inflated byte reaches the reader before the error, whatever the chunk size.
    @Test(arguments: [4096, 5000, 1 << 20])
    func everyInflatedByteComesBeforeTheError(chunkSize: Int) throws {
        let gzip = GzipFixture.member(Array(Self.lines.utf8), level: 0)
        for cut in [5_000, 20_000, 33_333] {
            var text: [UInt8] = []
            #expect(throws: JSONInputError.self) {
                try JSONInput.data(gzip.prefix(cut)).forEachChunk(chunkSize: chunkSize) { text += $0 }
            }
            #expect(text == Array(Self.prefix(cut: cut)), "cut at \(cut), chunks of \(chunkSize): \(text.count) bytes")
        }
    }

    /// A member followed by bytes that start no member: the member's whole text comes first,
    /// then the error, through data, a file and an asynchronous sequence alike.
    @Test(arguments: [4096, 1 << 20])
    func aWholeMemberComesBeforeTrailingData(chunkSize: Int) async throws {
        let gzip = GzipFixture.member(Array(Self.lines.utf8), level: 6) + Data("garbage".utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trailing-\(UUID().uuidString).gz")
        try gzip.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        for input in [JSONInput.data(gzip), .file(url)] {
            var text: [UInt8] = []
            #expect(throws: JSONInputError.self) { try input.forEachChunk(chunkSize: chunkSize) { text += $0 } }
            #expect(text == Array(Self.lines.utf8), "\(input), chunks of \(chunkSize): \(text.count) bytes")
        }
        var text: [UInt8] = []
        await #expect(throws: JSONInputError.self) {
            for try await chunk in ByteChunks(Array(gzip), size: 1000).decompressingGzip(chunkSize: chunkSize) { text += chunk }
        }
        #expect(text == Array(Self.lines.utf8), "async, chunks of \(chunkSize): \(text.count) bytes")
    }

    /// JSON Lines from a gzip file cut short: each complete line's value is delivered, then the
    /// error, with one worker and with two (runs of a few bytes).
    @Test(arguments: [1, 2])
    func everyCompleteLineIsDeliveredBeforeTheError(workers: Int) throws {
        let gzip = GzipFixture.member(Array(Self.lines.utf8), level: 0)
        for cut in [5_000, 20_000, 33_333] {
            var values: [JSON] = []
            try Self.withCutFile(gzip.prefix(cut), workers: workers) { url, options in
                #expect(throws: JSONInputError.self) {
                    try forEachValue(from: .file(url), framing: .jsonLines, as: JSON.self, options: options) { values.append($0) }
                }
            }
            let complete = Self.prefix(cut: cut).filter { $0 == UInt8(ascii: "\n") }.count
            #expect(values.count == complete, "cut at \(cut), \(workers) workers")
            #expect(values.last.map { "\($0)".contains("\(complete - 1)") } ?? false, "cut at \(cut): \(String(describing: values.last))")
        }
    }

    /// An array from a gzip file cut short: the elements delivered before the error are one
    /// thread's, with two workers (runs of a few bytes) as with one.
    @Test func everyElementOneThreadDeliversComesBeforeTheError() throws {
        let document = "{\"items\": [" + (0..<3_000).map { "{\"i\": \($0)}" }.joined(separator: ",\n") + "]}"
        let gzip = GzipFixture.member(Array(document.utf8), level: 0)
        for cut in [5_000, 20_000, 33_333] {
            var counts: [Int] = []
            for workers in [1, 2] {
                var count = 0
                try Self.withCutFile(gzip.prefix(cut), workers: workers) { url, options in
                    #expect(throws: JSONInputError.self) {
                        try forEachElement(from: .file(url), atKeyPath: "items", as: JSON.self, options: options) { _ in count += 1 }
                    }
                }
                counts.append(count)
            }
            let closed = document.utf8.prefix(cut - 15).filter { $0 == UInt8(ascii: "}") }.count
            #expect(counts[0] == closed, "cut at \(cut): one worker delivered \(counts[0]) of \(closed)")
            #expect(counts[1] == counts[0], "cut at \(cut): two workers delivered \(counts[1]), one \(counts[0])")
        }
    }

    /// A syntax error some chunks after a string of 2 MB, in input that fails soon after: the
    /// syntax error, with two workers as with one (the parser held the chunks after the string
    /// back until as much had come, so that the input failed first and its error was reported).
    @Test(arguments: [4096, 1 << 20])
    func aSyntaxErrorAfterALongStringComesBeforeTheInputsFailure(chunkSize: Int) throws {
        let elements = (0..<30_000).map { "{\"i\": \($0)}" }
        var document = Array(("{\"items\": [\"" + String(repeating: "x", count: 2_100_000) + "\", ").utf8)
        document += Array(elements.joined(separator: ",\n").utf8)
        for (distance, cut) in [(9_000, 20_000), (300_000, 100_000)] {
            let errorAt = 2_100_000 + distance
            var damaged = document
            damaged[errorAt] = UInt8(ascii: "?")
            let gzip = GzipFixture.member(damaged, level: 0)
            var outcomes: [String] = []
            for workers in [1, 2] {
                var count = 0
                try Self.withCutFile(gzip.prefix(errorAt + cut), workers: workers) { url, options in
                    var options = options
                    options.chunkSize = chunkSize
                    do {
                        try forEachElement(from: .file(url), atKeyPath: "items", as: JSON.self, options: options) { _ in count += 1 }
                        outcomes.append("no error")
                    } catch {
                        let described = SplitLinesReaderTests.describe(error).replacingOccurrences(of: url.path, with: "the file")
                        outcomes.append("\(count) elements, then \(described)")
                    }
                }
            }
            #expect(outcomes[0].contains("JSONSyntaxError") && outcomes[0].contains("byte \(errorAt)"), "\(outcomes[0])")
            #expect(outcomes[1] == outcomes[0], "chunks of \(chunkSize), the error \(distance) bytes after the string")
        }
    }

    /// An asynchronous sequence of chunks that throws after some: every value its chunks
    /// complete is delivered before its error, with two workers (runs of a few bytes) as with one.
    @Test func anAsyncSequenceThatFailsDeliversWhatItsChunksHold() async throws {
        struct Failing: AsyncSequence, Sendable {
            struct Broken: Error {}
            let pieces: [[UInt8]]
            struct AsyncIterator: AsyncIteratorProtocol {
                var pieces: ArraySlice<[UInt8]>
                mutating func next() async throws -> [UInt8]? {
                    guard let piece = pieces.popFirst() else { throw Broken() }
                    return piece
                }
            }
            func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pieces: pieces[...]) }
        }
        let text = Array(Self.lines.utf8.prefix(20_000))
        let pieces = stride(from: 0, to: text.count, by: 3_000).map { Array(text[$0..<min($0 + 3_000, text.count)]) }
        // Cut just after an element's `}`: complete, with no comma after it yet.
        var document = Array("{\"items\": [".utf8) + Array(Self.lines.replacingOccurrences(of: "\n", with: ",").utf8.prefix(20_000))
        document.removeSubrange((document.lastIndex(of: UInt8(ascii: "}"))! + 1)...)
        let documentPieces = stride(from: 0, to: document.count, by: 3_000).map {
            Array(document[$0..<min($0 + 3_000, document.count)])
        }
        var lineCounts: [Int] = []
        var elementCounts: [Int] = []
        for workers in [1, 2] {
            var options = StreamingOptions(wrapsErrorsInParserError: false)
            options.concurrency = workers
            options.splitBatchByteCount = 64
            var lines = 0
            await #expect(throws: Failing.Broken.self) {
                for try await _ in Failing(pieces: pieces).decodedValues(framing: .jsonLines, as: JSON.self, options: options) {
                    lines += 1
                }
            }
            lineCounts.append(lines)
            var elements = 0
            await #expect(throws: Failing.Broken.self) {
                for try await _ in Failing(pieces: documentPieces).decodedElements(atKeyPath: "items", as: JSON.self, options: options) {
                    elements += 1
                }
            }
            elementCounts.append(elements)
        }
        let complete = text.filter { $0 == UInt8(ascii: "\n") }.count
        #expect(lineCounts == [complete, complete], "lines: \(lineCounts) of \(complete)")
        let closed = document.filter { $0 == UInt8(ascii: "}") }.count
        #expect(elementCounts == [closed, closed], "elements: \(elementCounts) of \(closed)")
    }

    /// A syntax error in the text inflated before the failure is the error, as in plain input, and
    /// the counts of `elevate validate --json-lines` (one job or two) read every line before it.
    @Test(arguments: [1, 2])
    func aSyntaxErrorBeforeTheFailureComesFirst(workers: Int) throws {
        var lines = Self.lines
        let bad = lines.index(lines.startIndex, offsetBy: 15_000)
        lines.insert(contentsOf: "x", at: bad)
        let gzip = GzipFixture.member(Array(lines.utf8), level: 0)
        try Self.withCutFile(gzip.prefix(20_000), workers: workers) { url, options in
            #expect(throws: JSONSyntaxError.self) { _ = try countLines(in: .file(url), options: options) }
            var longRuns = options
            longRuns.splitBatchByteCount = 1 << 20
            #expect(throws: JSONSyntaxError.self) { _ = try countLines(in: .file(url), options: longRuns) }
        }
    }
}
