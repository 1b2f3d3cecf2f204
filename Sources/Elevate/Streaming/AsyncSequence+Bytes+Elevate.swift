// The `AsyncSequence` calls of Elevate for sources of single bytes (`URLSession.AsyncBytes`,
// `FileHandle.AsyncBytes`, `AsyncStream<UInt8>`): each gathers the bytes into chunks with
// `AsyncByteChunks` and runs the chunk call of the same name. They are `@inlinable` so that the
// per-byte loop is compiled where the source's type is known (see `AsyncByteChunks`).

extension AsyncSequence where Element == UInt8 {
    /// Decodes the elements of the array at `keyPath` from this sequence of bytes, yielding each
    /// element as soon as it is complete.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// for try await person in bytes.decodedElements(atKeyPath: "response.items", as: Person.self) {
    ///     print(person.name)
    /// }
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - type: The ``Decodable`` type of each element.
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order, as from a sequence of chunks.
    @inlinable
    public func decodedElements<T: Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedElements(atKeyPath: keyPath, as: type, options: options)
    }

    /// Decodes the elements of the array at `keyPath` from this sequence of bytes with a
    /// ``Decoder``.
    ///
    /// ```swift
    /// for try await date in bytes.decodedElements(atKeyPath: "dates", with: dateDecoder, as: Date.self) { … }
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - decoder: Decodes each element.
    ///   - type: What the decoder is expected to return for each element.
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order.
    @inlinable
    public func decodedElements<T>(
        atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedElements(atKeyPath: keyPath, with: decoder, as: type, options: options)
    }

    /// Decodes the elements of the array at `keyPath` from this sequence of bytes, for a type
    /// that is both ``Decodable`` and `Swift.Decodable`: decoded with `init(json:)`.
    ///
    /// ```swift
    /// for try await person in bytes.decodedElements(atKeyPath: "items", as: Person.self) { … }
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for an array at the root.
    ///   - type: The type of each element.
    ///   - options: Limits, skipping of invalid elements, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order.
    @inlinable
    public func decodedElements<T: Decodable & Swift.Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedElements(atKeyPath: keyPath, as: type, options: options)
    }

    /// Decodes every value of a JSON Lines, concatenated-JSON or array stream from this sequence
    /// of bytes, yielding each as it completes.
    ///
    /// ```swift
    /// for try await event in bytes.decodedValues(framing: .jsonLines, as: Event.self) { … }
    /// ```
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - type: The ``Decodable`` type of each value.
    ///   - options: Limits, skipping of invalid values, error wrapping and concurrency.
    /// - Returns: The decoded values, in order.
    @inlinable
    public func decodedValues<T: Decodable>(
        framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedValues(framing: framing, atKeyPath: keyPath, as: type, options: options)
    }

    /// Decodes every value of a JSON Lines, concatenated-JSON or array stream from this sequence
    /// of bytes with a ``Decoder``.
    ///
    /// ```swift
    /// for try await date in bytes.decodedValues(framing: .jsonLines, with: dateDecoder, as: Date.self) { … }
    /// ```
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - decoder: Decodes each value.
    ///   - type: What the decoder is expected to return for each value.
    ///   - options: Limits, skipping of invalid values, error wrapping and concurrency.
    /// - Returns: The decoded values, in order.
    @inlinable
    public func decodedValues<T>(
        framing: JSONFraming, atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedValues(
            framing: framing, atKeyPath: keyPath, with: decoder, as: type, options: options)
    }

    /// Decodes every value of a JSON Lines, concatenated-JSON or array stream from this sequence
    /// of bytes, for a type that is both ``Decodable`` and `Swift.Decodable`: decoded with
    /// `init(json:)`.
    ///
    /// ```swift
    /// for try await event in bytes.decodedValues(framing: .jsonLines, as: Event.self) { … }
    /// ```
    /// - Parameters:
    ///   - framing: How the values follow each other.
    ///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
    ///   - type: The type of each value.
    ///   - options: Limits, skipping of invalid values, error wrapping and concurrency.
    /// - Returns: The decoded values, in order.
    @inlinable
    public func decodedValues<T: Decodable & Swift.Decodable>(
        framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<T, AsyncByteChunks> {
        AsyncByteChunks(self).decodedValues(framing: framing, atKeyPath: keyPath, as: type, options: options)
    }

    /// Decodes every element of the array at `keyPath` of this sequence of bytes.
    ///
    /// ```swift
    /// let people = try await bytes.decodeArray(atKeyPath: "response.items", as: Person.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for the root.
    ///   - type: The ``Decodable`` type of each element.
    ///   - options: Limits, progress, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order.
    /// - Throws: As for a sequence of chunks.
    @inlinable
    public func decodeArray<T: Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) async throws -> [T] {
        try await AsyncByteChunks(self).decodeArray(atKeyPath: keyPath, as: type, options: options)
    }

    /// Decodes every element of the array at `keyPath` of this sequence of bytes with a
    /// ``Decoder``.
    ///
    /// ```swift
    /// let dates = try await bytes.decodeArray(atKeyPath: "dates", with: dateDecoder, as: Date.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for the root.
    ///   - decoder: Decodes each element.
    ///   - type: What the decoder is expected to return for each element.
    ///   - options: Limits, progress, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order.
    /// - Throws: As for a sequence of chunks.
    @inlinable
    public func decodeArray<T>(
        atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) async throws -> [T] {
        try await AsyncByteChunks(self).decodeArray(atKeyPath: keyPath, with: decoder, as: type, options: options)
    }

    /// Decodes the object at `keyPath` of this sequence of bytes.
    ///
    /// ```swift
    /// let reply = try await bytes.decodeObject(atKeyPath: "response", as: Reply.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the object is; `""`, the default, for the root.
    ///   - type: The ``Decodable`` type.
    ///   - options: Limits, progress and error wrapping.
    /// - Returns: The decoded value.
    /// - Throws: As for a sequence of chunks.
    @inlinable
    public func decodeObject<T: Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) async throws -> T {
        try await AsyncByteChunks(self).decodeObject(atKeyPath: keyPath, as: type, options: options)
    }

    /// Decodes the value at `keyPath` of this sequence of bytes with a ``Decoder``.
    ///
    /// ```swift
    /// let date = try await bytes.decodeObject(atKeyPath: "created", with: dateDecoder, as: Date.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the value is; `""`, the default, for the root.
    ///   - decoder: Decodes the value.
    ///   - type: What the decoder is expected to return.
    ///   - options: Limits, progress and error wrapping.
    /// - Returns: The decoded value.
    /// - Throws: As for a sequence of chunks.
    @inlinable
    public func decodeObject<T>(
        atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) async throws -> T {
        try await AsyncByteChunks(self).decodeObject(atKeyPath: keyPath, with: decoder, as: type, options: options)
    }
}
