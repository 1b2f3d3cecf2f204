import Foundation

/// Decodes each element of the array at `keyPath` as soon as it is complete, and hands it to
/// `body`.
///
/// Files, file handles and standard input are read in chunks; memory holds one element plus the
/// read buffer, whatever the input's size.
///
/// ```swift
/// let count = try Elevate.forEachElement(from: .file(url), atKeyPath: "response.items", as: Person.self) { person in
///     index.add(person)
/// }
/// ```
///
/// To end early, throw `JSONEventParser.Stop` from `body`: the call returns at once with the
/// number of elements delivered so far (the one whose `body` threw included), without reading
/// the rest of the input, which is therefore not checked either.
///
/// - Parameters:
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - input: Where the JSON comes from.
///   - type: The ``Decodable`` type of each element.
///   - options: Limits, read size, skipping of invalid elements, error wrapping and concurrency
///     (with `StreamingOptions.concurrency` above 1, elements are decoded on worker threads and
///     still delivered in order, on the calling thread).
///   - body: Receives each decoded element, in document order.
/// - Returns: The number of elements delivered to `body`.
/// - Throws: `ParserError`: `.deserialization` for bad bytes (with offset, line and column),
///   `.validation` for a missing array or an invalid element (naming its index); with
///   `StreamingOptions.wrapsErrorsInParserError` false, `JSONSyntaxError` and
///   `JSONInputError` instead of `.deserialization`. Errors thrown by `body` are rethrown
///   unchanged.
@discardableResult
public func forEachElement<T: Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        from: input, atKeyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) }, body)
}

/// Decodes each element of the array at `keyPath` with a ``Decoder`` as soon as it is complete,
/// and hands it to `body`; see ``forEachElement(from:atKeyPath:as:options:_:)-1lv1s``.
///
/// ```swift
/// try Elevate.forEachElement(from: .file(url), atKeyPath: "dates", with: DateDecoder(dateFormatString: "yyyy-MM-dd"),
///                            as: Date.self) { date in print(date) }
/// ```
///
/// - Parameters:
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - input: Where the JSON comes from.
///   - decoder: Decodes each element; shared by the workers when `StreamingOptions.concurrency` > 1.
///   - type: What the decoder is expected to return for each element.
///   - options: Limits, read size, skipping of invalid elements, error wrapping and concurrency.
///   - body: Receives each decoded element, in document order.
/// - Returns: The number of elements delivered to `body`.
/// - Throws: As ``forEachElement(from:atKeyPath:as:options:_:)-1lv1s``, and a validation error for an
///   element the decoder turns into something other than a `T`.
@discardableResult
public func forEachElement<T>(
    from input: JSONInput, atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        from: input, atKeyPath: keyPath, methodName: "\(decoder)", options: options.forElevate,
        decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, body)
}

/// Decodes every value of a JSON Lines, concatenated-JSON or array stream (or the value at
/// `keyPath` inside each), handing each to `body` as soon as it is complete.
///
/// ```swift
/// try Elevate.forEachValue(from: .file(logURL), framing: .jsonLines, as: Event.self) { event in
///     handle(event)
/// }
/// ```
///
/// With `JSONFraming.array` the values are the elements of the top-level array, as with
/// `forEachElement(from:atKeyPath: "")`, and `keyPath` applies inside each element, as it does inside
/// each value of the other framings.
///
/// Input with no value at all (empty, or only whitespace and blank lines) has 0 values, whatever
/// the framing (but `JSONFraming.array`, which needs an array). A `null` value is handed to the
/// decoder, as an array's `null` element is (a type that cannot be null reports it as invalid,
/// naming the line); at a non-empty `keyPath`, `null` is a missing value, as in Elevate. So
/// everything `JSONStreamWriter` writes reads back. Throw `JSONEventParser.Stop` from `body` to
/// end early: the call returns the number of values delivered so far without reading on.
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - framing: How the values follow each other.
///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
///   - type: The ``Decodable`` type of each value.
///   - options: Limits, read size, skipping of invalid values, error wrapping and
///     concurrency (values decoded on worker threads, delivered in order).
///   - body: Receives each decoded value, in order.
/// - Returns: The number of values delivered to `body`.
/// - Throws: `ParserError`: syntax errors and invalid values name their line; by default the
///   first invalid value stops the stream, `StreamingOptions.skipsInvalidElements` reports them
///   all at the end instead. With `StreamingOptions.wrapsErrorsInParserError` false, syntax errors
///   are thrown as `JSONSyntaxError` (for JSON Lines, its line is the input's) and unreadable
///   input as `JSONInputError`.
@discardableResult
public func forEachValue<T: Decodable>(
    from input: JSONInput, framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachValue(
        from: input, framing: framing, atKeyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) }, body)
}

