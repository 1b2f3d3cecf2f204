/// Decodes every element of the array at `keyPath` that decodes as an ``Decodable`` type, and
/// reports the others with their own errors instead of stopping: a lossy decode.
///
/// ```swift
/// let result = try Elevate.decodeLossyArray(from: .data(data), atKeyPath: "items", as: Person.self)
/// print(result.elements.count, "people;", result.failureCount, "skipped")
/// ```
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - type: The type of each element.
///   - options: Limits, read size, failures kept and concurrency; `skipsInvalidElements` does not
///     apply (every invalid element is skipped and reported).
/// - Returns: The elements that decoded, in document order, and the failures: each with the
///   element's index, where it ends, and its `ParserError.validation`.
/// - Throws: Errors of the input itself, as ``forEachElement(from:atKeyPath:as:options:_:)-1lv1s``
///   throws them: a syntax error, a limit, a missing or mistyped array at `keyPath`.
public func decodeLossyArray<T: Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> LossyElements<T> {
    try decodeLossyArray(
        from: input, atKeyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) })
}

/// Decodes every element that decodes, with `init(json:)`, for a type that is both
/// `Elevate.Decodable` and `Swift.Decodable`; see ``decodeLossyArray(from:atKeyPath:as:options:)-hlxt``.
///
/// Exists so that such a type compiles without ambiguity; pass `decoder:` to use `init(from:)`.
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - type: The type of each element.
///   - options: Limits, read size, failures kept and concurrency.
/// - Returns: The elements that decoded and the failures.
/// - Throws: Errors of the input itself.
public func decodeLossyArray<T: Decodable & Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> LossyElements<T> {
    try decodeLossyArray(
        from: input, atKeyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) })
}
