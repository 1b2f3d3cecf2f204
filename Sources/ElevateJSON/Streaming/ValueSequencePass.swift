import Foundation

/// Sends the events of the value at a key path inside each top-level value of JSON Lines,
/// concatenated JSON or a JSON text sequence to a handler, in bounded memory: how the tool's
/// `count`, `validate` and `extract` read such input (`--framing`), as jq reads a stream of values.
///
/// The values are split and parsed as ``forEachValue`` splits and parses them (the same
/// ``JSONLinesParser``, and for concatenated JSON one parser that allows several values, with the
/// same rule that whitespace alone holds no values); nothing is built, so a value of any size
/// passes. `valueEnded` is told, after each top-level value, whether its key path led anywhere.
package final class ValueSequencePass {
    /// What ``ValueSequencePass/run(_:options:)`` tells after each top-level value.
    package struct ValueEnd: Sendable {
        /// The value's index, from 0.
        package var index: Int
        /// The value's line (JSON Lines) or record (text sequences), from 1; nil for concatenated JSON.
        package var line: Int?
        /// Whether the key path led to a value (for a wildcard path: to at least one).
        package var found: Bool
    }

    private let framing: JSONFraming
    private let selector: KeyPathSelector
    private let valueEnded: (ValueEnd) throws -> Void
    private var valueCount = 0
    /// Called after each chunk of input is read (see ``writeValues(from:framing:atKeyPath:wildcard:to:through:options:)``).
    package var afterEachChunk: (() throws -> Void)?

    /// - Parameters:
    ///   - framing: `.jsonLines`, `.concatenated` or `.jsonTextSequence` (an array is one document:
    ///     read it with ``forEachEvent(from:atKeyPath:to:options:)``).
    ///   - keyPath: The value inside each top-level value whose events are sent; `""` for the whole.
    ///   - wildcard: A key path component that matches every member and element, or nil.
    ///   - handler: Receives the events of every value found, one after another.
    ///   - valueEnded: Told after each top-level value.
    package init(
        framing: JSONFraming, keyPath: String, wildcard: String? = nil, to handler: any JSONEventHandler,
        valueEnded: @escaping (ValueEnd) throws -> Void = { _ in }
    ) {
        precondition(framing != .array, "an array is one document")
        self.framing = framing
        selector = ForwardingPass.makeSelector(keyPath: keyPath, handler: handler, wildcard: wildcard)
        self.valueEnded = valueEnded
    }

    /// Reads the whole input.
    /// - Parameters:
    ///   - input: Where the values come from.
    ///   - options: The parsing options, limits (a top-level value is held to
    ///     ``StreamingOptions/maximumElementSize``, although nothing is built), read size, progress
    ///     and error wrapping.
    /// - Returns: The number of top-level values.
    /// - Throws: As ``forEachValue`` for bad input (with ``StreamingOptions/wrapsErrorsInParserError``
    ///   false: ``JSONSyntaxError``, whose line and column are the input's, and ``JSONInputError``),
    ///   or what the handler or `valueEnded` throws.
    package func run(_ input: JSONInput, options: StreamingOptions) throws -> Int {
        do {
            if framing == .concatenated {
                try readConcatenated(input, options: options)
            } else {
                try readLines(input, options: options)
            }
        } catch let error as JSONInputError where options.wrapsErrorsInParserError {
            throw ParserError.deserialization(reason: error.description)
        }
        return valueCount
    }

    private func endValue(line: Int?) throws {
        // Every match of a wildcard path has the one target: the first sets it.
        let found = selector.forwardedTarget != nil
        selector.forwardedTarget = nil
        let index = valueCount
        valueCount += 1
        try valueEnded(ValueEnd(index: index, line: line, found: found))
    }

    private func readConcatenated(_ input: JSONInput, options: StreamingOptions) throws {
        let parser = makeValuesParser(options: options)
        var content = LeadingContent()
        let tooLarge = { (limit: Int) in FailureText.valueTooLarge(index: self.valueCount, limit: limit) }
        try translatingParseErrors(wrapping: options.wrapsErrorsInParserError, tooLarge: tooLarge) {
            try readChunks(of: input, options: options, until: { parser.isStopped }) { chunk in
                content.note(chunk)
                try parser.parse(chunk)
                try afterEachChunk?()
            }
            // Whitespace alone holds no values: not a document cut short.
            if content.needsParse { try parser.finish() }
        }
    }

    private func readLines(_ input: JSONInput, options: StreamingOptions) throws {
        let lines = makeLinesParser(options: options)
        try translatingLinesParserErrors(
            framing: framing, wrapping: options.wrapsErrorsInParserError, lineNumber: { lines.lineNumber }
        ) {
            try readChunks(of: input, options: options, until: { lines.isStopped }) { chunk in
                try lines.feed(chunk)
                try afterEachChunk?()
            }
            try lines.finish()
        }
    }
}

