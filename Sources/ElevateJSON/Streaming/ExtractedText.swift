/// What `elevate extract` writes of `input`, kept in memory: the text of the values a key path
/// leads to (`*` its wildcard), each on a line, raw strings as with `-r`, and whether any was
/// found. The split parse's differential tests and its fuzz target compare it at several
/// ``StreamingOptions/concurrency`` settings, which must write the same bytes and fail the same way.
/// - Parameters:
///   - input: The document.
///   - keyPath: The key path, with `*` for every element or member.
///   - elementsAsLines: Whether each value found is an array whose elements are written a line
///     each (`--json-lines`), rather than the value itself.
///   - memoryLimit: The most bytes of an incomplete value the writer holds, as a pipe's writer
///     holds 16 MiB: a longer value is written on as it comes, and stays when the input then fails.
///     `nil` holds each value until it is complete, as a regular file's writer (whose file can be
///     truncated) in effect does.
///   - options: How to read `input`; ``StreamingOptions/maximumElementSize`` is ignored, as the
///     tool sets no limit.
/// - Returns: The text written, and whether a value was found or the error that stopped the read.
@_spi(Testing) public func extractedText(
    from input: JSONInput, atKeyPath keyPath: String, elementsAsLines: Bool = false, memoryLimit: Int? = nil,
    options: StreamingOptions
) -> (text: [UInt8], found: Result<Bool, any Error>) {
    var options = options
    options.maximumElementSize = .max
    let output = MemoryTextOutput()
    let emitter = JSONTextEmitter(
        output: output, bufferSize: memoryLimit ?? JSONTextEmitter.bufferSize,
        memoryLimit: memoryLimit ?? JSONTextEmitter.defaultMemoryLimit, rawTopLevelStrings: true)
    let found = Result {
        elementsAsLines
            ? try writeElementLines(from: input, atKeyPath: keyPath, wildcard: "*", to: emitter, options: options)
            : try writeMatches(from: input, atKeyPath: keyPath, wildcard: "*", to: emitter, options: options)
    }
    // Memory never fails a write.
    try? emitter.finishCompleteValues()
    return (output.bytes, found)
}
