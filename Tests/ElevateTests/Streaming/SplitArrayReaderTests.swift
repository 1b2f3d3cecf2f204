import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// The split parse (`SplitArrayReader`): with several workers, the array at the key path is cut
/// by the structural scanner and its runs parsed on the workers; results and errors are those of
/// one thread.
@Suite struct SplitArrayReaderTests {
    /// Every element delivered and the error, as text, at `workers` workers and runs of `runBytes`.
    private func outcome(_ json: String, keyPath: String = "", workers: Int, runBytes: Int, chunkSize: Int = 64 << 10)
        -> (values: [String], error: String?)
    {
        var options = StreamingOptions(chunkSize: chunkSize)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        var values: [String] = []
        do {
            _ = try forEachElement(
                from: JSONInput.data(Data(json.utf8)), atKeyPath: keyPath, as: JSON.self, options: options
            ) {
                values.append("\($0)")
            }
            return (values, nil)
        } catch {
            return (values, "\(error)")
        }
    }

    /// What `decodeArray` returns or throws, as text.
    private func gathered(
        _ json: String, keyPath: String = "", workers: Int, runBytes: Int, elementSize: Int = 64 << 20
    )
        -> String
    {
        var options = StreamingOptions(maximumElementSize: elementSize)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        do {
            return
                "\(try decodeArray(from: .data(Data(json.utf8)), atKeyPath: keyPath, as: JSON.self, options: options))"
        } catch {
            return "\(error)"
        }
    }

