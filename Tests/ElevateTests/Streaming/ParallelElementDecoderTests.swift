import Foundation
import Testing

@testable import Elevate

/// Decoding an array's elements on several threads gives exactly what one thread gives: the same
/// elements in the same order, the same errors.
@Suite struct ParallelElementDecoderTests {
    private typealias Item = TaggedItem

    private struct Custom: Error, Equatable { let index: Int }

    private func document(_ count: Int, invalidEvery: Int? = nil) -> Data {
        let items = (0..<count).map { index -> String in
            if let invalidEvery, index % invalidEvery == invalidEvery - 1 {
                return #"{"id": "x\#(index)", "tags": [1]}"#
            }
            return #"{"id": \#(index), "tags": ["t\#(index)"]}"#
        }
        return Data(#"{"items": [\#(items.joined(separator: ","))]}"#.utf8)
    }

    private func decode(_ data: Data, workers: Int) throws -> [Item] {
        try ArrayDecoding.decode(.data(data), atKeyPath: "items", methodName: "Item", workers: workers) {
            try decodeElement($0, as: Item.self)
        }
    }

    @Test(arguments: [2, 3, 8]) func sameElementsInOrder(workers: Int) throws {
        let data = document(5_000)
        #expect(try decode(data, workers: workers) == decode(data, workers: 1))
    }

    @Test(arguments: [2, 4]) func sameAggregatedFailures(workers: Int) throws {
        let data = document(1_000, invalidEvery: 97)
        func failure(_ workers: Int) -> ValidationReport? {
            do {
                _ = try withValidationReport { try decode(data, workers: workers) }
            } catch let report as ValidationReport {
                return report
            } catch {
                Issue.record("unexpected \(error)")
            }
            return nil
        }
        let sequential = try #require(failure(1))
        let parallel = try #require(failure(workers))
        #expect(parallel.error.failureReason == sequential.error.failureReason)
        #expect(parallel.failures == sequential.failures)
        #expect(parallel.failures.first?.path == "items[96].id")
    }

    /// An item that keeps the view it was decoded from, whose tape must then never be written
    /// over for another element.
    private struct KeptView: Elevate.Decodable {
        let id: Int
        let view: JSONValue?
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "id", type: .int)
            }
            id = entity <-! "id"
            view = json as? JSONValue
        }
    }

    /// An item that keeps its view when its id is a multiple of 3.
    private struct Mixed: Elevate.Decodable {
        let item: Item
        let kept: JSONValue?
        init(json: Any) throws {
            item = try Item(json: json)
            kept = item.id % 3 == 0 ? json as? JSONValue : nil
        }
    }

    @Test(arguments: [2, 4]) func keptViewsAreNotWrittenOverByRecycledTapes(workers: Int) throws {
        // Every third element keeps its view; the others' tapes go back for reuse. A tape taken
        // back while a view still read it would show a later element's id.
        let data = document(3_000)
        let mixed = try ArrayDecoding.decode(.data(data), atKeyPath: "items", methodName: "Mixed", workers: workers) {
            try decodeElement($0, as: Mixed.self)
        }
        #expect(mixed.map(\.item.id) == Array(0..<3_000))
        for element in mixed where element.item.id % 3 == 0 {
            let kept = try #require(element.kept, "element \(element.item.id) was handed a view")
            #expect(kept["id"]?.int == element.item.id)
            #expect(kept["tags"]?[0]?.string == "t\(element.item.id)")
        }
        let all = try ArrayDecoding.decode(.data(data), atKeyPath: "items", methodName: "KeptView", workers: workers) {
            try decodeElement($0, as: KeptView.self)
        }
        #expect(all.allSatisfy { $0.view?["id"]?.int == $0.id })
    }

    @Test func otherErrorsStopWithTheFirstInDocumentOrder() throws {
        let data = document(3_000)
        #expect(throws: Custom(index: 700)) {
            _ = try ArrayDecoding.decode(.data(data), atKeyPath: "items", methodName: "Item", workers: 4) { element in
                let item = try decodeElement(element, as: Item.self)
                if item.id >= 700, item.id % 100 == 0 { throw Custom(index: item.id) }
                return item
            }
        }
    }

    @Test func syntaxErrorsAreTheSame() {
        var text = String(decoding: document(2_000), as: UTF8.self)
        text.removeLast(3)
        text += ", x]}"
        let data = Data(text.utf8)
        var texts: [String] = []
        for workers in [1, 2] {
            do {
                _ = try decode(data, workers: workers)
            } catch {
                texts.append("\(error)")
            }
        }
        #expect(texts.count == 2)
        #expect(texts.first == texts.last)
    }

    @Test func repeatedArrayKeyTakesTheLast() throws {
        let data = Data(#"{"items": [{"id": 1, "tags": []}], "items": [{"id": 2, "tags": []}]}"#.utf8)
        #expect(try decode(data, workers: 2).map(\.id) == [2])
    }

    private func streamed(_ data: Data, workers: Int, skipping: Bool = false) -> (ids: [Int], error: String?) {
        var options = StreamingOptions()
        options.concurrency = workers
        options.skipsInvalidElements = skipping
        var ids: [Int] = []
        do {
            try Elevate.forEachElement(atKeyPath: "items", from: .data(data), as: Item.self, options: options) {
                ids.append($0.id)
            }
            return (ids, nil)
        } catch {
            return (ids, "\(error)")
        }
    }

    @Test func forEachElementDeliversInOrderWithTheSameErrors() throws {
        let valid = document(4_000)
        #expect(streamed(valid, workers: 3).ids == Array(0..<4_000))
        let invalid = document(2_000, invalidEvery: 501)
        let sequential = streamed(invalid, workers: 1)
        let parallel = streamed(invalid, workers: 2)
        #expect(parallel.error == sequential.error)
        #expect(parallel.ids == sequential.ids)
        #expect(sequential.ids.count == 500)
        let skippedSequential = streamed(invalid, workers: 1, skipping: true)
        let skippedParallel = streamed(invalid, workers: 4, skipping: true)
        #expect(skippedParallel.error == skippedSequential.error)
        #expect(skippedParallel.ids == skippedSequential.ids)
    }

    /// `document` with its end cut and replaced by bad bytes: a syntax error after every element.
    private func truncatedBadly(_ data: Data) -> Data {
        var text = String(decoding: data, as: UTF8.self)
        text.removeLast(3)
        return Data((text + ", x]}").utf8)
    }

    /// What one thread does before it meets the syntax error (deliver the elements before it, stop
    /// at an invalid one, or stop when the body says so) the workers do too.
    @Test(arguments: [1, 70, 130, 1_000])
    func anErrorBeforeASyntaxErrorWinsAsWithOneThread(invalidEvery: Int) throws {
        let data = truncatedBadly(document(150, invalidEvery: invalidEvery))
        for skipping in [false, true] {
            let sequential = streamed(data, workers: 1, skipping: skipping)
            let parallel = streamed(data, workers: 2, skipping: skipping)
            #expect(parallel.error == sequential.error, "skipping \(skipping)")
            #expect(parallel.ids == sequential.ids, "skipping \(skipping)")
        }
        var texts: [String] = []
        for workers in [1, 2] {
            do {
                _ = try decode(data, workers: workers)
            } catch {
                texts.append("\(error)")
            }
        }
        #expect(texts.count == 2 && texts.first == texts.last)
    }

    @Test(arguments: [5, 100, 148])
    func aStopBeforeASyntaxErrorEndsTheStreamAsWithOneThread(stopAt: Int) throws {
        for data in [truncatedBadly(document(150)), document(150)] {
            for workers in [1, 2] {
                var options = StreamingOptions()
                options.concurrency = workers
                var ids: [Int] = []
                let count = try Elevate.forEachElement(
                    atKeyPath: "items", from: .data(data), as: Item.self, options: options
                ) {
                    ids.append($0.id)
                    if $0.id == stopAt { throw JSONEventParser.Stop() }
                }
                #expect(count == stopAt + 1 && ids == Array(0...stopAt), "\(workers) workers")
            }
        }
    }

    /// JSON Lines and concatenated values, each `{"item": …}`: `count` of them, some invalid, some
    /// without the item, and bad bytes at the end when asked.
    private func values(_ count: Int, invalidEvery: Int?, missingEvery: Int?, badEnd: Bool, lines: Bool) -> Data {
        var parts: [String] = (0..<count).map { index in
            if let missingEvery, index % missingEvery == missingEvery - 1 { return #"{"other": 1}"# }
            if let invalidEvery, index % invalidEvery == invalidEvery - 1 {
                return #"{"item": {"id": "x\#(index)", "tags": [1]}}"#
            }
            return #"{"item": {"id": \#(index), "tags": ["t\#(index)"]}}"#
        }
        if badEnd { parts.append("{x") }
        return Data(parts.joined(separator: lines ? "\n" : " ").utf8)
    }

    private func streamedValues(
        _ data: Data, framing: JSONFraming, workers: Int, skipping: Bool, stopAt: Int? = nil
    ) -> (ids: [Int], result: String) {
        var options = StreamingOptions()
        options.concurrency = workers
        options.skipsInvalidElements = skipping
        options.chunkSize = 4_096
        var ids: [Int] = []
        do {
            let count = try Elevate.forEachValue(
                from: .data(data), framing: framing, atKeyPath: "item", as: Item.self, options: options
            ) {
                ids.append($0.id)
                if $0.id == stopAt { throw JSONEventParser.Stop() }
            }
            return (ids, "returned \(count)")
        } catch {
            return (ids, "\(error)")
        }
    }

    /// With several workers, JSON Lines and concatenated values are delivered as one thread
    /// delivers them: same values in order, same first error (line or index), same skipped
    /// values, and an earlier invalid value or a stop still comes before a later syntax error.
    @Test(arguments: [JSONFraming.jsonLines, .concatenated])
    func valueStreamsWithWorkersMatchOneThread(framing: JSONFraming) throws {
        let lines = framing == .jsonLines
        let cases: [(invalidEvery: Int?, missingEvery: Int?, badEnd: Bool)] = [
            (nil, nil, false), (nil, nil, true), (301, nil, false), (301, nil, true), (nil, 257, false),
            (97, 89, true), (1, nil, true),
        ]
        for (invalidEvery, missingEvery, badEnd) in cases {
            let data = values(1_000, invalidEvery: invalidEvery, missingEvery: missingEvery, badEnd: badEnd, lines: lines)
            for skipping in [false, true] {
                let one = streamedValues(data, framing: framing, workers: 1, skipping: skipping)
                for workers in [2, 3] {
                    let many = streamedValues(data, framing: framing, workers: workers, skipping: skipping)
                    let setting = "\(invalidEvery as Any) \(missingEvery as Any) \(badEnd) skipping \(skipping) \(workers)"
                    #expect(many.result == one.result, "\(setting)\n\(many.result.prefix(600))\n\(one.result.prefix(600))")
                    #expect(many.ids == one.ids, "\(setting)")
                }
            }
            for stopAt in [3, 500, 998] {
                let one = streamedValues(data, framing: framing, workers: 1, skipping: true, stopAt: stopAt)
                let many = streamedValues(data, framing: framing, workers: 2, skipping: true, stopAt: stopAt)
                #expect(many.result == one.result && many.ids == one.ids, "stop at \(stopAt): \(many.result.prefix(300)) | \(one.result.prefix(300)) | \(many.ids.count) \(one.ids.count)")
            }
        }
        let valid = values(3_000, invalidEvery: nil, missingEvery: nil, badEnd: false, lines: lines)
        #expect(streamedValues(valid, framing: framing, workers: 2, skipping: false).ids == Array(0..<3_000))
    }

    /// Throws `Thirteen` for id 13; an Elevate validation error for a non-integer id.
    private struct Picky: Swift.Decodable {
        struct Thirteen: Error, Equatable {}
        let id: Int
        init(from decoder: any Swift.Decoder) throws {
            enum Keys: String, CodingKey { case id }
            id = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .id)
            if id == 13 { throw Thirteen() }
        }
    }

    private func picky(_ text: String, framing: JSONFraming, workers: Int, keyPath: String = "", stopAt: Int? = nil)
        -> (ids: [Int], result: String)
    {
        var options = StreamingOptions()
        options.concurrency = workers
        var ids: [Int] = []
        do {
            let count = try Elevate.forEachValue(
                from: .data(Data(text.utf8)), framing: framing, atKeyPath: keyPath, as: Picky.self, options: options
            ) {
                ids.append($0.id)
                if $0.id == stopAt { throw JSONEventParser.Stop() }
            }
            return (ids, "returned \(count)")
        } catch {
            return (ids, "\(error)")
        }
    }

    /// Found in review: an element whose decoding threw (not a validation failure) dropped the
    /// elements before it in its batch, overrode a stop and an earlier invalid element; a value
    /// missing at the key path was still handed to the decoder on a worker.
    @Test func anErrorThrownByAnElementComesAfterTheElementsBeforeIt() {
        let cases: [(String, JSONFraming, String, Int?)] = [
            ("{\"id\":1}\n{\"id\":13}\n", .jsonLines, "", nil),
            ("{\"id\":1}\n{\"id\":13}\n", .jsonLines, "", 1),
            ("{\"id\":\"x\"}\n{\"id\":13}\n", .jsonLines, "", nil),
            (#"[{"id":1},{"id":13},{"id":2}]"#, .array, "", nil),
            (#"[{"id":1},{"id":13},{"id":2}]"#, .array, "", 1),
            ("{\"b\":1}\n{\"a\":{\"id\":2}}\n", .jsonLines, "a", nil),
            ("{\"b\":1}\n{\"a\":{\"id\":13}}\n", .jsonLines, "a", nil),
        ]
        for (text, framing, keyPath, stopAt) in cases {
            let one = picky(text, framing: framing, workers: 1, keyPath: keyPath, stopAt: stopAt)
            let two = picky(text, framing: framing, workers: 2, keyPath: keyPath, stopAt: stopAt)
            #expect(two.ids == one.ids && two.result == one.result, "\(text): \(two) vs \(one)")
        }
        // decodeArray: the element's error, not the later syntax error.
        for workers in [1, 2] {
            var options = StreamingOptions()
            options.concurrency = workers
            #expect(throws: Picky.Thirteen.self) {
                _ = try ArrayDecoding.decode(
                    .data(Data(#"[{"id":1},{"id":13},{"id":2}, oops]"#.utf8)), atKeyPath: "", methodName: "Picky",
                    workers: workers
                ) { try ElevateJSONDecoder().decode(Picky.self, from: $0) }
            }
        }
    }

    /// Found in review: a first JSON Lines line of only a byte order mark was a syntax error,
    /// where the other framings read the same input as no value.
    @Test func aByteOrderMarkAloneOnTheFirstLineIsBlank() throws {
        for text in ["\u{FEFF}", "\u{FEFF}\n1\n", "\u{FEFF}\r\n1\n", "\u{FEFF}  \n"] {
            var values: [Int] = []
            try Elevate.forEachValue(from: .data(Data(text.utf8)), framing: .jsonLines, as: Int.self) { values.append($0) }
            #expect(values == (text.contains("1") ? [1] : []), "\(text.debugDescription)")
        }
        #expect(throws: ParserError.self) {
            try Elevate.forEachValue(from: .data(Data("1\n\u{FEFF}\n".utf8)), framing: .jsonLines, as: Int.self) { _ in }
        }
    }

    /// Found in review: with workers, a live source's values waited for a full batch (or the end
    /// of the input) before they were handed out.
    @Test func aLiveSourceGetsItsValuesWithoutWaitingForMoreInput() async throws {
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(Array("{\"id\": 1, \"tags\": []}\n".utf8))
        var options = StreamingOptions()
        options.concurrency = 2
        var iterator = chunks.decodedValues(framing: .jsonLines, as: Item.self, options: options).makeAsyncIterator()
        // The source stays open: the value must come out before more input arrives.
        let first = try await iterator.next()
        #expect(first?.id == 1)
        continuation.yield(Array("{\"id\": 2, \"tags\": []}\n".utf8))
        continuation.finish()
        #expect(try await iterator.next()?.id == 2)
        #expect(try await iterator.next() == nil)
    }

    @Test func aThrowingBodyStopsTheWorkers() throws {
        struct Enough: Error {}
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func increment() { lock.withLock { value += 1 } }
            var count: Int { lock.withLock { value } }
        }
        let decodes = Counter()
        let data = document(20_000)
        var options = StreamingOptions()
        options.concurrency = 2
        var seen = 0
        #expect(throws: Enough.self) {
            try Elevate.forEachElement(
                atKeyPath: "items", from: .data(data), with: CountingDecoder(counter: decodes.increment), as: Item.self,
                options: options
            ) { _ in
                seen += 1
                if seen == 100 { throw Enough() }
            }
        }
        let afterReturn = decodes.count
        Thread.sleep(forTimeInterval: 0.05)
        #expect(decodes.count == afterReturn)
        #expect(afterReturn < 1_000)
    }

    private struct CountingDecoder: Elevate.Decoder, @unchecked Sendable {
        let counter: () -> Void
        func decode(_ object: Any) throws -> Any {
            counter()
            return try Item(json: object)
        }
    }

    @Test func asyncElementsWithWorkers() async throws {
        let data = document(3_000)
        let chunks = AsyncStream<[UInt8]> { continuation in
            var offset = 0
            let bytes = Array(data)
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(offset + 10_000, bytes.count)]))
                offset += 10_000
            }
            continuation.finish()
        }
        var options = StreamingOptions()
        options.concurrency = 2
        var ids: [Int] = []
        for try await item in chunks.decodedElements(atKeyPath: "items", as: Item.self, options: options) {
            ids.append(item.id)
        }
        #expect(ids == Array(0..<3_000))
    }

    /// A recursive Elevate type: one level of `{"child": …}` per nesting level.
    private struct Chain: Elevate.Decodable {
        let depth: Int
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "child", type: .dictionary, optional: true, decodableType: Chain.self)
            }
            let child: Chain? = entity <-? "child"
            depth = (child?.depth ?? 0) + 1
        }
    }

    /// Runs `body` on a thread with the main thread's stack (8 MiB), as a program's own code runs;
    /// the test runner's threads have less.
    private final class ResultBox<R>: @unchecked Sendable { var result: Result<R, any Error>? }

    private func onMainSizedStack<R>(_ body: @escaping @Sendable () throws -> R) throws -> R {
        let box = ResultBox<R>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try body() }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        return try box.result!.get()
    }

    /// Deeply nested elements (800 levels of a recursive Elevate type) decode on the pool's
    /// threads as on a thread with the main thread's stack: the pool asks for that much, whatever
    /// the platform's default for new threads. (An unoptimized build spends about 7 KiB of stack
    /// per level, so 800 levels need over 5 MiB: far past a 512 KiB default, with room to spare
    /// in 8 MiB.)
    @Test func deeplyNestedElementsDecodeOnWorkers() throws {
        let depth = 800
        let element = String(repeating: #"{"child": "#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        let data = Data(("[" + Array(repeating: element, count: 300).joined(separator: ",") + "]").utf8)
        let depths = try onMainSizedStack { () -> (sequential: [Int], parallel: [Int]) in
            var options = StreamingOptions()
            options.parsing.maximumDepth = 2_048
            let sequential: [Chain] = try Elevate.decodeArray(from: .data(data), atKeyPath: "", options: options)
            options.concurrency = 2
            let parallel: [Chain] = try Elevate.decodeArray(from: .data(data), atKeyPath: "", options: options)
            return (sequential.map(\.depth), parallel.map(\.depth))
        }
        #expect(depths.sequential == Array(repeating: depth, count: 300))
        #expect(depths.parallel == depths.sequential)
    }

    #if os(Linux)
        /// Which threads decoded elements (kernel thread ids), and whether the calling thread was one.
        private final class ThreadRecorder: @unchecked Sendable {
            private let lock = NSLock()
            private var ids: Set<String> = []
            func record() { lock.withLock { _ = ids.insert(ParallelElementDecoderTests.currentThreadID()) } }
            var recorded: Set<String> { lock.withLock { ids } }
        }

        private struct RecordingDecoder: Elevate.Decoder, @unchecked Sendable {
            let recorder: ThreadRecorder
            func decode(_ object: Any) throws -> Any {
                recorder.record()
                return try Item(json: object)
            }
        }

        fileprivate static func currentThreadID() -> String {
            // "/proc/thread-self" links to "<pid>/task/<tid>".
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            return String(link.split(separator: "/").last ?? "")
        }

        /// How many of `ids` are decoding-pool threads (the pool names them) still alive, after
        /// giving a thread that has done its last work up to two seconds to exit.
        private func poolThreadsAlive(among ids: Set<String>) -> Int {
            func alive() -> Int {
                ids.filter { id in
                    let name = (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8)) ?? ""
                    return name.hasPrefix("Elevate.decoder")
                }.count
            }
            let deadline = Date().addingTimeInterval(2)
            while alive() > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            return alive()
        }

        /// The pool's threads end when the call ends: finished, stopped by the body, ended by an
        /// element's error, or dropped by an async consumer that stopped iterating.
        @Test func noDecodingThreadOutlivesItsCall() async throws {
            let data = document(5_000)
            var options = StreamingOptions()
            options.concurrency = 3

            let finished = ThreadRecorder()
            let people: [Item] = try Elevate.decodeArray(
                from: .data(data), atKeyPath: "items", with: RecordingDecoder(recorder: finished), options: options)
            #expect(people.count == 5_000)
            #expect(finished.recorded.count > 1)
            #expect(poolThreadsAlive(among: finished.recorded) == 0)

            struct Enough: Error {}
            let stopped = ThreadRecorder()
            var seen = 0
            #expect(throws: Enough.self) {
                try Elevate.forEachElement(
                    atKeyPath: "items", from: .data(data), with: RecordingDecoder(recorder: stopped), as: Item.self,
                    options: options
                ) { _ in
                    seen += 1
                    if seen == 300 { throw Enough() }
                }
            }
            #expect(poolThreadsAlive(among: stopped.recorded) == 0)

            let failed = ThreadRecorder()
            #expect(throws: ParserError.self) {
                let _: [Item] = try Elevate.decodeArray(
                    from: .data(self.document(5_000, invalidEvery: 700)), atKeyPath: "items",
                    with: RecordingDecoder(recorder: failed), options: options)
            }
            #expect(poolThreadsAlive(among: failed.recorded) == 0)

            let dropped = ThreadRecorder()
            do {
                let chunks = AsyncStream<[UInt8]> { continuation in
                    continuation.yield(Array(data))
                    continuation.finish()
                }
                var iterator = chunks.decodedElements(
                    atKeyPath: "items", with: RecordingDecoder(recorder: dropped), as: Item.self, options: options
                ).makeAsyncIterator()
                #expect(try await iterator.next()?.id == 0)
            }
            #expect(poolThreadsAlive(among: dropped.recorded) == 0)
        }

        /// A mistyped concurrency starts at most four threads per processor, and decodes the same.
        @Test func aHugeConcurrencyIsCapped() throws {
            var options = StreamingOptions()
            options.concurrency = 10_000
            let recorder = ThreadRecorder()
            let people: [Item] = try Elevate.decodeArray(
                from: .data(document(20_000)), atKeyPath: "items", with: RecordingDecoder(recorder: recorder),
                options: options)
            #expect(people.map(\.id) == Array(0..<20_000))
            #expect(recorder.recorded.count <= 4 * ProcessInfo.processInfo.activeProcessorCount)
            #expect(poolThreadsAlive(among: recorder.recorded) == 0)
        }

        /// The calling thread is one of the workers: with `concurrency` 2, elements are decoded on
        /// the calling thread and one thread of the pool's.
        @Test func theCallingThreadIsOneOfTheWorkers() throws {
            var options = StreamingOptions()
            options.concurrency = 2
            let recorder = ThreadRecorder()
            let caller = Self.currentThreadID()
            let people: [Item] = try Elevate.decodeArray(
                from: .data(document(20_000)), atKeyPath: "items", with: RecordingDecoder(recorder: recorder),
                options: options)
            #expect(people.count == 20_000)
            #expect(recorder.recorded.count == 2)
            #expect(recorder.recorded.contains(caller))
        }
    #endif
}
