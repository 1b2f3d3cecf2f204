import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// A file in the temporary directory, removed by the caller.
private func temporaryFile(_ bytes: [UInt8]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-limits-\(UUID().uuidString).json")
    try Data(bytes).write(to: url)
    return url
}

/// The validation text of what `body` throws, or nil (recording an issue) for anything else.
private func validationReason(_ body: () throws -> Void) -> String? {
    do {
        try body()
        Issue.record("no error")
    } catch ParserError.validation(let reason) {
        return reason
    } catch {
        Issue.record("unexpected \(error)")
    }
    return nil
}

/// `StreamingOptions` as every streaming entry point honours them: the element size limit, the
/// failures reported, progress, unwrapped errors, workers, and early stops.
@Suite struct StreamingOptionsTests {
    // MARK: The element size limit holds for scalars

    @Test(arguments: [1 << 20, 7, 4096])
    func aScalarElementIsHeldToTheElementSizeLimit(chunkSize: Int) throws {
        let string = String(repeating: "x", count: 2 << 20)
        let url = try temporaryFile(Array(#"{"items": ["a", "\#(string)", "b"]}"#.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        var seen: [String] = []
        let reason = validationReason {
            try Elevate.forEachElement(
                from: .file(url), atKeyPath: "items", as: String.self,
                options: StreamingOptions(maximumElementSize: 1 << 20, chunkSize: chunkSize)
            ) { seen.append($0) }
        }
        #expect(
            reason == "Element at index 1 of key path [items] is larger than the maximum element size of 1048576 bytes")
        #expect(seen == ["a"])
    }

    @Test func aScalarValueIsHeldToTheElementSizeLimit() {
        let options = StreamingOptions(maximumElementSize: 1000)
        let text = #""a" "\#(String(repeating: "y", count: 2000))" "b""#
        let reason = validationReason {
            try Elevate.forEachValue(
                from: .data(Data(text.utf8)), framing: .concatenated, as: String.self, options: options
            ) { _ in }
        }
        #expect(reason?.contains("Value 1 is larger than the maximum element size of 1000 bytes") == true)
        let atKeyPath = #"{"a": "\#(String(repeating: "z", count: 2000))"}"#
        let keyed = validationReason {
            try Elevate.forEachValue(
                from: .data(Data(atKeyPath.utf8)), framing: .concatenated, atKeyPath: "a", as: String.self,
                options: options
            ) { _ in }
        }
        #expect(keyed == "Value 0 is larger than the maximum element size of 1000 bytes")
    }

    /// An element's size is its bytes in the input, from its opening bracket to its closing one:
    /// a limit of 11 takes `{"a":12345}` (11 bytes) and refuses `{"a":123456}` (12), however the
    /// input is chunked. (The opening bracket was left out, so a limit let one byte more through.)
    @Test(arguments: [1, 4, 4096])
    func anElementsSizeCountsBothOfItsBrackets(chunkSize: Int) throws {
        struct Anything: Elevate.Decodable { init(json: Any) throws {} }
        let options = StreamingOptions(maximumElementSize: 11, chunkSize: chunkSize)
        let fits = #"[{"a":12345},["abcdefg"]]"#
        var seen = 0
        try Elevate.forEachElement(from: .data(Data(fits.utf8)), atKeyPath: "", as: Anything.self, options: options) {
            _ in seen += 1
        }
        #expect(seen == 2)
        for tooLarge in [#"[{"a":123456}]"#, #"[["abcdefgh"]]"#] {
            let reason = validationReason {
                try Elevate.forEachElement(
                    from: .data(Data(tooLarge.utf8)), atKeyPath: "", as: Anything.self, options: options
                ) { _ in }
            }
            #expect(reason?.contains("larger than the maximum element size of 11 bytes") == true, "\(tooLarge)")
        }
    }

    /// Elevate's in-memory calls take no options: they run with the same default limit as the rest.
    @Test func elevatesDataCallsHoldValuesToTheDefaultLimit() {
        let limit = StreamingOptions().maximumElementSize
        let big = String(repeating: "v", count: limit + 1)
        let data = Data(#"{"items": ["\#(big)"], "name": "\#(big)"}"#.utf8)
        let expected = "A value is larger than the maximum element size of \(limit) bytes"
        let array = validationReason { _ = try Elevate.decodeArray(from: data, atKeyPath: "items") as [String] }
        #expect(array?.contains("is larger than the maximum element size of \(limit) bytes") == true, "\(array ?? "")")
        let object = validationReason { _ = try Elevate.decodeObject(from: data, atKeyPath: "name") as String }
        #expect(object?.hasPrefix(expected) == true, "\(object ?? "")")
        let entity = validationReason {
            _ = try Parser.parseEntity(data: data) { $0.addProperty(keyPath: "name", type: .string) }
        }
        #expect(entity?.hasPrefix(expected) == true, "\(entity ?? "")")
    }

    @Test func aScalarElementOfDecodeArrayIsHeldToTheLimit() throws {
        let url = try temporaryFile(Array(#"["\#(String(repeating: "w", count: 2000))"]"#.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let reason = validationReason {
            _ =
                try Elevate.decodeArray(
                    from: .file(url), atKeyPath: "", options: StreamingOptions(maximumElementSize: 1000)) as [String]
        }
        #expect(reason?.contains("larger than the maximum element size of 1000 bytes") == true)
    }

    // MARK: Every entry point has the defaults of StreamingOptions()

    /// A 65 MiB element is over the default 64 MiB limit, for every file entry point. (Of many
    /// short strings: one 65 MiB string is refused sooner, as a token over the parser's own
    /// 64 MiB `maximumTokenSize`.)
    @Test func entryPointsWithoutOptionsUseTheDefaultLimit() throws {
        let limit = StreamingOptions().maximumElementSize
        var bytes = Array(#"{"items": [["#.utf8)
        let piece = Array(#""\#(String(repeating: "x", count: 1022))","#.utf8)
        for _ in 0..<((limit + (1 << 20)) / piece.count) { bytes.append(contentsOf: piece) }
        bytes.append(contentsOf: Array(#""x"]]}"#.utf8))
        let url = try temporaryFile(bytes)
        bytes = []
        defer { try? FileManager.default.removeItem(at: url) }

        let streamed = validationReason {
            try Elevate.forEachElement(from: .file(url), atKeyPath: "items", as: [String].self) { _ in }
        }
        #expect(streamed?.contains("maximum element size of \(limit) bytes") == true)
        let decoded = validationReason { _ = try Elevate.decodeArray(from: .file(url), atKeyPath: "items") as [[String]] }
        #expect(decoded?.contains("maximum element size of \(limit) bytes") == true)
        let forwarded = validationReason {
            try Elevate.forEachEvent(from: .file(url), atKeyPath: "items.0", to: NullHandler())
        }
        #expect(forwarded?.contains("maximum element size of \(limit) bytes") == true)
    }

    @Test func decodeArrayFromAFileTakesOptions() throws {
        let url = try temporaryFile(Array(#"{"items": [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1]]}"#.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let small = StreamingOptions(maximumElementSize: 10)
        #expect(throws: ParserError.self) {
            _ = try Elevate.decodeArray(from: .file(url), atKeyPath: "items", options: small) as [[Int]]
        }
        let lists: [[Int]] = try Elevate.decodeArray(from: .file(url), atKeyPath: "items", options: StreamingOptions())
        #expect(lists.count == 2)
    }

    // MARK: Skipped elements are reported in bounded memory

    @Test func skippedElementsKeepTheFirstTextsAndCountTheRest() throws {
        let count = 12_347
        let json = "{\"items\": [" + Array(repeating: "\"x\"", count: count).joined(separator: ",") + ", 7]}"
        var options = StreamingOptions(skipsInvalidElements: true)
        #expect(options.maximumReportedFailures == 100)
        options.maximumReportedFailures = 2
        var delivered: [Int] = []
        let reason = validationReason {
            try Elevate.forEachElement(from: .data(Data(json.utf8)), atKeyPath: "items", as: Int.self, options: options)
            {
                delivered.append($0)
            }
        }
        #expect(delivered == [7])
        let lines = reason?.components(separatedBy: "\n") ?? []
        #expect(lines.filter { $0.hasPrefix("Error parsing array object at index") }.count == 2)
        #expect(lines.first == "Error parsing array object at index 0 with parser [Int]")
        #expect(lines.last == "… and 12,345 more invalid elements")
    }

    @Test func theDefaultKeepsOneHundredTexts() throws {
        let lines = (0..<250).map { _ in "\"x\"" }.joined(separator: "\n")
        let reason = validationReason {
            try Elevate.forEachValue(
                from: .data(Data(lines.utf8)), framing: .jsonLines, as: Int.self,
                options: StreamingOptions(skipsInvalidElements: true)
            ) { _ in }
        }
        let texts = reason?.components(separatedBy: "\n") ?? []
        #expect(texts.filter { $0.hasPrefix("Error parsing line") }.count == 100)
        #expect(texts.first == "Error parsing line 1 with parser [Int]")
        #expect(texts.last == "… and 150 more invalid elements")
    }

    /// `decodeArray` reports every failing element, Elevate's way, but collected every one: an
    /// array of millions of invalid elements held millions of texts. It keeps the first
    /// `maximumReportedFailures` (100 by default) in full and counts the rest, with one worker
    /// or several, from data or a file, and through Elevate's `decodeArray(from: data)`.
    @Test(arguments: [1, 2])
    func decodeArrayKeepsTheFirstFailureTextsAndCountsTheRest(workers: Int) throws {
        let json = "[" + (0..<250).map { $0 % 50 == 0 ? "\($0)" : "\"x\"" }.joined(separator: ",") + "]"
        var options = StreamingOptions()
        options.concurrency = workers
        options.maximumReportedFailures = 2
        let capped = validationReason { _ = try Elevate.decodeArray(from: .data(Data(json.utf8)), options: options) as [Int] }
        let lines = capped?.components(separatedBy: "\n") ?? []
        #expect(lines.filter { $0.hasPrefix("Error parsing array object at index") }.count == 2, "\(lines.prefix(4))")
        #expect(lines.first == "Error parsing array object at index 1 with parser [Int]")
        #expect(lines.last == "… and 243 more invalid elements")
        options.maximumReportedFailures = StreamingOptions().maximumReportedFailures
        for reason in [
            validationReason { _ = try Elevate.decodeArray(from: Data(json.utf8), atKeyPath: "") as [Int] },
            validationReason { _ = try Elevate.decodeArray(from: .data(Data(json.utf8)), options: options) as [Int] },
        ] {
            let texts = reason?.components(separatedBy: "\n") ?? []
            #expect(texts.filter { $0.hasPrefix("Error parsing array object at index") }.count == 100)
            #expect(texts.last == "… and 145 more invalid elements")
        }
    }

    /// An `.array` property inside one entity reported every failing element too: 64 MiB of
    /// invalid elements (within `maximumElementSize`) made millions of texts, gigabytes. It keeps
    /// the first 100 in full and counts the rest, read from the tape or from Foundation's tree.
    @Test func anArrayPropertyKeepsTheFirstFailureTextsAndCountsTheRest() throws {
        let json = #"{"items": ["# + (0..<250).map { $0 % 50 == 0 ? "\($0)" : "\"x\"" }.joined(separator: ",") + "]}"
        let schema: (Schema) -> Void = { $0.addProperty(keyPath: "items", type: .array, decodableType: Int.self) }
        let foundation = try JSONSerialization.jsonObject(with: Data(json.utf8))
        for reason in [
            validationReason { _ = try Parser.parseEntity(data: Data(json.utf8), closure: schema) },
            validationReason { _ = try Parser.parseEntity(json: foundation, closure: schema) },
        ] {
            let texts = reason?.components(separatedBy: "\n") ?? []
            #expect(texts.filter { $0.hasPrefix("Error parsing array object at index") }.count == 100)
            #expect(texts.first == "Error parsing array object at index 1 with parser [Int]")
            #expect(texts.last == "… and 145 more invalid elements", "\(texts.suffix(3))")
        }
    }

    @Test func aFewFailuresAreReportedWithoutACount() throws {
        let reason = validationReason {
            try Elevate.forEachElement(
                from: .data(Data(#"[1, "a", 2, "b"]"#.utf8)), atKeyPath: "", as: Int.self,
                options: StreamingOptions(skipsInvalidElements: true)
            ) { _ in }
        }
        #expect(reason?.contains("more invalid elements") == false)
        #expect(reason?.components(separatedBy: "\n").filter { $0.hasPrefix("Error parsing") }.count == 2)
    }

    // MARK: A stop ends the reading

    /// The rest of the file is invalid JSON and large: a stop must return before reading it.
    @Test func stoppingFromTheBodyStopsReadingTheFile() throws {
        var bytes = Array(#"{"items": [1, 2, 3, "#.utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "}"), count: 1 << 20))
        let url = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let log = ProgressLog()
        var options = StreamingOptions(chunkSize: 4096)
        options.progress = { log.append($0) }
        var seen: [Int] = []
        let count = try Elevate.forEachElement(from: .file(url), atKeyPath: "items", as: Int.self, options: options) {
            seen.append($0)
            if $0 == 2 { throw JSONEventParser.Stop() }
        }
        #expect(count == 2)
        #expect(seen == [1, 2])
        #expect((log.values.last ?? 0) <= 4096)
    }

    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func stoppingFromTheBodyStopsReadingValues(framing: JSONFraming) throws {
        var bytes = Array("1\n2\n3\n".utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "]"), count: 1 << 20))
        let url = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let log = ProgressLog()
        var options = StreamingOptions(chunkSize: 4096)
        options.progress = { log.append($0) }
        var seen: [Int] = []
        let count = try Elevate.forEachValue(from: .file(url), framing: framing, as: Int.self, options: options) {
            seen.append($0)
            if $0 == 2 { throw JSONEventParser.Stop() }
        }
        #expect(count == 2)
        #expect(seen == [1, 2])
        #expect((log.values.last ?? 0) <= 4096)
    }

    @Test func progressIsReportedOncePerChunkUpToTheSize() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let text = "[" + (0..<3000).map { "\($0)" }.joined(separator: ",") + "]"
        try Data(text.utf8).write(to: url)
        let reports = ProgressLog()
        let options = StreamingOptions(chunkSize: 4096, progress: { reports.append($0) })
        #expect(try summarizeValue(from: .file(url), atKeyPath: "", options: options)?.count == 3000)
        let seen = reports.values
        #expect(seen.count == (text.utf8.count + 4095) / 4096)
        #expect(seen == seen.sorted())
        #expect(seen.last == text.utf8.count)
    }

    @Test func syntaxErrorsCanBeThrownUnwrapped() throws {
        let options = StreamingOptions(wrapsErrorsInParserError: false)
        let error = #expect(throws: JSONSyntaxError.self) {
            try summarizeValue(from: .data(Data("{\"a\": [1,\n,2]}".utf8)), atKeyPath: "a", options: options)
        }
        #expect(error?.line == 2)
        #expect(throws: JSONInputError.self) {
            try forEachEvent(
                from: .file(URL(fileURLWithPath: "/no/such/file.json")), atKeyPath: "", to: EventRecorder(),
                options: options)
        }
        #expect(throws: ParserError.self) {
            try summarizeValue(from: .data(Data("{".utf8)), atKeyPath: "a")
        }
    }

    @Test func decodeObjectFromAFileIsHeldToTheLimit() throws {
        let big = String(repeating: "x", count: 2 << 20)
        let url = try temporaryFile(Array(#"{"a": {"s": "\#(big)"}}"#.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions()
        options.maximumElementSize = 1 << 20
        let reason = validationReason {
            let _: [String: String] = try Elevate.decodeObject(from: .file(url), atKeyPath: "a", options: options)
        }
        #expect(reason?.contains("larger than the maximum element size of 1048576 bytes") == true)
        let decoded: [String: String] = try Elevate.decodeObject(from: .file(url), atKeyPath: "a")
        #expect(decoded["s"]?.count == 2 << 20)
    }

    @Test func decodeArrayFromAFileDecodesOnSeveralWorkers() throws {
        let items = (0..<3_000).map { "\($0)" }.joined(separator: ",")
        let url = try temporaryFile(Array(#"{"items": [\#(items)]}"#.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions()
        options.concurrency = 3
        let numbers: [Int] = try Elevate.decodeArray(from: .file(url), atKeyPath: "items", options: options)
        #expect(numbers == Array(0..<3_000))
    }
}

/// Accepts every event and keeps nothing.
private final class NullHandler: JSONEventHandler {}

// MARK: - Element sizes below zero

/// A negative ``StreamingOptions/maximumElementSize`` (a computed limit gone wrong) holds every
/// value to it, like `0`, in every framing: the JSON Lines reader sliced its line `..<-1` and
/// trapped (`Int.min` overflowed).
@Suite struct NegativeElementSizeTests {
    @Test(arguments: [-1, Int.min, 0])
    func everyFramingRefusesEachValue(_ size: Int) throws {
        let text = "{\"a\":1}\n{\"a\":2}\n"
        let url = try temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions()
        options.maximumElementSize = size
        for framing in [JSONFraming.jsonLines, .concatenated] {
            for input in [JSONInput.file(url), .data(Data(text.utf8))] {
                var seen = 0
                #expect(throws: (any Error).self, "\(framing)") {
                    try Elevate.forEachValue(from: input, framing: framing, as: [String: Int].self, options: options) { _ in
                        seen += 1
                    }
                }
                #expect(seen == 0)
            }
        }
        var seen = 0
        #expect(throws: (any Error).self) {
            try Elevate.forEachElement(from: .data(Data("[1, 2]".utf8)), as: Int.self, options: options) { _ in seen += 1 }
        }
        #expect(seen == 0)
    }
}

// MARK: - Chunk sizes are clamped (issue #26 item 11)

/// A chunk size outside ``JSONInput/minimumChunkSize`` ... ``JSONInput/chunkSizeCeiling`` is taken
/// as the nearest end, wherever one is given: `.max` allocated a buffer of that many bytes and
/// trapped.
@Suite struct ChunkSizeClampTests {
    static let sizes = [Int.max, Int.max / 2, 1 << 40, 0, -1, Int.min]

    @Test(arguments: sizes)
    func streamingOptionsClampTheChunkSize(_ size: Int) {
        let expected = size > 0 ? JSONInput.chunkSizeCeiling : JSONInput.minimumChunkSize
        #expect(StreamingOptions(chunkSize: size).chunkSize == expected)
        var options = StreamingOptions()
        options.chunkSize = size
        #expect(options.chunkSize == expected)
        options.chunkSize = 100_000
        #expect(options.chunkSize == 100_000)
        #expect(StreamingOptions().chunkSize == JSONInput.defaultChunkSize)
    }

    @Test(arguments: sizes)
    func everyCallTakingAChunkSizeReadsTheWholeInput(_ size: Int) throws {
        let text = #"{"items": [1, 2, 3], "name": "x"}"#
        let url = try temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        let options = StreamingOptions(chunkSize: size)
        for input in [JSONInput.file(url), .data(Data(text.utf8))] {
            var seen: [Int] = []
            try Elevate.forEachElement(from: input, atKeyPath: "items", as: Int.self, options: options) { seen.append($0) }
            #expect(seen == [1, 2, 3])
            #expect(try Elevate.summarizeValue(from: input, atKeyPath: "items", options: options)?.count == 3)
            var bytes: [UInt8] = []
            try input.forEachChunk(chunkSize: size) { bytes.append(contentsOf: $0) }
            #expect(bytes == Array(text.utf8))
            let recorder = EventRecorder()
            try JSONEventParser(handler: recorder).parseAll(input, chunkSize: size)
            #expect(recorder.events.count == 10)
        }
        let document = try JSONValue(contentsOf: url, chunkSize: size)
        #expect(document["items"]?.count == 3)
    }
}
