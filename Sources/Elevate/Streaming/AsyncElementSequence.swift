/// Decodes the elements of the array at `keyPath` from an asynchronous sequence of byte chunks
/// (`Data`, `[UInt8]`, …), yielding each element as soon as it is complete.
///
/// Chunks are pulled only when the consumer asks for more elements, so breaking out of the loop
/// stops the reading; cancelling the task ends the iteration with `CancellationError`.
///
/// ```swift
/// for try await person in Elevate.elements(ofArrayAt: "response.items", from: chunks, as: Person.self) {
///     print(person.name)
/// }
/// ```
public func elements<T: Decodable, Chunks: AsyncSequence>(
    ofArrayAt keyPath: String, from chunks: Chunks, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) -> AsyncJSONArrayElements<T, Chunks> where Chunks.Element: Sequence<UInt8> {
    AsyncJSONArrayElements(keyPath: keyPath, chunks: chunks, options: options, methodName: "\(T.self)") {
        try T(json: $0)
    }
}

/// The elements of a JSON array decoded from an asynchronous sequence of byte chunks; see
/// ``elements(ofArrayAt:from:as:options:)``.
public struct AsyncJSONArrayElements<Element, Chunks: AsyncSequence>: AsyncSequence
where Chunks.Element: Sequence<UInt8> {
    let keyPath: String
    let chunks: Chunks
    let options: StreamingOptions
    let methodName: String
    let decode: (Any) throws -> Element

    init(
        keyPath: String, chunks: Chunks, options: StreamingOptions, methodName: String,
        decode: @escaping (Any) throws -> Element
    ) {
        self.keyPath = keyPath
        self.chunks = chunks
        self.options = options
        self.methodName = methodName
        self.decode = decode
    }

    /// Starts reading the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(upstream: chunks.makeAsyncIterator(), state: State(sequence: self))
    }

    /// Holds the parser and the decoded elements not yet handed out.
    final class State {
        var ready: [Element] = []
        var readyIndex = 0
        var isFinished = false
        var pendingError: (any Error)?
        var stream: ElementStream<Element>!

        init(sequence: AsyncJSONArrayElements) {
            stream = ElementStream(
                keyPath: sequence.keyPath, methodName: sequence.methodName, options: sequence.options,
                decode: sequence.decode, deliver: { [unowned self] in ready.append($0) })
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

        func feed(_ chunk: Chunks.Element) throws {
            let fed: Void? = try chunk.withContiguousStorageIfAvailable { try stream.feed(UnsafeRawBufferPointer($0)) }
            if fed == nil {
                try Array(chunk).withUnsafeBytes { try stream.feed($0) }
            }
        }

        func finish() throws {
            isFinished = true
            _ = try stream.finish()
        }
    }

    /// Pulls chunks on demand and yields decoded elements.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var upstream: Chunks.AsyncIterator
        let state: State

        /// The next element, nil at the end of the array's document.
        /// - Throws: ``ParserError``, `CancellationError`, or what the chunk sequence throws.
        public mutating func next() async throws -> Element? {
            while true {
                if let element = state.nextReady() { return element }
                if let error = state.pendingError {
                    // Elements completed before the error went out first; then the error, once.
                    state.pendingError = nil
                    throw error
                }
                if state.isFinished { return nil }
                do {
                    try Task.checkCancellation()
                    if let chunk = try await upstream.next() {
                        try state.feed(chunk)
                    } else {
                        try state.finish()
                    }
                } catch {
                    // After an error the sequence is over: later calls return nil.
                    state.isFinished = true
                    state.pendingError = error
                }
            }
        }
    }
}
