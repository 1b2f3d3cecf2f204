import Foundation
import Testing

@testable import Elevate
@_spi(Testing) @testable import ElevateJSON

/// The split parse (`StreamingOptions.concurrency` above 1: the array at the key path cut into
/// batches of whole elements, about `splitBatchByteCount` bytes each, parsed on worker threads)
/// promises exactly what one thread gives, on every input, valid or not: the same values in the
/// same order, the same number delivered before an error, and the same first error (type, kind,
/// message, byte offset, line and column; the excerpt may differ).
///
/// Every input is read by each reader with one worker (the reference), then with 2 and 4 workers
/// and batches of 1, 7, 64 bytes and the default, and each outcome must equal the reference.
/// Inputs: every JSONTestSuite `test_parsing` file (whole, and as an element of arrays at the root
/// and at `a.items`), and seeded random arrays, valid and damaged at random places (a byte flipped,
/// deleted or inserted, the input cut short, an empty element, a trailing comma, garbage after the
/// array, nesting about the depth limit, elements about `maximumElementSize`, repeated keys
/// refused, invalid UTF-8 in a string, comments holding brackets, elements that fail to decode).
///
/// The time limit catches a hang, as the other long suites' do: every case starts with the run and
/// waits for the cores the whole suite shares, and a full run took 130 to 300 seconds on a 2-core
/// VM (three minutes failed the cases scheduled last).
@Suite(.timeLimit(.minutes(6)))
struct SplitParseDifferentialTests {
    // MARK: Settings

    /// The settings compared with one worker: workers, and batch bytes (nil: the default, 256 KiB,
    /// which cuts none of these documents: the path without a split, for comparison). Each run
    /// with workers starts and joins threads (about 0.3 ms in a debug build whatever the input),
    /// so the list is short.
    static let settings: [(workers: Int, batch: Int?)] = [(2, 1), (2, 7), (2, 64), (4, 1), (4, 64), (2, nil)]

    static func options(_ base: StreamingOptions, workers: Int, batch: Int?) -> StreamingOptions {
        var options = base
        options.concurrency = workers
        if let batch { options.splitBatchByteCount = batch }
        return options
    }

    // MARK: Outcomes

    /// What a call delivered and how it ended, comparable exactly.
    struct Outcome: Equatable, CustomStringConvertible {
        var values: [String] = []
        /// What the call returned besides the values (`forEachElement`'s count), or nil.
        var returned: Int?
        /// The error, normalized (see ``SplitParseDifferentialTests/describe(_:)``), or nil.
        var error: String?
        /// Checkpoints reported, when asked for.
        var checkpoints: [StreamCheckpoint] = []

        var description: String {
            "\(values.count) values, returned \(returned.map(String.init) ?? "-"), "
                + "\(checkpoints.count) checkpoints, error: \(error ?? "none")"
        }

        /// Records a delivered value, or stops the body as `stop` says when it is due.
        mutating func append(_ value: String, unless stop: Stop?) throws {
            if let stop, values.count == stop.index {
                if stop.quietly { throw JSONEventParser.Stop() }
                throw BodyStop(index: stop.index)
            }
            values.append(value)
        }

        /// Where `self` first differs from `expected`, in a few lines.
        func difference(from expected: Outcome) -> String {
            var lines = ["got:      \(self)", "expected: \(expected)"]
            if let index = zip(values, expected.values).enumerated().first(where: { $0.element.0 != $0.element.1 })?
                .offset
            {
                lines.append(
                    "value \(index): got \(values[index].prefix(200)), expected \(expected.values[index].prefix(200))")
            }
            if checkpoints != expected.checkpoints,
                let index = zip(checkpoints, expected.checkpoints).enumerated().first(where: {
                    $0.element.0 != $0.element.1
                })?
                .offset
            {
                lines.append("checkpoint \(index): got \(checkpoints[index]), expected \(expected.checkpoints[index])")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// An error as text that must be the same whatever the settings: a syntax error by its fields
    /// but the excerpt, a `ParserError` by its text without the excerpt, others by type and text.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let syntax as JSONSyntaxError:
            return
                "JSONSyntaxError.\(syntax.kind) at \(syntax.line):\(syntax.column) (byte \(syntax.byteOffset)): \(syntax.message)"
        case let parserError as ParserError:
            return "ParserError: " + withoutExcerpt(parserError.description)
        case let decoding as DecodingError:
            return "DecodingError: \(decoding)"
        default:
            return "\(type(of: error)): \(error)"
        }
    }

    /// A wrapped syntax error's text (`… (byte offset N): message near "excerpt""`) without the
    /// excerpt: cut at the first ` near "` after the byte offset (no message this parser writes
    /// holds one; the excerpt may).
    static func withoutExcerpt(_ text: String) -> String {
        guard let offset = text.range(of: "(byte offset "),
            let near = text.range(of: " near \"", range: offset.upperBound..<text.endIndex)
        else { return text }
        return String(text[..<near.lowerBound])
    }

    /// Thrown by a body that stops at a given element.
    struct BodyStop: Error, CustomStringConvertible {
        let index: Int
        var description: String { "body stopped at \(index)" }
    }

