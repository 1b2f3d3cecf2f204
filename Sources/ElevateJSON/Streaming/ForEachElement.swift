import Foundation

package func forEachElement<T>(
    from input: JSONInput, atKeyPath keyPath: String, methodName: String, options: StreamingOptions,
    decode: @escaping (JSONValue) throws -> T, _ body: (T) throws -> Void
) throws -> Int {
    try withoutActuallyEscaping(body) { body in
        try run(
            ElementStream(keyPath: keyPath, methodName: methodName, options: options, decode: decode, deliver: body),
            on: input, options: options)
    }
}

/// Decodes each member of the object at `keyPath` as soon as it is complete and hands `body` its
/// key and decoded value: ``forEachElement(from:atKeyPath:methodName:options:decode:_:)`` for maps.
package func forEachMember<T>(
    from input: JSONInput, atKeyPath keyPath: String, methodName: String, options: StreamingOptions,
    decode: @escaping (JSONValue) throws -> T, _ body: (_ key: String, _ value: T) throws -> Void
) throws -> Int {
    try withoutActuallyEscaping(body) { body in
        try run(
            ElementStream(
                keyPath: keyPath, methodName: methodName, options: options, members: true,
                decode: memberDecoding(decode), deliver: { try body($0.key, $0.value) }),
            on: input, options: options)
    }
}

/// Feeds `input` to `stream` chunk by chunk and ends it: the delivered count. The elements decoded
/// on this thread are one call for the decoder (see `DecodingScope`).
private func run<T>(_ stream: ElementStream<T>, on input: JSONInput, options: StreamingOptions) throws -> Int {
    options.decodingScope.enter()
    defer { options.decodingScope.leave() }
    // The stream's own checkpoint, not the options': a stream of members does not resume, and
    // read from the offset it would look for its key path in the middle of the document.
    if let checkpoint = stream.resumption {
        try resume(stream, from: checkpoint, of: input, options: options)
    } else {
        try readDeliveringBeforeFailure(of: input, options: options, into: stream)
    }
    return try stream.finish()
}

/// Feeds `input` (from `offset`, when resuming) to `decoder` chunk by chunk until it stops: what
/// workers hold is delivered before a read that would wait (see ``JSONInput/wouldWaitForInput``),
/// and when the input fails, every value the chunks read completed is delivered before the
/// failure is thrown (see ``ChunkDecoder/deliverBeforeInputFailure()``).
/// - Parameter isStopped: Whether to read no more; by default, whether the decoder stopped.
package func readDeliveringBeforeFailure(
    of input: JSONInput, from offset: Int? = nil, options: StreamingOptions, into decoder: any ChunkDecoder,
    until isStopped: (() -> Bool)? = nil
) throws {
    try readChunks(
        of: input, from: offset, options: options, until: isStopped ?? { decoder.isStopped },
        beforeInputFailure: decoder.deliverBeforeInputFailure
    ) { chunk in
        try decoder.feed(chunk)
        if input.wouldWaitForInput { try decoder.deliverCompleted() }
    }
}

/// Reads `input` chunk by chunk into `feed` (from `offset`, when resuming), and stops reading as
/// soon as `isStopped` says the consumer has all it wants (a ``JSONEventParser/Stop`` thrown by a
/// body), so that a stop never reads, or judges, the rest of a file. An unreadable input is a
/// ``ParserError`` unless ``StreamingOptions/wrapsErrorsInParserError`` is false.
///
/// When the input itself fails (a read error, damaged gzip), `beforeInputFailure` runs first: a
/// reader that holds bytes not parsed yet (a split parse's next run) judges them then, since one
/// thread has parsed them when it meets the failure; an error it throws comes first.
package func readChunks(
    of input: JSONInput, from offset: Int? = nil, options: StreamingOptions, until isStopped: () -> Bool,
    beforeInputFailure: (() throws -> Void)? = nil, _ feed: (UnsafeRawBufferPointer) throws -> Void
) throws {
    /// Whether the error came from `feed` rather than from the input.
    var feedFailed = false
    do {
        let read = { (chunk: UnsafeRawBufferPointer) in
            do {
                try feed(chunk)
            } catch {
                feedFailed = true
                throw error
            }
            if isStopped() { throw ReadingStopped() }
        }
        if let offset {
            try input.forEachChunk(from: offset, chunkSize: options.chunkSize, progress: options.progress, read)
        } else {
            try input.forEachChunk(chunkSize: options.chunkSize, progress: options.progress, read)
        }
    } catch is ReadingStopped {
        return
    } catch {
        if !feedFailed { try beforeInputFailure?() }
        guard let error = error as? JSONInputError, options.wrapsErrorsInParserError else { throw error }
        throw ParserError.deserialization(reason: error.description)
    }
}

/// Ends the reading loop once the consumer has all it wants.
private struct ReadingStopped: Error {}

/// The error of a checkpoint that a resumed stream refuses.
package func refusedCheckpoint(_ reason: String, options: StreamingOptions) -> any Error {
    options.wrapsErrorsInParserError
        ? ParserError.deserialization(reason: "Cannot resume: \(reason)")
        : JSONInputError(path: "input", reason: "cannot resume: \(reason)")
}

/// Reads `input` from a checkpoint into `feed`, after checking that the byte before the checkpoint
/// ends a value (`}`, `]`, a string's quote, a number's digit, `true`, `false` or `null`'s last
/// letter): a checkpoint inside a token, or just past a separator, is refused.
private func resume<T>(
    _ stream: ElementStream<T>, from checkpoint: StreamCheckpoint, of input: JSONInput, options: StreamingOptions
) throws {
    stream.linesBeforeResumption = { input.lineBreaks(before: checkpoint.byteOffset) }
    let endsValue = Set("}]\"0123456789el".utf8)
    guard checkpoint.index >= 1, let before = input.byte(before: checkpoint.byteOffset), endsValue.contains(before) else {
        throw refusedCheckpoint(
            "the byte before offset \(checkpoint.byteOffset) cannot be read or does not end an element "
                + "(element \(checkpoint.index - 1))", options: options)
    }
    try readDeliveringBeforeFailure(
        of: input, from: checkpoint.byteOffset, options: options, into: stream, until: { stream.hasEnded })
}

/// Decodes every element of the array at `keyPath` that decodes, and records the others with
/// their own errors instead of stopping: the lossy decode behind the public `decodeLossyArray`
/// calls. Errors of the input itself (syntax, limits, a missing or mistyped array) still throw.
package func decodeLossyArray<T>(
    from input: JSONInput, atKeyPath keyPath: String, methodName: String, options: StreamingOptions,
    decode: @escaping (JSONValue) throws -> T
) throws -> LossyElements<T> {
    var elements: [T] = []
    let stream = ElementStream(
        keyPath: keyPath, methodName: methodName, options: options, collectsFailures: true, decode: decode,
        deliver: { elements.append($0) })
    _ = try run(stream, on: input, options: options)
    let (failures, count) = stream.collectedFailures
    return LossyElements(elements: elements, failures: failures, failureCount: count)
}