    private func expectSameAsOneThread(
        _ json: String, keyPath: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let sequential = outcome(json, keyPath: keyPath, workers: 1, runBytes: 1 << 20)
        let sequentialArray = gathered(json, keyPath: keyPath, workers: 1, runBytes: 1 << 20)
        for workers in [2, 4] {
            for runBytes in [1, 5, 16, 1 << 20] {
                let split = outcome(json, keyPath: keyPath, workers: workers, runBytes: runBytes)
                #expect(
                    split.values == sequential.values, "workers \(workers), runs of \(runBytes)",
                    sourceLocation: sourceLocation)
                #expect(
                    split.error == sequential.error, "workers \(workers), runs of \(runBytes)",
                    sourceLocation: sourceLocation)
                #expect(
                    gathered(json, keyPath: keyPath, workers: workers, runBytes: runBytes) == sequentialArray,
                    "decodeArray, workers \(workers), runs of \(runBytes)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func anElementOverTheSizeLimitIsNamedAsOnOneThread() {
        let json = #"[1, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], 3]"#
        let sequential = gathered(json, workers: 1, runBytes: 1 << 20, elementSize: 16)
        #expect(sequential.contains("maximum element size"))
        var options = StreamingOptions(maximumElementSize: 16)
        options.concurrency = 1
        var sequentialStream: String?
        do { _ = try forEachElement(from: .data(Data(json.utf8)), as: JSON.self, options: options) { _ in } } catch {
            sequentialStream = "\(error)"
        }
        for runBytes in [1, 8, 1 << 20] {
            options.concurrency = 2
            options.splitBatchByteCount = runBytes
            var split: String?
            do { _ = try forEachElement(from: .data(Data(json.utf8)), as: JSON.self, options: options) { _ in } } catch
            {
                split = "\(error)"
            }
            #expect(split == sequentialStream)
            // decodeArray names the offset where the parse stopped, which depends on chunks: only the limit is compared.
            #expect(
                gathered(json, workers: 2, runBytes: runBytes, elementSize: 16).contains(
                    "maximum element size of 16 bytes"))
        }
    }

    @Test func aStopByTheBodyEndsTheSplitStream() throws {
        var options = StreamingOptions()
        options.concurrency = 2
        options.splitBatchByteCount = 4
        var seen: [Int] = []
        let json = "[" + (0..<500).map(String.init).joined(separator: ",") + "] this is not read"
        let count = try forEachElement(from: .data(Data(json.utf8)), as: Int.self, options: options) {
            seen.append($0)
            if $0 == 99 { throw JSONEventParser.Stop() }
        }
        #expect(seen == Array(0...99))
        #expect(count == 100)
    }

    @Test func asyncChunksSplitAsOneThreadReads() async throws {
        let json = #"{"a": [1, {"b": "x,]"}, [2, 3], "\\"], "z": true}"#
        for workers in [1, 2] {
            for chunkSize in [1, 3, 4096] {
                var options = StreamingOptions()
                options.concurrency = workers
                options.splitBatchByteCount = 2
                var values: [String] = []
                for try await value in ByteChunks(Array(json.utf8), size: chunkSize).decodedElements(
                    atKeyPath: "a", as: JSON.self, options: options)
                {
                    values.append("\(value)")
                }
                #expect(values.count == 4)
            }
        }
    }

    @Test func validArraysDecodeAsOnOneThread() {
        expectSameAsOneThread(#"[1, "a,b]", {"x": [1, 2, {"y": "}"}]}, [], {}, null, true, "\"],[", -2.5e3]"#)
        expectSameAsOneThread("[]")
        expectSameAsOneThread("[ \n ]")
        expectSameAsOneThread("[\n1,\n2\n]\n")
        expectSameAsOneThread(
            #"{"a": {"skip": [1, [2]], "items": [1, {"b": [3]}, "x\\"]}}, "z": [9]}"#, keyPath: "a.items")
    }

    @Test func errorsAreThoseOfOneThread() {
        for json in [
            "[1,,2]", "[1,2,]", "[1 2]", "[1, tru, 3]", "[1, 2.", "[1, \"abc", "[1, {\"a\": ]}, 3]", "[1, 2}",
            "[1, 2] x",
            "[1,\n 2,\n x]", "[1, [2, 3, 4]]]", "[1, 2", "[1, \"\\u12\", 3]", "[1, \"a\u{01}\", 2]", "[1, -, 2]",
            "[[[[1]]],,]",
            "[1, 2]\n\n  [", "[\"\\\\\", \"\\\"\", x]",
        ] {
            expectSameAsOneThread(json)
        }
    }

    /// Elements longer than 32 runs (runs of 1 byte: over 32 bytes) are read by tails on the
    /// calling thread, and the cutting resumes at the comma after each: values and errors, before,
    /// in and after them, and in the runs between, are one thread's.
    @Test func elementsAroundLongOnesAreThoseOfOneThread() {
        let long = #""an element longer than thirty-two bytes""#
        let number = "1234567890123456789012345678901234567890123"
        for json in [
            "[1, \(long), 2, 3, \(long), [4, 5], \(long)]",
            "[\(long), \(long),\n\(long), 1]",
            "[\(long)]", "[\(long),]", "[\(long),, 1]", "[\(long) 1]", "[1, \(number), 2, \(number)]",
            "[{\"k\": \(long)}, {\"k\": 1}, {\"k\": x}]", "[\(long), 1, \(long), [2, \n 3,]]",
            "[\(long), \"\\u12\", \(long)]", "[\(long), {\"a\": [\(long), \(long)]}, 2]",
        ] {
            expectSameAsOneThread(json)
            expectSameAsOneThread(#"{"x": [1], "a": "# + json + #", "z": [2]}"#, keyPath: "a")
        }
    }

    /// Before the array at the key path, the values it cannot be in (skipped, or a target's) are
    /// passed over by the scan, which no longer stops the parser at each `[` in them (a count of
    /// a big object's members with two jobs took 30% longer than with one); what one thread finds
    /// there, errors included, and the array after them are unchanged.
    @Test func arraysWhereTheKeyPathCannotBeArePassedOverAsOneThreadReadsThem() {
        for json in [
            #"{"skip": {"x": [1, [2, "]"]], "y": "[[", "z": {"w": [[]]}}, "items": [1, [2, 3], {"b": [4]}, 5]}"#,
            #"{"skip": [1, [2, x]], "items": [1, 2, 3]}"#,
            #"{"skip": [1, [2}, "items": [1, 2, 3]}"#,
            #"{"skip": ["\"[", "\\", "[\\\"]"], "items": [1, 2, 3]}"#,
            #"{"items": 5, "b": [[1], [2, [3]]], "items": [1, 2]}"#,
            #"{"items": {"a": [1]}, "items": [1, [2], 3]}"#,
            #"{"skip": [[[[[1]]]]], "items": [1, 2, 3]"#,
            #"{"skip": [[[[[1]]]]"#,
            #"[[1, 2], [3, [4]], {"a": [5]}]"#,
            // Deeper than the parser's limit (512) inside a value passed over (an attacker's case).
            #"{"skip": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
                + #", "items": [1, 2, 3]}"#,
        ] {
            expectSameAsOneThread(json, keyPath: "items")
            expectSameAsOneThread(json, keyPath: "skip.x")
        }
    }

    /// The array at the key path after passed-over values is still split: its elements are cut
    /// for the workers, and all delivered.
    @Test func theArrayAfterPassedOverValuesIsStillSplit() throws {
        let skipped = (0..<50).map { _ in #"{"tags": ["a", "b"], "more": [[1], [2, [3]]], "s": "[\"]"}"# }
        let items = (0..<400).map { #"{"v": \#($0)}"# }
        let json = #"{"skip": [\#(skipped.joined(separator: ", "))], "counted": {"x": [1], "y": [[2]]}, "#
            + #""items": [\#(items.joined(separator: ", "))]}"#
        let streamed = try SplitTailTests.streamed(json, keyPath: "items", workers: 2)
        #expect(streamed.count == 400)
        #expect(streamed.delivered == Array(0..<400))
        #expect(streamed.cut == 400)
    }

    @Test func theDepthLimitCountsTheContainersAroundTheArray() {
        var options = StreamingOptions()
        options.parsing.maximumDepth = 4
        for workers in [1, 2] {
            options.concurrency = workers
            options.splitBatchByteCount = 2
            let json = #"{"a": {"items": [[1], [[2]], [[[3]]]]}}"#
            #expect(throws: (any Error).self) {
                _ = try forEachElement(
                    from: JSONInput.data(Data(json.utf8)), atKeyPath: "a.items", as: JSON.self, options: options
                ) { _ in }
            }
        }
    }

    @Test func theScannerFindsCommasOutsideStringsAtDepthOne() {
        let text = Array(#"1, "a,\"b", [2, 3], {"c": ","}, "\\", 4]"#.utf8)
        var scanner = StructuralScanner()
        var stops: [Int] = []
        var position = 0
        text.withUnsafeBytes { bytes in
            while case .at(let offset) = scanner.scan(bytes, from: position, base: 0, mode: .splitArray(cutFrom: 0)) {
                stops.append(offset)
                position = offset + 1
                if bytes[offset] == UInt8(ascii: "]") { break }
            }
        }
        #expect(stops.map { Character(UnicodeScalar(text[$0])) } == [",", ",", ",", ",", ",", "]"])
        #expect(scanner.topLevelCommas == 5)
    }
}

/// `elevate validate` and `elevate count` with workers: `countValues` splits every array, and
/// `summarizeValue` the counted one; counts and first errors are one thread's.
@Suite struct SplitCountingTests {
    private func counted(_ bytes: [UInt8], keyPath: String?, workers: Int, runBytes: Int, chunkSize: Int) -> String {
        var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        do {
            guard let keyPath else { return "\(try countValues(in: .data(Data(bytes)), options: options)) values" }
            return
                "\(String(describing: try summarizeValue(from: .data(Data(bytes)), atKeyPath: keyPath, options: options)))"
        } catch {
            return "\(error)"
        }
    }

    private func expectSameAsOneThread(_ bytes: [UInt8], _ label: String) {
        for keyPath in [nil, "", "a.items"] as [String?] {
            let one = counted(bytes, keyPath: keyPath, workers: 1, runBytes: 1 << 20, chunkSize: 1 << 16)
            for (runBytes, chunkSize) in [(1, 1 << 16), (7, 3), (64, 1 << 16)] {
                let two = counted(bytes, keyPath: keyPath, workers: 2, runBytes: runBytes, chunkSize: chunkSize)
                #expect(
                    two == one,
                    "\(label), key path \(keyPath ?? "(values)"), runs of \(runBytes), chunks of \(chunkSize)")
            }
        }
    }

    @Test func countsAndErrorsAreOneThreads() {
        for text in [
            #"[1, [2, [3]], {"a": [4, 5]}, "x,]", "\\", null]"#,
            #"{"a": {"items": [1, 2, [3, 4], {"b": []}]}, "c": [[]]}"#,
            "[]", "[1,,2]", "[   , 1]", "[1, 2,]", #"{"a": {"items": [1, 2}}"#, "[[1, 2], [3, x]]", "[1, 2] [",
            "[1, [2, 3]",
            #"{"a": [1], "a": [1, 2, 3]}"#,
            // Arrays where the key path cannot be, passed over by the scan before the counted one.
            #"{"skip": [[1], [2, "]"]], "a": {"x": [[3]], "items": [1, [2], 3]}, "c": [4]}"#,
            #"{"a": {"items": {"k": [1, 2], "j": [[3]]}}, "c": [1]}"#,
            #"{"skip": [[1], [2, x]], "a": {"items": [1, 2]}}"#,
            #"{"a": {"x": [[1}, "items": [1, 2]}}"#,
            // An error at the end of an array read by a tail (an element over 32 runs' length):
            // the excerpt goes on past the array, as one thread's does.
            #"{"a": {"items": [1, "an element longer than thirty-two bytes", 2,]}, "b": [1, 2]}"#,
            // An error in the run a tail starts with, found only when later bytes arrive (found
            // by review): the excerpt goes on past the run.
            #"[null,"aaaaaaaaaaaaaaaaaaaaaaaaaaa" nullx"#,
            // Runs after tails: the cutting resumes at the comma after each long element.
            #"{"a": {"items": [1, "an element longer than thirty-two bytes", 2, [3, 4], "another element longer than thirty-two", 5]}, "b": 1}"#,
            #"{"a": {"items": ["an element longer than thirty-two bytes",, 2]}}"#,
            #"{"a": {"items": ["an element longer than thirty-two bytes", [1, 2], "an element longer than thirty-two bytes" [3]]}}"#,
        ] {
            expectSameAsOneThread(Array(text.utf8), text)
        }
    }

    /// Seeded documents of every scenario of the differential tests (damaged bytes, invalid UTF-8,
    /// surrogate escapes, deep nesting, …): the runs' counts straight from YAJL's callbacks, and
    /// the event layer's where they leave a run to it, add up to one thread's count and error.
    @Test(arguments: SplitParseDifferentialTests.generatedSeeds)
    func generatedDocumentsCountAsOnOneThread(seed: Int) {
        let scenarios = SplitParseDifferentialTests.Scenario.allCases
        let document = GeneratedDocument(
            seed: UInt64(seed) &+ 7, scenario: scenarios[seed % scenarios.count], nested: seed % 2 == 1, lines: false)
        let one = counted(document.bytes, keyPath: nil, workers: 1, runBytes: 1 << 20, chunkSize: 1 << 16)
        for runBytes in [1, 97] {
            let two = counted(document.bytes, keyPath: nil, workers: 2, runBytes: runBytes, chunkSize: 1 << 16)
            #expect(two == one, "seed \(seed), runs of \(runBytes)")
        }
    }

    @Test func theConformanceSuiteCountsAsOnOneThread() throws {
        guard let directory = SharedCorpus.testParsing else {
            print(SharedCorpus.missingMessage)
            return
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            expectSameAsOneThread(bytes, name)
            expectSameAsOneThread(Array("[1,".utf8) + bytes + Array(",2]".utf8), "[1,\(name),2]")
        }
    }
}

/// A live source (a pipe, a socket, an async sequence that waits) gets its elements as they
/// complete with workers too, not once a run is long enough.
@Suite struct SplitLiveSourceTests {
    struct Item: Swift.Decodable, Sendable { var id: Int }

    @Test func aLiveArraySourceGetsItsElementsWithoutWaitingForMoreInput() async throws {
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(Array(#"{"items": [{"id": 1}, {"id": 2},"#.utf8))
        var options = StreamingOptions()
        options.concurrency = 2
        var iterator = chunks.decodedElements(atKeyPath: "items", as: Item.self, options: options).makeAsyncIterator()
        // The source stays open: the complete elements must come out before more input arrives.
        // Should they wait, the source is ended after 10 s, so that the test fails, not hangs.
        let timedOut = ManagedFlag()
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            timedOut.set()
            continuation.finish()
        }
        let first = try await [iterator.next()?.id, iterator.next()?.id]
        #expect(first == [1, 2])
        #expect(!timedOut.isSet, "the elements waited for more input")
        timeout.cancel()
        continuation.yield(Array(#" {"id": 3}]}"#.utf8))
        continuation.finish()
        #expect(try await iterator.next()?.id == 3)
        #expect(try await iterator.next() == nil)
    }
}

/// An element longer than 32 runs is not held for a worker: the rest of its array is read on the
/// calling thread (a `SplitTail`), as one thread reads it, so memory stays bounded.
@Suite struct SplitTailTests {
    private static let long = String(repeating: "x", count: 100_000)
    private static let document =
        #"[1, ""# + long + #"", 2, {"a": ["# + (0..<20_000).map(String.init).joined(separator: ",") + "]}, 3, [4], 5]"

    private func outcome(_ json: String, workers: Int, elementSize: Int, stopAt: Int? = nil) -> String {
        var options = StreamingOptions(maximumElementSize: elementSize, chunkSize: 4096)
        options.concurrency = workers
        options.splitBatchByteCount = 64
        var seen: [String] = []
        do {
            _ = try forEachElement(from: .data(Data(json.utf8)), as: JSON.self, options: options) {
                seen.append("\($0)".prefix(20).description)
                if seen.count == stopAt { throw JSONEventParser.Stop() }
            }
            return "\(seen)"
        } catch {
            return "\(seen) \(error)"
        }
    }

    @Test func aLongElementIsReadOnTheCallingThreadWithOneThreadsResults() {
        for (json, size) in [
            (Self.document, 64 << 20), (Self.document, 50_000), (Self.document + "x", 64 << 20),
            (String(Self.document.dropLast(9)), 64 << 20),
        ] {
            for stop in [nil, 1, 3, 5] as [Int?] {
                #expect(
                    outcome(json, workers: 2, elementSize: size, stopAt: stop)
                        == outcome(json, workers: 1, elementSize: size, stopAt: stop))
            }
        }
    }

    /// After a long element, the cutting resumes at the next comma: the elements after it go to
    /// the workers again, not to the calling thread, and every element is delivered in order.
    @Test func theElementsAfterALongOneAreCutAgain() throws {
        let items = (0..<200).map { #"{"v": \#($0)}"# }
        let long = #"{"v": -1, "s": ""# + String(repeating: "y", count: 5_000) + #""}"#
        let json = "[" + items.joined(separator: ", ") + ", " + long + ", " + items.joined(separator: ", ") + ", " + long
            + ", " + long + "]"
        for workers in [1, 2] {
            let streamed = try Self.streamed(json, keyPath: "", workers: workers)
            #expect(streamed.count == 403)
            #expect(streamed.delivered == Array(0..<200) + [-1] + Array(0..<200) + [-1, -1])
            if workers > 1 {
                // All but the long elements and the few that shared their runs.
                #expect(streamed.cut > 390, "\(streamed.cut) elements cut for the workers")
            }
        }
    }

    /// Streams the `"v"` of each element of the array at `keyPath` in `json`, fed in chunks of 1000
    /// bytes, with runs of 64 bytes: what was delivered, the count returned, and how many
    /// elements were cut for the workers.
    static func streamed(_ json: String, keyPath: String, workers: Int) throws -> (delivered: [Int], count: Int, cut: Int) {
        var options = StreamingOptions()
        options.concurrency = workers
        options.splitBatchByteCount = 64
        var delivered: [Int] = []
        let stream = ElementStream<Int>(
            keyPath: keyPath, methodName: "forEachElement", options: options,
            decode: { $0["v"]?.int ?? -2 }, deliver: { delivered.append($0) })
        try Array(json.utf8).withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 1000) {
                try stream.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 1000, bytes.count)]))
            }
        }
        let count = try stream.finish()
        return (delivered, count, stream.splitElementCount)
    }

    /// An error just before a chunk's end, some chunks after a token of 64 KiB or more: its
    /// excerpt is one thread's (found by review: one thread's parser held the chunks after the
    /// token back until as much had come, and its excerpt went on past the chunk's end).
    @Test func anErrorAfterALongTokenIsOneThreads() {
        let prefix = #"[""# + String(repeating: "x", count: 70_000) + #"", "#
        let json0 = prefix + Array(repeating: #"{"k": [1, 2]}"#, count: 1_500).joined(separator: ", ") + "]"
        // A chunk boundary some way into the elements after the long one, in 4 KiB chunks.
        let boundary = (prefix.utf8.count / 4096 + 3) * 4096
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        // Read from a file in 4 KiB chunks (`Data` is read in one piece): the elements and the
        // error with its excerpt.
        func read(workers: Int, runBytes: Int) -> String {
            var options = StreamingOptions(chunkSize: 4096, wrapsErrorsInParserError: false)
            options.concurrency = workers
            options.splitBatchByteCount = runBytes
            var count = 0
            do {
                _ = try forEachElement(from: .file(url), as: JSON.self, options: options) { _ in count += 1 }
                return "\(count) elements"
            } catch {
                return "\(count) elements, then \(SplitLinesReaderTests.describe(error))"
            }
        }
        for distance in [1, 2, 5, 9, 15, 16, 17] {
            var text = Array(json0.utf8)
            text[boundary - distance] = UInt8(ascii: "x")
            try! Data(text).write(to: url)
            let one = read(workers: 1, runBytes: 1 << 20)
            #expect(one.contains("near"), "\(one)")
            for runBytes in [1, 1024] {
                #expect(
                    read(workers: 2, runBytes: runBytes) == one, "\(distance) bytes before a chunk's end, runs of \(runBytes)")
            }
        }
    }

    /// An array whose elements a tail read to its end has delivered elements: a repeat of its key
    /// after it is refused, as on one thread (found by review: the tail's elements were not
    /// counted, and the repeat's elements were delivered as well).
    @Test func aKeyRepeatedAfterAnArrayReadByATailIsRefused() {
        let long = String(repeating: "y", count: 5_000)
        for json in [
            #"{"items": ["\#(long)", 1], "items": [2]}"#, #"{"items": [1, "\#(long)"], "items": [2]}"#,
            #"{"items": ["\#(long)"], "items": []}"#,
        ] {
            func read(workers: Int) -> String {
                var options = StreamingOptions(chunkSize: 4096)
                options.concurrency = workers
                options.splitBatchByteCount = 64
                var count = 0
                do {
                    _ = try forEachElement(from: .data(Data(json.utf8)), atKeyPath: "items", as: JSON.self, options: options) {
                        _ in count += 1
                    }
                    return "\(count) elements"
                } catch {
                    return "\(count) elements, then \(error)"
                }
            }
            let one = read(workers: 1)
            #expect(one.contains("appears more than once"), "\(one)")
            #expect(read(workers: 2) == one)
        }
    }

    @Test func countsThroughATailAreOneThreads() throws {
        var options = StreamingOptions(chunkSize: 4096)
        options.splitBatchByteCount = 64
        let data = Data(Self.document.utf8)
        let one = try countValues(in: .data(data), options: options)
        let summaryOne = try summarizeValue(from: .data(data), options: options)
        options.concurrency = 2
        #expect(try countValues(in: .data(data), options: options) == one)
        #expect(try summarizeValue(from: .data(data), options: options) == summaryOne)
        #expect(summaryOne?.count == 7)
    }
}
