/// One element-by-element decode of the array at a key path: the parser, the selector, and
/// the bookkeeping shared by `forEachElement(from:atKeyPath:as:decoder:options:_:)`,
/// `AsyncSequence.decodedElements(atKeyPath:as:options:)` and the `.array` framing of the value
/// readers.
///
/// Each element is built and decoded as soon as its last event arrives, then dropped: memory
/// holds one element plus the current chunk.
package final class ElementStream<T> {
    private let keyPath: String
    private let options: StreamingOptions
    /// Decodes, delivers and records the elements, here or on workers.
    private let delivery: ElementDelivery<T>
    private var parser: JSONEventParser!
    private var selector: KeyPathSelector!

    /// Which candidate path matched first (0: split path, 1: literal dotted root key).
    private var activeTarget: Int?
    private var foundNonArray: JSONValue?
    /// Elements cut from the array so far, delivered or not, by this stream's parser and by the
    /// split parse.
    private var elementCount: Int { parsedElementCount + (split?.elementCount ?? 0) }
    private var parsedElementCount = 0
    /// With several workers: the split parse of the array, whose elements the workers parse (of a
    /// stream of members, of the map, whose members they parse).
    private var split: SplitArrayReader?

    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`):
    /// the rest of the input need not be read.
    package var isStopped: Bool {
        (parser.isStopped && !resumedArrayEnded) || delivery.stoppedOutsideParser
    }

    /// Whether nothing more is to be read: the consumer stopped, or a resumed array ended.
    package var hasEnded: Bool { parser.isStopped || delivery.stoppedOutsideParser }

    /// Resumed: the array ended (the parser was stopped there, so that the input after it is not
    /// read), which is the stream's end, not a stop by the consumer: the elements still on the
    /// workers are delivered.
    private var resumedArrayEnded = false

    /// Where the element being delivered ends, when failures name it (a lossy decode) or
    /// checkpoints are asked for.
    private var elementEnd: (() -> Int)?

    /// With ``StreamingOptions/elementPositions``: finds where each element starts.
    private var startFinder: ElementStartFinder?
    /// The positions of the elements taken and not yet delivered.
    private var positions = DeliveryNotes<ElementPosition>()
    /// Resumed: the lines before the checkpoint, counted once, for the positions' lines (nil when
    /// they cannot be counted).
    private lazy var linesBeforeCheckpoint: Int? = linesBeforeResumption?()?.lines

    /// Whether the stream reports element positions (and so reads offsets at every element).
    var reportsPositions: Bool { startFinder != nil }

    /// Resuming from a checkpoint: the input starts just past an element, so the parser is first
    /// fed ``resumePrefix`` (an array's opening bracket and a placeholder element) to make the
    /// rest a valid array, whose placeholder is not delivered and whose end ends the stream.
    /// (Nil for an object's members, which do not resume: the reader then reads the whole input.)
    package let resumption: StreamCheckpoint?
    private var prefixFed = false
    private static var resumePrefix: [UInt8] { Array("[null".utf8) }
    /// What to add to the parser's offsets to get the input's: the checkpoint's offset, less the
    /// prefix.
    private var offsetShift: Int {
        resumption.map { $0.byteOffset - Self.resumePrefix.count } ?? 0
    }
    /// The index of the first element delivered: the checkpoint's, or 0.
    private var indexBase: Int { resumption?.index ?? 0 }

    /// - Parameter members: Whether to cut the members of an object at `keyPath`, each handed to
    ///   `decode` as a `[key, value]` pair (see ``memberDecoding(_:)``), instead of an array's elements.
    package init(
        keyPath: String, methodName: String, options: StreamingOptions, collectsFailures: Bool = false,
        members: Bool = false, decode: @escaping (JSONValue) throws -> T, deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = keyPath
        self.options = options
        let resumption = members ? nil : options.resumingFrom
        self.resumption = resumption
        let indexBase = resumption?.index ?? 0
        let arrayPath: [any CodingKey] = KeyPath(keyPath).components.map { StringCodingKey($0) }
        delivery = ElementDelivery(
            options: options, policy: collectsFailures ? .collect : nil, decode: decode, receiver: .borrowing(deliver),
            describe: { index, _, reason, _ in
                members
                    ? (FailureText.objectMember(index: index, methodName: methodName, reason: reason), keyPath)
                    : (FailureText.arrayElement(index: index + indexBase, methodName: methodName, reason: reason),
                        elementPath(keyPath, index + indexBase))
            },
            // A member's key is put in its coding path by `memberDecoding`, which knows it.
            codingPrefix: { members ? arrayPath : arrayPath + [IndexCodingKey($0 + indexBase)] })
        // Resumed, the input is the rest of the array, at the root of what the parser sees.
        let targets = [KeyPathSelector.Target].candidates(
            for: KeyPath(resumption == nil ? keyPath : ""), mode: members ? .members : .elements)
        // An object's members, and the elements of a lossy decode, have no positions.
        let elementPositions = members || collectsFailures ? nil : options.elementPositions
        if elementPositions != nil { startFinder = ElementStartFinder(allowsComments: options.parsing.allowsComments) }
        var callbacks = KeyPathSelector.Callbacks()
        callbacks.arrayStart = { [unowned self] target in
            if activeTarget == nil { activeTarget = target }
            if target == activeTarget, elementCount == 0 {
                if members { split?.startedMap = delivery } else { split?.startedArray = delivery }
            }
            if target == activeTarget { startFinder?.arrayStarted(at: self.parser.currentByteOffset) }
        }
        callbacks.value = { [unowned self] target, value in
            if activeTarget == nil {
                activeTarget = target
                foundNonArray = value
            }
        }
        callbacks.element = { [unowned self] target, index, element in
            guard target == activeTarget else { return }
            // The placeholder too: the gap after it leads to the first element of the input.
            let start = startFinder.map { $0.elementEnded(at: self.parser.currentByteOffset) }
            // Resumed: the placeholder is element 0 of what the parser sees.
            if resumption != nil, index == 0 { return }
            parsedElementCount += 1
            let elementIndex = resumption == nil ? index : index - 1
            if let start { notePosition(of: elementIndex, start: start) }
            try delivery.take(element, at: elementIndex, place: elementEnd?())
        }
        if members {
            callbacks.containerEnd = { [unowned self] target, _, _ in
                // A map too short to cut ends where the stream's parser read it whole: the next
                // long object is not it.
                if target == activeTarget { split?.startedMap = nil }
            }
        } else if resumption != nil || startFinder != nil {
            callbacks.containerEnd = { [unowned self] target, _, _ in
                guard target == activeTarget else { return }
                startFinder?.arrayEnded()
                // The rest of the input lies after the array: not read.
                guard resumption != nil else { return }
                resumedArrayEnded = true
                throw JSONEventParser.Stop()
            }
        }
        callbacks.duplicateKey = { [unowned self] targets, _ in
            guard let activeTarget, targets.contains(activeTarget) else { return }
            // The later occurrence of a repeated key replaces the earlier one; elements already
            // delivered cannot be taken back, so that is an error rather than a merged answer.
            guard elementCount == 0 else {
                throw KeyPathSelector.RefusedKey(
                    message: "Key path [\(keyPath)] appears more than once in its object; "
                        + "the elements of its first occurrence were already delivered")
            }
            self.activeTarget = nil
            foundNonArray = nil
        }
        let selector = KeyPathSelector(targets: targets, callbacks: callbacks)
        let parser = JSONEventParser(handler: selector, options: options.parsing)
        selector.maximumCaptureSize = options.maximumElementSize
        selector.currentOffset = { [unowned parser] in parser.currentByteOffset }
        if collectsFailures || options.checkpoints != nil {
            let shift = offsetShift
            elementEnd = { [unowned parser] in parser.currentByteOffset + shift }
        }
        if let checkpoints = options.checkpoints {
            delivery.delivered = { index, end in
                checkpoints(StreamCheckpoint(index: index + indexBase + 1, byteOffset: end ?? 0))
            }
        }
        if let elementPositions {
            delivery.willDeliver = { [unowned self] index in
                if let position = positions.take(for: index) { elementPositions(position) }
            }
        }
        selector.refusedKeyError = { [unowned parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        if let parallel = delivery.parallel {
            selector.reusesTapes = false
            selector.tapeRecycler = parallel.tapeRecycler
        }
        self.selector = selector
        self.parser = parser
        if resumption == nil, !collectsFailures, options.checkpoints == nil, elementPositions == nil,
            delivery.parallel != nil,
            SplitArrayReader.applies(to: options)
        {
            let tooLarge: SplitRun.TooLarge = { index, limit, _ in
                ParserError.validation(failureReason: Self.tooLargeText(keyPath: keyPath, index: index, limit: limit))
            }
            if !members {
                split = SplitArrayReader(
                    parser: parser, options: options,
                    containersOffSplit: { [unowned selector] in selector.containersOffTargets }, tooLarge: tooLarge)
            } else if !options.parsing.rejectsDuplicateKeys {
                // The object at the key path, when it is a map (many short members), cut into
                // runs of members as `count` cuts one (see `SplitArrayReader.isMap(openedAt:in:)`);
                // nothing else is cut. Not when repeated keys are refused: no worker sees
                // another's keys.
                split = SplitArrayReader(
                    parser: parser, options: options, everyArray: delivery, mayCut: { false }, splitsObjects: true,
                    tooLarge: tooLarge)
            }
        }
    }

    /// Parses the next chunk, decoding and delivering every element it completes.
    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try translatingErrors {
            if let resumption, !prefixFed {
                // Checked before any element, for files and async sequences alike.
                guard resumption.hasPossibleNumbers else {
                    throw refusedCheckpoint(
                        "no stream ends element \(resumption.index - 1) at byte offset \(resumption.byteOffset)",
                        options: options)
                }
                prefixFed = true
                try Self.resumePrefix.withUnsafeBytes { try parse($0) }
            }
            if let split { try split.feed(chunk) } else { try parse(chunk) }
        }
    }

    /// Parses the next bytes, showing them to the start finder when positions are asked for.
    private func parse(_ bytes: UnsafeRawBufferPointer) throws {
        guard let startFinder else { return try parser.parse(bytes) }
        try startFinder.parsing(bytes, parsedEnd: { parser.bytesParsed }) { try parser.parse($0) }
    }

    /// Notes the position of the element at `index` (among those delivered from this input),
    /// which ends at the parser's offset and starts at `start` (parser offsets and lines), for
    /// when it is delivered.
    private func notePosition(of index: Int, start: (start: Int, line: Int)) {
        let shift = offsetShift
        // Resumed: the lines before the checkpoint are the input's too.
        let line = resumption == nil ? start.line : linesBeforeCheckpoint.map { start.line + $0 }
        positions.append(
            ElementPosition(
                index: index + indexBase, byteRange: (start.start + shift)..<(parser.currentByteOffset + shift), line: line),
            for: index)
    }

    /// Delivers every element cut so far, waiting for the workers (see
    /// ``ChunkDecoder/deliverCompleted()``).
    package func deliverCompleted() throws {
        try translatingErrors { try split?.handOverCompleteElements() }
        try delivery.deliverCompleted(isStopped: isStopped)
    }

    package func deliverBeforeInputFailure() throws {
        guard !isStopped else { return }
        // An error in the held bytes comes after what the workers hold (see `catchingUp`).
        try delivery.catchingUp { try translatingErrors { try split?.inputFailed() } }
        try delivery.deliverRest(isStopped: isStopped)
    }

    /// Ends the input and reports what went wrong as a whole: a missing or mistyped array, and
    /// the skipped elements.
    /// - Returns: the number of elements delivered.
    package func finish() throws -> Int {
        if !delivery.stoppedOutsideParser {
            // An empty input resumed is the prefix alone: cut short, as it is.
            if resumption != nil, !prefixFed { try feed(UnsafeRawBufferPointer(start: nil, count: 0)) }
            try translatingErrors {
                try split?.finish()
                if !delivery.stoppedOutsideParser { try parser.finish() }
            }
        }
        try delivery.deliverRest(isStopped: isStopped)
        guard activeTarget != nil else {
            throw ParserError.validation(failureReason: FailureText.missing(keyPath))
        }
        if let foundNonArray {
            if foundNonArray.isNull {
                throw ParserError.validation(failureReason: FailureText.missing(keyPath))
            }
            throw ParserError.validation(failureReason: FailureText.incorrectType(keyPath))
        }
        try delivery.throwSkippedFailures()
        return delivery.deliveredCount
    }

    /// How many elements the split parse cut for the workers (0 when the array was not split).
    var splitElementCount: Int { (split?.elementCount ?? 0) - (split?.elementsReadByTails ?? 0) }

    /// The failures recorded when the stream collects them, and how many there were.
    package var collectedFailures: (kept: [ElementFailure], count: Int) {
        let base = indexBase
        let kept = delivery.collectedFailures.map { ElementFailure(index: $0.index + base, byteOffset: $0.byteOffset, error: $0.error) }
        return (kept, delivery.collectedFailureCount)
    }

    /// Resumed: what the input holds before the checkpoint, for positions in the input (see
    /// ``positionedInInput(_:)``); set by the reader.
    package var linesBeforeResumption: (() -> (lines: Int, column: Int)?)?

    private func translatingErrors(_ body: () throws -> Void) throws {
        try delivery.catchingUp {
            try translatingParseErrors(wrapping: options.wrapsErrorsInParserError, tooLarge: tooLargeText) {
                guard resumption != nil else { return try body() }
                do {
                    try body()
                } catch let error as JSONSyntaxError {
                    throw positionedInInput(error)
                }
            }
        }
    }

    /// A syntax error of a resumed stream, moved from what the parser saw (the prefix, then the
    /// input from the checkpoint on) to the input: its offset, and its line and column when the
    /// bytes before the checkpoint can be read again to count lines.
    private func positionedInInput(_ error: JSONSyntaxError) -> JSONSyntaxError {
        var error = error
        let prefixLength = Self.resumePrefix.count
        // An error inside the prefix is one at the checkpoint: the input there is not an element's end.
        let isAtCheckpoint = error.byteOffset < prefixLength
        error.byteOffset = isAtCheckpoint ? resumptionOffset : error.byteOffset + offsetShift
        if error.line == 1 { error.column = isAtCheckpoint ? 1 : error.column - prefixLength }
        if let before = linesBeforeResumption?() {
            if error.line == 1 { error.column += before.column }
            error.line += before.lines
        }
        error.message = "resuming from element \(indexBase) at byte offset \(resumptionOffset): " + error.message
        return error
    }

    private var resumptionOffset: Int { resumption?.byteOffset ?? 0 }

    private func tooLargeText(_ limit: Int) -> String {
        Self.tooLargeText(keyPath: keyPath, index: elementCount, limit: limit)
    }

    private static func tooLargeText(keyPath: String, index: Int, limit: Int) -> String {
        "Element at index \(index) of key path [\(keyPath)] is larger than the maximum element size of \(limit) bytes"
    }
}

/// Runs a parse step, turning the event layer's errors into Elevate's: a syntax error becomes
/// `.deserialization` (when `wrapping`; otherwise it is thrown as it is), a value over the size
/// limit a `.validation` error worded by `tooLarge`.
func translatingParseErrors(
    wrapping: Bool, tooLarge: (_ limit: Int) -> String, _ body: () throws -> Void
) throws {
    do {
        try body()
    } catch let error as JSONSyntaxError {
        guard wrapping else { throw error }
        throw ParserError(error)
    } catch let error as KeyPathSelector.CaptureTooLarge {
        throw ParserError.validation(failureReason: tooLarge(error.limit))
    }
}

/// Decodes a member cut by a `members` ``ElementStream`` (a `[key, value]` pair) with `decode`,
/// naming the key in a failure: in a `DecodingError`'s coding path, and in front of an Elevate
/// validation failure's text.
package func memberDecoding<T>(
    _ decode: @escaping (JSONValue) throws -> T
) -> (JSONValue) throws -> (key: String, value: T) {
    { pair in
        let key = pair[0]?.string ?? ""
        do {
            return (key, try decode(pair[1]!))
        } catch let failure as DecodingFailure {
            throw DecodingFailure(
                error: failure.error.prefixingCodingPath([StringCodingKey(key)]), reason: "Member [\(key)]: \(failure.reason)")
        } catch let error as DecodingError {
            throw error.prefixingCodingPath([StringCodingKey(key)])
        } catch ParserError.validation(let reason) {
            throw ParserError.validation(failureReason: "Member [\(key)]: \(reason)")
        }
    }
}
