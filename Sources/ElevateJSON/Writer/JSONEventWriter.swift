import class Foundation.FileHandle

/// A ``JSONEventHandler`` that writes the events it receives back out as JSON text: the way to
/// copy, extract or re-indent part of a document of any size without building it.
///
/// ```swift
/// let writer = JSONEventWriter(fileHandle: .standardOutput, options: .init(prettyPrinted: true))
/// try forEachEvent(from: .file(url), atKeyPath: "response.items.0", to: writer)
/// try writer.finish()
/// ```
///
/// Numbers are written as their exact source text (`1.0`, `-0`, `1e400` and 30-digit integers stay
/// as they were); strings are escaped as ``JSONWriter`` escapes them, U+2028 and U+2029 included.
/// Pretty output is indented like ``JSONWriter``'s (empty containers stay `{}` and `[]`), and no
/// newline follows the value. Several top-level values (from a parser that allows them) are
/// written one per line.
///
/// Output is buffered and handed to the sink in writes of 64 KiB, so memory stays bounded whatever
/// the size of the value; nesting is limited by ``JSONWriter/Options/maximumDepth``. The text is
/// written by the same code as `elevate extract`'s, which copies each token once into the buffer
/// and checks strings for escapes eight bytes at a time.
///
/// Events that do not make JSON (a close that does not match, a key outside an object) are a
/// ``JSONWriterError`` of kind ``JSONWriterError/Kind-swift.enum/invalidEventSequence``; after any
/// error the writer is unusable. Call ``finish()`` to flush. A writer released without ``finish()``
/// writes nothing more, in every build: what is still buffered is dropped, as with
/// ``JSONStreamWriter``, so that output cut short by an error never looks complete. A writer is not
/// thread-safe.
public final class JSONEventWriter: JSONEventHandler {
    /// The options the text is written with; ``JSONWriter/Options/sortedKeys`` has no effect, as
    /// members are written in the order their events arrive.
    public let options: JSONWriter.Options
    /// The number of complete top-level values written.
    public var valueCount: Int { emitter.completedValueCount }
    /// Whether ``finish()`` was called.
    public private(set) var isFinished = false

    /// Bytes held back before a write to the sink.
    static let bufferSize = 64 << 10

    private let emitter: JSONTextEmitter
    /// For each open container, outermost first: whether it is an object. The emitter trusts the
    /// order of the events; this writer checks it.
    private var openObjects: [Bool] = []
    /// Whether the innermost open object has just received a key, so a value comes next.
    private var afterKey = false
    private var failure: (any Error)?

    /// Creates a writer that appends to an open file handle (which it does not close).
    ///
    /// - Parameters:
    ///   - fileHandle: Where the bytes go.
    ///   - options: How the text is formatted.
    public convenience init(fileHandle: FileHandle, options: JSONWriter.Options = .default) {
        self.init(options: options) { bytes in
            try fileHandle.write(contentsOf: bytes)
        }
    }

    /// Creates a writer that hands its output to a closure, in chunks of 64 KiB.
    ///
    /// ```swift
    /// var output: [UInt8] = []
    /// let writer = JSONEventWriter { chunk in output.append(contentsOf: chunk) }
    /// try JSONEventParser(handler: writer).parseAll(data)
    /// try writer.finish()
    /// ```
    ///
    /// - Parameters:
    ///   - options: How the text is formatted.
    ///   - sink: Receives the output; the bytes are valid only during the call. An error it throws
    ///     is rethrown by the event call that flushed, and ends the writer.
    public init(
        options: JSONWriter.Options = .default, sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.options = options
        emitter = JSONTextEmitter(
            output: ClosureOutput(sink), prettyPrinted: options.prettyPrinted,
            escapesSlashes: options.escapesSlashes, escapesLineSeparators: options.escapesLineSeparators,
            bufferSize: Self.bufferSize, memoryLimit: Self.bufferSize)
    }

    // MARK: Events

    /// Opens an object.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/depthLimitExceeded`` beyond
    ///   ``JSONWriter/Options/maximumDepth``, ``JSONWriterError/Kind-swift.enum/writerFinished`` after
    ///   ``finish()``; the sink's error; or the error that ended the writer earlier.
    public func startObject() throws {
        try guarded {
            try open(object: true)
            try emitter.startObject()
        }
    }

