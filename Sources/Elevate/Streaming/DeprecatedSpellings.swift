import Foundation

// The spellings this library used before its API took one shape: `from:` for every input (a
// ``JSONInput``, or the chunk sequence a method is called on), `atKeyPath:` for every key path,
// and ``JSONFraming`` for every framing. Each forwards to its replacement unchanged, options and
// concurrency included. A change the compiler's fix-it can make (new labels, a free function that
// became a method of its chunk sequence) says `renamed:`; one it cannot — an argument that must be
// wrapped, `url` becoming `.file(url)` — says in its message exactly what to write.

/// How several top-level JSON values follow each other in one input; now ``JSONFraming``.
@available(*, deprecated, renamed: "JSONFraming")
public typealias JSONValueFraming = JSONFraming

// MARK: Synchronous element streams

/// Decodes each element of the array at `keyPath` of a file; now
/// ``forEachElement(atKeyPath:from:as:options:_:)-2nedq`` with `from: .file(url)`.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - url: The file to read.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
///   - body: Called with each element or value, in document order.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use forEachElement(atKeyPath: keyPath, from: .file(url), as:options:_:)")
@discardableResult
public func forEachElement<T: Decodable>(
    ofArrayAt keyPath: String, contentsOf url: URL, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(atKeyPath: keyPath, from: .file(url), as: type, options: options, body)
}

/// Decodes each element of the array at `keyPath` of in-memory data; now
/// ``forEachElement(atKeyPath:from:as:options:_:)-2nedq`` with `from: .data(data)`.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - data: The JSON document.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
///   - body: Called with each element or value, in document order.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use forEachElement(atKeyPath: keyPath, from: .data(data), as:options:_:)")
@discardableResult
public func forEachElement<T: Decodable>(
    ofArrayAt keyPath: String, from data: Data, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(atKeyPath: keyPath, from: .data(data), as: type, options: options, body)
}

/// Decodes each element of the array at `keyPath` of a file with a ``Decoder``; now
/// ``forEachElement(atKeyPath:from:with:as:options:_:)`` with `from: .file(url)`.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - url: The file to read.
///   - decoder: Turns each element or value into a `T`.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
///   - body: Called with each element or value, in document order.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(
    *, deprecated, message: "Use forEachElement(atKeyPath: keyPath, from: .file(url), with:as:options:_:)"
)
@discardableResult
public func forEachElement<T>(
    ofArrayAt keyPath: String, contentsOf url: URL, with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(atKeyPath: keyPath, from: .file(url), with: decoder, as: type, options: options, body)
}

/// Decodes each element of the array at `keyPath` of in-memory data with a ``Decoder``; now
/// ``forEachElement(atKeyPath:from:with:as:options:_:)`` with `from: .data(data)`.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - data: The JSON document.
///   - decoder: Turns each element or value into a `T`.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
///   - body: Called with each element or value, in document order.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(
    *, deprecated, message: "Use forEachElement(atKeyPath: keyPath, from: .data(data), with:as:options:_:)"
)
@discardableResult
public func forEachElement<T>(
    ofArrayAt keyPath: String, from data: Data, with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(atKeyPath: keyPath, from: .data(data), with: decoder, as: type, options: options, body)
}

/// Decodes each element of the array at `keyPath` of any ``JSONInput``; now
/// ``forEachElement(atKeyPath:from:as:options:_:)-2nedq``.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - input: Where the JSON comes from.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
///   - body: Called with each element or value, in document order.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, renamed: "forEachElement(atKeyPath:from:as:options:_:)")
@discardableResult
public func forEachElement<T: Decodable>(
    ofArrayAt keyPath: String, in input: JSONInput, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(atKeyPath: keyPath, from: input, as: type, options: options, body)
}

