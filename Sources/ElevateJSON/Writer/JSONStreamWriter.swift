import class Foundation.FileHandle

/// Writes values to a file or any byte sink one at a time, as a JSON array, JSON Lines or
/// concatenated JSON, without building the whole document.
///
/// ```swift
/// let writer = JSONStreamWriter(fileHandle: handle, framing: .jsonLines)
/// for record in records {
///     try writer.write(["id": record.id, "name": record.name])
/// }
/// try writer.finish()
/// ```
///
/// Output is buffered and handed to the sink in writes of about 64 KiB, so memory stays bounded by
/// the buffer plus the largest single value. A value that cannot be written (see
/// ``JSONWriterError``) leaves the stream as it was: nothing of it, not even a separator, reaches the
/// sink, and later values can still be written.
///
/// Call ``finish()`` to close the array and flush. A writer released without ``finish()`` writes
/// nothing more, in every build: what is still buffered is dropped and an array stays open, as
/// with ``JSONEventWriter``. Finishing on release would have to ignore the sink's errors, and would
/// make a stream cut short by an error (a `throw` between two writes) look complete: a closed
/// array, or JSON Lines ending at a value; left unfinished, truncated output stays detectable.
/// (A debug-build assertion was rejected for the same reason: that `throw` is a legitimate path,
/// not a programming error.) A writer is not thread-safe.
public final class JSONStreamWriter {
    /// The framing the writer was created with.
    public let framing: JSONFraming
    /// The options values are written with.
    public let options: JSONWriter.Options
    /// How many values were written.
    public private(set) var count = 0
    /// Whether ``finish()`` was called.
    public private(set) var isFinished = false

    /// Bytes held back before a write to the sink.
    static let bufferSize = 64 << 10

    private let generator: JSONGenerator
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    /// A sink error; the stream's content is unknown after one, so it ends the writer.
    private var failure: (any Error)?

    /// Creates a writer that appends to an open file handle (which it does not close).
    ///
    /// ```swift
    /// FileManager.default.createFile(atPath: path, contents: nil)
    /// let writer = JSONStreamWriter(fileHandle: try FileHandle(forWritingTo: url))
    /// ```
    ///
    /// - Parameters:
    ///   - fileHandle: Where the bytes go.
    ///   - framing: How values are put together; a JSON array by default.
    ///   - options: How each value is formatted.
    public convenience init(
        fileHandle: FileHandle, framing: JSONFraming = .array, options: JSONWriter.Options = .default
    ) {
        self.init(framing: framing, options: options) { bytes in
            try fileHandle.write(contentsOf: bytes)
        }
    }

    /// Creates a writer that hands its output to a closure, in chunks of about 64 KiB.
    ///
    /// ```swift
    /// var output: [UInt8] = []
    /// let writer = JSONStreamWriter(framing: .array) { chunk in output.append(contentsOf: chunk) }
    /// try writer.write([1, 2])
    /// try writer.write("three")
    /// try writer.finish()  // output holds [[1,2],"three"]
    /// ```
    ///
    /// - Parameters:
    ///   - framing: How values are put together; a JSON array by default.
    ///   - options: How each value is formatted.
    ///   - sink: Receives the output; the bytes are valid only during the call. An error it throws
    ///     is rethrown by the writing call, and ends the writer.
    public init(
        framing: JSONFraming = .array,
        options: JSONWriter.Options = .default,
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        var options = options
        if framing == .jsonLines { options.prettyPrinted = false }
        self.framing = framing
        self.options = options
        self.sink = sink
        generator = JSONGenerator(options: options, indentLevels: framing == .array ? 1 : 0)
        generator.output.reserveCapacity(Self.bufferSize + Self.bufferSize / 4)
        if framing == .array { generator.output.append(UInt8(ascii: "[")) }
    }

    /// Writes the next value; any value ``JSONWriter`` accepts.
    ///
    /// - Parameter value: The value.
    /// - Throws: ``JSONWriterError`` when the value cannot be written, in which case the stream is
    ///   unchanged; ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``; or the
    ///   sink's error.
    public func write(_ value: Any) throws {
        try writeNext { try $0.write(value) }
    }

    /// Writes the next value with `writeValue`, which appends one complete value to the generator's
    /// output (or leaves it as it was and throws), and frames it.
    func writeNext(_ writeValue: (JSONGenerator) throws -> Void) throws {
        try checkWritable()
        let mark = generator.output.count
        switch (framing, options.prettyPrinted) {
        case (.array, false):
            if count > 0 { generator.output.append(UInt8(ascii: ",")) }
        case (.array, true):
            generator.output.append(contentsOf: count > 0 ? Self.prettySeparator : Self.prettyFirst)
        case (.concatenated, _):
            if count > 0 { generator.output.append(UInt8(ascii: "\n")) }
        case (.jsonLines, _):
            break
        case (.jsonTextSequence, _):
            generator.output.append(Self.recordSeparator)
        }
        do {
            try writeValue(generator)
        } catch {
            generator.output.removeSubrange(mark...)
            throw error
        }
        if framing == .jsonLines || framing == .jsonTextSequence { generator.output.append(UInt8(ascii: "\n")) }
        count += 1
        if generator.output.count >= Self.bufferSize {
            try flush()
        }
    }

    /// Hands everything buffered to the sink now, for instance to make each JSON Lines record
    /// visible to a reader as soon as it is written.
    ///
    /// - Throws: The sink's error, which ends the writer.
    public func flush() throws {
        if let failure { throw failure }
        guard !generator.output.isEmpty else { return }
        do {
            try generator.output.withUnsafeBytes { try sink($0) }
        } catch {
            failure = error
            throw error
        }
        // A value far larger than the buffer grew it; give that memory back.
        generator.output.removeAll(keepingCapacity: generator.output.capacity <= 4 * Self.bufferSize)
    }

    /// Ends the stream: closes the array (an empty stream is `[]`) and flushes.
    ///
    /// Calling it again does nothing; writing after it throws.
    /// - Throws: The sink's error.
    public func finish() throws {
        if let failure { throw failure }
        guard !isFinished else { return }
        isFinished = true
        if framing == .array {
            if options.prettyPrinted && count > 0 { generator.output.append(UInt8(ascii: "\n")) }
            generator.output.append(UInt8(ascii: "]"))
        }
        try flush()
    }

    private func checkWritable() throws {
        if let failure { throw failure }
        guard !isFinished else {
            throw JSONWriterError(
                kind: .writerFinished, message: "the stream writer is finished; no more values can be written")
        }
    }

    private static let prettyFirst = Array("\n  ".utf8)
    private static let prettySeparator = Array(",\n  ".utf8)
    /// What starts each record of a JSON text sequence (RFC 7464).
    private static let recordSeparator: UInt8 = 0x1E
}
