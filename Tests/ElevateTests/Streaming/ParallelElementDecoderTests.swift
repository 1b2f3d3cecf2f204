import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

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
            try Elevate.forEachElement(from: .data(data), atKeyPath: "items", as: Item.self, options: options) {
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
                    from: .data(data), atKeyPath: "items", as: Item.self, options: options
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
        let decodes = DecodeWatch()
        // 7 MB: several times what the split parse keeps in flight (at most 4 runs per worker, of
        // 4 KiB doubling to 256 KiB: under 1 MiB, about 25,000 elements of this size).
        let data = document(200_000)
        var options = StreamingOptions()
        options.concurrency = 2
        var seen = 0
        #expect(throws: Enough.self) {
            try Elevate.forEachElement(
                from: .data(data), atKeyPath: "items", with: CountingDecoder(watch: decodes), as: Item.self,
                options: options
            ) { _ in
                seen += 1
                if seen == 100 { throw Enough() }
            }
        }
        // No sleep and look: nothing may be running when the call returns, and once the workers
        // that decoded have exited, none can decode again.
        let atReturn = decodes.markReturned()
        #expect(atReturn.running == 0, "a decode was still running when the call returned")
        #expect(decodes.waitForWorkerThreadsToExit(), "a worker outlived the call")
        #expect(decodes.count == atReturn.decoded)
        #expect(atReturn.decoded < 50_000, "the workers went on decoding past their window")
    }

    /// Reports each decode, from whichever thread decodes, to a watch.
    private struct CountingDecoder: Elevate.Decoder, @unchecked Sendable {
        let watch: DecodeWatch
        func decode(_ object: Any) throws -> Any {
            watch.decodeStarted()
            defer { watch.decodeEnded() }
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

        /// How many of `ids` are decoding-pool threads (the pool names them) still alive, once they
        /// have exited or 20 seconds have passed: the pool joins its threads before the call
        /// returns, so the wait ends as soon as the system has reaped them; the bound only stops a
        /// failure from hanging.
        private func poolThreadsAlive(among ids: Set<String>) -> Int {
            func alive() -> Int {
                ids.filter { id in
                    let name = (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8)) ?? ""
                    return name.hasPrefix("Elevate.decoder")
                }.count
            }
            let deadline = Date().addingTimeInterval(20)
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
                    from: .data(data), atKeyPath: "items", with: RecordingDecoder(recorder: stopped), as: Item.self,
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

extension ParallelElementDecoderTests {
    /// Tries to break what parallel element decoding promises, by comparing every parallel run with
    /// the sequential (one worker) run of the same input: the same values in document order, the
    /// same first error and the same aggregated text, views that stay valid however many tapes are
    /// recycled after them, no data mixed between concurrent calls, and no decoding after a call
    /// returned. The suite above covers the plain cases; these are the awkward ones.
    @Suite struct SameAsOneThread {
        /// An element read through the library (so it is handed a view), which keeps that view, a
        /// view of its nested `tags`, and a closure that reads the view later.
        private struct Keeper: Elevate.Decodable, Sendable {
            let id: Int
            let text: String
            let view: JSONValue?
            let tagsView: JSONValue?
            let readLater: @Sendable () -> String?
            init(json: Any) throws {
                let entity = try Parser.parseEntity(json: json) { schema in
                    schema.addProperty(keyPath: "id", type: .int)
                    schema.addProperty(keyPath: "text", type: .string)
                }
                id = entity <-! "id"
                text = entity <-! "text"
                let view = json as? JSONValue
                self.view = view
                tagsView = view?["tags"]
                readLater = { view?["text"]?.string }
            }
        }

        private typealias Item = TaggedItem

        /// `{"id": …, "tags": […]}` texts, with ids from `first`; an invalid id where `invalid` says.
        private static func items(_ count: Int, first: Int = 0, invalid: (Int) -> Bool = { _ in false }) -> [String] {
            (0..<count).map { index in
                let id = first + index
                return invalid(index) ? #"{"id": "x\#(id)", "tags": [1]}"# : #"{"id": \#(id), "tags": ["t\#(id)"]}"#
            }
        }

        private static func document(_ elements: [String]) -> Data {
            Data(#"{"items": [\#(elements.joined(separator: ","))]}"#.utf8)
        }

        private static func options(_ workers: Int, skipping: Bool = false) -> StreamingOptions {
            var options = StreamingOptions()
            options.concurrency = workers
            options.skipsInvalidElements = skipping
            return options
        }

        /// What a call returned or threw, as text: results and errors compare in one `==`.
        private static func outcome<T>(_ body: () throws -> T) -> String {
            do {
                return "returned \(try body())"
            } catch {
                return "threw \(type(of: error)): \(error)"
            }
        }

        // MARK: Errors a sequential run throws before it reaches what replaces them

        /// Throws `Thirteen` (not a validation failure) for id 13.
        private struct Picky: Elevate.Decodable, Sendable, CustomStringConvertible {
            struct Thirteen: Error, Equatable {}
            let id: Int
            init(json: Any) throws {
                let entity = try Parser.parseEntity(json: json) { schema in
                    schema.addProperty(keyPath: "id", type: .int)
                }
                id = entity <-! "id"
                if id == 13 { throw Thirteen() }
            }
            var description: String { "\(id)" }
        }

        private static func pickyElements(_ count: Int, thirteenAt: Int?) -> String {
            (0..<count).map { #"{"id": \#($0 == thirteenAt ? 13 : 100 + $0)}"# }.joined(separator: ",")
        }

        /// One thread decodes the elements of a repeated array key as they arrive, so an element of
        /// the first occurrence that throws ends the call, whatever replaces that occurrence later;
        /// the workers must not let the replacement hide that error.
        @Test(arguments: [2, 3, 8]) func aThrowingElementOfAReplacedArrayStillThrows(workers: Int) {
            let documents = [
                // Fewer elements than a batch: nothing was handed to a worker yet.
                #"{"items": [\#(Self.pickyElements(3, thirteenAt: 1))], "items": [{"id": 1}]}"#,
                // Several batches, the throwing one in the middle.
                #"{"items": [\#(Self.pickyElements(300, thirteenAt: 150))], "items": [{"id": 1}]}"#,
                // Replaced by a value that is not an array.
                #"{"items": [\#(Self.pickyElements(200, thirteenAt: 199))], "items": 5}"#,
                // The error in the second occurrence: it is the one kept.
                #"{"items": [{"id": 1}], "items": [\#(Self.pickyElements(100, thirteenAt: 70))]}"#,
            ]
            for text in documents {
                let data = Data(text.utf8)
                let one = Self.outcome { try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Picky.self, options: Self.options(1)) }
                let many = Self.outcome {
                    try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Picky.self, options: Self.options(workers))
                }
                #expect(one.hasPrefix("threw Thirteen"), "\(text.prefix(80))")
                #expect(many == one, "\(text.prefix(80))")
            }
        }

        /// A dotted key path matches both `{"a": {"b": […]}}` and a literal `"a.b"` root key; one
        /// thread decodes the elements of both as they come, so an element of the array not chosen
        /// in the end that throws still ends the call, and, with two throwing, the first in the
        /// document wins.
        @Test(arguments: [2, 3]) func aThrowingElementOfTheCandidateNotChosenStillThrows(workers: Int) {
            struct Other: Error, Equatable {}
            let documents = [
                #"{"a": {"b": [\#(Self.pickyElements(3, thirteenAt: 2))]}, "a.b": [{"id": 1}]}"#,
                #"{"a.b": [{"id": 1}], "a": {"b": [\#(Self.pickyElements(200, thirteenAt: 130))]}}"#,
                #"{"a.b": [\#(Self.pickyElements(200, thirteenAt: 10))], "a": {"b": [{"id": 1}]}}"#,
            ]
            for text in documents {
                let data = Data(text.utf8)
                let one = Self.outcome { try Elevate.decodeArray(from: .data(data), atKeyPath: "a.b", as: Picky.self, options: Self.options(1)) }
                let many = Self.outcome {
                    try Elevate.decodeArray(from: .data(data), atKeyPath: "a.b", as: Picky.self, options: Self.options(workers))
                }
                #expect(one.hasPrefix("threw Thirteen"), "\(text.prefix(80))")
                #expect(many == one, "\(text.prefix(80))")
            }
            // Both arrays throw, each a different error: the first in the document is the one,
            // whichever candidate it belongs to.
            let decoder = ThrowingDecoder(throwsFor: "boom", error: Other())
            let literal = #""a.b": [\#(Self.pickyElements(100, thirteenAt: 90))]"#
            let split = #""a": {"b": [{"id": 5}, {"id": "boom"}, {"id": 7}]}"#
            for both in ["{\(literal), \(split)}", "{\(split), \(literal)}"] {
                let data = Data(both.utf8)
                let one = Self.outcome {
                    try Elevate.decodeArray(from: .data(data), atKeyPath: "a.b", with: decoder, as: Int.self, options: Self.options(1))
                }
                let many = Self.outcome {
                    try Elevate.decodeArray(
                        from: .data(data), atKeyPath: "a.b", with: decoder, as: Int.self, options: Self.options(workers))
                }
                #expect(one.hasPrefix(both.hasPrefix("{\"a.b\"") ? "threw Thirteen" : "threw Other"), "\(one)")
                #expect(many == one, "\(both.prefix(40))")
            }
        }

        /// Returns the id of `{"id": …}`; throws `error` when the id is the string `throwsFor`, and
        /// `Picky.Thirteen` for 13.
        private struct ThrowingDecoder: Elevate.Decoder, @unchecked Sendable {
            let throwsFor: String
            let error: any Error
            func decode(_ object: Any) throws -> Any {
                // A view, or a dictionary if the hand-off decided this decoder casts.
                let raw: Any? = (object as? JSONValue).map { $0["id"] as Any } ?? (object as? [String: Any])?["id"]
                let field = raw as? JSONValue
                if (field?.string ?? (raw as? String)) == throwsFor { throw error }
                let id = field?.int ?? (raw as? Int) ?? -1
                if id == 13 { throw Picky.Thirteen() }
                return id
            }
        }

        // MARK: Views kept by decoded values

        /// Elements whose views are kept, mixed with elements larger than the recycler keeps
        /// (1 MiB of text, which the recycler frees) and tiny ones whose tapes it hands back: after
        /// the whole array, every kept view, nested view and captured closure still reads its own
        /// element.
        @Test(arguments: [2, 3, 8]) func keptViewsSurviveRecyclingAmongHugeElements(workers: Int) throws {
            let huge = String(repeating: "h", count: TapeRecycler.largestKeptBytes + 10)
            let count = 700
            let elements = (0..<count).map { index -> String in
                let text = index % 97 == 5 ? "\(index)-\(huge)" : "e\(index)"
                return #"{"id": \#(index), "text": "\#(text)", "tags": ["t\#(index)", \#(index)]}"#
            }
            let data = Self.document(elements)
            let decoded: [Keeper] = try Elevate.decodeArray(from: .data(data), atKeyPath: "items", options: Self.options(workers))
            #expect(decoded.map(\.id) == Array(0..<count))
            for value in decoded {
                let view = try #require(value.view, "element \(value.id) was handed a view")
                #expect(view["id"]?.int == value.id)
                #expect(view["text"]?.string == value.text)
                #expect(value.readLater() == value.text)
                #expect(value.tagsView?[0]?.string == "t\(value.id)")
                #expect(value.tagsView?[1]?.int == value.id)
            }
            // The same through forEachElement, the kept values collected by the body.
            var streamed: [Keeper] = []
            try Elevate.forEachElement(from: .data(data), atKeyPath: "items", as: Keeper.self, options: Self.options(workers)) {
                streamed.append($0)
            }
            #expect(streamed.map(\.id) == Array(0..<count))
            #expect(streamed.allSatisfy { $0.view?["id"]?.int == $0.id && $0.readLater() == $0.text })
        }

        /// JSON Lines cut on one thread for the workers: kept views of lines stay those lines.
        @Test(arguments: [2, 8]) func keptViewsOfJSONLinesStayTheirLines(workers: Int) throws {
            let lines = (0..<2_000).map { #"{"id": \#($0), "text": "line \#($0)", "tags": []}"# }
            var options = Self.options(workers)
            options.chunkSize = 1_000
            var kept: [Keeper] = []
            try Elevate.forEachValue(
                from: .data(Data(lines.joined(separator: "\n").utf8)), framing: .jsonLines, as: Keeper.self, options: options
            ) { kept.append($0) }
            #expect(kept.map(\.id) == Array(0..<2_000))
            #expect(kept.allSatisfy { $0.view?["text"]?.string == "line \($0.id)" && $0.readLater() == "line \($0.id)" })
        }

        // MARK: Concurrent calls

        /// Many parallel `decodeArray` calls at once, each on its own document (ids in its own
        /// range, some keeping views): every call gets its own elements, in order, and its views read
        /// its own document; no tape, recycler or per-thread state of one call leaks into another.
        @Test func concurrentParallelCallsNeverMixTheirDocuments() async throws {
            let calls = 12
            let count = 1_500
            try await withThrowingTaskGroup(of: (Int, [Keeper], [Item]).self) { group in
                for call in 0..<calls {
                    group.addTask {
                        let first = call * 100_000
                        let keepers = (0..<count).map { #"{"id": \#(first + $0), "text": "c\#(call)-\#($0)", "tags": []}"# }
                        let workers = [2, 3, 8][call % 3]
                        let kept: [Keeper] = try Elevate.decodeArray(
                            from: .data(Self.document(keepers)), atKeyPath: "items", options: Self.options(workers))
                        let items: [Item] = try Elevate.decodeArray(
                            from: .data(Self.document(Self.items(count, first: first))), atKeyPath: "items",
                            options: Self.options(workers))
                        return (call, kept, items)
                    }
                }
                var seen = Set<Int>()
                for try await (call, kept, items) in group {
                    seen.insert(call)
                    let first = call * 100_000
                    #expect(kept.map(\.id) == Array(first..<first + count), "call \(call)")
                    #expect(kept.enumerated().allSatisfy { $1.view?["text"]?.string == "c\(call)-\($0)" }, "call \(call)")
                    #expect(items.map(\.id) == Array(first..<first + count), "call \(call)")
                    #expect(items.allSatisfy { $0.tags == ["t\($0.id)"] }, "call \(call)")
                }
                #expect(seen.count == calls)
            }
        }

        /// Concurrent calls whose elements fail validation: each call's aggregated error names only
        /// its own elements, exactly as its sequential run does.
        @Test func concurrentFailingCallsReportOnlyTheirOwnFailures() async throws {
            let calls = 8
            let results = await withTaskGroup(of: (Int, String, String).self) { group in
                for call in 0..<calls {
                    group.addTask {
                        let data = Self.document(Self.items(700, first: call * 1_000) { ($0 + call) % 89 == 0 })
                        let decode = { (workers: Int) in
                            Self.outcome { try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Item.self, options: Self.options(workers)) }
                        }
                        return (call, decode(1 + call % 3 + 1), decode(1))
                    }
                }
                var all: [(Int, String, String)] = []
                for await result in group { all.append(result) }
                return all
            }
            #expect(results.count == calls)
            for (call, parallel, sequential) in results {
                #expect(sequential.hasPrefix("threw"), "call \(call)")
                #expect(parallel == sequential, "call \(call)")
            }
        }

        // MARK: Invalid elements anywhere

        /// An invalid element first, last, at a batch edge, or everywhere, in arrays of sizes around
        /// a batch: `decodeArray`'s aggregated text, and `forEachElement`'s first error or skipped
        /// elements, are those of one thread.
        @Test(arguments: [2, 3, 8]) func invalidElementsAtEveryPositionAsOneThread(workers: Int) {
            let patterns: [(String, (Int, Int) -> Bool)] = [
                ("first", { index, _ in index == 0 }),
                ("last", { index, count in index == count - 1 }),
                ("batch edge", { index, _ in index == 63 || index == 64 }),
                ("all", { _, _ in true }),
                ("every other", { index, _ in index % 2 == 1 }),
            ]
            for count in [1, 63, 64, 65, 130, 400] {
                for (name, isInvalid) in patterns {
                    let data = Self.document(Self.items(count) { isInvalid($0, count) })
                    let setting = "\(name) of \(count), \(workers) workers"
                    let arrayOne = Self.outcome {
                        try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Item.self, options: Self.options(1))
                    }
                    let arrayMany = Self.outcome {
                        try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Item.self, options: Self.options(workers))
                    }
                    #expect(arrayMany == arrayOne, "\(setting)")
                    for skipping in [false, true] {
                        func streamed(_ workers: Int) -> ([Int], String) {
                            var ids: [Int] = []
                            let result = Self.outcome {
                                try Elevate.forEachElement(
                                    from: .data(data), atKeyPath: "items", as: Item.self,
                                    options: Self.options(workers, skipping: skipping)
                                ) { ids.append($0.id) }
                            }
                            return (ids, result)
                        }
                        let one = streamed(1)
                        let many = streamed(workers)
                        #expect(many.1 == one.1, "\(setting) skipping \(skipping)")
                        #expect(many.0 == one.0, "\(setting) skipping \(skipping)")
                    }
                }
            }
        }

        /// Elements with invalid nested Decodables (arrays of children, some with a bad grandchild):
        /// the nested failure text, carried from the worker's thread, is the sequential text.
        @Test(arguments: [2, 8]) func nestedFailuresInsideElementsAsOneThread(workers: Int) throws {
            struct Parent: Elevate.Decodable {
                let id: Int
                let children: [Item]
                init(json: Any) throws {
                    let entity = try Parser.parseEntity(json: json) { schema in
                        schema.addProperty(keyPath: "id", type: .int)
                        schema.addProperty(keyPath: "children", type: .array, decodableType: Item.self)
                    }
                    id = entity <-! "id"
                    children = entity <--! "children"
                }
            }
            let elements = (0..<300).map { index -> String in
                let children = Self.items(3, first: index * 10) { child in index % 37 == 0 && child == index % 3 }
                return #"{"id": \#(index), "children": [\#(children.joined(separator: ","))]}"#
            }
            let data = Self.document(elements)
            func report(_ workers: Int) -> String {
                let outcome = Result {
                    try withValidationReport {
                        try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Parent.self, options: Self.options(workers))
                    }
                }
                switch outcome {
                case .success: return "no error"
                case .failure(let report as ValidationReport): return "\(report.error.failureReason)\n\(report.failures)"
                case .failure(let error): return "other \(error)"
                }
            }
            let one = report(1)
            #expect(one.contains("items[37]"))
            #expect(report(workers) == one)
            // Valid parents: the nested arrays arrive whole and in order.
            let valid = Self.document((0..<300).map { #"{"id": \#($0), "children": [\#(Self.items(4, first: $0 * 10).joined(separator: ","))]}"# })
            let parents: [Parent] = try Elevate.decodeArray(from: .data(valid), atKeyPath: "items", options: Self.options(workers))
            #expect(parents.map(\.id) == Array(0..<300))
            #expect(parents.allSatisfy { $0.children.map(\.id) == Array($0.id * 10..<$0.id * 10 + 4) })
        }

        /// Duplicate keys inside elements (the last wins, or an error when rejected) decode the same
        /// on the workers.
        @Test(arguments: [2, 3]) func duplicateKeysInsideElementsAsOneThread(workers: Int) {
            let elements = (0..<500).map { index in
                index % 3 == 0
                    ? #"{"id": "x", "tags": [], "id": \#(index), "tags": ["t\#(index)"]}"#
                    : #"{"id": \#(index), "tags": ["t\#(index)"], "id": \#(index + 1)}"#
            }
            let data = Self.document(elements)
            for rejects in [false, true] {
                var one = Self.options(1)
                one.parsing.rejectsDuplicateKeys = rejects
                var many = Self.options(workers)
                many.parsing.rejectsDuplicateKeys = rejects
                let sequential = Self.outcome {
                    try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Item.self, options: one)
                }
                let parallel = Self.outcome {
                    try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Item.self, options: many)
                }
                #expect(parallel == sequential, "rejects \(rejects)")
                #expect(sequential.hasPrefix(rejects ? "threw" : "returned"))
            }
        }

        // MARK: Syntax errors and stops

        /// Bad bytes inside an element (not only after the last one), at several places: the same
        /// error, and the same elements delivered before it, as one thread.
        @Test(arguments: [0, 1, 63, 64, 65, 199]) func aSyntaxErrorInsideAnElementAsOneThread(at position: Int) {
            var elements = Self.items(200)
            elements[position] = #"{"id": \#(position), "tags": [tru]}"#
            let data = Self.document(elements)
            for workers in [2, 3] {
                let one = Self.outcome { try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Item.self, options: Self.options(1)) }
                let many = Self.outcome {
                    try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Item.self, options: Self.options(workers))
                }
                #expect(one.hasPrefix("threw"))
                #expect(many == one, "at \(position), \(workers) workers")
                func streamed(_ workers: Int) -> ([Int], String) {
                    var ids: [Int] = []
                    let result = Self.outcome {
                        try Elevate.forEachElement(from: .data(data), atKeyPath: "items", as: Item.self, options: Self.options(workers)) {
                            ids.append($0.id)
                        }
                    }
                    return (ids, result)
                }
                let streamedOne = streamed(1)
                let streamedMany = streamed(workers)
                #expect(streamedMany.1 == streamedOne.1 && streamedMany.0 == streamedOne.0, "at \(position), \(workers) workers")
                #expect(streamedOne.0 == Array(0..<position))
            }
        }

        /// A decoder shared by all workers, reporting each of its calls to a watch.
        private struct CountingDecoder: Elevate.Decoder, @unchecked Sendable {
            let watch: DecodeWatch
            func decode(_ object: Any) throws -> Any {
                watch.decodeStarted()
                defer { watch.decodeEnded() }
                return try Item(json: object)
            }
        }

        /// A body that throws at element k, or stops the stream there, sees exactly the elements
        /// before k, as with one thread, and nothing is decoded once the call has returned.
        @Test(arguments: [0, 63, 64, 129, 1_999]) func aBodyThatThrowsOrStopsAtKAsOneThread(k: Int) {
            struct Enough: Error {}
            let data = Self.document(Self.items(2_000))
            for stops in [false, true] {
                var results: [String] = []
                for workers in [1, 2, 8] {
                    let watch = DecodeWatch()
                    var ids: [Int] = []
                    let result = Self.outcome {
                        try Elevate.forEachElement(
                            from: .data(data), atKeyPath: "items", with: CountingDecoder(watch: watch), as: Item.self,
                            options: Self.options(workers)
                        ) {
                            ids.append($0.id)
                            if $0.id == k { throw stops ? JSONEventParser.Stop() as any Error : Enough() }
                        }
                    }
                    watch.expectNothingDecodedAfterReturn("\(workers) workers, stops \(stops)")
                    #expect(ids == Array(0...k), "\(workers) workers, stops \(stops)")
                    results.append(result)
                }
                #expect(Set(results).count == 1, "\(results)")
            }
        }

        /// Cancelling the task iterating `decodedElements` with workers ends the iteration with
        /// `CancellationError`, and nothing is decoded after the task ended.
        @Test(arguments: [2, 3]) func cancellingTheIteratingTaskStopsTheWorkers(workers: Int) async throws {
            let data = Self.document(Self.items(20_000))
            let watch = DecodeWatch()
            let chunks = AsyncStream<[UInt8]> { continuation in
                let bytes = Array(data)
                var offset = 0
                while offset < bytes.count {
                    continuation.yield(Array(bytes[offset..<min(offset + 4_096, bytes.count)]))
                    offset += 4_096
                }
                continuation.finish()
            }
            await watch.expectCancellationStops(after: 300, of: 20_000, {
                chunks.decodedElements(
                    atKeyPath: "items", with: CountingDecoder(watch: watch), as: Item.self, options: Self.options(workers))
            }, index: \.id)
        }

        /// A held iterator that threw `CancellationError` must not go on decoding in the background
        /// while its owner keeps it.
        @Test func aHeldIteratorStopsDecodingOnceCancelled() async throws {
            let data = Self.document(Self.items(20_000))
            let watch = DecodeWatch()
            let chunks = AsyncStream<[UInt8]> { continuation in
                continuation.yield(Array(data))
                continuation.finish()
            }
            let sequence = chunks.decodedElements(
                atKeyPath: "items", with: CountingDecoder(watch: watch), as: Item.self, options: Self.options(3))
            let task = Task { () -> (String, (decoded: Int, running: Int), Bool, Int) in
                var iterator = sequence.makeAsyncIterator()
                var seen = 0
                var ending = "finished"
                do {
                    while let _ = try await iterator.next() {
                        seen += 1
                        if seen == 100 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                } catch {
                    ending = "\(type(of: error))"
                }
                // The iterator is still held here: nothing may be running, and the workers must
                // end (the event waited for, instead of a sleep) without decoding anything more.
                let atError = watch.markReturned()
                let exited = watch.waitForWorkerThreadsToExit()
                let later = watch.count
                _ = try? await iterator.next()
                return (ending, atError, exited, later)
            }
            let (ending, atError, exited, later) = await task.value
            #expect(ending == "CancellationError")
            #expect(atError.running == 0, "still decoding when the iteration threw")
            #expect(exited, "a worker kept running while the iterator was held")
            #expect(later == atError.decoded, "decoded \(later - atError.decoded) more elements after the iteration threw")
        }

        // MARK: JSON Lines with bad lines in the middle

        /// Bad lines between good ones (a syntax error, an invalid value, a value missing its key):
        /// the same values, first error or skipped values, as one thread.
        @Test(arguments: [2, 3, 8]) func jsonLinesWithBadLinesInTheMiddleAsOneThread(workers: Int) {
            func lines(badAt: Set<Int>, kind: Int) -> Data {
                let text = (0..<500).map { index -> String in
                    guard badAt.contains(index) else { return #"{"item": {"id": \#(index), "tags": []}}"# }
                    switch kind {
                    case 0: return #"{"item": {"id": \#(index), "tags": [}}"#
                    case 1: return #"{"item": {"id": "bad", "tags": []}}"#
                    default: return #"{"other": 1}"#
                    }
                }
                return Data(text.joined(separator: "\n").utf8)
            }
            for badAt: Set<Int> in [[0], [64], [250], [499], [10, 200, 300]] {
                for kind in 0..<3 {
                    let data = lines(badAt: badAt, kind: kind)
                    for skipping in [false, true] {
                        func run(_ workers: Int) -> ([Int], String) {
                            var ids: [Int] = []
                            var options = Self.options(workers, skipping: skipping)
                            options.chunkSize = 2_048
                            let result = Self.outcome {
                                try Elevate.forEachValue(
                                    from: .data(data), framing: .jsonLines, atKeyPath: "item", as: Item.self, options: options
                                ) { ids.append($0.id) }
                            }
                            return (ids, result)
                        }
                        let one = run(1)
                        let many = run(workers)
                        let setting = "bad \(badAt.sorted()) kind \(kind) skipping \(skipping)"
                        #expect(many.1 == one.1, "\(setting)\n\(many.1.prefix(300))\n\(one.1.prefix(300))")
                        #expect(many.0 == one.0, "\(setting)")
                    }
                }
            }
        }

        // MARK: Shared decoders and Foundation values

        /// A `DateDecoder` shared by all workers, some dates invalid: the same dates and the same
        /// aggregated failures as one thread.
        @Test(arguments: [2, 8]) func aSharedDateDecoderAsOneThread(workers: Int) throws {
            let decoder = DateDecoder(dateFormatString: "yyyy-MM-dd")
            let dates = (0..<600).map { index in
                index % 150 == 149 ? #""not a date \#(index)""# : #""20\#(10 + index % 20)-0\#(1 + index % 9)-1\#(index % 10)""#
            }
            let valid = Data("[\(dates.enumerated().filter { $0.offset % 150 != 149 }.map(\.element).joined(separator: ","))]".utf8)
            let one: [Date] = try Elevate.decodeArray(from: .data(valid), with: decoder, options: Self.options(1))
            let many: [Date] = try Elevate.decodeArray(from: .data(valid), with: decoder, options: Self.options(workers))
            #expect(many == one)
            let invalid = Data("[\(dates.joined(separator: ","))]".utf8)
            let failingOne = Self.outcome { try Elevate.decodeArray(from: .data(invalid), with: decoder, as: Date.self, options: Self.options(1)) }
            let failingMany = Self.outcome {
                try Elevate.decodeArray(from: .data(invalid), with: decoder, as: Date.self, options: Self.options(workers))
            }
            #expect(failingOne.hasPrefix("threw"))
            #expect(failingMany == failingOne)
        }

        /// `init(json:)` that casts `json` to `[String: Any]` itself (so it is handed Foundation
        /// values after its first element), inside and outside `withFoundationValues`: the workers
        /// decode what one thread decodes.
        @Test(arguments: [2, 3]) func typesThatCastTheirValueDecodeTheSameOnWorkers(workers: Int) throws {
            struct Caster: Elevate.Decodable, Equatable {
                let id: Int
                let tagCount: Int
                init(json: Any) throws {
                    guard let dictionary = json as? [String: Any], let id = dictionary["id"] as? Int,
                        let tags = dictionary["tags"] as? [Any]
                    else { throw ParserError.validation(failureReason: "not an item: \(type(of: json))") }
                    self.id = id
                    tagCount = tags.count
                }
            }
            let data = Self.document(Self.items(1_000) { $0 % 211 == 100 })
            let one = Self.outcome { try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Caster.self, options: Self.options(1)) }
            let many = Self.outcome {
                try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Caster.self, options: Self.options(workers))
            }
            let forced = Self.outcome {
                try withFoundationValues {
                    try Elevate.decodeArray(from: .data(data), atKeyPath: "items", as: Caster.self, options: Self.options(workers))
                }
            }
            #expect(one.hasPrefix("threw") && one.contains("at index 100 ") && one.contains("at index 733 "))
            #expect(many == one)
            #expect(forced == one)
            let valid = Self.document(Self.items(1_000))
            let decoded: [Caster] = try Elevate.decodeArray(from: .data(valid), atKeyPath: "items", options: Self.options(workers))
            #expect(decoded.map(\.id) == Array(0..<1_000) && decoded.allSatisfy { $0.tagCount == 1 })
        }
    }
}
