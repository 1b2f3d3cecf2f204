import Foundation

/// Element-by-element decoding of the array at a key path, in one pass over the data.
package enum ArrayDecoding {
    /// - Parameter workers: How many elements are decoded at once; 1 decodes each element on the
    ///   calling thread as soon as it is parsed, more hands them to a ``ParallelElementDecoder``.
    package static func decode<T>(
        _ input: JSONInput, atKeyPath keyPath: String, methodName: String,
        options: StreamingOptions = StreamingOptions(), workers: Int = 1,
        decode: @escaping (JSONValue) throws -> T
    ) throws -> [T] {
        try Pass(
            keyPath: keyPath, methodName: methodName, options: options, workers: workers, decode: decode
        )
        .run(input, options: options)
    }

    /// ``decode(_:atKeyPath:methodName:options:workers:decode:)`` of an asynchronous sequence of chunks.
    package static func decode<T, Chunks: AsyncSequence>(
        _ chunks: Chunks, atKeyPath keyPath: String, methodName: String,
        options: StreamingOptions = StreamingOptions(), workers: Int = 1,
        decode: @escaping (JSONValue) throws -> T
    ) async throws -> [T] where Chunks.Element: Sequence<UInt8> {
        try await Pass(
            keyPath: keyPath, methodName: methodName, options: options, workers: workers, decode: decode
        )
        .run(chunks, options: options)
    }

    /// What was found at one candidate path (the split path, or a literal dotted root key).
    private final class Candidate<Element> {
        let found: Found
        /// Where its array started among the pass's arrays (see ``Pass/settleInDocumentOrder()``).
        var order = 0
        /// For an array: decodes its elements, here or on workers, gathers them here in document
        /// order and records the failing ones (Elevate's texts for the first
        /// ``StreamingOptions/maximumReportedFailures``, then only a count, so that an array of
        /// millions of invalid elements does not hold millions of texts).
        var delivery: ElementDelivery<Element>?
        /// The elements decoded so far, in the array that is returned: handing the caller a copy
        /// would hold the document's elements twice at the end of the pass.
        private var elements: [Element] = []
        // Elements reach `elements` a batch at a time: in this code, generic over a type known
        // only at run time, appending one element to an `[Element]` looks the array type's
        // metadata up every time (about 500 instructions, a fifth of a small entity's decoding).
        private let batch = UnsafeMutablePointer<Element>.allocate(capacity: Candidate.batchCapacity)
        private var batchCount = 0
        private static var batchCapacity: Int { 64 }
        /// Sizes `elements` once, when its first elements are in (see ``ElementCountEstimate``).
        var estimate: ElementCountEstimate?

        init(found: Found = .missing) {
            self.found = found
        }

        /// Takes `element` over: moved into the batch, not copied (a copy of a decoded struct
        /// retains and then releases each of its strings and arrays).
        func append(_ element: consuming Element) {
            (batch + batchCount).initialize(to: consume element)
            batchCount += 1
            if batchCount == Candidate.batchCapacity { flushBatch() }
        }

        private func flushBatch() {
            if let estimate, elements.count >= ElementCountEstimate.sampleCount {
                self.estimate = nil
                let count = elements.count + batchCount
                if let expected = estimate.expectedCount(after: count, stride: MemoryLayout<Element>.stride),
                    expected > elements.capacity
                {
                    elements.reserveCapacity(expected)
                }
            }
            // Moved, not copied: a copy and the batch's destroy cost a retain and a release of
            // every string and array of every element (about a tenth of those of `decodeArray`).
            elements.append(contentsOf: MovedElements(start: batch, count: batchCount))
            batchCount = 0
        }

        /// The elements appended so far; none are left here afterwards.
        func takeElements() -> [Element] {
            // The parse is over: the last elements need no guess at how many are still to come.
            estimate = nil
            flushBatch()
            defer { elements = [] }
            return elements
        }

        deinit {
            batch.deinitialize(count: batchCount)
            batch.deallocate()
        }
    }

    /// Elements that `Array.append(contentsOf:)` moves out of their memory into the array's at
    /// once, leaving the memory uninitialized. Every element is moved: the array reserves room for
    /// ``underestimatedCount``, which is all of them, and then takes them with
    /// `_copyContents(initializing:)` (the requirement through which a sequence puts its elements
    /// into an array's memory), and finds the iterator left empty.
    private struct MovedElements<Element>: Sequence {
        let start: UnsafeMutablePointer<Element>
        let count: Int

        var underestimatedCount: Int { count }

        /// Never reached with elements left: the array takes them all in `_copyContents`.
        func makeIterator() -> EmptyCollection<Element>.Iterator {
            precondition(count == 0, "MovedElements is only appended to an array")
            return EmptyCollection().makeIterator()
        }

        __consuming func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>)
            -> (EmptyCollection<Element>.Iterator, UnsafeMutableBufferPointer<Element>.Index)
        {
            precondition(buffer.count >= count, "the array reserved less than underestimatedCount")
            if count > 0 { buffer.baseAddress!.moveInitialize(from: start, count: count) }
            return (EmptyCollection().makeIterator(), count)
        }
    }

    /// How many elements an array of a document of known size will hold, guessed from the bytes
    /// its first elements took, so that the result is allocated once at about its final size.
    ///
    /// Grown by doubling instead, the result is copied at every doubling, and while the last copy
    /// runs the old storage and the new are both held: up to twice the elements' own size at
    /// the peak, for an array the caller asked for in memory.
    package struct ElementCountEstimate {
        /// Elements decoded before the guess: enough for their average size to mean something,
        /// few enough that their own array's doublings cost nothing.
        static let sampleCount = 1024
        let arrayStart: Int
        let inputEnd: Int
        let position: () -> Int

        /// The expected element count, a sixteenth over the guess so that the usual spread of
        /// element sizes does not cost a doubling at the very end; nil when nothing can be
        /// guessed. Bounded so that the reservation, mostly memory never touched when the guess
        /// is too high (an array followed by other data), stays within twice the input's size.
        func expectedCount(after count: Int, stride: Int) -> Int? {
            let now = position()
            let consumed = now - arrayStart
            let remaining = inputEnd - now
            guard count > 0, consumed > 0, remaining > 0 else { return nil }
            let guess = Double(count) + Double(remaining) * Double(count) / Double(consumed) * 1.0625
            let bound = Double(inputEnd) * 2 / Double(max(stride, 1))
            return Int(min(guess, bound))
        }
    }

    private enum Found {
        case missing
        case null
        case wrongType
        case array
    }

    private final class Pass<T>: DocumentPass {
        let selector: KeyPathSelector
        private let keyPath: String
        private let methodName: String
        // The split path's candidate and the literal dotted root key's (targets 0 and 1), two
        // properties rather than an array, for the reason ``Candidate`` keeps its own buffer.
        // Touched on every element, never reentrantly: no dynamic exclusivity checks.
        @exclusivity(unchecked) private var splitPath = Candidate<T>()
        @exclusivity(unchecked) private var literalKey = Candidate<T>()

        /// Where a candidate's array is, as a Codable element's coding path begins: the split path's
        /// keys, or the literal dotted root key.
        private func codingPath(_ target: Int) -> [any CodingKey] {
            target == 0 ? KeyPath(keyPath).components.map { StringCodingKey($0) } : [StringCodingKey(keyPath)]
        }

        private func candidate(_ target: Int) -> Candidate<T> {
            target == 0 ? splitPath : literalKey
        }

        private func replaceCandidate(_ target: Int, with candidate: Candidate<T>) throws {
            let replaced = self.candidate(target)
            if let parallel = replaced.delivery?.parallel {
                // One thread decoded every element of the replaced array as it came, and stopped
                // at one that threw (not a validation failure): the workers' error must not be
                // dropped with the array (found by a parallel decoding test, where a repeated key
                // turned `Thirteen` into a result).
                defer { parallel.cancel() }
                try settleInDocumentOrder()
            }
            if target == 0 { splitPath = candidate } else { literalKey = candidate }
        }

        /// Arrays started so far: the order of the candidates' arrays in the document.
        private var arraysStarted = 0

        /// Waits for every element the workers were handed and throws the first error one of
        /// them threw, as one thread, which decodes the elements of both candidates as they come,
        /// would have: in the order the arrays appear in the document, whichever candidate is
        /// chosen in the end. The outcomes stay for ``ParallelElementDecoder/finish()``.
        private func settleInDocumentOrder() throws {
            for candidate in [splitPath, literalKey].sorted(by: { $0.order < $1.order }) {
                try candidate.delivery?.throwFirstError()
            }
        }

        package init(
            keyPath: String, methodName: String, options: StreamingOptions, workers: Int,
            decode: @escaping (JSONValue) throws -> T
        ) {
            self.keyPath = keyPath
            self.methodName = methodName
            self.workers = workers
            selector = KeyPathSelector(
                targets: [KeyPathSelector.Target].candidates(for: KeyPath(keyPath), mode: .elements),
                callbacks: KeyPathSelector.Callbacks())
            selector.reusesTapes = workers == 1
            // The callbacks reach this pass, which the selector does not own: no cycle.
            var callbacks = KeyPathSelector.Callbacks()
            var elementOptions = options
            elementOptions.concurrency = workers
            callbacks.arrayStart = { [unowned self] target in
                let found = Candidate<T>(found: .array)
                let arrayPath = codingPath(target)
                // The candidate owns its delivery, which reaches it back without owning it.
                found.delivery = ElementDelivery(
                    options: elementOptions, policy: .skipElevateFailures, decode: decode,
                    receiver: .keeping { [unowned found] (element: consuming T) in found.append(element) },
                    describe: { index, _, reason, _ in
                        (
                            FailureText.arrayElement(index: index, methodName: methodName, reason: reason),
                            elementPath(keyPath, index)
                        )
                    },
                    codingPrefix: { arrayPath + [IndexCodingKey($0)] })
                if let byteCount, let position {
                    found.estimate = ElementCountEstimate(
                        arrayStart: position(), inputEnd: byteCount, position: position)
                }
                found.order = arraysStarted
                arraysStarted += 1
                if let parallel = found.delivery?.parallel { selector.tapeRecycler = parallel.tapeRecycler }
                // The first array found is the one split (a repeated key's is parsed here).
                if arraysStarted == 1 { split?.startedArray = found.delivery }
                try replaceCandidate(target, with: found)
            }
            callbacks.value = { [unowned self] target, value in
                try replaceCandidate(target, with: Candidate(found: value.isNull ? .null : .wrongType))
            }
            // A repeated key: the later occurrence replaces the earlier one whole.
            callbacks.duplicateKey = { [unowned self] repeated, _ in
                for target in repeated { try replaceCandidate(target, with: Candidate()) }
            }
            callbacks.element = { [unowned self] target, index, element in
                // What workers finish goes into the result as it comes, as one thread's elements
                // do: held to the end, the elements were there twice at the peak (their outcomes,
                // and the array made of them).
                try candidate(target).delivery?.take(element, at: index, place: nil)
            }
            selector.callbacks = callbacks
        }

        private var byteCount: Int?
        private var position: (() -> Int)?
        private let workers: Int
        private var split: SplitArrayReader?

        func makeSplitReader(parser: JSONEventParser, options: StreamingOptions) -> (any SplitFeeding)? {
            var splitOptions = options
            splitOptions.concurrency = workers
            guard SplitArrayReader.applies(to: splitOptions) else { return nil }
            let split = SplitArrayReader(
                parser: parser, options: splitOptions,
                containersOffSplit: { [unowned selector] in selector.containersOffTargets })
            self.split = split
            return split
        }

        func willParse(byteCount: Int, position: @escaping () -> Int) {
            self.byteCount = byteCount
            self.position = position
        }

        /// Whatever happens, no worker outlives the call.
        func end() {
            for candidate in [splitPath, literalKey] { candidate.delivery?.parallel?.cancel() }
        }

        /// One thread would have decoded every element before the input's error first, and
        /// stopped at one whose decoding threw: the workers finish theirs, and such an error wins.
        func settle(after error: any Error) throws -> any Error {
            try settleInDocumentOrder()
            return error
        }

        func result() throws -> [T] {
            // The candidate not chosen may hold an element that threw (found by
            // ParallelElementDecoderTests.SameAsOneThread: a split path's `Thirteen` hidden by a literal dotted key).
            try settleInDocumentOrder()
            let chosen = literalKey.found != .missing ? literalKey : splitPath
            if let delivery = chosen.delivery {
                try delivery.deliverRest(isStopped: false)
                // The drain took every outcome: this only ends the threads.
                if let rest = try delivery.parallel?.finish() {
                    assert(rest.elements.isEmpty && rest.failures.isEmpty, "the drain left outcomes behind")
                }
            }
            let elements = chosen.takeElements()
            switch chosen.found {
            case .missing, .null:
                throw ParserError.validation(failureReason: FailureText.missing(keyPath))
            case .wrongType:
                throw ParserError.validation(failureReason: FailureText.incorrectType(keyPath))
            case .array:
                try chosen.delivery?.throwSkippedFailures()
                return elements
            }
        }
    }
}