/// Decodes every value of a JSON Lines, concatenated-JSON or array stream (or the value at
/// `keyPath` inside each) with a ``Decoder``; see ``forEachValue(from:framing:atKeyPath:as:options:_:)-8kdho``.
///
/// ```swift
/// try Elevate.forEachValue(from: .standardInput, framing: .jsonLines, with: EventDecoder(), as: Event.self) {
///     handle($0)
/// }
/// ```
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - framing: How the values follow each other.
///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
///   - decoder: Decodes each value.
///   - type: What the decoder is expected to return for each value.
///   - options: Limits, read size, skipping of invalid values, error wrapping and concurrency.
///   - body: Receives each decoded value, in order.
/// - Returns: The number of values delivered to `body`.
/// - Throws: As ``forEachValue(from:framing:atKeyPath:as:options:_:)-8kdho``, and a validation error for a
///   value the decoder turns into something other than a `T`.
@discardableResult
public func forEachValue<T>(
    from input: JSONInput, framing: JSONFraming, atKeyPath keyPath: String = "", with decoder: any Decoder,
    as type: T.Type = T.self, options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachValue(
        from: input, framing: framing, atKeyPath: keyPath, methodName: "\(decoder)", options: options.forElevate,
        decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, body)
}

/// Decodes each element of the array at `keyPath` with `init(json:)`, for a type that is both
/// `Elevate.Decodable` and `Swift.Decodable`; see ``forEachElement(from:atKeyPath:as:options:_:)-1lv1s``.
///
/// Exists so that such a type compiles without ambiguity; pass `decoder:` to use `init(from:)`.
///
/// - Parameters:
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - input: Where the JSON comes from.
///   - type: The type of each element.
///   - options: Limits, read size, skipping of invalid elements, error wrapping and concurrency.
///   - body: Receives each decoded element, in document order.
/// - Returns: The number of elements delivered to `body`.
/// - Throws: As ``forEachElement(from:atKeyPath:as:options:_:)-1lv1s``.
@discardableResult
public func forEachElement<T: Decodable & Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        from: input, atKeyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) }, body)
}

/// Decodes every value of a stream with `init(json:)`, for a type that is both `Elevate.Decodable`
/// and `Swift.Decodable`; see ``forEachValue(from:framing:atKeyPath:as:options:_:)-8kdho``.
///
/// Exists so that such a type compiles without ambiguity; pass `decoder:` to use `init(from:)`.
///
/// - Parameters:
///   - input: Where the JSON comes from.
///   - framing: How the values follow each other.
///   - keyPath: The value to decode inside each value; `""`, the default, for the whole value.
///   - type: The type of each value.
///   - options: Limits, read size, skipping of invalid values, error wrapping and
///     concurrency (values decoded on worker threads, delivered in order).
///   - body: Receives each decoded value, in order.
/// - Returns: The number of values delivered to `body`.
/// - Throws: As ``forEachValue(from:framing:atKeyPath:as:options:_:)-8kdho``.
@discardableResult
public func forEachValue<T: Decodable & Swift.Decodable>(
    from input: JSONInput, framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachValue(
        from: input, framing: framing, atKeyPath: keyPath, methodName: "\(T.self)", options: options.forElevate,
        decode: { try decodeElement($0, as: T.self) }, body)
}
