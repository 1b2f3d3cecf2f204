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
    /// Elements cut from the array so far, delivered or not.
    private var elementCount = 0

    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`):
    /// the rest of the input need not be read.
    package var isStopped: Bool { parser.isStopped || delivery.stoppedOutsideParser }

    /// Where the element being delivered ends, when failures name it (a lossy decode).
    private var elementEnd: (() -> Int)?

    /// - Parameter members: Whether to cut the members of an object at `keyPath`, each handed to
    ///   `decode` as a `[key, value]` pair (see ``memberDecoding(_:)``), instead of an array's elements.
    package init(
        keyPath: String, methodName: String, options: StreamingOptions, collectsFailures: Bool = false,
        members: Bool = false, decode: @escaping (JSONValue) throws -> T, deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = keyPath
        self.options = options
        let arrayPath: [any CodingKey] = KeyPath(keyPath).components.map { StringCodingKey($0) }
        delivery = ElementDelivery(
            options: options, policy: collectsFailures ? .collect : nil, decode: decode, deliver: deliver,
            describe: { index, _, reason, _ in
                members
                    ? (FailureText.objectMember(index: index, methodName: methodName, reason: reason), keyPath)
                    : (FailureText.arrayElement(index: index, methodName: methodName, reason: reason), elementPath(keyPath, index))
            },
            // A member's key is put in its coding path by `memberDecoding`, which knows it.
            codingPrefix: { members ? arrayPath : arrayPath + [IndexCodingKey($0)] })
        let targets = [KeyPathSelector.Target].candidates(for: KeyPath(keyPath), mode: members ? .members : .elements)
        var callbacks = KeyPathSelector.Callbacks()
        callbacks.arrayStart = { [unowned self] target in
            if activeTarget == nil { activeTarget = target }
        }
        callbacks.value = { [unowned self] target, value in
            if activeTarget == nil {
                activeTarget = target
                foundNonArray = value
            }
        }
        callbacks.element = { [unowned self] target, index, element in
            guard target == activeTarget else { return }
            elementCount += 1
            try delivery.take(element, at: index, place: elementEnd?())
        }
        callbacks.duplicateKey = { [unowned self] targets in
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
        if collectsFailures { elementEnd = { [unowned parser] in parser.currentByteOffset } }
        selector.refusedKeyError = { [unowned parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        if let parallel = delivery.parallel {
            selector.reusesTapes = false
            selector.tapeRecycler = parallel.tapeRecycler
        }
        self.selector = selector
        self.parser = parser
    }

    /// Parses the next chunk, decoding and delivering every element it completes.
    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try translatingErrors { try parser.parse(chunk) }
    }

    /// Delivers every element cut so far, waiting for the workers (see
    /// ``ChunkDecoder/deliverCompleted()``).
    package func deliverCompleted() throws {
        try delivery.deliverCompleted(isStopped: isStopped)
    }

    /// Ends the input and reports what went wrong as a whole: a missing or mistyped array, and
    /// the skipped elements.
    /// - Returns: the number of elements delivered.
    package func finish() throws -> Int {
        if !delivery.stoppedOutsideParser {
            try translatingErrors { try parser.finish() }
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

    /// The failures recorded when the stream collects them, and how many there were.
    package var collectedFailures: (kept: [ElementFailure], count: Int) {
        (delivery.collectedFailures, delivery.collectedFailureCount)
    }

    private func translatingErrors(_ body: () throws -> Void) throws {
        try delivery.catchingUp {
            try translatingParseErrors(wrapping: options.wrapsErrorsInParserError, tooLarge: tooLargeText, body)
        }
    }

    private func tooLargeText(_ limit: Int) -> String {
        "Element at index \(elementCount) of key path [\(keyPath)] "
            + "is larger than the maximum element size of \(limit) bytes"
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
