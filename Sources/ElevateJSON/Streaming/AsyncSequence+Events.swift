/// The whole-document calls of a ``JSONInput`` (`summarizeValue`, `forEachEvent`; Elevate's
/// `decodeArray` and `decodeObject` sit beside them in the Elevate module) for a document that arrives as an asynchronous sequence of byte chunks: a
/// socket, a download, a pipe read without blocking a thread. Each runs the same pass as its
/// synchronous twin, with the same options, results and errors; only the reading awaits.
extension AsyncSequence where Element: Sequence<UInt8> {
    /// Counts the elements of the array (or members of the object) at `keyPath` of this sequence
    /// of byte chunks, building nothing; see ``summarizeValue(from:atKeyPath:options:)``.
    ///
    /// ```swift
    /// let count = try await chunks.summarizeValue(atKeyPath: "response.items")?.count ?? 0
    /// ```
    /// - Parameters:
    ///   - keyPath: The value to summarize; `""`, the default, for the root.
    ///   - options: Limits, progress and error wrapping.
    /// - Returns: nil when nothing is at the key path.
    /// - Throws: ``ParserError/deserialization(failureReason:)`` for bad input (with
    ///   ``StreamingOptions/wrapsErrorsInParserError`` false, ``JSONSyntaxError``);
    ///   `CancellationError`; what the sequence throws.
    public func summarizeValue(
        atKeyPath keyPath: String = "", options: StreamingOptions = StreamingOptions()
    ) async throws -> JSONContainerSummary? {
        try await SummaryPass(keyPath: keyPath).run(self, options: options)
    }

    /// Sends the events of the value at `keyPath` of this sequence of byte chunks to `handler`,
    /// and nothing else; see ``forEachEvent(from:atKeyPath:to:options:)``.
    ///
    /// ```swift
    /// let writer = JSONEventWriter(fileHandle: .standardOutput)
    /// try await chunks.forEachEvent(atKeyPath: "response.items", to: writer)
    /// try writer.finish()
    /// ```
    /// - Parameters:
    ///   - keyPath: The value whose events are sent; `""`, the default, for the whole document.
    ///   - handler: Receives the value's events, and nothing else.
    ///   - options: Limits (the value is held to ``StreamingOptions/maximumElementSize``),
    ///     progress and error wrapping.
    /// - Returns: Whether a value was found at the key path.
    /// - Throws: As `AsyncSequence.summarizeValue(atKeyPath:options:)`, or what
    ///   `handler` throws.
    @discardableResult
    public func forEachEvent(
        atKeyPath keyPath: String = "", to handler: any JSONEventHandler, options: StreamingOptions = StreamingOptions()
    ) async throws -> Bool {
        try await ForwardingPass(keyPath: keyPath, handler: handler).run(self, options: options)
    }
}
