/// Something that takes chunks and delivers decoded values: an array's elements, or a stream's
/// top-level values.
package protocol ChunkDecoder {
    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`).
    var isStopped: Bool { get }
    func feed(_ chunk: UnsafeRawBufferPointer) throws
    /// Delivers every value completed so far, waiting for the workers when there are any: called
    /// before waiting for more input, so that a live source (a socket, a pipe) never has a complete
    /// value held back until more input or a full batch arrives.
    func deliverCompleted() throws
    /// The input failed (a read error, damaged gzip) after the chunks fed so far: delivers every
    /// value they completed, as one thread has delivered them when it meets the failure, so that
    /// the failure comes after them; a value's error among them comes first.
    func deliverBeforeInputFailure() throws
    @discardableResult func finish() throws -> Int
}

extension ElementStream: ChunkDecoder {}
extension ValueSequenceReader: ChunkDecoder {}

/// Values decoded from an asynchronous sequence of byte chunks; see the `AsyncSequence` methods
/// `decodedElements(atKeyPath:as:options:)` and `decodedValues(framing:atKeyPath:as:options:)`.
public struct AsyncJSONElements<Element, Chunks: AsyncSequence>: AsyncSequence
where Chunks.Element: Sequence<UInt8> {
    let chunks: Chunks
    /// Makes the decoder for one iteration, given where it delivers its values.
    let makeDecoder: (_ deliver: @escaping (Element) throws -> Void) -> any ChunkDecoder

    package init(chunks: Chunks, makeDecoder: @escaping (_ deliver: @escaping (Element) throws -> Void) -> any ChunkDecoder) {
        self.chunks = chunks
        self.makeDecoder = makeDecoder
    }

    /// Starts reading the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(upstream: chunks.makeAsyncIterator(), state: State(makeDecoder: makeDecoder))
    }

    /// Holds the decoder, the chunk being parsed and the decoded values not yet handed out.
    ///
    /// A chunk is parsed a slice at a time, and the values a slice completes are handed out
    /// before the next slice is parsed: so a huge chunk (one 8 MB read) costs the latency and
    /// memory of a slice plus an element, not of the chunk. YAJL cannot be paused inside a
    /// buffer, which is why the chunk is cut instead. The first slice is small; each slice that
    /// completes nothing is twice as large as the last, so that a value much larger than a slice
    /// still takes few parse calls.
    final class State {
        var ready: [Element] = []
        var readyIndex = 0
        var isFinished = false
        var pendingError: (any Error)?
        var decoder: (any ChunkDecoder)!

        /// The chunk being parsed, and how far.
        private var pending: Pending?
        private var pendingOffset = 0
        private var sliceSize = State.firstSliceSize

        private enum Pending {
            case chunk(Chunks.Element)
            /// A chunk without contiguous storage, copied once.
            case bytes([UInt8])
        }

        static var firstSliceSize: Int { 4 << 10 }

        init(makeDecoder: (_ deliver: @escaping (Element) throws -> Void) -> any ChunkDecoder) {
            decoder = makeDecoder { [unowned self] in ready.append($0) }
        }

        func nextReady() -> Element? {
            guard readyIndex < ready.count else {
                if !ready.isEmpty {
                    ready.removeAll(keepingCapacity: true)
                    readyIndex = 0
                }
                return nil
            }
            defer { readyIndex += 1 }
            return ready[readyIndex]
        }

        /// Whether part of a chunk is still to be parsed.
        var hasPendingInput: Bool { pending != nil }

        /// Takes the next chunk; ``feedNextSlice()`` parses it.
        func take(_ chunk: Chunks.Element) {
            let isContiguous = chunk.withContiguousStorageIfAvailable { _ in true } ?? false
            pending = isContiguous ? .chunk(chunk) : .bytes(Array(chunk))
            pendingOffset = 0
        }

        /// Parses the next slice of the pending chunk.
        func feedNextSlice() throws {
            let readyBefore = ready.count - readyIndex
            try withPendingBytes { bytes in
                let end = bytes.count - pendingOffset <= sliceSize ? bytes.count : pendingOffset + sliceSize
                let slice = UnsafeRawBufferPointer(rebasing: bytes[pendingOffset..<end])
                pendingOffset = end
                if end == bytes.count { pending = nil }
                try decoder.feed(slice)
            }
            sliceSize = ready.count - readyIndex > readyBefore ? Self.firstSliceSize : Swift.min(sliceSize * 2, 1 << 30)
        }

        private func withPendingBytes(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            switch pending {
            case .chunk(let chunk):
                try chunk.withContiguousStorageIfAvailable { try body(UnsafeRawBufferPointer($0)) }
            case .bytes(let bytes):
                try bytes.withUnsafeBytes { try body($0) }
            case nil:
                break
            }
        }

        /// What the iterator does next: hand out a value, end, or read a chunk.
        enum Step {
            case value(Element)
            case end
            case needsChunk
        }

        /// Does everything of a `next()` that needs no waiting: hands out a ready value, throws a
        /// held error once, or parses until a value is ready or a chunk is needed.
        func step() throws -> Step {
            while true {
                if let element = nextReady() { return .value(element) }
                if let error = pendingError {
                    // Values completed before the error went out first; then the error, once.
                    pendingError = nil
                    throw error
                }
                if isFinished { return .end }
                do {
                    try Task.checkCancellation()
                    if hasPendingInput {
                        try feedNextSlice()
                    } else if try deliverCompleted() {
                        continue
                    } else {
                        return .needsChunk
                    }
                } catch {
                    // After an error the sequence is over: later calls return nil.
                    fail(with: error)
                }
            }
        }

        /// Takes what the chunk sequence gave: a chunk, or nil at its end.
        func receive(_ chunk: Chunks.Element?) throws {
            if let chunk {
                take(chunk)
            } else {
                // A source such as `AsyncStream` ends its iteration when the task is cancelled:
                // that end is the cancellation, not the end of the input.
                try Task.checkCancellation()
                try finish()
            }
        }

        func finish() throws {
            isFinished = true
            try decoder.finish()
        }

        /// Before waiting for the next chunk: hands out what the decoder completed; true if that
        /// made values ready.
        func deliverCompleted() throws -> Bool {
            try decoder.deliverCompleted()
            return readyIndex < ready.count
        }

        /// The chunk sequence failed (other than by a cancellation): what the decoder holds of
        /// the chunks before is delivered first, as one thread has delivered it when it meets the
        /// failure (see ``ChunkDecoder/deliverBeforeInputFailure()``); then the failure, unless an
        /// error in those chunks comes first.
        func inputFailed(with error: any Error) {
            guard !(error is CancellationError) else { return fail(with: error) }
            do {
                try decoder?.deliverBeforeInputFailure()
            } catch let earlier {
                return fail(with: earlier)
            }
            fail(with: error)
        }

        /// After an error: nothing more is parsed.
        func fail(with error: any Error) {
            isFinished = true
            pending = nil
            pendingError = error
            // Nothing is parsed or delivered any more: let the decoder go now, not when the
            // iterator does, so that its workers (with `concurrency` above 1) stop and end. Kept,
            // they went on decoding the batches queued before a cancellation for as long as the
            // caller held the iterator (found by a parallel decoding test).
            decoder = nil
        }
    }

    /// Pulls chunks on demand and yields decoded values.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var upstream: Chunks.AsyncIterator
        let state: State

        /// The next value, nil at the end of the input.
        /// - Throws: ``ParserError``, `CancellationError`, or what the chunk sequence throws.
        public mutating func next() async throws -> Element? {
            while true {
                switch try state.step() {
                case .value(let element): return element
                case .end: return nil
                case .needsChunk:
                    let chunk: Chunks.Element?
                    do { chunk = try await upstream.next() } catch { state.inputFailed(with: error); continue }
                    do { try state.receive(chunk) } catch { state.fail(with: error) }
                }
            }
        }

        /// The next value, parsed and decoded on the caller's executor: a `for try await` loop on
        /// the main actor (top-level code, an `@main` type's `main()`) gets each value without two
        /// thread hops, as the synchronous calls would.
        /// - Parameter actor: The caller's actor, or nil.
        /// - Returns: The next value, nil at the end of the input.
        /// - Throws: ``ParserError``, `CancellationError`, or what the chunk sequence throws.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            while true {
                switch try state.step() {
                case .value(let element): return element
                case .end: return nil
                case .needsChunk:
                    let chunk: Chunks.Element?
                    do {
                        chunk = try await upstream.next(isolation: actor)
                    } catch {
                        state.inputFailed(with: error)
                        continue
                    }
                    do { try state.receive(chunk) } catch { state.fail(with: error) }
                }
            }
        }
    }
}
