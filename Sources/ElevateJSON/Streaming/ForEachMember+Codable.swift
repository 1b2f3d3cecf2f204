// The members of a huge object (`{"id1": {…}, "id2": {…}, …}`, a map of millions of entries) for
// `Swift.Decodable` types, cut and decoded as `forEachElement` cuts an array's elements.

/// Decodes each member of the object at `keyPath` as a `Swift.Decodable` type, with an
/// ``ElevateJSONDecoder``, as soon as the member is complete, and hands `body` its key and value:
/// a map of any size, in memory bounded by one member (or, with ``StreamingOptions/concurrency``
/// above 1, a bounded window of them) plus the read buffer.
///
/// ```swift
/// struct User: Codable { let name: String }
/// try Elevate.forEachMember(from: .file(url), atKeyPath: "users", as: User.self, decoder: ElevateJSONDecoder()) { id, user in
///     print(id, user.name)
/// }
/// ```
///
/// The options, limits, workers and errors are those of
/// `forEachElement(from:atKeyPath:as:decoder:options:_:)`: a member that fails to decode throws its
/// `DecodingError`, its coding path from the document's root through the member's key
/// (`["users", "id2", "name"]`). A key that repeats in the object is delivered each time it
/// occurs; set ``JSONParsingOptions/rejectsDuplicateKeys`` to refuse such input instead. A type
/// that is also `Elevate.Decodable` is decoded with `init(json:)` unless `decoder` is passed.
/// With workers, a map (an object of many short members) is cut into runs of members that the
/// workers parse as well as decode, as an array is into runs of elements; another object is
/// parsed by the calling thread, its values decoded on the workers.
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the object is; `""`, the default, for an object at the root.
///   - type: The `Swift.Decodable` type of each member's value.
///   - decoder: Whose strategies and `userInfo` decode each value.
///   - options: Limits, read size, skipping of invalid members, error wrapping and concurrency.
///   - body: Receives each member's key and decoded value, in document order.
/// - Returns: The number of members delivered to `body`.
/// - Throws: ``ParserError`` for bad input or when nothing (or not an object) is at the key path;
///   a member's `DecodingError`; or what `body` throws.
@discardableResult
public func forEachMember<T: Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    decoder: ElevateJSONDecoder = ElevateJSONDecoder(), options: StreamingOptions = StreamingOptions(),
    _ body: (_ key: String, _ value: T) throws -> Void
) throws -> Int {
    let decoding = CodableElementDecoding<T>(decoder)
    return try forEachMember(
        from: input, atKeyPath: keyPath, methodName: "\(T.self)", options: options, decode: decoding.decode, body)
}

extension AsyncSequence where Element: Sequence<UInt8> {
    /// Decodes the members of the object at `keyPath` from this sequence of byte chunks as a
    /// `Swift.Decodable` type, yielding each member's key and value as soon as it is complete; see
    /// `forEachMember(from:atKeyPath:as:decoder:options:_:)`.
    ///
    /// ```swift
    /// for try await (id, user) in chunks.decodedMembers(atKeyPath: "users", as: User.self) {
    ///     print(id, user.name)
    /// }
    /// ```
    /// - Parameters:
    ///   - keyPath: Where the object is; `""`, the default, for an object at the root.
    ///   - type: The `Swift.Decodable` type of each member's value.
    ///   - decoder: Whose strategies and `userInfo` decode each value.
    ///   - options: Limits, skipping of invalid members, error wrapping and concurrency.
    /// - Returns: The members' keys and decoded values, in document order.
    public func decodedMembers<T: Swift.Decodable>(
        atKeyPath keyPath: String = "", as type: T.Type = T.self, decoder: ElevateJSONDecoder = ElevateJSONDecoder(),
        options: StreamingOptions = StreamingOptions()
    ) -> AsyncJSONElements<(key: String, value: T), Self> {
        let decoding = CodableElementDecoding<T>(decoder)
        return AsyncJSONElements(chunks: self) { deliver in
            ElementStream(
                keyPath: keyPath, methodName: "\(T.self)", options: options, members: true,
                decode: memberDecoding(decoding.decode), deliver: deliver)
        }
    }
}
