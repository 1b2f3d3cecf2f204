// The members of a huge object (`{"id1": {…}, "id2": {…}, …}`, a map of millions of entries) for
// Elevate types, cut and decoded as `forEachElement` cuts an array's elements.

/// Decodes each member of the object at `keyPath` as soon as it is complete, and hands `body` its
/// key and value: a map of any size, in memory bounded by one member (or, with
/// ``StreamingOptions/concurrency`` above 1, a bounded window of them) plus the read buffer.
///
/// ```swift
/// try Elevate.forEachMember(from: .file(url), atKeyPath: "users", as: Person.self) { id, person in
///     index[id] = person.name
/// }
/// ```
///
/// The options, limits, workers and errors are those of `forEachElement(from:atKeyPath:as:options:_:)`:
/// ``StreamingOptions/maximumElementSize`` bounds each member, and a failure names the member's key
/// (`Member [id2]: …`) and its index in document order. A key that repeats in the object is
/// delivered each time it occurs (what was delivered cannot be taken back, and remembering every
/// key would cost memory in proportion to the map); set
/// ``JSONParsingOptions/rejectsDuplicateKeys`` to refuse such input instead. With workers, a map
/// (an object of many short members) is cut into runs of members that the workers parse as well
/// as decode, as an array is into runs of elements; another object is parsed by the calling
/// thread, its values decoded on the workers.
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the object is; `""`, the default, for an object at the root.
///   - type: The ``Decodable`` type of each member's value.
///   - options: Limits, read size, skipping of invalid members, error wrapping and concurrency.
///   - body: Receives each member's key and decoded value, in document order.
/// - Returns: The number of members delivered to `body`.
/// - Throws: ``ParserError``: `.deserialization` for bad input, `.validation` when nothing (or not
///   an object) is at the key path or a member fails to decode; or what `body` throws.
@discardableResult
public func forEachMember<T: Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (_ key: String, _ value: T) throws -> Void
) throws -> Int {
    try forEachMember(
        from: input, atKeyPath: keyPath, methodName: String(describing: T.self), options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) }, body)
}

/// Decodes each member of the object at `keyPath` for a type that is both ``Decodable`` and
/// `Swift.Decodable`: with `init(json:)`, as `forEachMember(from:atKeyPath:as:options:_:)` does.
///
/// ```swift
/// try Elevate.forEachMember(from: .file(url), atKeyPath: "counts", as: Int.self) { key, count in
///     totals[key] = count
/// }
/// ```
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the object is; `""`, the default, for an object at the root.
///   - type: The type of each member's value.
///   - options: Limits, read size, skipping of invalid members, error wrapping and concurrency.
///   - body: Receives each member's key and decoded value, in document order.
/// - Returns: The number of members delivered to `body`.
/// - Throws: As `forEachMember(from:atKeyPath:as:options:_:)`.
@discardableResult
public func forEachMember<T: Decodable & Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (_ key: String, _ value: T) throws -> Void
) throws -> Int {
    try forEachMember(
        from: input, atKeyPath: keyPath, methodName: String(describing: T.self), options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) }, body)
}