extension ValueSequencePass {
    /// The parser of concatenated JSON that sends each value's events to this pass (it ends each
    /// value here): fed the whole input by ``run(_:options:)``, or a run of values by a worker of a
    /// split parse (see ``ValuesRunParser``).
    /// - Parameter skipsByteOrderMark: Whether the parser starts the input, where a byte order
    ///   mark may come.
    func makeValuesParser(options: StreamingOptions, skipsByteOrderMark: Bool = true) -> JSONEventParser {
        var parsing = options.parsing
        parsing.allowsMultipleValues = true
        let parser = JSONEventParser(handler: selector, options: parsing, skipsByteOrderMark: skipsByteOrderMark)
        selector.refusedKeyError = { [unowned parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        selector.maximumCaptureSize = options.maximumElementSize
        selector.currentOffset = { [unowned parser] in parser.currentByteOffset }
        selector.callbacks.documentEnd = { [unowned self] in try endValue(line: nil) }
        return parser
    }

    /// The parser of JSON Lines or a text sequence that sends each value's events to this pass
    /// (it ends each value here): fed the whole input by ``run(_:options:)``, or a run of lines
    /// by a worker of a split parse (``writeValues(from:framing:atKeyPath:wildcard:to:through:options:)``).
    func makeLinesParser(options: StreamingOptions) -> JSONLinesParser {
        let lines = JSONLinesParser(
            handler: selector, options: options.parsing, maximumLineLength: options.maximumElementSize,
            separator: framing.separator
        ) { [unowned self] line in try endValue(line: line) }
        selector.refusedKeyError = { [unowned lines] in lines.errorAtDeliveredKey(.duplicateKey, $0) }
        selector.maximumCaptureSize = options.maximumElementSize
        selector.currentOffset = { [unowned lines] in lines.currentByteOffset }
        return lines
    }
}

/// What a pass over a stream of values found at its key path: how many top-level values it read,
/// how many led nowhere, and the first of those.
package struct ValueSequenceSummary: Sendable {
    /// The top-level values read.
    package private(set) var values = 0
    /// The values in which the key path led to no value.
    package private(set) var missing = 0
    /// The first of them.
    package private(set) var firstMissing: ValueSequencePass.ValueEnd?

    /// Whether the key path led to a value in any top-level value, or there were none.
    package var found: Bool { missing < values || values == 0 }

    init() {}

    /// Counts a value the pass ended.
    mutating func note(_ end: ValueSequencePass.ValueEnd) {
        values += 1
        guard !end.found else { return }
        if missing == 0 { firstMissing = end }
        missing += 1
    }

    /// Counts the values of a later part of the stream, read by a pass of its own (whose indexes
    /// start again from 0).
    mutating func append(_ later: ValueSequenceSummary) {
        if missing == 0, var first = later.firstMissing {
            first.index += values
            firstMissing = first
        }
        values += later.values
        missing += later.missing
    }
}

/// Whether concatenated JSON has anything but whitespace and a leading byte order mark: input
/// without it holds no values, which is not an error, while the first bytes of a mark alone are
/// invalid text. Shared by the readers of concatenated values.
struct LeadingContent {
    private(set) var hasContent = false
    /// How many bytes of a byte order mark the input starts with.
    private var leadingMarkBytes = 0
    private var bytesSeen = 0
    /// Whether the bytes noted start the input, where a byte order mark may come; elsewhere (a
    /// run of the split parse after a value) its bytes are content, the parser's to reject.
    private let atInputStart: Bool

    init(atInputStart: Bool = true) {
        self.atInputStart = atInputStart
    }

    /// Whether the parser must be finished (and so report a truncated or invalid input).
    var needsParse: Bool { hasContent || (leadingMarkBytes > 0 && leadingMarkBytes < 3) }

    /// Looks for the first byte that is neither whitespace nor part of a leading byte order mark.
    mutating func note(_ chunk: UnsafeRawBufferPointer) {
        defer { bytesSeen += chunk.count }
        guard !hasContent else { return }
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        for (index, byte) in chunk.enumerated() {
            if byte.isJSONWhitespace { continue }
            if atInputStart, bytesSeen + index < 3, byte == byteOrderMark[bytesSeen + index] {
                leadingMarkBytes = bytesSeen + index + 1
                continue
            }
            hasContent = true
            return
        }
    }
}
