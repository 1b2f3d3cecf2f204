/// One element-by-element decode of the array at a key path: the parser, the selector, and
/// the bookkeeping shared by ``forEachElement(atKeyPath:from:as:options:_:)-2nedq``,
/// `AsyncSequence.decodedElements(atKeyPath:as:options:)` and the `.array` framing of the value
/// readers.
///
/// Each element is built and decoded as soon as its last event arrives, then dropped: memory
/// holds one element plus the current chunk.
package final class ElementStream<T> {
    private let keyPath: String
    private let methodName: String
    private let options: StreamingOptions
    private let decode: (JSONValue) throws -> T
    private let deliver: (T) throws -> Void
    private var parser: JSONEventParser!
    private var selector: KeyPathSelector!

    /// Which candidate path matched first (0: split path, 1: literal dotted root key).
    private var activeTarget: Int?
    private var foundNonArray: JSONValue?
    private var failures: ElementFailures
    private(set) var deliveredCount = 0
    /// Elements cut from the array so far, delivered or not.
    private var elementCount = 0
    /// Decodes elements on worker threads when ``StreamingOptions/concurrency`` is above 1;
    /// elements are then delivered in order as their batches finish.
    private var parallel: ParallelElementDecoder<T>?

    /// Whether the consumer stopped the stream (a ``JSONEventParser/Stop`` thrown by `deliver`):
    /// the rest of the input need not be read.
    package var isStopped: Bool { parser.isStopped || stoppedOutsideParser }
    /// Whether delivering an element threw (its failure, or the body's error): the elements after
    /// it must not be delivered.
    private var deliveryFailed = false
    /// Whether the body stopped the stream while the workers' elements were delivered outside the
    /// parser's callbacks: before an input error (see ``translatingErrors(_:)``), where one thread
    /// would have stopped before the error, or at the end of the input.
    private var stoppedOutsideParser = false

    package init(
        keyPath: String, methodName: String, options: StreamingOptions, decode: @escaping (JSONValue) throws -> T,
        deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = keyPath
        self.methodName = methodName
        self.options = options
        self.decode = decode
        self.deliver = deliver
        self.failures = ElementFailures(limit: options.maximumReportedFailures)
        let targets = [KeyPathSelector.Target].candidates(for: KeyPath(keyPath), mode: .elements)
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
            do {
                if let parallel {
                    parallel.submit(element, at: index)
                    try parallel.drain(untilAllDone: false) { try receive($0) }
                    return
                }
                try receive(element, at: index)
            } catch {
                deliveryFailed = true
                throw error
            }
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
        selector.refusedKeyError = { [unowned parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        self.selector = selector
        self.parser = parser
        if options.concurrency > 1 {
            let decoder = ParallelElementDecoder(workers: options.concurrency, scope: options.decodingScope, decode: decode)
            parallel = decoder
            selector.reusesTapes = false
            selector.tapeRecycler = decoder.tapeRecycler
        }
    }

    /// An element decoded on a worker, handled as ``receive(_:at:)`` handles one decoded here.
    private func receive(_ outcome: ParallelElementDecoder<T>.Outcome) throws {
        switch outcome {
        case .decoded(let decoded):
            deliveredCount += 1
            try deliver(decoded)
        case .failed(let failure):
            guard options.skipsInvalidElements else {
                // Not skipping: this failure alone is the error.
                var single = ElementFailures(limit: 1)
                single.addElement(
                    failure.index, of: keyPath, methodName: methodName, reason: failure.reason, nested: failure.nested)
                throw single.error()
            }
            failures.addElement(
                failure.index, of: keyPath, methodName: methodName, reason: failure.reason, nested: failure.nested)
        }
    }

    private func receive(_ element: JSONValue, at index: Int) throws {
        let decoded: T
        do {
            decoded = try NestedFailures.decode { try decode(element) }
        } catch ParserError.validation(let reason) {
            guard options.skipsInvalidElements else {
                // Not skipping: this failure alone is the error.
                var single = ElementFailures(limit: 1)
                single.addElement(index, of: keyPath, methodName: methodName, reason: reason)
                throw single.error()
            }
            failures.addElement(index, of: keyPath, methodName: methodName, reason: reason)
            return
        }
        deliveredCount += 1
        try deliver(decoded)
    }

    /// Parses the next chunk, decoding and delivering every element it completes.
    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try translatingErrors { try parser.parse(chunk) }
    }

    /// Delivers every element cut so far, waiting for the workers (see
    /// ``ChunkDecoder/deliverCompleted()``); nothing to do without workers, which deliver as they parse.
    package func deliverCompleted() throws {
        guard let parallel, !isStopped, !deliveryFailed else { return }
        do {
            try parallel.drain(untilAllDone: true) { try receive($0) }
        } catch is JSONEventParser.Stop {
            stoppedOutsideParser = true
        } catch {
            deliveryFailed = true
            throw error
        }
    }

    /// Ends the input and reports what went wrong as a whole: a missing or mistyped array, and
    /// the skipped elements.
    /// - Returns: the number of elements delivered.
    package func finish() throws -> Int {
        if !stoppedOutsideParser {
            try translatingErrors { try parser.finish() }
        }
        if !isStopped, let parallel {
            do {
                try parallel.drain(untilAllDone: true) { try receive($0) }
            } catch is JSONEventParser.Stop {
                // As one thread ends when the body stops it: what was skipped is still reported.
                stoppedOutsideParser = true
            }
        }
        guard activeTarget != nil else {
            throw ParserError.validation(failureReason: FailureText.missing(keyPath))
        }
        if let foundNonArray {
            if foundNonArray.isNull {
                throw ParserError.validation(failureReason: FailureText.missing(keyPath))
            }
            throw ParserError.validation(failureReason: FailureText.incorrectType(keyPath))
        }
        if !failures.isEmpty {
            throw failures.error()
        }
        return deliveredCount
    }

    private func translatingErrors(_ body: () throws -> Void) throws {
        do {
            try translatingParseErrors(wrapping: options.wrapsErrorsInParserError, tooLarge: tooLargeText, body)
        } catch {
            if let parallel, !deliveryFailed {
                // An error in the input (bad bytes, a limit, a repeated key). One thread would have
                // decoded and delivered every element before it first, and stopped at the first
                // invalid one, or when the body said so: the workers' elements go out now, in order.
                do {
                    try parallel.drain(untilAllDone: true) { try receive($0) }
                } catch is JSONEventParser.Stop {
                    stoppedOutsideParser = true
                    return
                } catch let earlier {
                    throw earlier
                }
            }
            // Whatever stops the stream stops the workers too.
            parallel?.cancel()
            throw error
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
