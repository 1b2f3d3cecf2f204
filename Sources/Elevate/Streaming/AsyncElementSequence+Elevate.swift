// The asynchronous element and value sequences for Elevate types (`Elevate.Decodable` or an
// Elevate `Decoder`), on the streams of ``AsyncJSONElements``.

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
                keyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
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
                keyPath: keyPath, methodName: "\(decoder)", options: options.forElevate,
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
                framing: framing, keyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
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
                framing: framing, keyPath: keyPath, methodName: "\(decoder)", options: options.forElevate,
                decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, deliver: deliver)
        }
    }

    /// Decodes the elements of the array at `keyPath` with `init(json:)`, for a type that is both
    /// `Elevate.Decodable` and `Swift.Decodable`; see
    /// ``_Concurrency/AsyncSequence/decodedElements(atKeyPath:as:options:)``.
    ///
    /// Exists so that such a type compiles without ambiguity; pass `decoder:` to use `init(from:)`.
    ///
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - type: The type of each element.
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order.
    public func decodedElements<T: Decodable & Swift.Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        AsyncJSONElements(chunks: self) { deliver in
            ElementStream(
                keyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
                decode: { try decodeElement($0, as: T.self) }, deliver: deliver)
        }
    }

    /// Decodes every value of a stream with `init(json:)`, for a type that is both
    /// `Elevate.Decodable` and `Swift.Decodable`; see
    /// ``_Concurrency/AsyncSequence/decodedValues(framing:atKeyPath:as:options:)``.
    ///
    /// Exists so that such a type compiles without ambiguity; pass `decoder:` to use `init(from:)`.
    ///
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - type: The type of each value.
    ///   - options: Limits, skipping of invalid values, error wrapping and
    ///     concurrency (values decoded on worker threads, delivered in order).
    /// - Returns: The decoded values, in order.
    public func decodedValues<T: Decodable & Swift.Decodable>(
        framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        AsyncJSONElements(chunks: self) { deliver in
            makeValueReader(
                framing: framing, keyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
                decode: { try decodeElement($0, as: T.self) }, deliver: deliver)
        }
    }
}
