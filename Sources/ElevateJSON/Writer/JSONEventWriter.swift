import class Foundation.FileHandle

/// A ``JSONEventHandler`` that writes the events it receives back out as JSON text: the way to
/// copy, extract or re-indent part of a document of any size without building it.
///
/// ```swift
/// let writer = JSONEventWriter(fileHandle: .standardOutput, options: .init(prettyPrinted: true))
/// try Elevate.forEachEvent(atKeyPath: "response.items.0", in: .file(url), to: writer)
/// try writer.finish()
/// ```
///
/// Numbers are written as their exact source text (`1.0`, `-0`, `1e400` and 30-digit integers stay
/// as they were); strings are escaped as ``JSONWriter`` escapes them, U+2028 and U+2029 included.
/// Pretty output is indented like ``JSONWriter``'s (empty containers stay `{}` and `[]`), and no
/// newline follows the value. Several top-level values (from a parser that allows them) are
/// written one per line.
///
/// Output is buffered and handed to the sink in writes of about 64 KiB, so memory stays bounded
/// whatever the size of the value. Nesting is limited by ``JSONWriter/Options/maximumDepth``, not by
/// YAJL's generator, which holds at most 127 open containers: deeper containers are written by a
/// child generator (see `openContainer(_:)`).
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
    public private(set) var valueCount = 0
    /// Whether ``finish()`` was called.
    public private(set) var isFinished = false

    /// Bytes held back before a write to the sink.
    static let bufferSize = 64 << 10

    private enum Container { case object, array }

    private let sink: (UnsafeRawBufferPointer) throws -> Void
    /// The root generator, then one child per 127 levels of nesting beyond it; the last one is
    /// written to. A parent holds text that comes before its child's, so flushing goes in order.
    private var generators: [JSONGenerator]
    /// The open containers, outermost first, including one whose opening is still pending.
    private var containers: [Container] = []
    /// A container opened by the last event, not yet written: if the next event closes it, it is
    /// written `{}` or `[]`, which YAJL's pretty mode would spread over two lines.
    private var pendingOpen = false
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

    /// Creates a writer that hands its output to a closure, in chunks of about 64 KiB.
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
        self.sink = sink
        let root = JSONGenerator(options: options)
        root.output.reserveCapacity(Self.bufferSize + Self.bufferSize / 4)
        generators = [root]
    }

    // MARK: Events

    /// Opens an object.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/depthLimitExceeded`` beyond
    ///   ``JSONWriter/Options/maximumDepth``, ``JSONWriterError/Kind-swift.enum/writerFinished`` after
    ///   ``finish()``; the sink's error; or the error that ended the writer earlier.
    public func startObject() throws { try guarded { try open(.object) } }

    /// Opens an array.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/depthLimitExceeded`` beyond
    ///   ``JSONWriter/Options/maximumDepth``, ``JSONWriterError/Kind-swift.enum/writerFinished`` after
    ///   ``finish()``; the sink's error; or the error that ended the writer earlier.
    public func startArray() throws { try guarded { try open(.array) } }

    /// Closes the innermost object.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func endObject() throws { try guarded { try close(.object) } }

    /// Closes the innermost array.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func endArray() throws { try guarded { try close(.array) } }

    /// Writes a member name; only valid in an object, where a name is due.
    /// - Parameter key: The member's name, escaped as JSON requires.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func key(_ key: JSONText) throws {
        try guarded {
            try writePendingOpen()
            guard containers.last == .object, !afterKey else {
                throw Self.invalidSequence(
                    containers.last == .object ? "two keys in a row" : "a key outside an object")
            }
            try generators[generators.count - 1].string(key.bytes)
            afterKey = true
        }
    }

    /// Writes a string value.
    /// - Parameter value: The string, escaped as JSON requires.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func string(_ value: JSONText) throws {
        try scalar { try $0.string(value.bytes) }
    }

    /// Writes a number as its source text, unchanged.
    /// - Parameter value: The number's source text.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func number(_ value: JSONNumberText) throws {
        try scalar { try $0.rawValue(value.bytes) }
    }

    /// Writes `true` or `false`.
    /// - Parameter value: The Boolean.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func bool(_ value: Bool) throws {
        try scalar { try $0.bool(value) }
    }

    /// Writes `null`.
    /// - Throws: ``JSONWriterError``: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` for an
    ///   event out of place, ``JSONWriterError/Kind-swift.enum/writerFinished`` after ``finish()``;
    ///   the sink's error; or the error that ended the writer earlier.
    public func null() throws {
        try scalar { try $0.null() }
    }

    /// Writes what is buffered to the sink.
    ///
    /// - Throws: ``JSONWriterError/Kind-swift.enum/invalidEventSequence`` when the events stopped
    ///   inside a value (what was written so far is flushed first), or the sink's error.
    public func finish() throws {
        if let failure { throw failure }
        guard !isFinished else { return }
        try guarded {
            try flush()
            guard containers.isEmpty else {
                throw Self.invalidSequence("the events ended inside a value, \(containers.count) levels deep")
            }
        }
        isFinished = true
    }

    // MARK: Structure

    private func open(_ container: Container) throws {
        try beginValue()
        guard containers.count < options.maximumDepth else {
            throw JSONWriterError(
                kind: .depthLimitExceeded,
                message: "arrays and objects nest deeper than the maximum depth of \(options.maximumDepth)")
        }
        containers.append(container)
        pendingOpen = true
    }

    private func close(_ container: Container) throws {
        guard containers.last == container else {
            throw Self.invalidSequence(
                "closing \(container == .object ? "an object" : "an array") "
                    + (containers.isEmpty ? "that is not open" : "where another container is open"))
        }
        guard !afterKey else { throw Self.invalidSequence("an object ends after a key, without its value") }
        let generator = generators[generators.count - 1]
        if pendingOpen {
            pendingOpen = false
            // The compact form, with the separators YAJL gives any value.
            try (container == .object ? Self.emptyObject : Self.emptyArray).withUnsafeBytes {
                try generator.rawValue($0)
            }
        } else {
            try container == .object ? generator.closeObject() : generator.closeArray()
        }
        containers.removeLast()
        if generator.openContainers == 0 {
            if generators.count > 1 {
                // The child's value is complete: its text follows the parent's, which is done with
                // this value too (the child's opening went in as a number).
                dropFinalNewline(of: generator)
                generators.removeLast()
                generators[generators.count - 1].output.append(contentsOf: generator.output)
            } else {
                completeTopLevelValue()
            }
        }
        try flushIfFull()
    }

    /// Writes the opening of the pending container: on the current generator, or when that holds
    /// as many containers as YAJL allows, on a new child generator whose depth starts at zero.
    ///
    /// The child's first byte (`[` or `{`) goes into the parent as one value through YAJL's number
    /// call, so the parent writes the separator and indentation before it and then counts the
    /// whole container as written; the rest of the child's text follows in order. This is
    /// ``JSONWriter``'s splice, made incremental: nothing but the open levels is held in memory.
    private func writePendingOpen() throws {
        guard pendingOpen, let container = containers.last else { return }
        pendingOpen = false
        let current = generators[generators.count - 1]
        if current.openContainers < JSONGenerator.yajlDepthLimit {
            try container == .object ? current.openObject() : current.openArray()
            return
        }
        let child = JSONGenerator(options: options, indentLevels: containers.count - 1)
        try container == .object ? child.openObject() : child.openArray()
        // Only the bracket goes through the parent: it would indent the newline that follows by its
        // own prefix, while the child's prefix already counts every enclosing level.
        let opening = child.output
        child.output.removeAll(keepingCapacity: true)
        try opening.withUnsafeBytes { try current.rawValue(UnsafeRawBufferPointer(rebasing: $0[..<1])) }
        current.output.append(contentsOf: opening[1...])
        generators.append(child)
    }

    /// Checks that a value may come here, and starts a new line for a further top-level value.
    private func beginValue() throws {
        try writePendingOpen()
        if containers.last == .object {
            guard afterKey else { throw Self.invalidSequence("a value in an object without a key") }
            afterKey = false
        } else if containers.isEmpty && valueCount > 0 {
            let root = generators[0]
            root.reset()
            root.output.append(UInt8(ascii: "\n"))
        }
    }

    private func scalar(_ write: (JSONGenerator) throws -> Void) throws {
        try guarded {
            try beginValue()
            try write(generators[generators.count - 1])
            if containers.isEmpty { completeTopLevelValue() }
            try flushIfFull()
        }
    }

    private func completeTopLevelValue() {
        dropFinalNewline(of: generators[0])
        valueCount += 1
    }

    /// YAJL's pretty mode ends a complete top-level value with a newline (followed here by the
    /// generator's indentation); drop it, as ``JSONWriter`` does, so that the caller decides.
    private func dropFinalNewline(of generator: JSONGenerator) {
        guard options.prettyPrinted else { return }
        let trailer = 1 + generator.indentPrefix.count
        let count = generator.output.count
        if count >= trailer, generator.output[count - trailer] == UInt8(ascii: "\n") {
            generator.output.removeLast(trailer)
        }
    }

    // MARK: Output

    private func flushIfFull() throws {
        if generators[generators.count - 1].output.count >= Self.bufferSize { try flush() }
    }

    private func flush() throws {
        for generator in generators where !generator.output.isEmpty {
            try generator.output.withUnsafeBytes { try sink($0) }
            generator.output.removeAll(keepingCapacity: true)
        }
    }

    /// Runs one event; an error leaves YAJL's state unknown, so it ends the writer.
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

    private static let emptyObject: [UInt8] = Array("{}".utf8)
    private static let emptyArray: [UInt8] = Array("[]".utf8)
}