/// Decodes every top-level value of a JSON Lines or concatenated-JSON input; now
/// ``forEachValue(from:framing:atKeyPath:as:options:_:)-5w6t2``.
/// - Parameters:
///   - input: Where the JSON comes from.
///   - framing: How the top-level values follow each other.
///   - keyPath: Where the array or value is; `""` for the root.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
///   - body: Called with each element or value, in document order.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, renamed: "forEachValue(from:framing:atKeyPath:as:options:_:)")
@discardableResult
public func forEachValue<T: Decodable>(
    in input: JSONInput, framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachValue(from: input, framing: framing, atKeyPath: keyPath, as: type, options: options, body)
}

// MARK: Asynchronous element streams

/// Decodes the elements of the array at `keyPath` from an asynchronous sequence of byte chunks;
/// now `chunks.decodedElements(atKeyPath:as:options:)`.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - chunks: The input, as an asynchronous sequence of byte chunks.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
@available(*, deprecated, renamed: "AsyncSequence.decodedElements(atKeyPath:self:as:options:)")
public func elements<T: Decodable, Chunks: AsyncSequence>(
    ofArrayAt keyPath: String, from chunks: Chunks, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) -> AsyncJSONElements<T, Chunks> where Chunks.Element: Sequence<UInt8> {
    chunks.decodedElements(atKeyPath: keyPath, as: type, options: options)
}

/// Decodes the elements of the array at `keyPath` from an asynchronous sequence of byte chunks
/// with a ``Decoder``; now `chunks.decodedElements(atKeyPath:with:as:options:)`.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - chunks: The input, as an asynchronous sequence of byte chunks.
///   - decoder: Turns each element or value into a `T`.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
@available(*, deprecated, renamed: "AsyncSequence.decodedElements(atKeyPath:self:with:as:options:)")
public func elements<T, Chunks: AsyncSequence>(
    ofArrayAt keyPath: String, from chunks: Chunks, with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) -> AsyncJSONElements<T, Chunks> where Chunks.Element: Sequence<UInt8> {
    chunks.decodedElements(atKeyPath: keyPath, with: decoder, as: type, options: options)
}

/// Decodes every top-level value of a JSON Lines or concatenated-JSON stream from an asynchronous
/// sequence of byte chunks; now `chunks.decodedValues(framing:atKeyPath:as:options:)`.
/// - Parameters:
///   - chunks: The input, as an asynchronous sequence of byte chunks.
///   - framing: How the top-level values follow each other.
///   - keyPath: Where the array or value is; `""` for the root.
///   - type: The type to decode each element or value as.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
@available(*, deprecated, renamed: "AsyncSequence.decodedValues(self:framing:atKeyPath:as:options:)")
public func values<T: Decodable, Chunks: AsyncSequence>(
    in chunks: Chunks, framing: JSONFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) -> AsyncJSONElements<T, Chunks> where Chunks.Element: Sequence<UInt8> {
    chunks.decodedValues(framing: framing, atKeyPath: keyPath, as: type, options: options)
}

// MARK: Whole values

/// Decodes the object at `keyPath` of a file; now `decodeObject(from: .file(url), atKeyPath:as:options:)`.
/// - Parameters:
///   - url: The file to read.
///   - keyPath: Where the array or value is; `""` for the root.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use decodeObject(from: .file(url), atKeyPath:as:options:)")
public func decodeObject<T: Decodable>(
    contentsOf url: URL, atKeyPath keyPath: String = "", options: StreamingOptions = StreamingOptions()
) throws -> T {
    try decodeObject(from: .file(url), atKeyPath: keyPath, as: T.self, options: options)
}

/// Decodes the object at `keyPath` of a file with a ``Decoder``; now
/// `decodeObject(from: .file(url), atKeyPath:with:as:options:)`.
/// - Parameters:
///   - url: The file to read.
///   - keyPath: Where the array or value is; `""` for the root.
///   - decoder: Turns each element or value into a `T`.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use decodeObject(from: .file(url), atKeyPath:with:as:options:)")
public func decodeObject<T>(
    contentsOf url: URL, atKeyPath keyPath: String = "", with decoder: any Decoder,
    options: StreamingOptions = StreamingOptions()
) throws -> T {
    try decodeObject(from: .file(url), atKeyPath: keyPath, with: decoder, as: T.self, options: options)
}

