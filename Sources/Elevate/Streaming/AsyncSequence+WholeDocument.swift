import Foundation

extension AsyncSequence where Element: Sequence<UInt8> {
    /// Decodes every element of the array at `keyPath` of this sequence of byte chunks, each
    /// element as soon as it is complete; see ``decodeArray(from:atKeyPath:as:options:)-(JSONInput,_,_,_)``.
    ///
    /// ```swift
    /// let people = try await responseChunks.decodeArray(atKeyPath: "response.items", as: Person.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for the root.
    ///   - type: The ``Decodable`` type of each element.
    ///   - options: Limits, progress, error wrapping and concurrency, as for a ``JSONInput``.
    /// - Returns: The decoded elements, in document order.
    /// - Throws: ``ParserError`` with every failing element listed, as the synchronous call;
    ///   `CancellationError` when the task is cancelled; what the sequence throws.
    public func decodeArray<T: Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) async throws -> [T] {
        try await ArrayDecoding.decode(
            self, atKeyPath: keyPath, methodName: String(describing: T.self), options: options.forElevate,
            workers: options.concurrency
        ) { try decodeElement($0, as: T.self) }
    }

    /// Decodes every element of the array at `keyPath` of this sequence of byte chunks with a
    /// ``Decoder``; see ``decodeArray(from:atKeyPath:with:as:options:)``.
    ///
    /// ```swift
    /// let dates = try await chunks.decodeArray(atKeyPath: "dates", with: DateDecoder(dateFormatString: "yyyy-MM-dd"), as: Date.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the array is; `""`, the default, for the root.
    ///   - decoder: Decodes each element; shared by the workers when ``StreamingOptions/concurrency`` > 1.
    ///   - type: What the decoder is expected to return for each element.
    ///   - options: Limits, progress, error wrapping and concurrency.
    /// - Returns: The decoded elements, in document order.
    /// - Throws: As ``_Concurrency/AsyncSequence/decodeArray(atKeyPath:as:options:)``, and a
    ///   validation error for an element the decoder turns into something other than a `T`.
    public func decodeArray<T>(
        atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) async throws -> [T] {
        try await ArrayDecoding.decode(
            self, atKeyPath: keyPath, methodName: String(describing: decoder), options: options.forElevate,
            workers: options.concurrency
        ) { try decodeElement($0, with: decoder, keyPath: keyPath) }
    }

    /// Decodes the object at `keyPath` of this sequence of byte chunks, materializing only that
    /// object; see ``decodeObject(from:atKeyPath:as:options:)-(JSONInput,_,_,_)``.
    ///
    /// ```swift
    /// let avatar = try await chunks.decodeObject(atKeyPath: "response.avatar", as: Avatar.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the object is; `""`, the default, for the root.
    ///   - type: The ``Decodable`` type to decode (an array of one, such as `[Person].self`,
    ///     decodes an array).
    ///   - options: Limits, progress and error wrapping.
    /// - Returns: The decoded object.
    /// - Throws: ``ParserError``, as the synchronous call; `CancellationError`; what the sequence throws.
    public func decodeObject<T: Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, options: StreamingOptions = StreamingOptions()
    ) async throws -> T {
        try await ObjectDecoding.decode(self, atKeyPath: keyPath, options: options.forElevate)
    }

    /// Decodes the object at `keyPath` of this sequence of byte chunks with a ``Decoder``; see
    /// ``decodeObject(from:atKeyPath:with:as:options:)``.
    ///
    /// ```swift
    /// let avatar = try await chunks.decodeObject(atKeyPath: "avatar", with: AvatarDecoder(), as: Avatar.self)
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the object is; `""`, the default, for the root.
    ///   - decoder: Decodes the object.
    ///   - type: What the decoder is expected to return.
    ///   - options: Limits, progress and error wrapping.
    /// - Returns: The decoded object.
    /// - Throws: As ``_Concurrency/AsyncSequence/decodeObject(atKeyPath:as:options:)``, and a
    ///   validation error when the decoder returns something other than a `T`.
    public func decodeObject<T>(
        atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
        options: StreamingOptions = StreamingOptions()
    ) async throws -> T {
        try await ObjectDecoding.decode(self, atKeyPath: keyPath, with: decoder, options: options.forElevate)
    }
}
