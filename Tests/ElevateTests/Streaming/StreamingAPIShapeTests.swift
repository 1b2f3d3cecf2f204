import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// One shape for every streaming entry point: `from:` a ``JSONInput`` (or the chunk sequence),
/// `atKeyPath:`, both the `as:` and `with:` forms, one ``JSONFraming``, and
/// ``StreamingOptions/wrapsErrorsInParserError`` honoured everywhere.
@Suite struct StreamingAPIShapeTests {
    /// Any JSON value, kept as the decoder was handed it.
    private struct AnyJSON: Elevate.Decodable {
        init(json: Any) throws {}
    }

    /// Accepts every event and keeps nothing.
    private final class IgnoringHandler: JSONEventHandler {}

    /// One entry point, run on an input with the given options.
    struct EntryPoint: Sendable, CustomTestStringConvertible {
        var name: String
        /// Whether it reads a ``JSONInput`` (and so can meet an unreadable file).
        var readsInput = true
        var run: @Sendable (_ input: JSONInput, _ options: StreamingOptions) async throws -> Void
        var testDescription: String { name }
    }

    /// The input as one chunk, for the asynchronous entry points.
    private static func chunks(_ input: JSONInput) -> AsyncStream<Data> {
        guard case .data(let data) = input else { preconditionFailure("asynchronous entry points read data") }
        return AsyncStream { continuation in
            continuation.yield(data)
            continuation.finish()
        }
    }

    static let entryPoints: [EntryPoint] = {
        var entries: [EntryPoint] = [
            EntryPoint(name: "forEachElement(as:)") { input, options in
                try Elevate.forEachElement(from: input, as: AnyJSON.self, options: options) { _ in }
            },
            EntryPoint(name: "forEachElement(with:)") { input, options in
                try Elevate.forEachElement(from: input, with: StringToIntDecoder(), as: Int.self, options: options) {
                    _ in
                }
            },
            EntryPoint(name: "decodeArray(as:)") { input, options in
                _ = try Elevate.decodeArray(from: input, as: AnyJSON.self, options: options)
            },
            EntryPoint(name: "decodeArray(with:)") { input, options in
                _ = try Elevate.decodeArray(from: input, with: StringToIntDecoder(), as: Int.self, options: options)
            },
            EntryPoint(name: "decodeObject(as:)") { input, options in
                _ = try Elevate.decodeObject(from: input, as: AnyJSON.self, options: options)
            },
            EntryPoint(name: "decodeObject(with:)") { input, options in
                _ = try Elevate.decodeObject(from: input, with: StringToIntDecoder(), as: Int.self, options: options)
            },
            EntryPoint(name: "summarizeValue") { input, options in
                _ = try Elevate.summarizeValue(from: input, options: options)
            },
            EntryPoint(name: "forEachEvent") { input, options in
                try Elevate.forEachEvent(from: input, to: IgnoringHandler(), options: options)
            },
            EntryPoint(name: "decodedElements(as:)", readsInput: false) { input, options in
                for try await _ in chunks(input).decodedElements(as: AnyJSON.self, options: options) {}
            },
            EntryPoint(name: "chunks.decodeArray(as:)", readsInput: false) { input, options in
                _ = try await chunks(input).decodeArray(as: AnyJSON.self, options: options)
            },
            EntryPoint(name: "chunks.decodeArray(with:)", readsInput: false) { input, options in
                _ = try await chunks(input).decodeArray(with: StringToIntDecoder(), as: Int.self, options: options)
            },
            EntryPoint(name: "chunks.decodeObject(as:)", readsInput: false) { input, options in
                _ = try await chunks(input).decodeObject(as: AnyJSON.self, options: options)
            },
            EntryPoint(name: "chunks.decodeObject(with:)", readsInput: false) { input, options in
                _ = try await chunks(input).decodeObject(with: StringToIntDecoder(), as: Int.self, options: options)
            },
            EntryPoint(name: "chunks.summarizeValue", readsInput: false) { input, options in
                _ = try await chunks(input).summarizeValue(options: options)
            },
            EntryPoint(name: "chunks.forEachEvent", readsInput: false) { input, options in
                try await chunks(input).forEachEvent(to: IgnoringHandler(), options: options)
            },
            EntryPoint(name: "decodedElements(with:)", readsInput: false) { input, options in
                for try await _ in chunks(input).decodedElements(
                    with: StringToIntDecoder(), as: Int.self, options: options)
                {}
            },
        ]
        for framing in [JSONFraming.array, .jsonLines, .concatenated, .jsonTextSequence] {
            entries += [
                EntryPoint(name: "forEachValue(\(framing), as:)") { input, options in
                    try Elevate.forEachValue(from: input, framing: framing, as: AnyJSON.self, options: options) { _ in }
                },
                EntryPoint(name: "forEachValue(\(framing), with:)") { input, options in
                    try Elevate.forEachValue(
                        from: input, framing: framing, with: StringToIntDecoder(), as: Int.self, options: options
                    ) { _ in }
                },
                EntryPoint(name: "decodedValues(\(framing), as:)", readsInput: false) { input, options in
                    for try await _ in chunks(input).decodedValues(framing: framing, as: AnyJSON.self, options: options)
                    {}
                },
                EntryPoint(name: "decodedValues(\(framing), with:)", readsInput: false) { input, options in
                    let values = chunks(input).decodedValues(
                        framing: framing, with: StringToIntDecoder(), as: Int.self, options: options)
                    for try await _ in values {}
                },
            ]
        }
        return entries
    }()

