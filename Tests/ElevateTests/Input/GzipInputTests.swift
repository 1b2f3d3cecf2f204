import ElevateSampleData
import ElevateTestSupport
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Gzip input: every input form inflates it to exactly the plain text's results and errors
/// (positions counted in the text), several members read as one, and damaged gzip is an error that
/// says what and at which compressed byte; hostile gzip (a bomb) meets the limits of plain input
/// without unbounded memory.
@Suite struct GzipInputTests {
    typealias Reader = JSONInputTests.Reader

    /// A scratch file holding `bytes`, removed by the caller.
    static func file(_ bytes: some Sequence<UInt8>, suffix: String = ".json.gz") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-\(UUID().uuidString)\(suffix)")
        try Data(bytes).write(to: url)
        return url
    }

    /// Every byte of `input`, through `forEachChunk`, and the chunk sizes.
    static func text(of input: JSONInput, chunkSize: Int = JSONInput.defaultChunkSize) throws -> (Data, [Int]) {
        var text = Data()
        var sizes: [Int] = []
        try input.forEachChunk(chunkSize: chunkSize) { chunk in
            text.append(contentsOf: chunk)
            sizes.append(chunk.count)
        }
        return (text, sizes)
    }

    /// The error `body` throws, as a ``JSONInputError``.
    static func inputError(_ body: () throws -> Void) -> JSONInputError? {
        do {
            try body()
            return nil
        } catch {
            return error as? JSONInputError
        }
    }

    // MARK: Every input form

    /// Each document of the input corpus (syntax errors and invalid elements included), gzipped,
    /// gives the plain document's outcome through data, a file, a pipe written in small pieces and
    /// the asynchronous adapter over every chunking; and so does the document cut into two members.
    @Test(arguments: Reader.allCases)
    func everyFormReadsGzipAsItsText(reader: Reader) async throws {
        let options = StreamOutcome.unwrapped()
        for bytes in JSONInputTests.corpus {
            let expected = reader(.data(Data(bytes)), options)
            let name = String(decoding: bytes, as: UTF8.self).debugDescription
            let half = bytes.count / 2
            let members = [GzipFixture.member(bytes), GzipFixture.member(bytes[..<half]) + GzipFixture.member(bytes[half...])]
            for gzip in members {
                let outcomes = [
                    ("data", reader(.data(gzip), options)),
                    ("file", try Self.withFile(gzip) { reader(.file($0), options) }),
                    ("pipe", StreamOutcome.throughPipe(Array(gzip), writes: [1, 2, 3, 1, 7]) { reader($0, options) }),
                ]
                for (form, outcome) in outcomes {
                    #expect(StreamOutcome.same(outcome, expected), "\(name) as gzip \(form): \(outcome), not \(expected)")
                }
                for size in [1, 2, 3, 5, gzip.count] {
                    let chunks = ByteChunks(Array(gzip), size: size).decompressingGzip(chunkSize: 4096)
                    let outcome = await reader(chunks, options)
                    #expect(StreamOutcome.same(outcome, expected), "\(name) as gzip chunks of \(size): \(outcome)")
                }
            }
        }
    }

    private static func withFile<R>(_ bytes: Data, _ body: (URL) throws -> R) throws -> R {
        let url = try file(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    /// A people document of a few megabytes, in small and default chunks, on the inflating thread
    /// and on the calling thread: the same bytes, and the same people, by every reader.
    @Test func aMultiMegabyteDocumentRoundTrips() async throws {
        let plain = SampleDocument.people.generate(targetSize: 3 << 20, seed: 29)
        let gzip = GzipFixture.member(plain.data)
        let url = try Self.file(gzip)
        defer { try? FileManager.default.removeItem(at: url) }

        for chunkSize in [4096, JSONInput.defaultChunkSize] {
            let (text, sizes) = try Self.text(of: .file(url), chunkSize: chunkSize)
            #expect(text == plain.data)
            #expect(sizes.allSatisfy { $0 <= chunkSize })
            #expect(try Self.text(of: .data(gzip), chunkSize: chunkSize).0 == plain.data)
            for concurrently in [true, false] {
                var inflated = Data()
                try gzip.withUnsafeBytes { bytes in
                    let reader = try InflatingChunkReader(bytes: bytes, name: "data")
                    let failure = try GzipReading.read(
                        reader, chunkSize: chunkSize, concurrently: concurrently, progress: nil
                    ) { chunk in
                        inflated.append(contentsOf: chunk)
                        return true
                    }
                    #expect(failure == nil)
                }
                #expect(inflated == plain.data, "concurrently: \(concurrently), chunk size \(chunkSize)")
            }
        }
        let piped = StreamOutcome.throughPipe(Array(gzip), writes: [1, 1, 4093, 65536]) { input in
            Result { try Self.text(of: input).0 }
        }
        #expect(try piped.get() == plain.data)

        let count = plain.summary.itemCount
        #expect(try Elevate.forEachElement(from: .file(url), atKeyPath: "response.items", as: Skipped.self) { _ in } == count)
        #expect(try summarizeValue(from: .data(gzip), atKeyPath: "response.items")?.count == count)
        #expect(try JSONValue(parsing: .file(url))["response"]?["items"]?.count == count)
        #expect(try JSONValue(parsing: .data(gzip))["response"]?["count"]?.int == count)
        struct Response: Swift.Decodable { let count: Int }
        #expect(try ElevateJSONDecoder().decode(Response.self, from: .file(url), atKeyPath: "response").count == count)
        #expect(try ElevateJSONDecoder().decode(Response.self, from: .data(gzip), atKeyPath: "response").count == count)
        let people: [Skipped] = try Elevate.decodeArray(from: .file(url), atKeyPath: "response.items")
        #expect(people.count == count)
        var asyncCount = 0
        for try await _ in ByteChunks(Array(gzip), size: 65536).decompressingGzip()
            .decodedElements(atKeyPath: "response.items", as: Skipped.self)
        {
            asyncCount += 1
        }
        #expect(asyncCount == count)
        #expect(try await JSONValue(parsing: AsyncFileChunks(url: url).decompressingGzip())["response"]?["items"]?.count == count)
    }

    /// An element decoded as nothing, for counts.
    private struct Skipped: Elevate.Decodable {
        init(json: Any) {}
    }

    /// `cat a.gz b.gz c.gz`: one text, empty members included, whatever the chunking (a pipe
    /// written a byte at a time splits the magic bytes of the next member across reads).
    @Test func membersOneAfterAnotherAreOneText() async throws {
        let parts: [[UInt8]] = [Array("[1, ".utf8), [], Array("2, 3".utf8), Array("]".utf8), []]
        let gzip = parts.map { GzipFixture.member($0) }.reduce(Data(), +)
        #expect(try Self.text(of: .data(gzip)).0 == Data("[1, 2, 3]".utf8))
        let piped = StreamOutcome.throughPipe(Array(gzip), writes: Array(repeating: 1, count: gzip.count)) { input in
            Result { try Self.text(of: input).0 }
        }
        #expect(try piped.get() == Data("[1, 2, 3]".utf8))
        for size in 1...gzip.count {
            var text: [UInt8] = []
            for try await chunk in ByteChunks(Array(gzip), size: size).decompressingGzip() { text += chunk }
            #expect(text == Array("[1, 2, 3]".utf8), "chunks of \(size)")
        }
        #expect(try summarizeValue(from: .data(gzip), atKeyPath: "")?.count == 3)
    }

    /// A gzip of nothing is an empty text: no values as JSON Lines, and the error of empty input
    /// for one document.
    @Test func anEmptyMemberIsAnEmptyText() async throws {
        let gzip = GzipFixture.member([UInt8]())
        #expect(try Self.text(of: .data(gzip)).0.isEmpty)
        let options = StreamOutcome.unwrapped()
        for reader in Reader.allCases {
            #expect(reader(.data(gzip), options) == reader(.data(Data()), options))
        }
        #expect(try Elevate.forEachValue(from: .data(gzip + gzip), framing: .jsonLines, as: StreamOutcome.Echo.self) { _ in } == 0)
        var chunks = 0
        for try await _ in ByteChunks(Array(gzip), size: 3).decompressingGzip() { chunks += 1 }
        #expect(chunks == 0)
    }

    /// Input that is not gzip passes through the asynchronous adapter unchanged, chunk for chunk.
    @Test func theAdapterPassesPlainChunksThrough() async throws {
        let bytes = Array(#"{"a": [1, 2]}"#.utf8)
        for size in [1, 2, 5, bytes.count] {
            var chunks: [[UInt8]] = []
            for try await chunk in ByteChunks(bytes, size: size).decompressingGzip() { chunks.append(chunk) }
            #expect(chunks.joined().elementsEqual(bytes))
            #expect(size < 2 || chunks == ByteChunks(bytes, size: size).pieces, "chunks of \(size)")
        }
        var count = 0
        for try await _ in ByteChunks([], size: 1).decompressingGzip() { count += 1 }
        #expect(count == 0)
    }

    // MARK: Errors

    /// Every cut of a gzip file inside its member is `truncated`, at the cut: through data, a
    /// file, and the adapter; with Elevate's wrapping, a `ParserError` saying so.
    @Test func aTruncatedMemberIsAnErrorAtItsEnd() async throws {
        let gzip = GzipFixture.member(Array(#"{"items": [1, 2, 3, "four", {"five": 5}]}"#.utf8))
        for cut in 2..<gzip.count {
            let truncated = gzip.prefix(cut)
            let error = Self.inputError { _ = try Self.text(of: .data(truncated)) }
            #expect(error?.gzipProblem == .truncated, "cut at \(cut): \(String(describing: error))")
            #expect(error?.compressedByteOffset == cut)
            #expect(error?.path == "data")
            await #expect {
                for try await _ in ByteChunks(Array(truncated), size: 3).decompressingGzip() {}
            } throws: { ($0 as? JSONInputError)?.gzipProblem == .truncated }
        }
        let url = try Self.file(gzip.prefix(gzip.count - 3))
        defer { try? FileManager.default.removeItem(at: url) }
        let error = Self.inputError { _ = try summarizeValue(from: .file(url), atKeyPath: "items", options: StreamOutcome.unwrapped()) }
        #expect(error?.path == url.path && error?.compressedByteOffset == gzip.count - 3)
        #expect(error?.description.contains("truncated") == true)
        #expect(throws: ParserError.self) {
            try Elevate.forEachElement(from: .file(url), atKeyPath: "items", as: StreamOutcome.Echo.self) { _ in }
        }
        #expect(throws: JSONInputError.self) { try JSONValue(parsing: .file(url)) }
    }

    /// A bad header field, bad deflate data, a wrong CRC or length: `corrupt`, at the compressed
    /// byte where zlib found it.
    @Test func corruptMembersAreErrorsWhereFound() throws {
        let text = Array(#"{"items": [1, 2, 3]}"#.utf8)
        let gzip = Array(GzipFixture.member(text))
        func damaged(_ index: Int, _ value: UInt8) -> Data {
            var bytes = gzip
            bytes[index] = value
            return Data(bytes)
        }
        // (damage, the offset at which it is found)
        let cases: [(String, Data, Int)] = [
            // zlib reads the method and the flags together.
            ("method", damaged(2, 7), 4),
            ("reserved flag", damaged(3, 0x80), 4),
            ("CRC", damaged(gzip.count - 8, gzip[gzip.count - 8] ^ 1), gzip.count - 4),
            ("length", damaged(gzip.count - 1, gzip[gzip.count - 1] ^ 1), gzip.count),
            ("block type", damaged(10, 0x07), 11),
        ]
        for (what, bytes, offset) in cases {
            let error = Self.inputError { _ = try Self.text(of: .data(bytes)) }
            #expect(error?.gzipProblem == .corrupt, "\(what): \(String(describing: error))")
            #expect(error?.compressedByteOffset == offset, "\(what): \(String(describing: error))")
            #expect(error?.reason.contains("corrupt at compressed byte \(offset)") == true)
        }
    }

    /// After the last member, bytes that start no member are `trailingData` at their first byte
    /// (a lone first magic byte is a member cut short).
    @Test func bytesAfterTheLastMemberAreAnError() async throws {
        let gzip = GzipFixture.member(Array("[1]".utf8))
        let cases: [([UInt8], JSONInputError.GzipProblem, Int)] = [
            (Array("garbage".utf8), .trailingData, gzip.count),
            ([0, 0, 0, 0], .trailingData, gzip.count),
            ([0x1F, 0x00], .trailingData, gzip.count),
            ([0x0A], .trailingData, gzip.count),
            ([0x1F], .truncated, gzip.count + 1),
            ([0x1F, 0x8B], .truncated, gzip.count + 2),
        ]
        for (tail, problem, offset) in cases {
            let bytes = gzip + tail
            let error = Self.inputError { _ = try Self.text(of: .data(bytes)) }
            #expect(error?.gzipProblem == problem && error?.compressedByteOffset == offset, "\(tail): \(String(describing: error))")
            let piped = StreamOutcome.throughPipe(Array(bytes), writes: Array(repeating: 1, count: bytes.count)) { input in
                Self.inputError { _ = try Self.text(of: input) }
            }
            #expect(piped?.gzipProblem == problem && piped?.compressedByteOffset == offset, "\(tail) through a pipe")
            for size in [1, 2, bytes.count] {
                await #expect("\(tail) in chunks of \(size)") {
                    for try await _ in ByteChunks(Array(bytes), size: size).decompressingGzip() {}
                } throws: { error in
                    let error = error as? JSONInputError
                    return error?.gzipProblem == problem && error?.compressedByteOffset == offset
                }
            }
        }
    }

    /// A syntax error in gzip input has the position of the plain text's (byte, line, column and
    /// excerpt), for one document and for JSON Lines.
    @Test func syntaxErrorsArePlacedInTheText() throws {
        let documents = [#"{"items": [1, 2, tru]}"#, "{\"a\": 1}\n{\"b\": 2}\n\n{\"c\": x}\n", "[1,\n  2,\n  ]"]
        for document in documents {
            let plain = Data(document.utf8)
            let gzip = GzipFixture.member(plain)
            func error(_ input: JSONInput) -> JSONSyntaxError? {
                do {
                    let parser = JSONEventParser(handler: NullHandler(), options: .init(allowsMultipleValues: true))
                    try parser.parseAll(input)
                    return nil
                } catch {
                    return error as? JSONSyntaxError
                }
            }
            let expected = try #require(error(.data(plain)))
            let got = try #require(error(.data(gzip)))
            #expect(
                (got.byteOffset, got.line, got.column, got.excerpt, got.message)
                    == (expected.byteOffset, expected.line, expected.column, expected.excerpt, expected.message))
        }
        // JSON Lines names the line of the text.
        let lines = GzipFixture.member(Array("{\"a\": 1}\n{\"a\": 2}\n{\"a\": }\n".utf8))
        #expect {
            try Elevate.forEachValue(from: .data(lines), framing: .jsonLines, as: StreamOutcome.Echo.self) { _ in }
        } throws: { error in
            String(describing: error).contains("line 3")
        }
    }

    private final class NullHandler: JSONEventHandler {}

    /// A decoding error's position, found by reading the input again, is in the inflated text of
    /// a gzip file and of gzip data, as in the plain text.
    @Test func decodingErrorsOfGzipInputArePlacedInTheText() throws {
        struct Item: Swift.Decodable { let id: Int }
        let plain = Data("{\"items\": [\n  {\"id\": 1},\n  {\"id\": \"two\"}\n]}".utf8)
        let gzip = GzipFixture.member(plain)
        let url = try Self.file(gzip)
        defer { try? FileManager.default.removeItem(at: url) }
        func description(_ input: JSONInput) -> String {
            let result = Result { try ElevateJSONDecoder().decode([Item].self, from: input, atKeyPath: "items") }
            guard case .failure(let error) = result else { return "no error" }
            return String(describing: error)
        }
        let expected = description(.data(plain))
        #expect(expected.contains("line 3"))
        #expect(description(.file(url)) == expected)
        #expect(description(.data(gzip)) == expected)
    }

    // MARK: Progress, sizes, stops

    /// Progress counts compressed bytes, ending at the input's size: what a progress bar compares
    /// with a file's size.
    @Test func progressCountsCompressedBytes() throws {
        let plain = SampleDocument.people.generate(targetSize: 1 << 20, seed: 3).data
        let gzip = GzipFixture.member(plain)
        let url = try Self.file(gzip)
        defer { try? FileManager.default.removeItem(at: url) }
        for input in [JSONInput.data(gzip), .file(url)] {
            var reports: [Int] = []
            try input.forEachChunk(chunkSize: 65536, progress: { reports.append($0) }) { _ in }
            #expect(reports.count > 1 && reports == reports.sorted() && reports.last == gzip.count)
        }
        #expect(JSONInput.data(gzip).knownByteCount == nil)
        #expect(JSONInput.file(url).knownByteCount == nil)
        #expect(JSONInput.data(plain).knownByteCount == plain.count)
    }

    /// A consumer that stops while the writer of a pipe still holds it open (more gzip to come, or
    /// not) gets its call back at once: the inflating thread, waiting for input, is woken and
    /// joined, never left waiting for the writer.
    @Test func aStopDoesNotWaitForThePipesWriter() throws {
        let plain = SampleDocument.people.generate(targetSize: 2 << 20, seed: 5).data
        let gzip = GzipFixture.member(plain)
        let pipe = Pipe()
        // The start of the member, within what a pipe holds unread (so that this write does not
        // wait): hundreds of people, and then nothing until the writer closes.
        pipe.fileHandleForWriting.write(gzip.prefix(32 << 10))
        let input = JSONInput.fileHandle(pipe.fileHandleForReading)
        let delivered = runOnThread(stackSize: 1 << 20, waitingAtMost: 60) {
            var count = 0
            _ = try? Elevate.forEachElement(from: input, atKeyPath: "response.items", as: Skipped.self) { _ in
                count += 1
                if count == 10 { throw JSONEventParser.Stop() }
            }
            return count
        }
        try pipe.fileHandleForWriting.close()
        #expect(delivered == 10, "the call did not return while the pipe's writer held it open")
    }

    // MARK: Hostile input

    /// 200 MB of spaces inside a string, compressed to about 200 KB: the token limit refuses the
    /// string after inflating little more than the limit (reported through progress), whatever the
    /// text's size; the element limit and the depth limit do the same for an endless element and
    /// 200 MB of `[`.
    @Test func aGzipBombMeetsTheLimitsOfPlainInput() async throws {
        let block = [UInt8](repeating: 0x20, count: 1 << 20)
        let inString = GzipFixture.member(prefix: Array(#"{"items": [""#.utf8), repeating: block, times: 200, suffix: Array(#""]}"#.utf8))
        let ones = Array(String(repeating: "1, ", count: 349_525).utf8)
        let inElement = GzipFixture.member(prefix: Array(#"{"items": [["#.utf8), repeating: ones, times: 200, suffix: Array("1]]}".utf8))
        let nested = GzipFixture.member(prefix: [UInt8](), repeating: [UInt8](repeating: UInt8(ascii: "["), count: 1 << 20), times: 200, suffix: [UInt8]())
        #expect(inString.count < 1 << 20 && inElement.count < 1 << 20 && nested.count < 1 << 20)

        var options = StreamingOptions(maximumElementSize: 1 << 20, wrapsErrorsInParserError: false)
        options.parsing.maximumTokenSize = 1 << 20
        let compressedRead = LockedBox(0)
        options.progress = { bytes in compressedRead.withLock { $0 = bytes } }
        for (what, gzip) in [("string", inString), ("element", inElement), ("nesting", nested)] {
            compressedRead.withLock { $0 = 0 }
            #expect(throws: (any Error).self, "\(what)") {
                try Elevate.forEachElement(from: .data(gzip), atKeyPath: "items", as: StreamOutcome.Echo.self, options: options) { _ in }
            }
            // Refused within a few chunks of the limit: a small part of the compressed bytes.
            let read = compressedRead.withLock { $0 }
            #expect(read < gzip.count / 4, "\(what): \(read) of \(gzip.count) compressed bytes taken")
        }
        await #expect(throws: (any Error).self) {
            _ = try await ByteChunks(Array(inString), size: 4096).decompressingGzip(chunkSize: 65536)
                .summarizeValue(atKeyPath: "items", options: options)
        }
    }
}
