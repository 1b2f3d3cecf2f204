// The `AsyncSequence` calls of ElevateJSON for sources of single bytes (`URLSession.AsyncBytes`,
// `FileHandle.AsyncBytes`, `AsyncStream<UInt8>`): each gathers the bytes into chunks with
// `AsyncByteChunks` and runs the chunk call of the same name. They are `@inlinable` so that the
// per-byte loop is compiled where the source's type is known (see `AsyncByteChunks`).

extension AsyncSequence where Element == UInt8 {
    /// Decodes the elements of the array at `keyPath` from this sequence of bytes as a
    /// `Swift.Decodable` type, yielding each element as soon as it is complete; see the chunk
    /// sequences' `decodedElements(atKeyPath:as:decoder:options:)`.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// for try await person in bytes.decodedElements(atKeyPath: "items", as: Person.self) {
    ///     print(person.name)
    /// }
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - type: The `Swift.Decodable` type of each element.
    ///   - decoder: Whose strategies and `userInfo` decode each element.
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order.
    @inlinable
    public func decodedElements<T: Swift.Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, decoder: ElevateJSONDecoder = ElevateJSONDecoder(),
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedElements(atKeyPath: keyPath, as: type, decoder: decoder, options: options)
    }

    /// Decodes every value of a JSON Lines, concatenated-JSON or array stream from this sequence
    /// of bytes as a `Swift.Decodable` type, yielding each as it completes; see the chunk
    /// sequences' `decodedValues(framing:atKeyPath:as:decoder:options:)`.
    ///
    /// ```swift
    /// for try await event in bytes.decodedValues(framing: .jsonLines, as: Event.self) {
    ///     handle(event)
    /// }
    /// ```
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - type: The `Swift.Decodable` type of each value.
    ///   - decoder: Whose strategies and `userInfo` decode each value.
    ///   - options: Limits, skipping of invalid values, error wrapping and concurrency.
    /// - Returns: The decoded values, in order.
    @inlinable
    public func decodedValues<T: Swift.Decodable>(
        framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
        decoder: ElevateJSONDecoder = ElevateJSONDecoder(), options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedValues(
            framing: framing, atKeyPath: keyPath, as: type, decoder: decoder, options: options)
    }

    /// Counts the elements of the array (or members of the object) at `keyPath` of this sequence
    /// of bytes, building nothing; see ``JSONContainerSummary``.
    ///
    /// ```swift
    /// let count = try await bytes.summarizeValue(atKeyPath: "items")?.count ?? 0
    /// ```
    /// - Parameters:
    ///   - keyPath: The value to summarize; `""`, the default, for the root.
    ///   - options: Limits, progress and error wrapping.
    /// - Returns: nil when nothing is at the key path.
    /// - Throws: As the chunk sequences' `summarizeValue(atKeyPath:options:)`.
    @inlinable
    public func summarizeValue(
        atKeyPath keyPath: String = "", options: StreamingOptions = StreamingOptions()
    ) async throws -> JSONContainerSummary? {
        try await AsyncByteChunks(self).summarizeValue(atKeyPath: keyPath, options: options)
    }

    /// Sends the events of the value at `keyPath` of this sequence of bytes to `handler`, and
    /// nothing else.
    ///
    /// ```swift
    /// try await bytes.forEachEvent(atKeyPath: "items", to: writer)
    /// ```
    /// - Parameters:
    ///   - keyPath: The value whose events are sent; `""`, the default, for the whole document.
    ///   - handler: Receives the value's events, and nothing else.
    ///   - options: Limits, progress and error wrapping.
    /// - Returns: Whether a value was found at the key path.
    /// - Throws: As the chunk sequences' `forEachEvent(atKeyPath:to:options:)`.
    @inlinable @discardableResult
    public func forEachEvent(
        atKeyPath keyPath: String = "", to handler: any JSONEventHandler, options: StreamingOptions = StreamingOptions()
    ) async throws -> Bool {
        try await AsyncByteChunks(self).forEachEvent(atKeyPath: keyPath, to: handler, options: options)
    }
}
