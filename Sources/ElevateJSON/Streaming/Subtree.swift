import Foundation

/// Counts the elements of the array (or members of the object) at `keyPath`, without building
/// any value: the input streams past in bounded memory.
///
/// ```swift
/// if let summary = try Elevate.summarizeValue(from: .file(url), atKeyPath: "response.items") {
///     print("\(summary.count) items")
/// }
/// ```
///
/// - Parameters:
///   - keyPath: The value to summarize; `""`, the default, for the root.
///   - input: Where the JSON comes from.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: nil when nothing is at the key path.
/// - Throws: ``ParserError/deserialization(failureReason:)`` for bad input; with
///   ``StreamingOptions/wrapsErrorsInParserError`` false, ``JSONSyntaxError`` and ``JSONInputError``.
public func summarizeValue(
    from input: JSONInput, atKeyPath keyPath: String = "", options: StreamingOptions = StreamingOptions()
) throws -> JSONContainerSummary? {
    try SummaryPass(keyPath: keyPath).run(input, options: options)
}

/// Sends the events of the value at `keyPath` to `handler`, and nothing else: the way to copy or
/// transform one part of a huge document without building it.
///
/// The value is held to ``StreamingOptions/maximumElementSize`` like any other entry point's
/// (64 MiB by default), although nothing is built: pass `.max` to copy larger subtrees.
///
/// ```swift
/// let writer = JSONEventWriter(fileHandle: .standardOutput)
/// let found = try Elevate.forEachEvent(from: .file(url), atKeyPath: "response.items", to: writer)
/// try writer.finish()
/// ```
///
/// - Parameters:
///   - keyPath: The value whose events are sent; `""`, the default, for the whole document.
///   - input: Where the JSON comes from.
///   - handler: Receives the value's events, and nothing else.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: whether a value was found at the key path.
/// - Throws: ``ParserError/deserialization(failureReason:)`` for bad input (with
///   ``StreamingOptions/wrapsErrorsInParserError`` false, ``JSONSyntaxError`` and
///   ``JSONInputError``), or what `handler` throws.
@discardableResult
public func forEachEvent(
    from input: JSONInput, atKeyPath keyPath: String = "", to handler: any JSONEventHandler,
    options: StreamingOptions = StreamingOptions()
) throws -> Bool {
    try ForwardingPass(keyPath: keyPath, handler: handler).run(input, options: options)
}

/// ``forEachEvent(from:atKeyPath:to:options:)`` where the component `wildcard` of the key path
/// matches every member of an object and every element of an array, so that every value the path
/// leads to is sent, one after another, in document order (the tool's `items.*.name`). A
/// repeated key's values are each sent.
/// - Parameter whenInputWaits: Called before a read that would wait (see
///   ``DocumentPass/whenInputWaits``): what the handler has can go out then.
/// - Returns: Whether any value was found.
package func forEachEvent(
    from input: JSONInput, atKeyPath keyPath: String, wildcard: String, to handler: any JSONEventHandler,
    options: StreamingOptions, whenInputWaits: (() throws -> Void)? = nil
) throws -> Bool {
    let pass = ForwardingPass(keyPath: keyPath, handler: handler, wildcard: wildcard)
    pass.whenInputWaits = whenInputWaits
    return try pass.run(input, options: options)
}

/// Writes each element of the array at `keyPath` to `emitter` as a top-level value, one per line:
/// `elevate extract --json-lines`. With ``StreamingOptions/concurrency`` above 1 and a key path
/// without wildcards, the array is split (see ``SplitArrayReader``) and its runs' lines are written
/// by workers (``SplitElementLinesWriter``); the output and the first error are one thread's.
/// - Parameters:
///   - rawStrings: Whether a string element is written as its text, as `emitter` was made to.
///   - whenInputWaits: Called before a read that would wait, once the elements' lines read so far
///     are `emitter`'s (see ``DocumentPass/whenInputWaits``).
/// - Returns: Whether a value was found at the key path.
/// - Throws: ``JSONLinesSplitter/NotAnArray`` when the value there is not an array; otherwise as
///   ``forEachEvent(from:atKeyPath:wildcard:to:options:whenInputWaits:)``.
package func writeElementLines(
    from input: JSONInput, atKeyPath keyPath: String, wildcard: String?, to emitter: JSONTextEmitter,
    rawStrings: Bool, options: StreamingOptions, whenInputWaits: (() throws -> Void)? = nil
) throws -> Bool {
    let splitter = JSONLinesSplitter(forwardingTo: emitter)
    let pass = ForwardingPass(keyPath: keyPath, handler: splitter, wildcard: wildcard)
    let hasWildcard = wildcard.map { KeyPath(keyPath).components.contains($0) } ?? false
    if options.concurrency > 1, !hasWildcard {
        let writer = SplitElementLinesWriter(emitter: emitter, workers: options.concurrency, rawStrings: rawStrings)
        pass.lineWriter = writer
        // The forwarded array's `[` has been read: its content is the split parse's.
        splitter.arrayStarted = { [unowned pass] in pass.split?.startedArray = writer }
    }
    if let whenInputWaits {
        // The runs handed over so far are written first.
        pass.whenInputWaits = { [unowned pass] in
            try pass.lineWriter?.settle()
            try whenInputWaits()
        }
    }
    return try pass.run(input, options: options)
}

/// Counts what is at a key path (see ``summarizeValue(from:atKeyPath:options:)``).
final class SummaryPass: DocumentPass {
    let selector: KeyPathSelector
    private var summary: JSONContainerSummary?
    /// The target (split path or literal dotted root key) whose value `summary` describes.
    private var summaryTarget: Int?

