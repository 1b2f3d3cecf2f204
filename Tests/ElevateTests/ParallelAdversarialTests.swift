import Foundation
import Testing

@testable import Elevate

/// Tries to break what parallel element decoding promises, by comparing every parallel run with
/// the sequential (one worker) run of the same input: the same values in document order, the
/// same first error and the same aggregated text, views that stay valid however many tapes are
/// recycled after them, no data mixed between concurrent calls, and no decoding after a call
/// returned. ``ParallelElementDecoderTests`` covers the plain cases; these are the awkward ones.
@Suite struct ParallelAdversarialTests {
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
        try Elevate.forEachElement(atKeyPath: "items", from: .data(data), as: Keeper.self, options: Self.options(workers)) {
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
                                atKeyPath: "items", from: .data(data), as: Item.self,
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
                    try Elevate.forEachElement(atKeyPath: "items", from: .data(data), as: Item.self, options: Self.options(workers)) {
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

    /// Counts decodes from every worker.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    /// A decoder shared by all workers, counting its calls.
    private struct CountingDecoder: Elevate.Decoder, @unchecked Sendable {
        let counter: Counter
        func decode(_ object: Any) throws -> Any {
            counter.increment()
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
                let counter = Counter()
                var ids: [Int] = []
                let result = Self.outcome {
                    try Elevate.forEachElement(
                        atKeyPath: "items", from: .data(data), with: CountingDecoder(counter: counter), as: Item.self,
                        options: Self.options(workers)
                    ) {
                        ids.append($0.id)
                        if $0.id == k { throw stops ? JSONEventParser.Stop() as any Error : Enough() }
                    }
                }
                let afterReturn = counter.count
                Thread.sleep(forTimeInterval: 0.02)
                #expect(counter.count == afterReturn, "decoded after return: \(workers) workers, stops \(stops)")
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
        let counter = Counter()
        let chunks = AsyncStream<[UInt8]> { continuation in
            let bytes = Array(data)
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(offset + 4_096, bytes.count)]))
                offset += 4_096
            }
            continuation.finish()
        }
        let task = Task { () -> (Int, String) in
            var seen = 0
            do {
                for try await item in chunks.decodedElements(
                    atKeyPath: "items", with: CountingDecoder(counter: counter), as: Item.self, options: Self.options(workers))
                {
                    #expect(item.id == seen)
                    seen += 1
                    if seen == 300 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (seen, "finished")
            } catch {
                return (seen, "\(type(of: error))")
            }
        }
        let (seen, ending) = await task.value
        #expect(ending == "CancellationError")
        #expect(seen >= 300 && seen < 20_000)
        let afterEnd = counter.count
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(counter.count == afterEnd)
        #expect(afterEnd < 20_000)
    }

    /// A held iterator that threw `CancellationError` must not go on decoding in the background
    /// while its owner keeps it.
    @Test func aHeldIteratorStopsDecodingOnceCancelled() async throws {
        let data = Self.document(Self.items(20_000))
        let counter = Counter()
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(data))
            continuation.finish()
        }
        let sequence = chunks.decodedElements(
            atKeyPath: "items", with: CountingDecoder(counter: counter), as: Item.self, options: Self.options(3))
        let task = Task { () -> (String, Int, Int) in
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
            // The iterator is still held here.
            let atError = counter.count
            usleep(100_000)
            let later = counter.count
            _ = try? await iterator.next()
            return (ending, atError, later)
        }
        let (ending, atError, later) = await task.value
        #expect(ending == "CancellationError")
        #expect(later == atError, "decoded \(later - atError) more elements after the iteration threw")
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