    /// Any value, as its text; the string `"bad"` fails to decode (a `DecodingError` at its path).
    struct Probe: Swift.Decodable, Sendable {
        let text: String
        init(from decoder: any Swift.Decoder) throws {
            let json = try JSON(from: decoder)
            if case .string("bad") = json {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "bad value"))
            }
            text = json.description
        }
    }

    final class CheckpointLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [StreamCheckpoint] = []
        var checkpoints: [StreamCheckpoint] { lock.withLock { stored } }
        func record(_ checkpoint: StreamCheckpoint) { lock.withLock { stored.append(checkpoint) } }
    }

    // MARK: Readers

    /// How a body stops early: after `index` elements, with `BodyStop` or a quiet
    /// `JSONEventParser.Stop`.
    struct Stop {
        var index: Int
        var quietly: Bool
    }

    /// `forEachElement` decoding each element to its `JSONValue` text (the string `"bad"` is an
    /// invalid element), recording what it delivered, the count it returned and the error.
    static func forEachView(
        _ input: JSONInput, _ keyPath: String, _ options: StreamingOptions, stop: Stop? = nil,
        recordingCheckpoints: Bool = false
    ) -> Outcome {
        var options = options
        let log = CheckpointLog()
        if recordingCheckpoints { options.checkpoints = { log.record($0) } }
        var outcome = Outcome()
        do {
            outcome.returned = try ElevateJSON.forEachElement(
                from: input, atKeyPath: keyPath, methodName: "JSONValue", options: options, decode: viewText
            ) { text in
                try outcome.append(text, unless: stop)
            }
        } catch {
            outcome.error = describe(error)
        }
        outcome.checkpoints = log.checkpoints
        return outcome
    }

    /// A value's `JSONValue` text; the string `"bad"` fails to decode.
    static func viewText(_ value: JSONValue) throws -> String {
        if value.string == "bad" { throw ParserError.validation(failureReason: "bad value") }
        return value.description
    }

    /// `forEachMember` decoding each member's value to its `JSONValue` text (the string `"bad"`
    /// fails), recording `key=text` for each member delivered, the count it returned and the error.
    static func forEachMemberView(_ input: JSONInput, _ keyPath: String, _ options: StreamingOptions, stop: Stop? = nil)
        -> Outcome
    {
        var outcome = Outcome()
        do {
            outcome.returned = try ElevateJSON.forEachMember(
                from: input, atKeyPath: keyPath, methodName: "JSONValue", options: options, decode: viewText
            ) { key, text in
                try outcome.append("\(key)=\(text)", unless: stop)
            }
        } catch {
            outcome.error = describe(error)
        }
        return outcome
    }

    /// The asynchronous Codable `decodedMembers` over chunks of `size` bytes.
    static func decodedMembers(_ bytes: [UInt8], size: Int, _ keyPath: String, _ options: StreamingOptions) async
        -> Outcome
    {
        await collected(ByteChunks(bytes, size: size).decodedMembers(atKeyPath: keyPath, as: Probe.self, options: options)) {
            "\($0.key)=\($0.value.text)"
        }
    }

    /// What an asynchronous sequence delivered, each value as `text` gives it, and its error.
    static func collected<Values: AsyncSequence>(_ values: Values, _ text: (Values.Element) -> String) async
        -> Outcome
    {
        var outcome = Outcome()
        do {
            for try await value in values { outcome.values.append(text(value)) }
        } catch {
            outcome.error = describe(error)
        }
        return outcome
    }

    /// Every member reader on one document: `forEachMember` of the data, with a body that stops
    /// half way (throwing) and before the last member (quietly), of a file read in 4 KiB chunks,
    /// and `decodedMembers` over chunks of `chunkSize` bytes.
    static func checkMemberReaders(
        _ bytes: [UInt8], keyPath: String, options base: StreamingOptions, chunkSize: Int, _ mismatches: Mismatches
    ) async throws {
        let data = Data(bytes)
        let reference = compare("forEachMember", base, mismatches) { forEachMemberView(.data(data), keyPath, $0) }
        await compareAsync("decodedMembers, chunks of \(chunkSize)", base, mismatches) {
            await decodedMembers(bytes, size: chunkSize, keyPath, $0)
        }
        compareStops("forEachMember", after: reference.values.count, base, mismatches) {
            forEachMemberView(.data(data), keyPath, $0, stop: $1)
        }
        try compareFile("forEachMember", data, base, mismatches) { forEachMemberView($0, keyPath, $1) }
    }

    /// Compares `read` with a body that stops half way (throwing) and before the last of `count`
    /// values (quietly, with `JSONEventParser.Stop`).
    static func compareStops(
        _ reader: String, after count: Int, _ base: StreamingOptions, _ mismatches: Mismatches,
        _ read: (StreamingOptions, Stop) -> Outcome
    ) {
        guard count > 0 else { return }
        for (index, quietly) in [(count / 2, false), (count - 1, true)] {
            compare("\(reader), body stops at \(index)\(quietly ? " quietly" : "")", base, mismatches) {
                read($0, Stop(index: index, quietly: quietly))
            }
        }
    }

    /// Compares `read` of `data` as a file read in 4 KiB chunks.
    static func compareFile(
        _ reader: String, _ data: Data, _ base: StreamingOptions, _ mismatches: Mismatches,
        _ read: (JSONInput, StreamingOptions) -> Outcome
    ) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("split-parse-\(UUID().uuidString).json")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var smallReads = base
        smallReads.chunkSize = JSONInput.minimumChunkSize
        compare("\(reader) of a file read in 4 KiB chunks", smallReads, mismatches) { read(.file(url), $0) }
    }

    /// `extract --json-lines`: each element of the array written as a line by the tool's writer
    /// (raw strings, as `-r`); the lines are the values.
    static func elementLines(_ input: JSONInput, _ keyPath: String, _ options: StreamingOptions) -> Outcome {
        extracted(extractedText(from: input, atKeyPath: keyPath, elementsAsLines: true, options: options))
    }

    /// `extract --key-path 'items.*…'`: each value a wildcard path leads to, written as a line by
    /// the tool's writer (raw strings, as `-r`); with `jsonLines`, each one's elements
    /// (`--json-lines`). Without wildcards, the value at the key path, its arrays written in place
    /// by the workers; the writer then holds at most 4 KiB, as a pipe's holds 16 MiB, so that a
    /// longer value is written on as it comes and, when the input fails, what was written of it
    /// stays.
    static func wildcardMatches(
        _ input: JSONInput, _ keyPath: String, _ options: StreamingOptions, jsonLines: Bool = false
    ) -> Outcome {
        let isWhole = !keyPath.split(separator: ".").contains("*")
        return extracted(
            extractedText(
                from: input, atKeyPath: keyPath, elementsAsLines: jsonLines, memoryLimit: isWhole ? 4096 : nil,
                options: options))
    }

    /// The outcome of ``extractedText(from:atKeyPath:elementsAsLines:memoryLimit:options:)``, its
    /// lines the values.
    static func extracted(_ extracted: (text: [UInt8], found: Result<Bool, any Error>)) -> Outcome {
        var outcome = Outcome()
        switch extracted.found {
        case .success(let found): outcome.returned = found ? 1 : 0
        case .failure(let error): outcome.error = describe(error)
        }
        outcome.values = String(decoding: extracted.text, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return outcome
    }

    /// The Codable `decodeArray` of a `JSONInput`.
    static func decodeArrayCodable(_ input: JSONInput, _ keyPath: String, _ options: StreamingOptions) -> Outcome {
        do {
            return Outcome(
                values: try ElevateJSON.decodeArray(from: input, atKeyPath: keyPath, as: Probe.self, options: options)
                    .map(\.text))
        } catch {
            return Outcome(error: describe(error))
        }
    }

    /// Elevate's `decodeArray` of a `JSONInput`, which reports every invalid element.
    static func decodeArrayElevate(_ input: JSONInput, _ keyPath: String, _ options: StreamingOptions) -> Outcome {
        do {
            return Outcome(
                values: try Elevate.decodeArray(
                    from: input, atKeyPath: keyPath, as: StreamOutcome.Echo.self, options: options
                ).map(\.text))
        } catch {
            return Outcome(error: describe(error))
        }
    }

    /// The asynchronous `decodedElements` over chunks of `size` bytes.
    static func decodedElements(_ bytes: [UInt8], size: Int, _ keyPath: String, _ options: StreamingOptions) async
        -> Outcome
    {
        await collected(ByteChunks(bytes, size: size).decodedElements(atKeyPath: keyPath, as: Probe.self, options: options)) {
            $0.text
        }
    }

    /// JSON Lines `forEachValue` of the values at `keyPath` in each line, with a body that stops
    /// at `stop`. The error keeps its excerpt: with workers, each line is parsed in the same
    /// pieces as with one (`SplitLinesReader`), so even the excerpt must be the same.
    static func jsonLines(
        _ input: JSONInput, _ options: StreamingOptions, framing: JSONFraming = .jsonLines, keyPath: String = "",
        stop: Stop? = nil
    ) -> Outcome {
        var outcome = Outcome()
        do {
            outcome.returned = try ElevateJSON.forEachValue(
                from: input, framing: framing, atKeyPath: keyPath, as: Probe.self, options: options
            ) { value in
                try outcome.append(value.text, unless: stop)
            }
        } catch {
            outcome.error = describeWithExcerpt(error)
        }
        return outcome
    }

    /// As ``describe(_:)``, with a syntax error's excerpt.
    static func describeWithExcerpt(_ error: any Error) -> String {
        switch error {
        case let syntax as JSONSyntaxError: return describe(syntax) + " near \(syntax.excerpt.debugDescription)"
        case let parserError as ParserError: return "ParserError: " + parserError.description
        default: return describe(error)
        }
    }

    /// The asynchronous JSON Lines `decodedValues` over chunks of `size` bytes (the excerpt left
    /// out: how the chunks are sliced for the parser depends on when values are ready).
    static func decodedLines(
        _ bytes: [UInt8], size: Int, _ options: StreamingOptions, framing: JSONFraming = .jsonLines
    ) async -> Outcome {
        await collected(ByteChunks(bytes, size: size).decodedValues(framing: framing, as: Probe.self, options: options)) {
            $0.text
        }
    }

    /// Every JSON Lines reader on one document (`forEachValue` of the data only, unless `all`):
    /// `forEachValue` of the data, of a file read in 4 KiB chunks, with a body that stops half way (throwing) and before the last value
    /// (quietly), with a key path (every failure reported, each naming its line), and
    /// `decodedValues` over chunks of `chunkSize` bytes.
    static func checkLinesReaders(
        _ bytes: [UInt8], options base: StreamingOptions, framing: JSONFraming = .jsonLines, chunkSize: Int,
        all: Bool = true, _ mismatches: Mismatches
    ) async throws {
        let data = Data(bytes)
        let name = framing == .concatenated ? "Concatenated JSON" : framing == .jsonTextSequence ? "Records" : "JSON Lines"
        let reference = compare(name, base, mismatches) { jsonLines(.data(data), $0, framing: framing) }
        guard all else { return }
        var skipping = base
        skipping.skipsInvalidElements = true
        compare("\(name) at k0, skipping", skipping, mismatches) {
            jsonLines(.data(data), $0, framing: framing, keyPath: "k0")
        }
        await compareAsync("\(name) decodedValues, chunks of \(chunkSize)", base, mismatches) {
            await decodedLines(bytes, size: chunkSize, $0, framing: framing)
        }
        compareStops(name, after: reference.values.count, base, mismatches) {
            jsonLines(.data(data), $0, framing: framing, stop: $1)
        }
        try compareFile(name, data, base, mismatches) { jsonLines($0, $1, framing: framing) }
    }

    // MARK: Comparison

    /// Collects mismatches, a few per input, so that one bug does not bury the report.
    final class Mismatches {
        let label: String
        private(set) var count = 0
        init(_ label: String) { self.label = label }

        func check(_ got: Outcome, _ expected: Outcome, _ reader: String, workers: Int, batch: Int?) {
            guard got != expected else { return }
            count += 1
            guard count <= 3 else { return }
            let setting = "\(workers) workers, batches of \(batch.map { "\($0) bytes" } ?? "default size")"
            let comment = Comment(rawValue: "\(label), \(reader), \(setting):\n" + got.difference(from: expected))
            Issue.record(comment)
        }
    }

    static let codableDecodeArray = "decodeArray (Codable)"

    /// The wildcard paths read below each array's key path (`extract --key-path 'items.*…'`), and
    /// how: every element; every element's members and elements; every element's `"k1"`; every
    /// element's elements, a line each. (Indented output is one thread's: not compared.)
    static let wildcardSuffixes = [("*", false), ("*.*", false), ("*.k1", false), ("*", true)]

    /// Runs `read` with one worker, then with every setting, and checks each against the first.
    /// Returns the reference outcome.
    @discardableResult
    static func compare(
        _ reader: String, _ base: StreamingOptions, _ mismatches: Mismatches, _ read: (StreamingOptions) -> Outcome
    ) -> Outcome {
        let reference = read(options(base, workers: 1, batch: nil))
        for (workers, batch) in settings {
            mismatches.check(
                read(options(base, workers: workers, batch: batch)), reference, reader, workers: workers, batch: batch)
        }
        return reference
    }

    @discardableResult
    static func compareAsync(
        _ reader: String, _ base: StreamingOptions, _ mismatches: Mismatches,
        _ read: (StreamingOptions) async -> Outcome
    ) async -> Outcome {
        let reference = await read(options(base, workers: 1, batch: nil))
        for (workers, batch) in settings {
            mismatches.check(
                await read(options(base, workers: workers, batch: batch)), reference, reader, workers: workers,
                batch: batch)
        }
        return reference
    }

    /// What else `checkArrayReaders` runs besides the plain readers.
    struct Extras: OptionSet {
        let rawValue: Int
        /// `forEachElement` with a body that stops half way (throwing) and before the last element
        /// (quietly, with `JSONEventParser.Stop`).
        static let stops = Extras(rawValue: 1)
        /// `forEachElement` reporting checkpoints, and resumed from one of them.
        static let checkpoints = Extras(rawValue: 2)
        /// `forEachElement` of a file read in 4 KiB chunks.
        static let file = Extras(rawValue: 4)
    }

    /// Every array reader on one document: `forEachElement`, the Codable `decodeArray` (and
    /// Elevate's, which differs in reporting every invalid element, when `elevate`),
    /// `decodedElements` over chunks of each of `chunkSizes`, and the `extras`.
    static func checkArrayReaders(
        _ bytes: [UInt8], keyPath: String, options base: StreamingOptions, chunkSizes: [Int], elevate: Bool = true,
        extras: Extras, _ mismatches: Mismatches
    ) async throws {
        let data = Data(bytes)
        let reference = compare("forEachElement", base, mismatches) { forEachView(.data(data), keyPath, $0) }
        compare(codableDecodeArray, base, mismatches) { decodeArrayCodable(.data(data), keyPath, $0) }
        compare("element lines (extract --json-lines)", base, mismatches) { elementLines(.data(data), keyPath, $0) }
        // `extract` of the value at the key path and of the whole document.
        for path in Set([keyPath, ""]) {
            compare("value at \"\(path)\"", base, mismatches) { wildcardMatches(.data(data), path, $0) }
        }
        for (suffix, jsonLines) in wildcardSuffixes {
            let path = keyPath.isEmpty ? suffix : keyPath + "." + suffix
            compare("matches of \(path)\(jsonLines ? " --json-lines" : "")", base, mismatches) {
                wildcardMatches(.data(data), path, $0, jsonLines: jsonLines)
            }
        }
        if elevate {
            compare("decodeArray (Elevate)", base, mismatches) { decodeArrayElevate(.data(data), keyPath, $0) }
        }
        for size in chunkSizes {
            await compareAsync("decodedElements, chunks of \(size)", base, mismatches) {
                await decodedElements(bytes, size: size, keyPath, $0)
            }
        }

        if extras.contains(.stops) {
            compareStops("forEachElement", after: reference.values.count, base, mismatches) {
                forEachView(.data(data), keyPath, $0, stop: $1)
            }
        }
        if extras.contains(.checkpoints) {
            let checkpointed = compare("forEachElement with checkpoints", base, mismatches) {
                forEachView(.data(data), keyPath, $0, recordingCheckpoints: true)
            }
            if !checkpointed.checkpoints.isEmpty {
                var resumed = base
                resumed.resumingFrom = checkpointed.checkpoints[checkpointed.checkpoints.count / 3]
                compare("forEachElement resumed from \(resumed.resumingFrom!)", resumed, mismatches) {
                    forEachView(.data(data), keyPath, $0)
                }
            }
        }
        if extras.contains(.file) {
            try compareFile("forEachElement", data, base, mismatches) { forEachView($0, keyPath, $1) }
        }
    }

    // MARK: JSONTestSuite

    /// Each file whole, and as an element of arrays at the root and at `a.items`. (Elevate's
    /// `decodeArray` is left out: no file holds an invalid element, the one thing it reads
    /// differently from the Codable one.)
    @Test(
        .enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)),
        arguments: SharedCorpus.testParsingFiles(prefix: "")
    )
    func corpusFile(_ name: String) async throws {
        let file = try SharedCorpus.testParsingBytes(name)
        let wrapped: [(String, [UInt8], String)] = [
            ("whole", file, ""),
            ("[file]", Array("[".utf8) + file + Array("]".utf8), ""),
            ("[1,file,2]", Array("[1,".utf8) + file + Array(",2]".utf8), ""),
            ("a.items", Array(#"{"a":{"x":1,"items":["#.utf8) + file + Array("]}}".utf8), "a.items"),
        ]
        for (index, (form, bytes, keyPath)) in wrapped.enumerated() {
            let mismatches = Mismatches("\(name) \(form)")
            // Both error forms, one per document form.
            let base = StreamingOptions(wrapsErrorsInParserError: index % 2 == 0)
            // One chunking per form: one byte, three, 4 KiB, one byte.
            let chunkSize = bytes.count > 4096 ? 997 : [1, 3, 4096, 1][index]
            try await Self.checkArrayReaders(
                bytes, keyPath: keyPath, options: base, chunkSizes: [chunkSize], elevate: false, extras: [], mismatches)
        }
        // As a member's value in a map of short members (cut into runs with workers), at the root.
        let shortMembers = (0..<12).map { #""m\#($0)":\#($0)"# }
        let map =
            Array(("{" + shortMembers.joined(separator: ",") + #","file":"#).utf8) + file
            + Array(("," + shortMembers.joined(separator: ",") + "}").utf8)
        try await Self.checkMemberReaders(
            map, keyPath: "", options: StreamingOptions(wrapsErrorsInParserError: false),
            chunkSize: map.count > 4096 ? 997 : 5, Mismatches("\(name) in a map"))
        // Every reader on the file between lines; the file whole through `forEachValue` only.
        for (form, bytes) in [("whole", file), ("between lines", Array("1\n".utf8) + file + Array("\n2\n".utf8))] {
            try await Self.checkLinesReaders(
                bytes, options: StreamingOptions(), chunkSize: bytes.count > 4096 ? 997 : 1, all: form != "whole",
                Mismatches("\(name) \(form)"))
        }
        // As concatenated JSON between values, cut right before and after it.
        try await Self.checkLinesReaders(
            Array("{\"k0\":[1]}".utf8) + file + Array("[2]".utf8), options: StreamingOptions(), framing: .concatenated,
            chunkSize: 1, all: false, Mismatches("\(name) between concatenated values"))
    }

    // MARK: Generated arrays

    /// What each generated document is made to test.
    enum Scenario: Int, CaseIterable {
        case valid, flippedByte, deletedByte, insertedByte, truncated, duplicatedComma, trailingGarbage,
            emptyElement, deepNesting, elementSize, duplicateKeys, invalidUTF8, comments, invalidElements
    }

    /// Each scenario three times: at the root, at `a.items`, at the root.
    static let generatedSeeds = Array(0..<(Scenario.allCases.count * 3))

    /// JSON Lines with every seed; concatenated values and text sequences with each scenario once
    /// (CI's time: their readers are the same, and the fuzz target reads both).
    static let streamCases: [(Int, JSONFraming)] =
        generatedSeeds.map { ($0, .jsonLines) }
        + (0..<Scenario.allCases.count).flatMap { [($0, JSONFraming.concatenated), ($0, .jsonTextSequence)] }

    /// A seeded array (at the root or at `a.items`, by the seed), made for its scenario, through
    /// every reader.
    @Test(arguments: generatedSeeds)
    func generatedArray(seed: Int) async throws {
        let scenario = Scenario.allCases[seed % Scenario.allCases.count]
        let nested = (seed / Scenario.allCases.count) % 2 == 1
        let document = GeneratedDocument(seed: UInt64(seed), scenario: scenario, nested: nested, lines: false)
        let mismatches = Mismatches(
            "seed \(seed) (\(scenario), \(nested ? "a.items" : "root"), \(document.bytes.count) bytes)")
        // One small chunking (an element a chunk at most: one byte at a time costs much on long
        // documents in a debug build) and 4 KiB; two of the three extras, in turn.
        let small = document.bytes.count <= 2 << 10 ? 1 : document.bytes.count <= 8 << 10 ? [3, 13][seed % 2] : 61
        let chunkSizes = [small, 4096]
        let extras: Extras = [[.stops, .checkpoints], [.checkpoints, .file], [.file, .stops]][seed % 3]
        try await Self.checkArrayReaders(
            document.bytes, keyPath: nested ? "a.items" : "", options: document.options, chunkSizes: chunkSizes,
            extras: extras, mismatches)
    }

    /// A seeded map (an object of many members, at the root or at `a.items`, by the seed), made
    /// for its scenario as the arrays are, through every member reader: with workers, its
    /// members are cut into runs as an array's elements are (a map of few members, or after a
    /// damage the pre-scan reads otherwise, is read by the calling thread), with exactly one
    /// thread's results and errors.
    @Test(arguments: generatedSeeds)
    func generatedMap(seed: Int) async throws {
        let scenario = Scenario.allCases[seed % Scenario.allCases.count]
        let nested = (seed / Scenario.allCases.count) % 2 == 1
        let document = GeneratedDocument(
            seed: UInt64(seed) &+ 3_000_017, scenario: scenario, nested: nested, lines: false, members: true)
        let small = document.bytes.count <= 2 << 10 ? 1 : document.bytes.count <= 8 << 10 ? [3, 13][seed % 2] : 61
        try await Self.checkMemberReaders(
            document.bytes, keyPath: nested ? "a.items" : "", options: document.options, chunkSize: small,
            Mismatches("map seed \(seed) (\(scenario), \(nested ? "a.items" : "root"), \(document.bytes.count) bytes)"))
    }

    /// Seeded streams of values, made for each scenario: JSON Lines; concatenated JSON (values
    /// one after another, separated by whitespace, or by nothing after a bracket or brace); JSON
    /// text sequences (each value after a record separator, records spanning lines now and then).
    @Test(arguments: streamCases)
    func generatedStream(seed: Int, framing: JSONFraming) async throws {
        let scenario = Scenario.allCases[seed % Scenario.allCases.count]
        let seedOffset: UInt64 = framing == .jsonLines ? 1_000_003 : framing == .concatenated ? 2_000_003 : 4_000_037
        let document = GeneratedDocument(
            seed: UInt64(seed) &+ seedOffset, scenario: scenario, nested: false, lines: true,
            concatenated: framing == .concatenated, records: framing == .jsonTextSequence)
        let small = document.bytes.count <= 2 << 10 ? 1 : document.bytes.count <= 8 << 10 ? [3, 13][seed % 2] : 61
        try await Self.checkLinesReaders(
            document.bytes, options: document.options, framing: framing, chunkSize: small,
            Mismatches("\(framing) seed \(seed) (\(scenario), \(document.bytes.count) bytes)"))
    }

    // MARK: Shapes

    /// Documents whose shape around the array matters: the key path repeated, a literal dotted
    /// key, no array where the path leads, an empty array, elements of every kind.
    @Test(arguments: [
        #"{"a":{"items":[1,2,3]},"a":{"items":[4,[5],{"6":6}]}}"#,
        #"{"a.items":[1,2],"a":{"items":[3,4]}}"#,
        #"{"a":{"items":[3,4]},"a.items":[1,2]}"#,
        #"{"a":{"items":[1,"bad",2]},"a":{"items":[3,x]}}"#,
        #"{"a":{"items":["bad"]},"a":{"items":[3]}}"#,
        #"{"a":{"items":["bad"]},"a.items":[3]}"#,
        #"{"a.items":["bad"],"a":{"items":[3]}}"#,
        #"[1,"bad",2,x]"#, #"[1,"bad",2] x"#,
        #"{"a":{"items":{"k":[1,2]}}}"#,
        #"{"a":{"items":"[1,2]"}}"#,
        #"{"a":{"x":[1,2]}}"#,
        #"{"a":{"items":[]},"b":[1,2]}"#,
        #"{"a":{"items":[ ]}}"#,
        #"{"a":{"items":[[],{},"",0,-0.0,1e-7,true,false,null,"]","[",",","\"","\\"]}}"#,
        #"{"a":{"items":[1,2]}}trailing"#,
        #"{"a":{"items":[1,2]}} {"a":{"items":[3]}}"#,
        #"{"a":{"items":[1,2]},"a":{"items":[3,4]}"#,
        #"[1,2,3]"#, #"[1,2,3] "#, #"[1,2,3]x"#, #"[1,2,3]]"#, #"[1,2,3],"#, #"["a","b"#, #"[1,2,"#, #"["#, #""#, " ",
        #"[1 2]"#, #"[1,,2]"#, #"[,1]"#, #"[1,2,]"#, #"[1:2]"#, #"[{"a":1,}]"#, #"[{"a"}]"#, #"["\x"]"#,
        "[1,\u{0C}2]", "[\"a\u{0}b\"]", #"["\ud800"]"#, #"["\ud800\u0041"]"#, #"[0x10]"#, #"[01]"#, #"[1.]"#, #"[-]"#,
        #"[tru]"#, #"[nulls]"#, "\u{FEFF}[1,2]", #"{"a":{"items":[1,2]}"#,
    ])
    func shapes(_ text: String) async throws {
        for keyPath in ["", "a.items"] {
            for wraps in [true, false] {
                try await Self.checkArrayReaders(
                    Array(text.utf8), keyPath: keyPath, options: StreamingOptions(wrapsErrorsInParserError: wraps),
                    chunkSizes: [1], extras: [.stops, .checkpoints],
                    Mismatches("\(text.debugDescription) at \"\(keyPath)\""))
            }
        }
    }

    /// Documents whose shape around a map matters to `forEachMember`: the key path repeated after
    /// a map the workers read, a literal dotted key, an array or a short object where the map
    /// would be, members that fail, damage inside and after the map. `MAP` stands for an object
    /// of 20 short members (long enough to be cut at every setting), `MEMBERS` for those members.
    @Test(arguments: [
        #"{"a":{"items":MAP},"a":{"items":MAP}}"#,
        #"{"a":{"items":{"k":1}},"a":{"items":MAP}}"#,
        #"{"a.items":MAP,"a":{"items":MAP}}"#,
        #"{"a":{"items":MAP},"a.items":MAP}"#,
        #"{"a":{"items":[1,2]}}"#, #"{"a":{"items":{}}}"#, #"{"a":{"items":{ }}}"#, #"{"a":{"items":"{}"}}"#,
        #"{"a":{"items":{"k":1}},"b":MAP}"#,
        #"{"a":{"items":MAP}}trailing"#, #"{"a":{"items":MAP}} {"a":{"items":MAP}}"#,
        #"{"a":{"items":{MEMBERS,"bad":"bad",MEMBERS,"x":[1,{"y":"bad"}],"z":"bad"}}}"#,
        #"{"a":{"items":MAP"#, #"{"a":{"items":{MEMBERS,"#, #"{"a":{"items":{MEMBERS,,MEMBERS}}}"#,
        #"{"a":{"items":{MEMBERS,}}}"#, #"{"a":{"items":{MEMBERS,"x" 0,MEMBERS}}}"#,
        #"{"a":{"items":{MEMBERS "x":1,MEMBERS}}}"#, #"{"a":{"items":{MEMBERS]}}"#,
        #"{"a":{"items":{MEMBERS,0:0,MEMBERS}}}"#, #"{"a":{"items":{MEMBERS,"k\x":0}}}"#,
        "{\"a\":{\"items\":{MEMBERS,\"k\u{0}1\":1,MEMBERS}}}", #"{"a":{"items":{MEMBERS,"\ud800":0}}}"#,
    ])
    func mapShapes(_ template: String) async throws {
        let members = (0..<20).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let text = template.replacingOccurrences(of: "MEMBERS", with: members)
            .replacingOccurrences(of: "MAP", with: "{" + members + "}")
        for keyPath in ["", "a.items"] {
            for wraps in [true, false] {
                try await Self.checkMemberReaders(
                    Array(text.utf8), keyPath: keyPath, options: StreamingOptions(wrapsErrorsInParserError: wraps),
                    chunkSize: 1, Mismatches("\(text.debugDescription) at \"\(keyPath)\""))
            }
        }
    }

    /// Wildcard paths (`extract --key-path 'a.*.n'`) where what is written depends on more than
    /// one element: a repeated key inside an element or around the split array, the literal
    /// dotted root key before or after it, an object where the array would be, nested wildcards,
    /// `--json-lines` of values that are not arrays. Each with the lines one thread writes (a
    /// "!" line for an error, with its line and column), then compared at every setting.
    @Test(arguments: [
        // A repeated key whose earlier value was written: an error at the repeat.
        (#"{"a":[{"n":1},{"n":2,"n":3},{"n":4}]}"#, "a.*.n", false, ["1", "2", "! 1:22"]),
        // Nothing was written from the earlier `n` (a scalar where the path goes on): no error,
        // although values were written from the elements before.
        (#"{"a":[{"n":{"b":1}},{"n":1,"n":{"b":2}}]}"#, "a.*.n.b", false, ["1", "2"]),
        (#"{"a":[{"n":1}],"a":[{"n":2}]}"#, "a.*.n", false, ["1", "! 1:16"]),
        (#"{"a":[{"m":1}],"a":[{"n":2}]}"#, "a.*.n", false, ["2"]),
        // The literal dotted root key: whichever comes first is written, the other skipped.
        (#"{"a.*.n":5,"a":[{"n":1},{"n":2}]}"#, "a.*.n", false, ["5"]),
        (#"{"a":[{"n":1},{"n":2}],"a.*.n":5}"#, "a.*.n", false, ["1", "2"]),
        (#"{"a":[{"m":1},{"m":2}],"a.*.n":5}"#, "a.*.n", false, ["5"]),
        (#"{"a":{"x":{"n":1},"y":{"n":2}}}"#, "a.*.n", false, ["1", "2"]),
        // An object at the wildcard: the arrays in its members are passed over by the scan,
        // which looks for an array only where the wildcard could match in one.
        (#"{"a":{"x":{"t":[1,[2]],"n":1},"y":{"n":[3,4]}},"b":[5]}"#, "a.*.n", false, ["1", "[3,4]"]),
        (#"{"a":{"x":{"t":[1,[2,x]],"n":1}}}"#, "a.*.n", false, ["! 1:22"]),
        (#"{"a":{"x":{"t":[1,[2}],"n":1}}}"#, "a.*.n", false, ["! 1:21"]),
        (#"{"a":{"x":{"n":[1]}},"a":[{"n":2},{"n":[3]}]}"#, "a.*.n", false, ["[1]", "! 1:22"]),
        (#"{"a":{"x":{"m":[1]}},"a":[{"n":2},{"n":[3]}]}"#, "a.*.n", false, ["2", "[3]"]),
        (#"[[1,2],[3,[4]],5,{"k":6},[]]"#, "*.*", false, ["1", "2", "3", "[4]", "6"]),
        (#"{"a":[[{"n":1},{"n":2}],[{"n":3}]]}"#, "a.*.*.n", false, ["1", "2", "3"]),
        (#"{"a":[{"n":[1,2]},{"n":[3]}]}"#, "a.*.n", true, ["1", "2", "3"]),
        (#"{"a":[{"n":[1,2]},{"n":3}]}"#, "a.*.n", true, ["1", "2", "! not an array"]),
        (#"{"a":[]}"#, "a.*", false, ["! nothing"]),
        (#"{"a":[1,2]} x"#, "a.*", false, ["1", "2", "! 1:13"]),
        (#"{"a":[1,{"n":2},x]}"#, "a.*.n", false, ["2", "! 1:17"]),
    ])
    func wildcardShapes(_ text: String, keyPath: String, jsonLines: Bool, expected: [String]) {
        let data = Data(text.utf8)
        let base = StreamingOptions(wrapsErrorsInParserError: false)
        let mismatches = Mismatches("\(text.debugDescription) at \"\(keyPath)\"")
        let reference = Self.compare("matches", base, mismatches) {
            Self.wildcardMatches(.data(data), keyPath, $0, jsonLines: jsonLines)
        }
        var lines = reference.values.filter { !$0.isEmpty }
        if let error = reference.error {
            if error.contains("NotAnArray") {
                lines.append("! not an array")
            } else if let at = error.range(of: #"at \d+:\d+"#, options: .regularExpression) {
                lines.append("! " + error[at].dropFirst(3))
            } else {
                lines.append("! " + error)
            }
        } else if reference.returned == 0 {
            lines.append("! nothing")
        }
        #expect(lines == expected, "\(reference)")
    }

    /// Found by the fuzz target: concatenated values after the first two bytes of a byte order
    /// mark (an error at byte 0). With workers, the excerpt went on past the newline with bytes
    /// from a later run, where one thread's stops at the line's end.
    @Test(arguments: [
        Array("\u{FEFF}".utf8.prefix(2)) + Array("\n\n\n{\"a\":1}\n/2\"a\":\r0 \n\"*t\n\n\n\n:".utf8)
            + Array(repeating: UInt8(ascii: "\n"), count: 40) + Array("[1]".utf8),
        Array("\u{FEFF}".utf8.prefix(2)) + Array("\n{\"a\":1}\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 200),
        Array("\u{FEFF}".utf8.prefix(1)) + Array("\n[1] [2] [3] [4] [5] [6] [7] [8] [9] [10]".utf8),
    ])
    func truncatedByteOrderMarkBeforeConcatenatedValues(_ bytes: [UInt8]) async throws {
        try await Self.checkLinesReaders(
            bytes, options: StreamingOptions(), framing: .concatenated, chunkSize: 1, all: false,
            Mismatches("a truncated byte order mark, \(bytes.count) bytes"))
    }

    /// Found by an attacker's run of the tool: after a byte order mark, an error in a split
    /// array whose excerpt reaches back to the input's start showed the mark with workers, where
    /// one thread's excerpt leaves it out.
    @Test(arguments: ["[x", "[1,2", #"{"a":[x"#, "[1,[2,x", "[\n1,\"a\",tru"])
    func anExcerptAfterAByteOrderMarkLeavesItOut(_ text: String) throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        let keyPath = text.hasPrefix("{") ? "a" : ""
        let mismatches = Mismatches("a byte order mark, then \(text.debugDescription)")
        let reference = Self.compare("decodeArray", StreamingOptions(), mismatches) { options in
            do {
                return Outcome(
                    values: try ElevateJSON.decodeArray(
                        from: .data(Data(bytes)), atKeyPath: keyPath, as: Probe.self, options: options
                    ).map(\.text))
            } catch {
                return Outcome(error: Self.describeWithExcerpt(error))
            }
        }
        let error = try #require(reference.error)
        #expect(!error.contains("\\xEF"), "\(error)")
        Self.compare("summarizeValue", StreamingOptions(), mismatches) { options in
            do {
                return Outcome(values: ["\(try summarizeValue(from: .data(Data(bytes)), atKeyPath: keyPath, options: options) as Any)"])
            } catch {
                return Outcome(error: Self.describeWithExcerpt(error))
            }
        }
    }

    /// Found by an attacker's run of the tool: a failing token that starts in the last 16 bytes
    /// of a chunk read from a file. One thread's excerpt goes on into the next chunk, which the
    /// token's carried bytes join; with workers it stopped at the chunk's end.
    @Test(arguments: [#""yyyyyyyyyyyyyyyyyyyy""#, "tru", "-x", "truex", #""a\u12"#])
    func anExcerptGoesOnPastTheChunkWhereTheTokenStarts(_ token: String) throws {
        var mismatches: [String] = []
        for end in [4080, 4081, 4086, 4090, 4093, 4095, 4096] {
            var bytes = Array("[".utf8)
            while bytes.count < end - 2 { bytes += Array("1,".utf8) }
            while bytes.count < end { bytes += Array("1".utf8) }
            bytes += Array(token.utf8) + Array(",2,3]".utf8)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunk-excerpt-\(UUID().uuidString).json")
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            func error(workers: Int, batch: Int?) -> String {
                var options = Self.options(StreamingOptions(), workers: workers, batch: batch)
                options.chunkSize = JSONInput.minimumChunkSize
                do {
                    _ = try ElevateJSON.decodeArray(from: .file(url), atKeyPath: "", as: Probe.self, options: options)
                    return "no error"
                } catch {
                    return Self.describeWithExcerpt(error)
                }
            }
            let reference = error(workers: 1, batch: nil)
            for (workers, batch) in Self.settings where error(workers: workers, batch: batch) != reference {
                mismatches.append("token at \(end), \(workers) workers, batch \(batch.map(String.init) ?? "-"): "
                    + "\(error(workers: workers, batch: batch)) against \(reference)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(4))")
    }

    // MARK: A bug this suite found

    /// Found by this suite before the split parse: the Codable `decodeArray` of a `JSONInput`
    /// with one worker throws the first element's `DecodingError` as soon as it is decoded, as
    /// `JSONDecoder` would; with more workers the error stayed in the workers' outcomes
    /// (`ParallelElementDecoder.throwFirstError()` rethrew only a batch's `error`, not a `.failed`
    /// outcome's `decodingError`), so a later syntax error was thrown instead, or, when the array
    /// was replaced by a repeated key (or a literal dotted key won), the call succeeded with the
    /// other array. Fixed by `ElementDelivery.throwFirstError()`, which asks the policy.
    @Test func codableDecodeArrayKeepsTheFirstDecodingError() {
        let inputs = [
            (#"[1,"bad",x]"#, ""), (#"[1,"bad",2] x"#, ""), (#"{"a":{"items":["bad"]},"a":{"items":[3]}}"#, "a.items"),
            (#"{"a":{"items":["bad"]},"a.items":[3]}"#, "a.items"),
        ]
        var differences: [String] = []
        for (text, keyPath) in inputs {
            let data = Data(text.utf8)
            var options = StreamingOptions(wrapsErrorsInParserError: false)
            let one = Self.decodeArrayCodable(.data(data), keyPath, options)
            #expect(one.error?.hasPrefix("DecodingError") == true, "\(text)")
            options.concurrency = 2
            let two = Self.decodeArrayCodable(.data(data), keyPath, options)
            if two != one { differences.append("\(text): \(two.difference(from: one))") }
        }
        #expect(differences.isEmpty, Comment(rawValue: differences.joined(separator: "\n")))
    }
}

// MARK: - Generated documents

/// A seeded document made for one scenario of ``SplitParseDifferentialTests/Scenario``: an array of
/// 50 to 2,000 random elements (most of them short, one document in ten long), at the root or
/// at `a.items` of `{"a":{"x":1,"items":[…]},"b":[1,2]}`, or the same elements as JSON Lines; then
/// damaged as the scenario says, with the options it needs.
struct GeneratedDocument {
    typealias Scenario = SplitParseDifferentialTests.Scenario

    private(set) var bytes: [UInt8] = []
    private(set) var options = StreamingOptions()
    private var random: SeededGenerator
    private let lines: Bool
    /// Top-level values one after another (concatenated JSON) rather than lines.
    private let concatenated: Bool
    /// Records of a JSON text sequence rather than lines: each value after a record separator,
    /// spanning lines now and then.
    private let records: Bool
    private var comments = false

    /// - Parameters:
    ///   - lines: Whether the elements are top-level values, as JSON Lines, or (with
    ///   `concatenated`) as concatenated JSON, separated by whitespace or nothing.
    ///   - members: Whether the elements are the values of an object's members instead (a map,
    ///     `{"m0": …, "m1": …}`, where the array would be), now and then under a key repeated.
    init(
        seed: UInt64, scenario: Scenario, nested: Bool, lines: Bool, concatenated: Bool = false, records: Bool = false,
        members: Bool = false
    ) {
        random = SeededGenerator(state: seed &* 0x2545_F491_4F6C_DD1D &+ 17)
        self.lines = lines
        self.concatenated = concatenated
        self.records = records
        options.wrapsErrorsInParserError = seed % 3 != 0
        let count = below(10) == 0 ? 1_000 + below(1_001) : 50 + below(251)

        var elements: [[UInt8]] = (0..<count).map { _ in Array(value(depth: 0).utf8) }
        switch scenario {
        case .deepNesting:
            // About the limit: the array itself is 1 deep at the root, 3 at `a.items`; a JSON
            // Lines value is at 0. A small limit mostly, now and then the default 512.
            let limit = below(3) == 0 ? 512 : 6 + below(10)
            options.parsing.maximumDepth = limit
            let base = lines ? 0 : nested ? 3 : 1
            for _ in 0..<(1 + below(4)) {
                let depth = max(1, limit - base - 2 + below(4))
                elements.insert(Array(nest(depth).utf8), at: below(elements.count + 1))
            }
        case .elementSize:
            options.maximumElementSize = 100
            for _ in 0..<(1 + below(5)) {
                elements.insert(Array(sized(90 + below(21)).utf8), at: below(elements.count + 1))
            }
        case .duplicateKeys:
            options.parsing.rejectsDuplicateKeys = true
            if below(2) == 0 || lines {
                let repeated = [
                    #"{"k":1,"j":2,"k":3}"#, #"{"o":{"a":[1],"a":{}}}"#, #"[{"x":1},{"x":2,"y":[],"x":3}]"#,
                ]
                elements.insert(Array(repeated[below(3)].utf8), at: below(elements.count + 1))
            }
        case .invalidUTF8:
            let invalid: [[UInt8]] = [
                [0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0x80],
            ]
            let element = Array(#""ab"#.utf8) + invalid[below(invalid.count)] + Array(#"cd""#.utf8)
            elements.insert(element, at: below(elements.count + 1))
        case .comments:
            options.parsing.allowsComments = true
            comments = true
        case .invalidElements:
            options.skipsInvalidElements = below(2) == 0
            for _ in 0..<(1 + below(3)) { elements.insert(Array(#""bad""#.utf8), at: below(elements.count + 1)) }
        case .emptyElement:
            switch below(3) {
            case 0: elements.insert([], at: 1 + below(elements.count))  // [1,,2]
            case 1: elements.append([])  // [1,2,]
            default: elements.insert([], at: 0)  // [,1]
            }
        default:
            break
        }
        // Elements that fail to decode, now and then in any scenario.
        if scenario != .invalidElements, below(4) == 0 {
            elements.insert(Array(#""bad""#.utf8), at: below(elements.count + 1))
        }

        if concatenated {
            if below(10) == 0 { bytes += [0xEF, 0xBB, 0xBF] }
            for element in elements {
                // Nothing between two values only where a bracket or brace separates them (two
                // numbers would make one).
                let touching = bytes.last.map { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "]") } ?? true
                    || element.first == UInt8(ascii: "{") || element.first == UInt8(ascii: "[")
                bytes += Array((touching && below(3) == 0 ? "" : below(3) == 0 ? space() + " " : "\n").utf8)
                bytes += element
            }
            bytes += Array(space().utf8)
        } else if records {
            for element in elements {
                bytes += [0x1E]
                bytes += element
                bytes += Array(["\n", "\n", " \n", "\n\n"][below(4)].utf8)
            }
        } else if lines {
            for element in elements {
                bytes += element
                bytes += Array(["\n", "\r\n", "\n\n", "  \n"][below(10) < 7 ? 0 : 1 + below(3)].utf8)
            }
        } else {
            if below(10) == 0 { bytes += [0xEF, 0xBB, 0xBF] }
            let (open, close) = members ? ("{", "}") : ("[", "]")
            let after = scenario == .duplicateKeys && nested ? close + #","x":2},"b":[1,2]}"# : close + #"},"b":[1,2]}"#
            bytes += Array((nested ? #"{"a":{"x":1,"items":"# + space() + open : space() + open).utf8)
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes += Array((space() + "," + space()).utf8) }
                if members, !element.isEmpty {
                    // Now and then a key used before: each occurrence is a member of its own.
                    let key = index > 0 && below(8) == 0 ? below(index) : index
                    bytes += Array(#""m\#(key)":"#.utf8) + Array(space().utf8)
                }
                bytes += element
            }
            bytes += Array((space() + (nested ? after : close) + space()).utf8)
        }
        damage(scenario)
    }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    private mutating func damage(_ scenario: Scenario) {
        let at = below(bytes.count)
        switch scenario {
        case .flippedByte:
            bytes[at] ^= UInt8(1 + below(255))
        case .deletedByte:
            bytes.remove(at: at)
        case .insertedByte:
            let inserted: [UInt8] = Array(",][}{\"\\x".utf8) + [0x0A, 0x0C, 0xFF]
            bytes.insert(inserted[below(inserted.count)], at: at)
        case .truncated:
            bytes.removeLast(1 + below(bytes.count))
        case .duplicatedComma:
            let commas = bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") }
            if !commas.isEmpty { bytes.insert(UInt8(ascii: ","), at: commas[below(commas.count)]) }
        case .trailingGarbage:
            let garbage = [" x", "]", ",1", "[", " 1", "}", "\n{}", "\u{0}", " ", "\n"]
            bytes += Array(garbage[below(garbage.count)].utf8)
        case .comments, .invalidElements:
            // Now and then also a syntax error, after the invalid elements or among the comments.
            if below(2) == 0 { bytes.insert(UInt8(ascii: "x"), at: at) }
        default:
            break
        }
    }

    // MARK: Values

    private mutating func space() -> String {
        if comments, below(6) == 0 {
            let pool = ["/* ],[{\" */", "/**/", "// ]},\"[\n", "/* \\\" */", "\n/* , */\n"]
            return pool[below(pool.count)]
        }
        guard below(4) == 0 else { return "" }
        let pool = lines && !concatenated && !records ? [" ", "\t", "  ", " \t "] : [" ", "\n", "\t", "\r\n", "  \n  ", "\n\n", "\r"]
        return pool[below(pool.count)]
    }

    static let numbers = [
        "0", "-0", "7", "-12", "3.25", "-0.5", "1e5", "1E-7", "2.5e+10", "-1.0E-2", "0.000001", "100",
        "123456789012345678901234567890", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
        "1.7976931348623157e308", "5e-324", "1e400", "-1e-400", "0.1e1", "12345678901234567890.5",
    ]

    static let strings = [
        #""""#, #""a,b""#, #""]""#, #""[{""#, #""}],[{""#, #""\"""#, #""\\""#, #""\\\"""#, #""x\\""#,
        #""\u00e9""#, #""\ud83d\ude00""#, #""é中😀""#, #""tab\tnew\nline""#, #""\/slash""#, #""a\"],[\"b""#,
        #""\\\\\\""#, #"",""#, #""{\"k\":[1,2]}""#, #""\u005D\u002C""#, #""//""#, #""/*""#, "\"\u{7F}\"",
    ]

    private mutating func string() -> String {
        if below(10) < 6 { return Self.strings[below(Self.strings.count)] }
        var text = "\""
        for _ in 0..<below(14) {
            switch below(13) {
            case 0: text += "\\\""
            case 1: text += "\\\\"
            case 2: text += "\\u00e9"
            case 3: text += "é"
            case 4: text += "😀"
            case 5: text += ","
            case 6: text += ["[", "]", "{", "}"][below(4)]
            case 7: text += "\\n"
            case 8: text += ":"
            case 9: text += "\\ud83d\\ude00"
            default: text.unicodeScalars.append(Unicode.Scalar(UInt8(97 + below(26))))
            }
        }
        return text + "\""
    }

    private mutating func value(depth: Int) -> String {
        let containers = depth < 4 ? 3 : 0
        switch below(7 + containers) {
        case 0: return ["true", "false", "null"][below(3)]
        case 1, 2: return Self.numbers[below(Self.numbers.count)]
        case 3, 4, 5, 6: return string()
        case 7:
            let elements = (0..<below(5)).map { _ in space() + value(depth: depth + 1) + space() }
            return "[" + elements.joined(separator: ",") + space() + "]"
        default:
            let members = (0..<below(5)).map { index in
                space() + "\"k\(index)\"" + space() + ":" + space() + value(depth: depth + 1) + space()
            }
            return "{" + members.joined(separator: ",") + space() + "}"
        }
    }

    /// Arrays and objects nested `depth` deep.
    private mutating func nest(_ depth: Int) -> String {
        var open = ""
        var close = ""
        for _ in 0..<depth {
            if below(2) == 0 {
                open += "["
                close = "]" + close
            } else {
                open += #"{"n":"#
                close = "}" + close
            }
        }
        return open + "1" + close
    }

    /// An element of about `size` bytes (a string counts its text, without quotes).
    private mutating func sized(_ size: Int) -> String {
        switch below(3) {
        case 0: return "\"" + String(repeating: "s", count: size) + "\""
        case 1: return "[" + String(repeating: "1,", count: max(0, size / 2 - 1)) + "1]"
        default: return #"{"k":""# + String(repeating: "o", count: max(0, size - 10)) + #""}"#
        }
    }
}
