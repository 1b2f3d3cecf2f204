extension AsyncSequence where Element: Sequence<UInt8> {
    /// Decodes the elements of the array at `keyPath` from this sequence of byte chunks as a
    /// `Swift.Decodable` type, with an ``ElevateJSONDecoder``, yielding each element as soon as it
    /// is complete.
    ///
    /// ```swift
    /// for try await person in chunks.decodedElements(atKeyPath: "response.items", as: Person.self, decoder: decoder) {
    ///     print(person.name)
    /// }
    /// ```
    ///
    /// A type that is also `Elevate.Decodable` is decoded with `init(json:)` unless `decoder` is passed.
    ///
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - type: The `Swift.Decodable` type of each element.
    ///   - decoder: Whose strategies and `userInfo` decode each element; its settings are read when
    ///     this method is called (a `.formatted` strategy's `DateFormatter` is shared, not copied).
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order. Iterating throws as
    ///   `AsyncSequence.decodedElements(atKeyPath:as:options:)` does; an element that
    ///   fails to decode throws its `DecodingError`, its coding path from the document's root through
    ///   the element's index (`["items", "Index 3", "name"]`), unless invalid elements are skipped:
    ///   they are then reported together at the end, as a `ParserError.validation`.
    public func decodedElements<T: Swift.Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, decoder: ElevateJSONDecoder = ElevateJSONDecoder(),
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        let decoding = CodableElementDecoding<T>(decoder)
        return AsyncJSONElements(chunks: self) { deliver in
            ElementStream(
                keyPath: keyPath, methodName: "\(T.self)", options: options, decode: decoding.decode, deliver: deliver)
        }
    }

    /// Decodes every value of a JSON Lines, concatenated-JSON or array stream (or the value at
    /// `keyPath` inside each) from this sequence of byte chunks as a `Swift.Decodable` type, with an
    /// ``ElevateJSONDecoder``, yielding each as it completes.
    ///
    /// ```swift
    /// for try await event in socketChunks.decodedValues(framing: .jsonLines, as: Event.self) {
    ///     handle(event)
    /// }
    /// ```
    ///
    /// A type that is also `Elevate.Decodable` is decoded with `init(json:)` unless `decoder` is passed.
    ///
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - type: The `Swift.Decodable` type of each value.
    ///   - decoder: Whose strategies and `userInfo` decode each value; its settings are read when
    ///     this method is called (a `.formatted` strategy's `DateFormatter` is shared, not copied).
    ///   - options: Limits, skipping of invalid values, error wrapping and
    ///     concurrency (values decoded on worker threads, delivered in order).
    /// - Returns: The decoded values, in order.
    public func decodedValues<T: Swift.Decodable>(
        framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
        decoder: ElevateJSONDecoder = ElevateJSONDecoder(), options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, Self> {
        let decoding = CodableElementDecoding<T>(decoder)
        return AsyncJSONElements(chunks: self) { deliver in
            makeValueReader(
                framing: framing, keyPath: keyPath, methodName: "\(T.self)", options: options,
                decode: decoding.decode, deliver: deliver)
        }
    }

}
