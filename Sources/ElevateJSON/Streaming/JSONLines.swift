import Foundation

package func forEachValue<T>(
    from input: JSONInput, framing: JSONFraming, atKeyPath keyPath: String, methodName: String,
    options: StreamingOptions, decode: @escaping (JSONValue) throws -> T, _ body: (T) throws -> Void
) throws -> Int {
    // As in `forEachElement`: the values decoded on this thread are one call.
    options.decodingScope.enter()
    defer { options.decodingScope.leave() }
    return try withoutActuallyEscaping(body) { body in
        let reader = makeValueReader(
            framing: framing, keyPath: keyPath, methodName: methodName, options: options, decode: decode,
            deliver: body)
        var offset: Int?
        if let checkpoint = options.resumingFrom, framing == .jsonLines, let lines = reader as? ValueSequenceReader<T> {
            offset = checkpoint.byteOffset
            try lines.resume(from: checkpoint, of: input)
        }
        try readDeliveringBeforeFailure(of: input, from: offset, options: options, into: reader)
        return try reader.finish()
    }
}

/// The reader of one framing: the array's elements (then the value at `keyPath` inside each), or
/// the top-level values of JSON Lines or concatenated JSON.
package func makeValueReader<T>(
    framing: JSONFraming, keyPath: String, methodName: String, options: StreamingOptions,
    decode: @escaping (JSONValue) throws -> T, deliver: @escaping (T) throws -> Void
) -> any ChunkDecoder {
    switch framing {
    case .array:
        let decodeElement: (JSONValue) throws -> T
        if keyPath.isEmpty {
            decodeElement = decode
        } else {
            decodeElement = { element in
                var hint: Int?
                // As for the other framings: at a key path, null is missing, as in Elevate.
                guard let index = element.index(atKeyPath: keyPath, hint: &hint),
                    case let value = JSONValue(tape: element.tape, index: index), !value.isNull
                else {
                    throw ParserError.validation(failureReason: FailureText.missing(keyPath))
                }
                return try decode(value)
            }
        }
        // This framing does not resume (only `forEachElement` and JSON Lines do): it reads the
        // whole input, as `StreamingOptions.resumingFrom` says, and a stream given the checkpoint
        // would take that input for the rest of an array after it.
        var wholeInput = options
        wholeInput.resumingFrom = nil
        return ElementStream(
            keyPath: "", methodName: methodName, options: wholeInput, decode: decodeElement, deliver: deliver)
    case .jsonLines where SplitLinesReader<T>.applies(to: options),
        .jsonTextSequence where SplitLinesReader<T>.applies(to: options):
        return SplitLinesReader(
            keyPath: keyPath, methodName: methodName, framing: framing, options: options, decode: decode,
            deliver: deliver)
    case .concatenated where SplitValuesReader<T>.applies(to: options):
        return SplitValuesReader(
            keyPath: keyPath, methodName: methodName, options: options, decode: decode, deliver: deliver)
    case .jsonLines, .concatenated, .jsonTextSequence:
        return ValueSequenceReader(
            keyPath: keyPath, methodName: methodName, framing: framing, options: options, decode: decode,
            deliver: deliver)
    }
}

