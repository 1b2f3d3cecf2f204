import Foundation

/// Decodes each element of the array at `keyPath` as soon as it is complete, and hands it to
/// `body`.
///
/// Files, file handles and standard input are read in chunks; memory holds one element plus the
/// read buffer, whatever the input's size.
///
/// ```swift
/// let count = try Elevate.forEachElement(atKeyPath: "response.items", from: .file(url), as: Person.self) { person in
///     index.add(person)
/// }
/// ```
///
/// To end early, throw ``JSONEventParser/Stop`` from `body`: the call returns at once with the
/// number of elements delivered so far (the one whose `body` threw included), without reading
/// the rest of the input, which is therefore not checked either.
///
/// - Parameters:
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - input: Where the JSON comes from.
///   - type: The ``Decodable`` type of each element.
///   - options: Limits, read size, skipping of invalid elements, error wrapping and concurrency
///     (with ``StreamingOptions/concurrency`` above 1, elements are decoded on worker threads and
///     still delivered in order, on the calling thread).
///   - body: Receives each decoded element, in document order.
/// - Returns: The number of elements delivered to `body`.
/// - Throws: ``ParserError``: `.deserialization` for bad bytes (with offset, line and column),
///   `.validation` for a missing array or an invalid element (naming its index); with
///   ``StreamingOptions/wrapsErrorsInParserError`` false, ``JSONSyntaxError`` and
///   ``JSONInputError`` instead of `.deserialization`. Errors thrown by `body` are rethrown
///   unchanged.
@discardableResult
public func forEachElement<T: Decodable>(
    atKeyPath keyPath: String = "", from input: JSONInput, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        atKeyPath: keyPath, from: input, methodName: "\(T.self)", options: options,
        decode: { try decodeElement($0, as: T.self) }, body)
}

/// Decodes each element of the array at `keyPath` with a ``Decoder`` as soon as it is complete,
/// and hands it to `body`; see ``forEachElement(atKeyPath:from:as:options:_:)-2nedq``.
///
/// ```swift
/// try Elevate.forEachElement(atKeyPath: "dates", from: .file(url), with: DateDecoder(dateFormatString: "yyyy-MM-dd"),
///                            as: Date.self) { date in print(date) }
/// ```
///
/// - Parameters:
///   - keyPath: Where the array is; `""`, the default, for an array at the root.
///   - input: Where the JSON comes from.
///   - decoder: Decodes each element; shared by the workers when ``StreamingOptions/concurrency`` > 1.
///   - type: What the decoder is expected to return for each element.
///   - options: Limits, read size, skipping of invalid elements, error wrapping and concurrency.
///   - body: Receives each decoded element, in document order.
/// - Returns: The number of elements delivered to `body`.
/// - Throws: As ``forEachElement(atKeyPath:from:as:options:_:)-2nedq``, and a validation error for an
///   element the decoder turns into something other than a `T`.
@discardableResult
public func forEachElement<T>(
    atKeyPath keyPath: String = "", from input: JSONInput, with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try forEachElement(
        atKeyPath: keyPath, from: input, methodName: "\(decoder)", options: options,
        decode: { try decodeElement($0, with: decoder, keyPath: keyPath) }, body)
}

func forEachElement<T>(
    atKeyPath keyPath: String, from input: JSONInput, methodName: String, options: StreamingOptions,
    decode: @escaping (JSONValue) throws -> T, _ body: (T) throws -> Void
) throws -> Int {
    // Elements decoded on this thread share one release of the entities kept for reuse, at the
    // end, instead of one after each element (as `decodeArray` does; see `SchemaPool`).
    try DecodingThread.current.schemas.deferringRelease {
        try withoutActuallyEscaping(body) { body in
            let stream = ElementStream(
                keyPath: keyPath, methodName: methodName, options: options, decode: decode, deliver: body)
            try readChunks(of: input, options: options, until: { stream.isStopped }) {
                try stream.feed($0)
                if input.mayWaitForInput { try stream.deliverCompleted() }
            }
            return try stream.finish()
        }
    }
}

/// Reads `input` chunk by chunk into `feed`, and stops reading as soon as `isStopped` says the
/// consumer has all it wants (a ``JSONEventParser/Stop`` thrown by a body), so that a stop never
/// reads, or judges, the rest of a file. An unreadable input is a ``ParserError`` unless
/// ``StreamingOptions/wrapsErrorsInParserError`` is false.
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
        guard options.wrapsErrorsInParserError else { throw error }
        throw ParserError.deserialization(reason: error.description)
    }
}