/// Decodes every element of the array at `keyPath` of a file; now
/// `decodeArray(from: .file(url), atKeyPath:as:options:)`.
/// - Parameters:
///   - url: The file to read.
///   - keyPath: Where the array or value is; `""` for the root.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use decodeArray(from: .file(url), atKeyPath:as:options:)")
public func decodeArray<T: Decodable>(
    contentsOf url: URL, atKeyPath keyPath: String = "", options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try decodeArray(from: .file(url), atKeyPath: keyPath, as: T.self, options: options)
}

/// Decodes every element of the array at `keyPath` of a file with a ``Decoder``; now
/// `decodeArray(from: .file(url), atKeyPath:with:as:options:)`.
/// - Parameters:
///   - url: The file to read.
///   - keyPath: Where the array or value is; `""` for the root.
///   - decoder: Turns each element or value into a `T`.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use decodeArray(from: .file(url), atKeyPath:with:as:options:)")
public func decodeArray<T>(
    contentsOf url: URL, atKeyPath keyPath: String = "", with decoder: any Decoder,
    options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try decodeArray(from: .file(url), atKeyPath: keyPath, with: decoder, as: T.self, options: options)
}

/// Decodes every element of the array at `keyPath` of data with options; now
/// `decodeArray(from: .data(data), atKeyPath:as:options:)`.
/// - Parameters:
///   - data: The JSON document.
///   - keyPath: Where the array or value is; `""` for the root.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use decodeArray(from: .data(data), atKeyPath:as:options:)")
public func decodeArray<T: Decodable>(from data: Data, atKeyPath keyPath: String = "", options: StreamingOptions)
    throws -> [T]
{
    try decodeArray(from: .data(data), atKeyPath: keyPath, as: T.self, options: options)
}

/// Decodes every element of the array at `keyPath` of data with a ``Decoder`` and options; now
/// `decodeArray(from: .data(data), atKeyPath:with:as:options:)`.
/// - Parameters:
///   - data: The JSON document.
///   - keyPath: Where the array or value is; `""` for the root.
///   - decoder: Turns each element or value into a `T`.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, message: "Use decodeArray(from: .data(data), atKeyPath:with:as:options:)")
public func decodeArray<T>(
    from data: Data, atKeyPath keyPath: String = "", with decoder: any Decoder, options: StreamingOptions
) throws -> [T] {
    try decodeArray(from: .data(data), atKeyPath: keyPath, with: decoder, as: T.self, options: options)
}

// MARK: Subtrees

/// Counts the elements or members at `keyPath`; now ``summarizeValue(atKeyPath:from:options:)``.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - input: Where the JSON comes from.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, renamed: "summarizeValue(atKeyPath:from:options:)")
public func summarizeValue(
    atKeyPath keyPath: String, in input: JSONInput, options: StreamingOptions = StreamingOptions()
) throws -> JSONContainerSummary? {
    try summarizeValue(atKeyPath: keyPath, from: input, options: options)
}

/// Sends the events of the value at `keyPath` to `handler`; now
/// ``forEachEvent(atKeyPath:from:to:options:)``.
/// - Parameters:
///   - keyPath: Where the array or value is; `""` for the root.
///   - input: Where the JSON comes from.
///   - handler: Receives the events of the value at the key path.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: What its replacement returns.
/// - Throws: What its replacement throws.
@available(*, deprecated, renamed: "forEachEvent(atKeyPath:from:to:options:)")
@discardableResult
public func forEachEvent(
    atKeyPath keyPath: String, in input: JSONInput, to handler: any JSONEventHandler,
    options: StreamingOptions = StreamingOptions()
) throws -> Bool {
    try forEachEvent(atKeyPath: keyPath, from: input, to: handler, options: options)
}
