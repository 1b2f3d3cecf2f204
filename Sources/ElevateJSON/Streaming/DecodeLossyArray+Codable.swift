/// Decodes every element of the array at `keyPath` that decodes as a `Swift.Decodable` type, and
/// reports the others with their own errors instead of stopping: a lossy decode, for APIs whose
/// arrays hold some elements of a shape a model does not (yet) know.
///
/// ```swift
/// let result = try decodeLossyArray(from: .file(url), atKeyPath: "items", as: Item.self)
/// for failure in result.failures { log("skipped \(failure)") }
/// show(result.elements)
/// ```
///
/// The input is read in chunks, and each element is built, decoded and dropped as for
/// `forEachElement` (with ``StreamingOptions/concurrency`` above 1, on workers); memory holds the
/// decoded elements and the first ``StreamingOptions/maximumReportedFailures`` failures.
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - type: The type of each element.
///   - decoder: Whose strategies and `userInfo` decode each element.
///   - options: Limits, read size, failures kept and concurrency; ``StreamingOptions/skipsInvalidElements``
///     does not apply (every invalid element is skipped and reported).
/// - Returns: The elements that decoded, in document order, and the failures: each with the
///   element's index, where it ends, and its `DecodingError` (the coding path running from the
///   document's root through the element's index).
/// - Throws: Errors of the input itself, as `forEachElement` throws them: a syntax error, a limit,
///   a missing or mistyped array at `keyPath`. Errors an `init(from:)` throws other than
///   `DecodingError` are rethrown unchanged.
public func decodeLossyArray<T: Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    decoder: ElevateJSONDecoder = ElevateJSONDecoder(), options: StreamingOptions = StreamingOptions()
) throws -> LossyElements<T> {
    let decoding = CodableElementDecoding<T>(decoder)
    return try decodeLossyArray(
        from: input, atKeyPath: keyPath, methodName: "\(T.self)", options: options, decode: decoding.decode)
}