    /// With several workers: the split parse of the first array found, and its runs' counts.
    private var split: SplitArrayReader?
    private var runs: SplitRunCounter?
    /// The target whose array is split, until its end; whether `summary` is that array's.
    private var splitTarget: Int?
    private var summaryIsSplit = false

    init(keyPath: String) {
        selector = KeyPathSelector(
            targets: [KeyPathSelector.Target].candidates(for: KeyPath(keyPath), mode: .count),
            callbacks: KeyPathSelector.Callbacks())
        var callbacks = KeyPathSelector.Callbacks()
        callbacks.arrayStart = { [unowned self] target in
            guard let split, let runs, summary == nil, splitTarget == nil, !summaryIsSplit else { return }
            split.startedArray = runs
            splitTarget = target
        }
        callbacks.containerEnd = { [unowned self] target, isArray, count in
            let isSplit = target == splitTarget
            if isSplit { splitTarget = -1 }
            if summary == nil {
                summary = JSONContainerSummary(kind: isArray ? .array : .object, count: count)
                summaryTarget = target
                summaryIsSplit = isSplit
            }
        }
        callbacks.value = { [unowned self] target, _ in
            if summary == nil {
                summary = JSONContainerSummary(kind: .scalar, count: 0)
                summaryTarget = target
            }
        }
        // A repeated key: the later occurrence replaces the earlier one whole, when the value
        // counted lies below it (a repeat of the other spelling's key replaces nothing counted).
        callbacks.duplicateKey = { [unowned self] targets in
            guard let summaryTarget, targets.contains(summaryTarget) else { return }
            summary = nil
            summaryIsSplit = false
            self.summaryTarget = nil
        }
        selector.callbacks = callbacks
    }

    func makeSplitReader(parser: JSONEventParser, options: StreamingOptions) -> (any SplitFeeding)? {
        guard options.concurrency > 1, SplitArrayReader.applies(to: options) else { return nil }
        runs = SplitRunCounter(workers: options.concurrency)
        split = SplitArrayReader(parser: parser, options: options)
        return split
    }

    func settle(after error: any Error) throws -> any Error {
        // The split array's runs lie before where the parser stopped: an error of theirs comes first.
        try runs?.settle()
        return error
    }

    func end() {
        runs?.cancel()
    }

    func result() throws -> JSONContainerSummary? {
        try runs?.settle()
        guard var summary, summaryIsSplit, let runs else { return summary }
        // The parser passed over the split array's content: its runs counted the elements.
        summary.count += runs.totals.elements
        return summary
    }
}

/// Sends the events at a key path to a handler (see ``forEachEvent(from:atKeyPath:to:options:)``).
final class ForwardingPass: DocumentPass {
    let selector: KeyPathSelector

    /// - Parameter wildcard: A key path component that matches every member and element (see
    ///   ``forEachEvent(from:atKeyPath:wildcard:to:options:whenInputWaits:)``), or nil.
    init(keyPath: String, handler: any JSONEventHandler, wildcard: String? = nil) {
        selector = Self.makeSelector(keyPath: keyPath, handler: handler, wildcard: wildcard)
    }

    /// The selector that sends the value at `keyPath` to `handler`: shared with
    /// ``ValueSequencePass``, which resets ``KeyPathSelector/forwardedTarget`` after each value.
    static func makeSelector(keyPath: String, handler: any JSONEventHandler, wildcard: String?) -> KeyPathSelector {
        let selector = KeyPathSelector(
            targets: [KeyPathSelector.Target].candidates(for: KeyPath(keyPath), mode: .forward(handler)),
            callbacks: KeyPathSelector.Callbacks(), wildcard: wildcard)
        var callbacks = KeyPathSelector.Callbacks()
        // The first value found is the one sent (a value at the key path's other spelling is not
        // sent after it); the rest of the document is still read, so that a repeated key (whose
        // later value would replace the one already sent) is an error.
        callbacks.forwarded = { [unowned selector] target in
            if selector.forwardedTarget == nil { selector.forwardedTarget = target }
        }
        callbacks.duplicateKey = { [unowned selector] targets in
            guard let sent = selector.forwardedTarget, targets.contains(sent) else { return }
            throw KeyPathSelector.RefusedKey(
                message: "Key path [\(keyPath)] appears more than once in its object; "
                    + "the value of its first occurrence was already written")
        }
        selector.callbacks = callbacks
        return selector
    }

    /// With several workers, for ``writeElementLines(from:atKeyPath:wildcard:to:rawStrings:options:whenInputWaits:)``:
    /// where the split array's runs go, and the split parse.
    var lineWriter: SplitElementLinesWriter?
    /// See ``DocumentPass/whenInputWaits``.
    var whenInputWaits: (() throws -> Void)?
    private(set) var split: SplitArrayReader?

    func makeSplitReader(parser: JSONEventParser, options: StreamingOptions) -> (any SplitFeeding)? {
        guard lineWriter != nil, options.concurrency > 1, SplitArrayReader.applies(to: options) else { return nil }
        split = SplitArrayReader(parser: parser, options: options)
        return split
    }

    func settle(after error: any Error) throws -> any Error {
        // The split array's runs lie before where the parser stopped: their lines are written
        // first, and an error of theirs comes first.
        try lineWriter?.settle()
        return error
    }

    func end() {
        lineWriter?.cancel()
    }

    func result() throws -> Bool {
        try lineWriter?.settle()
        return selector.forwardedTarget != nil
    }
}
