import Foundation

/// Decodes each element of the array at `keyPath` of a file as soon as it is complete, and
/// hands it to `body`.
///
/// The file is read in chunks; memory holds one element plus the read buffer, whatever the
/// file's size.
///
/// ```swift
/// let count = try Elevate.forEachElement(ofArrayAt: "response.items", contentsOf: url, as: Person.self) { person in
///     index.add(person)
/// }
/// ```
///
/// To end early, throw ``JSONEventParser/Stop`` from `body`: the call returns at once with the
/// number of elements delivered so far (the one whose `body` threw included), without reading
/// the rest of the input, which is therefore not checked either.
///
/// - Returns: the number of elements delivered to `body`.
/// - Throws: ``ParserError``: `.deserialization` for bad bytes (with offset, line and column),
///   `.validation` for a missing array or an invalid element (naming its index); errors thrown by
///   `body` are rethrown unchanged.
@discardableResult
public func forEachElement<T: Decodable>(
    ofArrayAt keyPath: String, contentsOf url: URL, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        ofArrayAt: keyPath, in: .file(url), methodName: "\(T.self)", options: options,
        decode: { try decodeElement($0, as: T.self) }, body)
}

/// Decodes each element of the array at `keyPath` of in-memory data as soon as it is complete,
/// and hands it to `body`; see ``forEachElement(ofArrayAt:contentsOf:as:options:_:)``.
@discardableResult
public func forEachElement<T: Decodable>(
    ofArrayAt keyPath: String, from data: Data, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        ofArrayAt: keyPath, in: .data(data), methodName: "\(T.self)", options: options,
        decode: { try decodeElement($0, as: T.self) }, body)
}

/// Decodes each element of the array at `keyPath` of a file with a ``Decoder``, and hands it to
/// `body`; an element the decoder turns into something other than a `T` is a validation error.
@discardableResult
public func forEachElement<T>(
    ofArrayAt keyPath: String, contentsOf url: URL, with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        ofArrayAt: keyPath, in: .file(url), methodName: "\(decoder)", options: options,
        decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, body)
}

/// Decodes each element of the array at `keyPath` of in-memory data with a ``Decoder``, and hands
/// it to `body`.
@discardableResult
public func forEachElement<T>(
    ofArrayAt keyPath: String, from data: Data, with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        ofArrayAt: keyPath, in: .data(data), methodName: "\(decoder)", options: options,
        decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, body)
}

/// Decodes each element of the array at `keyPath` of any ``JSONInput`` (standard input included).
@discardableResult
public func forEachElement<T: Decodable>(
    ofArrayAt keyPath: String, in input: JSONInput, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        ofArrayAt: keyPath, in: input, methodName: "\(T.self)", options: options,
        decode: { try decodeElement($0, as: T.self) }, body)
}

private func forEachElement<T>(
    ofArrayAt keyPath: String, in input: JSONInput, methodName: String, options: StreamingOptions,
    decode: @escaping (JSONValue) throws -> T, _ body: (T) throws -> Void
) throws -> Int {
    try withoutActuallyEscaping(body) { body in
        let stream = ElementStream(
            keyPath: keyPath, methodName: methodName, options: options, decode: decode, deliver: body)
        try readChunks(of: input, options: options, until: { stream.isStopped }) { try stream.feed($0) }
        return try stream.finish()
    }
}

/// Reads `input` chunk by chunk into `feed`, and stops reading as soon as `isStopped` says the
/// consumer has all it wants (a ``JSONEventParser/Stop`` thrown by a body), so that a stop never
/// reads, or judges, the rest of a file.
func readChunks(
    of input: JSONInput, options: StreamingOptions, until isStopped: () -> Bool,
    _ feed: (UnsafeRawBufferPointer) throws -> Void
) throws {
    /// Ends the reading loop after a stop.
    struct StopReading: Error {}
    do {
        try input.forEachChunk(chunkSize: options.chunkSize, progress: options.progress) { chunk in
            try feed(chunk)
            if isStopped() { throw StopReading() }
        }
    } catch is StopReading {
        return
    } catch let error as JSONInputError {
        throw ParserError.deserialization(reason: error.description)
    }
}

// MARK: Whole values from files

/// Decodes the object at `keyPath` of a file into a ``Decodable`` type, reading the file in
/// chunks and materializing only that object.
/// - Throws: ``ParserError``.
public func decodeObject<T: Decodable>(
    contentsOf url: URL, atKeyPath keyPath: String = "", options: StreamingOptions = StreamingOptions()
) throws -> T {
    try ObjectDecoding.decode(.file(url), atKeyPath: keyPath, options: options)
}

/// Decodes the object at `keyPath` of a file with a ``Decoder``.
/// - Throws: ``ParserError``.
public func decodeObject<T>(
    contentsOf url: URL, atKeyPath keyPath: String = "", with decoder: any Decoder,
    options: StreamingOptions = StreamingOptions()
) throws -> T {
    try ObjectDecoding.decode(.file(url), atKeyPath: keyPath, with: decoder, options: options)
}

/// Decodes every element of the array at `keyPath` of a file, reading it in chunks and decoding
/// each element as soon as it is complete.
///
/// ```swift
/// let people: [Person] = try Elevate.decodeArray(contentsOf: url, atKeyPath: "response.items")
/// ```
/// - Parameter options: Limits (by default those of `StreamingOptions()`: one element at most
///   64 MiB, nesting 512) and read size; ``StreamingOptions/skipsInvalidElements`` does not apply,
///   as every failing element is reported, Elevate's way.
/// - Throws: ``ParserError``, with every failing element listed.
public func decodeArray<T: Decodable>(
    contentsOf url: URL, atKeyPath keyPath: String = "", options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try ArrayDecoding.decode(
        .file(url), atKeyPath: keyPath, methodName: "\(T.self)", options: options, workers: options.concurrency
    ) { try decodeElement($0, as: T.self) }
}

/// Decodes every element of the array at `keyPath` of a file with a ``Decoder``; see
/// ``decodeArray(contentsOf:atKeyPath:options:)``.
/// - Throws: ``ParserError``.
public func decodeArray<T>(
    contentsOf url: URL, atKeyPath keyPath: String = "", with decoder: any Decoder,
    options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try ArrayDecoding.decode(
        .file(url), atKeyPath: keyPath, methodName: "\(decoder)", options: options, workers: options.concurrency
    ) { try decodeElement($0, with: decoder, keyPath: keyPath) }
}
