import Foundation

// The streaming readers for `Swift.Decodable` types. Elements are cut from the input exactly as
// for `Elevate.Decodable` types (same bounded memory, same limits, same parallel decoding) and
// decoded by an `ElevateJSONDecoder` straight off each element's tape.
//
// A type that conforms to both `Elevate.Decodable` and `Swift.Decodable` (every standard type
// Elevate decodes does: `String`, `Int`, `Bool`, …) is decoded with `Elevate.Decodable`, by the
// Elevate module's overloads for `Elevate.Decodable & Swift.Decodable`, which are more specific
// than either; passing a `decoder:` selects `Swift.Decodable` for such a type.

/// Decodes each element of the array at `keyPath` as a `Swift.Decodable` type, with an
/// ``ElevateJSONDecoder``, as soon as the element is complete, and hands it to `body`.
///
/// Memory holds one element (or, with ``StreamingOptions/concurrency`` above 1, a bounded window of
/// them) plus the read buffer, whatever the input's size.
///
/// ```swift
/// struct Person: Codable { let name: String; let age: Int }
/// let decoder = ElevateJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// try Elevate.forEachElement(from: .file(url), atKeyPath: "response.items", as: Person.self, decoder: decoder) {
///     print($0.name)
/// }
/// ```
///
/// A type that is also `Elevate.Decodable` is decoded with `init(json:)` unless `decoder` is passed.
///
/// - Parameters:
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - input: Where the JSON comes from.
///   - type: The `Swift.Decodable` type of each element.
///   - decoder: Whose strategies and `userInfo` decode each element; its settings are read once,
///     when the call begins (a `.formatted` strategy's `DateFormatter` is shared, not copied).
///   - options: Limits, read size, skipping of invalid elements, error wrapping and concurrency.
///   - body: Receives each decoded element, in document order.
/// - Returns: The number of elements delivered to `body`.
/// - Throws: As `forEachElement(from:atKeyPath:as:options:_:)`, but an element that fails to
///   decode throws its `DecodingError`, as `JSONDecoder` decoding the whole array would: its coding
///   path from the document's root through the element's index (`["items", "Index 3", "name"]`).
///   With ``StreamingOptions/skipsInvalidElements`` the failures are reported together at the
///   end instead, as a `ParserError.validation` naming each index and `DecodingError`. Errors
///   thrown by `init(from:)` other than `DecodingError`, and by `body`, are rethrown unchanged.
@discardableResult
public func forEachElement<T: Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    decoder: ElevateJSONDecoder = ElevateJSONDecoder(), options: StreamingOptions = StreamingOptions(),
    _ body: (T) throws -> Void
) throws -> Int {
    let decoding = CodableElementDecoding<T>(decoder)
    return try forEachElement(
        from: input, atKeyPath: keyPath, methodName: "\(T.self)", options: options, decode: decoding.decode, body)
}

/// Decodes every value of a JSON Lines, concatenated-JSON or array stream (or the value at
/// `keyPath` inside each) as a `Swift.Decodable` type, with an ``ElevateJSONDecoder``, handing each
/// to `body` as soon as it is complete.
///
/// ```swift
/// struct Event: Codable { let id: Int; let kind: String }
/// try Elevate.forEachValue(from: .file(logURL), framing: .jsonLines, as: Event.self) { event in
///     handle(event)
/// }
/// ```
///
/// The framings read as with `forEachValue(from:framing:atKeyPath:as:options:_:)`. A type that is
/// also `Elevate.Decodable` is decoded with `init(json:)` unless `decoder` is passed.
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - framing: How the values follow each other.
///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
///   - type: The `Swift.Decodable` type of each value.
///   - decoder: Whose strategies and `userInfo` decode each value; its settings are read once, when
///     the call begins (a `.formatted` strategy's `DateFormatter` is shared, not copied).
///   - options: Limits, read size, skipping of invalid values, error wrapping and
///     concurrency (values decoded on worker threads, delivered in order).
///   - body: Receives each decoded value, in order.
/// - Returns: The number of values delivered to `body`.
/// - Throws: As `forEachValue(from:framing:atKeyPath:as:options:_:)`, but a value that fails to
///   decode throws its `DecodingError`, its coding path beginning with the value's index among the
///   values (`"Index 4"` for line 5 of JSON Lines), then the key path inside it; skipped values are
///   reported together at the end, as a `ParserError.validation` naming each line (or index).
@discardableResult
public func forEachValue<T: Swift.Decodable>(
    from input: JSONInput, framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    decoder: ElevateJSONDecoder = ElevateJSONDecoder(), options: StreamingOptions = StreamingOptions(),
    _ body: (T) throws -> Void
) throws -> Int {
    let decoding = CodableElementDecoding<T>(decoder)
    return try forEachValue(
        from: input, framing: framing, atKeyPath: keyPath, methodName: "\(T.self)", options: options,
        decode: decoding.decode, body)
}


/// Decodes every element of the array at `keyPath` of any ``JSONInput`` as a `Swift.Decodable`
/// type, reading files, file handles and standard input in chunks and decoding each element as
/// soon as it is complete, on several cores if asked: the Codable twin of Elevate's
/// `decodeArray(from:atKeyPath:as:options:)`.
///
/// ```swift
/// var options = StreamingOptions()
/// options.concurrency = StreamingOptions.automaticConcurrency
/// let events = try decodeArray(from: .file(url), atKeyPath: "events", as: Event.self, options: options)
/// ```
///
/// Memory holds the result and one element (or a bounded window of them) besides, never the
/// document: `ElevateJSONDecoder().decode([T].self, from:atKeyPath:)` gives the same elements
/// from data in memory.
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for the root.
///   - type: The `Swift.Decodable` type of each element.
///   - decoder: Whose strategies and `userInfo` decode each element; its settings are read once,
///     when the call begins.
///   - options: Limits, read size, progress, error wrapping and how many elements are decoded at
///     once (`StreamingOptions.concurrency`); `StreamingOptions.skipsInvalidElements` does not
///     apply: the first element that fails ends the call, as with `JSONDecoder`.
/// - Returns: The decoded elements, in document order.
/// - Throws: The first failing element's `DecodingError`, its coding path from the document's
///   root through the element's index (`["events", "Index 3", "id"]`), whatever the number of
///   workers; ``ParserError`` for bad bytes and a missing or mistyped array (with
///   `StreamingOptions.wrapsErrorsInParserError` false, ``JSONSyntaxError`` and ``JSONInputError``);
///   what `init(from:)` throws otherwise.
public func decodeArray<T: Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    decoder: ElevateJSONDecoder = ElevateJSONDecoder(), options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    let decoding = CodableElementDecoding<T>(decoder)
    return try ArrayDecoding.decode(
        input, atKeyPath: keyPath, methodName: "\(T.self)", options: options, workers: options.concurrency,
        decode: decoding.decode)
}
