extension AsyncSequence where Element: Sequence<UInt8> {
    /// Decodes the elements of the array at `keyPath` from this sequence of byte chunks (`Data`,
    /// `[UInt8]`, …), yielding each element as soon as it is complete.
    ///
    /// Chunks are pulled only when the consumer asks for more elements, so breaking out of the loop
    /// stops the reading; cancelling the task ends the iteration with `CancellationError`.
    ///
    /// ```swift
    /// for try await person in chunks.decodedElements(atKeyPath: "response.items", as: Person.self) {
    ///     print(person.name)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - type: The ``Decodable`` type of each element.
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order. Iterating throws ``ParserError`` (or, with
    ///   ``StreamingOptions/wrapsErrorsInParserError`` false, ``JSONSyntaxError`` for bad bytes),
    ///   `CancellationError`, or what this sequence throws.
    public func decodedElements<T: Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        AsyncJSONElements(chunks: self) { deliver in
            ElementStream(
                keyPath: keyPath, methodName: "\(T.self)", options: options,
                decode: { try decodeElement($0, as: T.self) }, deliver: deliver)
        }
    }

    /// Decodes the elements of the array at `keyPath` from this sequence of byte chunks with a
    /// ``Decoder``; see ``_Concurrency/AsyncSequence/decodedElements(atKeyPath:as:options:)``.
    ///
    /// ```swift
    /// for try await date in chunks.decodedElements(atKeyPath: "dates", with: dateDecoder, as: Date.self) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - decoder: Decodes each element; shared by the workers when ``StreamingOptions/concurrency`` > 1.
    ///   - type: What the decoder is expected to return for each element.
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order; an element the decoder turns into
    ///   something other than a `T` is a validation error.
    public func decodedElements<T>(
        atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        AsyncJSONElements(chunks: self) { deliver in
            ElementStream(
                keyPath: keyPath, methodName: "\(decoder)", options: options,
                decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, deliver: deliver)
        }
    }

    /// Decodes every value of a JSON Lines, concatenated-JSON or array stream (or the value at
    /// `keyPath` inside each) from this sequence of byte chunks, yielding each as it completes.
    ///
    /// ```swift
    /// for try await event in socketChunks.decodedValues(framing: .jsonLines, as: Event.self) {
    ///     handle(event)
    /// }
    /// ```
    ///
    /// The framings read as with ``forEachValue(from:framing:atKeyPath:as:options:_:)-5w6t2``.
    ///
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - type: The ``Decodable`` type of each value.
    ///   - options: Limits, skipping of invalid values, error wrapping and
    ///     concurrency (values decoded on worker threads, delivered in order).
    /// - Returns: The decoded values, in order.
    public func decodedValues<T: Decodable>(
        framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        AsyncJSONElements(chunks: self) { deliver in
            makeValueReader(
                framing: framing, keyPath: keyPath, methodName: "\(T.self)", options: options,
                decode: { try decodeElement($0, as: T.self) }, deliver: deliver)
        }
    }

    /// Decodes every value of a JSON Lines, concatenated-JSON or array stream (or the value at
    /// `keyPath` inside each) from this sequence of byte chunks with a ``Decoder``; see
    /// ``_Concurrency/AsyncSequence/decodedValues(framing:atKeyPath:as:options:)``.
    ///
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - decoder: Decodes each value.
    ///   - type: What the decoder is expected to return for each value.
    ///   - options: Limits, skipping of invalid values, error wrapping and concurrency.
    /// - Returns: The decoded values, in order; a value the decoder turns into something other
    ///   than a `T` is a validation error.
    public func decodedValues<T>(
        framing: JSONFraming, atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        AsyncJSONElements(chunks: self) { deliver in
            makeValueReader(
                framing: framing, keyPath: keyPath, methodName: "\(decoder)", options: options,
                decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, deliver: deliver)
        }
    }
}

/// Something that takes chunks and delivers decoded values: an array's elements, or a stream's
/// top-level values.
protocol ChunkDecoder {
    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`).
    var isStopped: Bool { get }
    func feed(_ chunk: UnsafeRawBufferPointer) throws
    /// Delivers every value completed so far, waiting for the workers when there are any: called
    /// before waiting for more input, so that a live source (a socket, a pipe) never has a complete
    /// value held back until more input or a full batch arrives.
    func deliverCompleted() throws
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

    init(chunks: Chunks, makeDecoder: @escaping (_ deliver: @escaping (Element) throws -> Void) -> any ChunkDecoder) {
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

        /// After an error: nothing more is parsed.
        func fail(with error: any Error) {
            isFinished = true
            pending = nil
            pendingError = error
            // Nothing is parsed or delivered any more: let the decoder go now, not when the
            // iterator does, so that its workers (with `concurrency` above 1) stop and end. Kept,
            // they went on decoding the batches queued before a cancellation for as long as the
            // caller held the iterator (found by ParallelAdversarialTests).
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
                if let element = state.nextReady() { return element }
                if let error = state.pendingError {
                    // Values completed before the error went out first; then the error, once.
                    state.pendingError = nil
                    throw error
                }
                if state.isFinished { return nil }
                do {
                    try Task.checkCancellation()
                    if state.hasPendingInput {
                        try state.feedNextSlice()
                    } else if try state.deliverCompleted() {
                        continue
                    } else if let chunk = try await upstream.next() {
                        state.take(chunk)
                    } else {
                        // A source such as `AsyncStream` ends its iteration when the task is
                        // cancelled: that end is the cancellation, not the end of the input.
                        try Task.checkCancellation()
                        try state.finish()
                    }
                } catch {
                    // After an error the sequence is over: later calls return nil.
                    state.fail(with: error)
                }
            }
        }
    }
}