/// Splits input into top-level values and decodes each one.
final class ValueSequenceReader<T> {
    private let keyPath: KeyPath
    /// JSON Lines, a JSON text sequence, or concatenated JSON.
    private let framing: JSONFraming
    private let options: StreamingOptions
    /// Decodes, delivers and records the values, here or on workers; a value's place is its line
    /// (JSON Lines) or record (JSON text sequences), or nil (concatenated values).
    private let delivery: ElementDelivery<T>
    private var valueIndex = 0
    /// JSON Lines and text sequences: the shared line (or record) splitter and parser.
    private var lines: JSONLinesParser?
    /// Concatenated JSON: one parser for the whole input.
    private var parser: JSONEventParser?
    /// Concatenated JSON: whether anything but whitespace (and a leading byte order mark) has
    /// arrived; input without it has no values, which is not an error.
    private var content = LeadingContent()
    /// The value at the key path in the value being read.
    private let capture: ValueCapture
    /// JSON Lines resumed from a checkpoint: the index of its first value.
    private let indexBase: Int
    /// With checkpoints asked for: where the line after each value taken and not yet delivered
    /// starts.
    private var pendingCheckpoints = DeliveryNotes<Int>()
    /// JSON Lines with element positions asked for: the positions of the values taken and not yet
    /// delivered, and where the value being read ends, once its last event has come.
    private var pendingPositions = DeliveryNotes<ElementPosition>()
    private var valueEnd = 0

    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`).
    package var isStopped: Bool {
        delivery.stoppedOutsideParser || (parser?.isStopped ?? lines?.isStopped ?? false)
    }

    init(
        keyPath: String, methodName: String, framing: JSONFraming, options: StreamingOptions,
        decode: @escaping (JSONValue) throws -> T, deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = KeyPath(keyPath)
        self.framing = framing
        let indexBase = framing == .jsonLines ? options.resumingFrom?.index ?? 0 : 0
        self.indexBase = indexBase
        self.options = options
        delivery = Self.makeDelivery(
            keyPath: keyPath, methodName: methodName, framing: framing, options: options, indexBase: indexBase,
            decode: decode, deliver: deliver)
        capture = ValueCapture(keyPath: self.keyPath)
        let selector = capture.makeSelector()
        selector.maximumCaptureSize = options.maximumElementSize
        selector.reusesTapes = delivery.parallel == nil
        selector.tapeRecycler = delivery.parallel?.tapeRecycler
        if framing == .concatenated {
            parser = ValueCapture.makeValuesParser(for: selector, options: options.parsing) { [unowned self] in
                try completeValue(line: nil)
            }
        } else {
            // Every line, however the input is chunked, is held to the element size limit.
            let lines = JSONLinesParser(
                handler: selector, options: options.parsing, maximumLineLength: options.maximumElementSize,
                separator: framing.separator
            ) { [unowned self] line in try completeValue(line: line) }
            selector.currentOffset = { [unowned lines] in lines.currentByteOffset }
            self.lines = lines
            if framing == .jsonLines, let checkpoints = options.checkpoints {
                delivery.delivered = { [unowned self] index, _ in
                    guard let offset = pendingCheckpoints.take(for: index) else { return }
                    checkpoints(StreamCheckpoint(index: self.indexBase + index + 1, byteOffset: offset))
                }
            }
            if framing == .jsonLines, let elementPositions = options.elementPositions {
                lines.findsValueStarts = true
                // The value ends with the last event of the line's top-level value (a comment
                // or whitespace may follow it on the line).
                selector.callbacks.documentEnd = { [unowned self, unowned lines] in
                    valueEnd = lines.currentLineStart + lines.currentByteOffset
                }
                delivery.willDeliver = { [unowned self] index in
                    if let position = pendingPositions.take(for: index) { elementPositions(position) }
                }
            }
        }
    }

    /// JSON Lines: starts at a checkpoint's line, after checking that it starts a line; the
    /// line's number is counted again from the input's start (lines are what errors name).
    func resume(from checkpoint: StreamCheckpoint, of input: JSONInput) throws {
        guard let lines, checkpoint.hasPossibleNumbers,
            // The start of a line: of the input, after a newline, or the end of an input whose
            // last line has none.
            checkpoint.byteOffset == 0 || input.byte(before: checkpoint.byteOffset) == 0x0A
                || checkpoint.byteOffset == input.knownByteCount,
            let before = input.lineBreaks(before: checkpoint.byteOffset)
        else {
            throw refusedCheckpoint(
                "offset \(checkpoint.byteOffset) does not start a line that can be read (value \(checkpoint.index))",
                options: options)
        }
        lines.resume(atLine: before.lines + 1, offset: checkpoint.byteOffset)
    }

    /// The delivery of a stream's values (here or on workers), naming a failing value by its
    /// line, record or index: shared with ``SplitLinesReader``.
    static func makeDelivery(
        keyPath: String, methodName: String, framing: JSONFraming, options: StreamingOptions, indexBase: Int,
        decode: @escaping (JSONValue) throws -> T, deliver: @escaping (T) throws -> Void
    ) -> ElementDelivery<T> {
        let unit = framing == .jsonTextSequence ? "record" : "line"
        let innerPath: [any CodingKey] = KeyPath(keyPath).components.map { StringCodingKey($0) }
        return ElementDelivery(
            options: options, decode: decode, receiver: .borrowing(deliver),
            describe: { index, line, reason, isMissing in
                // Lines and records count from 1 as editors do; concatenated values from 0, as
                // array indices.
                let place = line.map { "\(unit) \($0)" } ?? "value \(index)"
                let path = line.map { "[\(unit) \($0)]" } ?? "[\(index)]"
                let text = "Error parsing \(place) with parser [\(methodName)]\n\(reason)\n--"
                // A value that failed to decode fails at the key path inside it; a missing one at itself.
                return (text, isMissing || keyPath.isEmpty ? path : path + "." + keyPath)
            },
            // The values of a stream are an array's elements to Codable: the value's index, then
            // the key path inside it.
            codingPrefix: { [IndexCodingKey($0 + indexBase)] + innerPath })
    }

    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try delivery.catchingUp {
            if let lines {
                try translatingLineErrors { try lines.feed(chunk) }
                return
            }
            content.note(chunk)
            try translatingErrors { try parser!.parse(chunk) }
        }
    }

    /// Concatenated JSON: syntax and size errors in Elevate's terms, from `parse` and `finish`.
    private func translatingErrors(_ body: () throws -> Void) throws {
        try translatingParseErrors(
            wrapping: options.wrapsErrorsInParserError,
            tooLarge: { FailureText.valueTooLarge(index: valueIndex, limit: $0) }, body)
    }

    /// JSON Lines and text sequences: syntax errors name the line of the input.
    private func translatingLineErrors(_ body: () throws -> Void) throws {
        try translatingLinesParserErrors(
            framing: framing, wrapping: options.wrapsErrorsInParserError, lineNumber: { lines?.lineNumber ?? 0 }, body)
    }

    private func completeValue(line: Int?) throws {
        let index = valueIndex
        valueIndex += 1
        let value = capture.take()
        if options.checkpoints != nil, let lines { pendingCheckpoints.append(lines.nextLineOffset, for: index) }
        if options.elementPositions != nil, let lines, lines.findsValueStarts {
            let start = min(lines.valueStart ?? valueEnd, valueEnd)
            pendingPositions.append(
                ElementPosition(index: indexBase + index, byteRange: start..<valueEnd, line: line), for: index)
        }
        try delivery.take(value, at: index, place: line, missing: FailureText.missing(keyPath.text))
    }

    /// Delivers every value completed so far, waiting for the workers (see
    /// ``ChunkDecoder/deliverCompleted()``).
    package func deliverCompleted() throws {
        try delivery.deliverCompleted(isStopped: isStopped)
    }

    package func deliverBeforeInputFailure() throws {
        try delivery.deliverRest(isStopped: isStopped)
    }

    package func finish() throws -> Int {
        if !delivery.stoppedOutsideParser {
            try delivery.catchingUp {
                if let lines {
                    try translatingLineErrors { try lines.finish() }
                } else {
                    // Nothing but whitespace: no values, as for JSON Lines, rather than a truncated document.
                    if content.needsParse || isStopped { try translatingErrors { try parser!.finish() } }
                }
            }
        }
        try delivery.deliverRest(isStopped: isStopped)
        try delivery.throwSkippedFailures()
        return delivery.deliveredCount
    }
}

/// The value at a key path inside each top-level value of a stream, as a ``KeyPathSelector``
/// captures it: shared by ``ValueSequenceReader`` and the workers of ``SplitLinesReader``.
final class ValueCapture {
    private let keyPath: KeyPath
    private var value: JSONValue?
    /// The target (split path or literal dotted root key) `value` came from.
    private var target: Int?

    init(keyPath: KeyPath) {
        self.keyPath = keyPath
    }

    /// The selector that captures the value; it refers to this capture, which must outlive it.
    func makeSelector() -> KeyPathSelector {
        var callbacks = KeyPathSelector.Callbacks()
        callbacks.value = { [unowned self] target, value in
            // The literal dotted root key (target 1) wins over the split path, as in Elevate.
            if target == 1 || self.value == nil {
                self.value = value
                self.target = target
            }
        }
        // A repeated key: the later occurrence replaces the earlier one whole, when the value
        // captured lies below it (a repeat of the other spelling's key replaces nothing kept).
        callbacks.duplicateKey = { [unowned self] targets, _ in
            if let target, targets.contains(target) { value = nil }
        }
        return KeyPathSelector(targets: .candidates(for: keyPath, mode: .value), callbacks: callbacks)
    }

    /// The parser of concatenated values, each one's end told to `valueEnded`, for `selector`
    /// (made by ``makeSelector()``): shared by ``ValueSequenceReader`` and the runs of
    /// ``SplitValuesReader``.
    /// - Parameter skipsByteOrderMark: Whether the parser starts the input, where a byte order
    ///   mark may come.
    static func makeValuesParser(
        for selector: KeyPathSelector, options: JSONParsingOptions, skipsByteOrderMark: Bool = true,
        valueEnded: @escaping () throws -> Void
    ) -> JSONEventParser {
        var parsing = options
        parsing.allowsMultipleValues = true
        selector.callbacks.documentEnd = valueEnded
        let parser = JSONEventParser(handler: selector, options: parsing, skipsByteOrderMark: skipsByteOrderMark)
        selector.currentOffset = { [unowned parser] in parser.currentByteOffset }
        return parser
    }

    /// Takes the value captured in the top-level value just read: nil when it is missing.
    func take() -> JSONValue? {
        let value = self.value
        self.value = nil
        // The whole value goes to the decoder even when it is null, as an array element does; at
        // a key path, null is missing, as in Elevate.
        guard let value, keyPath.text.isEmpty || !value.isNull else { return nil }
        return value
    }
}

/// JSON Lines and text sequences: a ``JSONLinesParser``'s errors as the stream reports them, the
/// syntax errors' positions the input's, in the same words as every other syntax error.
/// - Parameter lineNumber: The line being read, for a value over the size limit.
func translatingLinesParserErrors(
    framing: JSONFraming, wrapping: Bool, lineNumber: () -> Int, _ body: () throws -> Void
) throws {
    let unitName = framing == .jsonTextSequence ? "Record" : "Line"
    do {
        try body()
    } catch let failure as JSONLinesParser.LineError {
        // The position in the input, not in the line (the line and column are the input's
        // already).
        var error = failure.error
        error.byteOffset += failure.lineStartOffset
        // A record may span lines: the message says which record it is.
        if framing == .jsonTextSequence { error.message = "record \(failure.line): " + error.message }
        guard wrapping else { throw error }
        throw ParserError(error)
    } catch let failure as JSONLinesParser.LineTooLong {
        throw ParserError.validation(
            failureReason: "\(unitName) \(failure.line) is longer than the maximum element size of \(failure.limit) bytes")
    } catch let error as KeyPathSelector.CaptureTooLarge {
        throw ParserError.validation(
            failureReason: "\(unitName) \(lineNumber()) is longer than the maximum element size of \(error.limit) bytes")
    }
}