    /// Opens an array.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/depthLimitExceeded`` beyond
    ///   ``JSONWriter/Options/maximumDepth``, ``JSONWriterError/Kind-swift.enum/writerFinished`` after
    ///   ``finish()``; the sink's error; or the error that ended the writer earlier.
    public func startArray() throws {
        try guarded {
            try open(object: false)
            try emitter.startArray()
        }
    }

    /// Closes the innermost object.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func endObject() throws {
        try guarded {
            try close(object: true)
            try emitter.endObject()
        }
    }

    /// Closes the innermost array.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func endArray() throws {
        try guarded {
            try close(object: false)
            try emitter.endArray()
        }
    }

    /// Writes a member name; only valid in an object, where a name is due.
    /// - Parameter key: The member's name, escaped as JSON requires.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func key(_ key: JSONText) throws {
        try guarded {
            guard openObjects.last == true, !afterKey else {
                throw Self.invalidSequence(openObjects.last == true ? "two keys in a row" : "a key outside an object")
            }
            afterKey = true
            try emitter.key(key)
        }
    }

    /// Writes a string value.
    /// - Parameter value: The string, escaped as JSON requires.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func string(_ value: JSONText) throws {
        try guarded {
            try beginValue()
            try emitter.string(value)
        }
    }

    /// Writes a number as its source text, unchanged.
    /// - Parameter value: The number's source text.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func number(_ value: JSONNumberText) throws {
        try guarded {
            try beginValue()
            try emitter.number(value)
        }
    }

    /// Writes `true` or `false`.
    /// - Parameter value: The Boolean.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func bool(_ value: Bool) throws {
        try guarded {
            try beginValue()
            try emitter.bool(value)
        }
    }

    /// Writes `null`.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func null() throws {
        try guarded {
            try beginValue()
            try emitter.null()
        }
    }

    /// Writes what is buffered to the sink.
    ///
    /// - Throws: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` when the events stopped
    ///   inside a value (what was written so far is flushed first), or the sink's error.
    public func finish() throws {
        if let failure { throw failure }
        guard !isFinished else { return }
        try guarded {
            try emitter.flush()
            guard openObjects.isEmpty else {
                throw Self.invalidSequence("the events ended inside a value, \(openObjects.count) levels deep")
            }
        }
        isFinished = true
    }

    // MARK: Order

    private func open(object: Bool) throws {
        try beginValue()
        guard openObjects.count < options.maximumDepth else {
            throw JSONWriterError(
                kind: .depthLimitExceeded,
                message: "arrays and objects nest deeper than the maximum depth of \(options.maximumDepth)")
        }
        openObjects.append(object)
    }

    private func close(object: Bool) throws {
        guard openObjects.last == object else {
            throw Self.invalidSequence(
                "closing \(object ? "an object" : "an array") "
                    + (openObjects.isEmpty ? "that is not open" : "where another container is open"))
        }
        guard !afterKey else { throw Self.invalidSequence("an object ends after a key, without its value") }
        openObjects.removeLast()
    }

    /// Checks that a value may come here.
    private func beginValue() throws {
        if openObjects.last == true {
            guard afterKey else { throw Self.invalidSequence("a value in an object without a key") }
            afterKey = false
        }
    }

    /// Runs one event; an error ends the writer, whose text would no longer be JSON.
    private func guarded(_ body: () throws -> Void) throws {
        if let failure { throw failure }
        guard !isFinished else {
            throw JSONWriterError(kind: .writerFinished, message: "the event writer is finished; no more events")
        }
        do {
            try body()
        } catch {
            failure = error
            throw error
        }
    }

    private static func invalidSequence(_ message: String) -> JSONWriterError {
        JSONWriterError(kind: .invalidEventSequence, message: message)
    }
}

/// A closure as the output of a ``JSONTextEmitter``: nothing written can be taken back.
private final class ClosureOutput: JSONTextOutput {
    let sink: (UnsafeRawBufferPointer) throws -> Void

    init(_ sink: @escaping (UnsafeRawBufferPointer) throws -> Void) { self.sink = sink }

    var isTruncatable: Bool { false }
    func write(_ bytes: UnsafeRawBufferPointer) throws { try sink(bytes) }
    func nextWriteOffset() throws -> Int64 { 0 }
    func truncate(to offset: Int64) throws {}
}