    private static let badInput = JSONInput.data(Data("[}".utf8))
    private static let missingFile = JSONInput.file(URL(fileURLWithPath: "/nonexistent/elevate-\(UUID()).json"))

    @Test(arguments: entryPoints)
    func syntaxErrorsAreUnwrappedOnRequest(entry: EntryPoint) async throws {
        let unwrapped = StreamingOptions(wrapsErrorsInParserError: false)
        let error = await #expect(throws: JSONSyntaxError.self) { try await entry.run(Self.badInput, unwrapped) }
        #expect(error?.line == 1)
        await #expect(throws: ParserError.self) { try await entry.run(Self.badInput, StreamingOptions()) }
    }

    @Test(arguments: entryPoints.filter(\.readsInput))
    func unreadableFilesAreUnwrappedOnRequest(entry: EntryPoint) async throws {
        let unwrapped = StreamingOptions(wrapsErrorsInParserError: false)
        await #expect(throws: JSONInputError.self) { try await entry.run(Self.missingFile, unwrapped) }
        await #expect(throws: ParserError.self) { try await entry.run(Self.missingFile, StreamingOptions()) }
    }

    /// An unwrapped JSON Lines error carries the input's line and byte offset, not the line's own.
    @Test func anUnwrappedJSONLinesErrorIsPlacedInTheInput() throws {
        let options = StreamingOptions(wrapsErrorsInParserError: false)
        let error = #expect(throws: JSONSyntaxError.self) {
            try Elevate.forEachValue(
                from: .data(Data("1\n2\n[3, }\n".utf8)), framing: .jsonLines, as: Int.self, options: options
            ) { _ in }
        }
        #expect(error?.line == 3)
        #expect(error?.byteOffset ?? 0 >= 4)
    }

    /// Elevate's `decodeArray(from: Data, atKeyPath:)` and `decodeObject` still resolve, unambiguously,
    /// for `Data` arguments, and agree with the ``JSONInput`` overloads.
    @Test func elevatesDataOverloadsStillResolve() throws {
        let data = Data(#"{"k": [1, 2, 3], "o": {"a": 1}}"#.utf8)
        let root = Data("[4, 5]".utf8)
        let elevateArray: (Data, String) throws -> [Int] = Elevate.decodeArray(from:atKeyPath:)
        let elevateObject: (Data, String) throws -> [String: Int] = Elevate.decodeObject(from:atKeyPath:)
        let x: [Int] = try Elevate.decodeArray(from: data, atKeyPath: "k")
        let y: [Int] = try Elevate.decodeArray(from: root)
        let o: [String: Int] = try Elevate.decodeObject(from: data, atKeyPath: "o")
        #expect(x == [1, 2, 3])
        #expect(y == [4, 5])
        #expect(try elevateArray(data, "k") == x)
        #expect(try elevateObject(data, "o") == o)
        #expect(try Elevate.decodeArray(from: .data(data), atKeyPath: "k", as: Int.self) == x)
        #expect(try Elevate.decodeArray(from: .data(root), as: Int.self) == y)
        #expect(try Elevate.decodeObject(from: .data(data), atKeyPath: "o", as: [String: Int].self) == o)
    }

    /// `.array` reads the top-level array's elements, as `forEachElement(from:atKeyPath: "")` does, and the
    /// key path applies inside each element, in every reader and with several workers.
    @Test(arguments: [1, 2])
    func theArrayFramingReadsTheElementsThenTheKeyPath(concurrency: Int) async throws {
        let data = Data(#"[{"a": {"b": 1}}, {"a": {"b": 2}}, {"a": {"b": 3}}]"#.utf8)
        var options = StreamingOptions()
        options.concurrency = concurrency
        var read: [Int] = []
        let count = try Elevate.forEachValue(
            from: .data(data), framing: .array, atKeyPath: "a.b", as: Int.self, options: options
        ) { read.append($0) }
        #expect(count == 3)
        #expect(read == [1, 2, 3])
        var elements: [Int] = []
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(data)
            continuation.finish()
        }
        for try await value in chunks.decodedValues(framing: .array, atKeyPath: "a.b", as: Int.self, options: options) {
            elements.append(value)
        }
        #expect(elements == [1, 2, 3])
        var whole = 0
        try Elevate.forEachValue(from: .data(data), framing: .array, as: AnyJSON.self, options: options) { _ in
            whole += 1
        }
        #expect(whole == (try Elevate.forEachElement(from: .data(data), as: AnyJSON.self, options: options) { _ in }))

        let missing = Data(#"[{"a": {"b": 1}}, {"a": {}}]"#.utf8)
        let error = #expect(throws: ParserError.self) {
            try Elevate.forEachValue(from: .data(missing), framing: .array, atKeyPath: "a.b", as: Int.self) { _ in }
        }
        #expect("\(error.map { $0 } as Any)".contains("Required key path [a.b] was missing or null"))
    }

    /// `with:` forms of the value readers, which had none.
    @Test func valueReadersTakeADecoder() async throws {
        let data = Data("\"1\"\n\"22\"\n".utf8)
        var read: [Int] = []
        try Elevate.forEachValue(from: .data(data), framing: .jsonLines, with: StringToIntDecoder(), as: Int.self) {
            read.append($0)
        }
        #expect(read == [1, 22])
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(data)
            continuation.finish()
        }
        var async: [Int] = []
        for try await value in chunks.decodedValues(framing: .jsonLines, with: StringToIntDecoder(), as: Int.self) {
            async.append(value)
        }
        #expect(async == [1, 22])
    }

    /// A file handle is read in chunks from its position to its end, and left open.
    @Test func aFileHandleIsReadInChunksAndLeftOpen() throws {
        let numbers = Array(0..<5_000)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-handle-\(UUID()).json")
        try Data("[\(numbers.map(String.init).joined(separator: ","))]".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        final class Reads: @unchecked Sendable { var count = 0 }
        let reads = Reads()
        var options = StreamingOptions(chunkSize: 4096)
        options.progress = { _ in reads.count += 1 }
        let decoded = try Elevate.decodeArray(from: .fileHandle(handle), as: Int.self, options: options)
        #expect(decoded == numbers)
        #expect(reads.count > 1)
        // Still open: it can be read again from the start.
        try handle.seek(toOffset: 0)
        #expect(try handle.read(upToCount: 1) == Data("[".utf8))
    }
}

/// Values a user builds in tests of code that takes them.
@Suite struct PublicInitializerTests {
    @Test func summariesAndInputErrorsCanBeMade() {
        let summary = JSONContainerSummary(kind: .array, count: 3)
        #expect(summary.kind == .array && summary.count == 3)
        let error = JSONInputError(path: "/tmp/x.json", reason: "No such file or directory")
        #expect(error.description == "/tmp/x.json: No such file or directory")
    }
}
