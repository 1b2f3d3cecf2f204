import Foundation

/// Counts the elements of the array (or members of the object) at `keyPath`, without building
/// any value: the input streams past in bounded memory. With ``StreamingOptions/concurrency``
/// above 1, the document's long arrays and maps are cut into runs that that many threads parse
/// and count (of a map at the key path, keep the keys of, which the calling thread counts once
/// each), but for the containers on the key path; the count and the first error are one thread's.
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
///   - options: Limits, read size, progress, error wrapping and workers.
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
/// leads to is sent, one after another, in document order (the tool's `items.*.name`). The
/// wildcard's repeated keys each lead to their value; a repeated named key is an error when a value
/// was sent from inside its earlier occurrence's value, which the later one replaces.
/// - Parameter whenInputWaits: Called before a read that would wait (see
///   ``DocumentPass/whenInputWaits``): what the handler has can go out then.
/// - Returns: Whether any value was found.
package func forEachEvent(
    from input: JSONInput, atKeyPath keyPath: String, wildcard: String, to handler: any JSONEventHandler,
    options: StreamingOptions, whenInputWaits: (() throws -> Void)? = nil
) throws -> Bool {
    try ForwardingPass(keyPath: keyPath, handler: handler, wildcard: wildcard)
        .run(input, options: options, whenInputWaits: whenInputWaits)
}

/// Writes each element of the array at `keyPath` to `emitter` as a top-level value, one per line:
/// `elevate extract --json-lines`. With ``StreamingOptions/concurrency`` above 1, the array is
/// split (see ``SplitArrayReader``) and its runs' lines are written by workers
/// (``SplitElementLinesWriter``); the output and the first error are one thread's. The workers
/// check no size limit: pass a ``StreamingOptions/maximumElementSize`` of `.max`. A key path with
/// wildcards writes the elements of each array found (see
/// ``writeMatches(from:atKeyPath:wildcard:to:options:whenInputWaits:)``).
/// - Parameter whenInputWaits: Called before a read that would wait, once the elements' lines
///   read so far are `emitter`'s (see ``DocumentPass/whenInputWaits``).
/// - Returns: Whether a value was found at the key path.
/// - Throws: ``JSONLinesSplitter/NotAnArray`` when the value there is not an array; otherwise as
///   ``forEachEvent(from:atKeyPath:wildcard:to:options:whenInputWaits:)``.
package func writeElementLines(
    from input: JSONInput, atKeyPath keyPath: String, wildcard: String?, to emitter: JSONTextEmitter,
    options: StreamingOptions, whenInputWaits: (() throws -> Void)? = nil
) throws -> Bool {
    if let wildcard, KeyPath(keyPath).components.contains(wildcard) {
        return try writeMatches(
            from: input, atKeyPath: keyPath, wildcard: wildcard, to: emitter, elementsAsLines: true, options: options,
            whenInputWaits: whenInputWaits)
    }
    let splitter = JSONLinesSplitter(forwardingTo: emitter)
    let pass = ForwardingPass(keyPath: keyPath, handler: splitter, wildcard: wildcard)
    if options.concurrency > 1 {
        let writer = SplitElementLinesWriter(emitter: emitter, workers: options.concurrency, selection: .elements)
        pass.lineWriter = writer
        // The forwarded array's `[` has been read: its content is the split parse's.
        splitter.arrayStarted = { [unowned pass] in pass.split?.startedArray = writer }
    }
    return try pass.run(input, options: options, whenInputWaits: whenInputWaits)
}

/// Writes every value that a key path leads to, each on a line of its own, in document order:
/// `elevate extract --key-path 'items.*.name'` (or, without wildcards, the one value there). As
/// ``forEachEvent(from:atKeyPath:wildcard:to:options:whenInputWaits:)``, with one more thread at
/// work when ``StreamingOptions/concurrency`` is above 1:
/// - With wildcards, the array the first wildcard matches the elements of (the components before
///   it being keys and indices) is split (see ``SplitArrayReader``), and workers write what the
///   rest of the path leads to in each element.
/// - Without, each array in the value is split in turn, and workers write its elements in place.
///
/// See ``SplitElementLinesWriter``. The output and the first error are one thread's. The workers
/// check no size limit: pass a ``StreamingOptions/maximumElementSize`` of `.max`. An indenting
/// emitter's values are written by one thread.
/// - Parameter whenInputWaits: Called before a read that would wait, once the values written so
///   far are `emitter`'s (see ``DocumentPass/whenInputWaits``).
/// - Returns: Whether any value was found.
package func writeMatches(
    from input: JSONInput, atKeyPath keyPath: String, wildcard: String, to emitter: JSONTextEmitter,
    options: StreamingOptions, whenInputWaits: (() throws -> Void)? = nil
) throws -> Bool {
    try writeMatches(
        from: input, atKeyPath: keyPath, wildcard: wildcard, to: emitter, elementsAsLines: false, options: options,
        whenInputWaits: whenInputWaits)
}

/// ``writeMatches(from:atKeyPath:wildcard:to:options:whenInputWaits:)``, or with
/// `elementsAsLines`, the elements of each value found, a line each (`--json-lines`).
private func writeMatches(
    from input: JSONInput, atKeyPath keyPath: String, wildcard: String, to emitter: JSONTextEmitter,
    elementsAsLines: Bool, options: StreamingOptions, whenInputWaits: (() throws -> Void)?
) throws -> Bool {
    let through: @Sendable (JSONTextEmitter) -> any JSONEventHandler
    if elementsAsLines {
        through = { JSONLinesSplitter(forwardingTo: $0) }
    } else {
        through = { $0 }
    }
    let pass = ForwardingPass(keyPath: keyPath, handler: through(emitter), wildcard: wildcard)
    let hasWildcard = KeyPath(keyPath).components.contains(wildcard)
    // Not indented text: a run's could be hundreds of times its input (each line indented by its
    // depth), and the workers hold their runs' text until it is written.
    guard options.concurrency > 1, !emitter.prettyPrinted, hasWildcard || !elementsAsLines else {
        return try pass.run(input, options: options, whenInputWaits: whenInputWaits)
    }
    let selector = pass.selector
    if hasWildcard {
        let writer = SplitElementLinesWriter(
            emitter: emitter, workers: options.concurrency,
            selection: .matches(keyPath: keyPath, wildcard: wildcard, through: through))
        pass.lineWriter = writer
        pass.splitsFirstWildcardArray = true
        selector.callbacks.wildcardArrayStart = { [unowned pass, unowned selector] in
            // After a value at the literal dotted root key, the array's matches are not sent:
            // one thread reads it, as it skips them.
            guard selector.forwardedTarget ?? 0 == 0 else { return }
            pass.split?.startedArray = writer
        }
        selector.callbacks.wildcardArrayEnd = { [unowned selector] in
            // What follows (a repeated key, the literal dotted key) depends on what was sent.
            try writer.settle()
            selector.noteForwarded(writer.takeMatches(), target: 0)
        }
    } else {
        let writer = SplitElementLinesWriter(
            emitter: emitter, workers: options.concurrency, selection: .inPlace(depth: 0))
        pass.lineWriter = writer
        // Each array in the value sent, its `[` just written.
        pass.chooser = { [unowned selector] in selector.isForwarding ? writer : nil }
        // The array's elements go in before its `]`.
        selector.callbacks.forwardedArrayEnd = { try writer.settleTakenRuns() }
    }
    return try pass.run(input, options: options, whenInputWaits: whenInputWaits)
}

/// Counts what is at a key path (see ``summarizeValue(from:atKeyPath:options:)``).
///
/// With several workers, the document is split as `validate` splits it (see ``countValues(in:options:)``),
/// but for the containers on the key path, which the stream's parser reads: the array at the key
/// path is cut into runs whose elements the workers count; a map there (a long object of many
/// short members) into runs whose keys the workers keep, which the calling thread counts in one
/// set, a repeated key once (another object there is read by the stream's parser, whose selector
/// counts its keys); and every other long array or map into runs the workers only validate.
final class SummaryPass: DocumentPass {
    let selector: KeyPathSelector
    private var summary: JSONContainerSummary?
    /// The target (split path or literal dotted root key) whose value `summary` describes.
    private var summaryTarget: Int?

    /// With several workers: the split parse, the counter of the first array found at the key
    /// path (whose runs' elements it counts), and the counter of the first map found there (whose
    /// runs' keys it keeps), which share their workers with the counter of the other containers
    /// split (whose runs it only validates).
    private var split: SplitArrayReader?
    private(set) var runs: SplitRunCounter?
    private var keyRuns: SplitRunCounter?
    /// The target whose array or map may be split, until its end; whether `summary` is its.
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
        callbacks.objectStart = { [unowned self] target in
            guard let split, let keyRuns, summary == nil, splitTarget == nil, !summaryIsSplit else { return }
            split.startedMap = keyRuns
            splitTarget = target
        }
        callbacks.containerEnd = { [unowned self] target, isArray, count in
            let isSplit = target == splitTarget
            if isSplit {
                splitTarget = -1
                // A container too short to cut ends where the stream's parser read it whole: the
                // next long one is not it.
                split?.startedArray = nil
                split?.startedMap = nil
            }
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
        callbacks.duplicateKey = { [unowned self] targets, _ in
            guard let summaryTarget, targets.contains(summaryTarget) else { return }
            summary = nil
            summaryIsSplit = false
            self.summaryTarget = nil
        }
        selector.callbacks = callbacks
    }

    func makeSplitReader(parser: JSONEventParser, options: StreamingOptions) -> (any SplitFeeding)? {
        guard options.concurrency > 1, SplitArrayReader.applies(to: options) else { return nil }
        let runs = SplitRunCounter(workers: options.concurrency)
        self.runs = runs
        // A map's keys are counted in runs when no key is refused (no worker sees another's).
        keyRuns = options.parsing.rejectsDuplicateKeys ? nil : runs.keyCounter()
        split = SplitArrayReader(
            parser: parser, options: options, everyArray: runs.validatingOnly(),
            mayCut: { [unowned selector] in selector.isSkipping },
            splitsObjects: !options.parsing.rejectsDuplicateKeys)
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
        // The parser passed over the split array's or map's content: its runs counted the
        // elements (less the stand-ins the parser read among the long elements it read itself,
        // see `SplitArrayReader`), or kept the keys.
        summary.count += summary.kind == .array ? runs.totals.elements : runs.keysCounted
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
        withForwardingCallbacks(
            KeyPathSelector(
                targets: [KeyPathSelector.Target].candidates(for: KeyPath(keyPath), mode: .forward(handler)),
                callbacks: KeyPathSelector.Callbacks(), wildcard: wildcard),
            keyPath: keyPath)
    }

    /// `selector`, set to send values as a pass that writes them does (`keyPath` names the path
    /// in its errors).
    private static func withForwardingCallbacks(_ selector: KeyPathSelector, keyPath: String) -> KeyPathSelector {
        var callbacks = KeyPathSelector.Callbacks()
        // The first value found is the one sent (a value at the key path's other spelling is not
        // sent after it); the rest of the document is still read, so that a repeated key (whose
        // later value would replace the one already sent) is an error.
        callbacks.forwarded = { [unowned selector] target in
            if selector.forwardedTarget == nil { selector.forwardedTarget = target }
        }
        // A repeated key, whose later value would replace what was already sent from its
        // earlier one, is an error.
        callbacks.duplicateKey = { _, forwardedFromEarlier in
            guard forwardedFromEarlier else { return }
            throw KeyPathSelector.RefusedKey(
                message: "Key path [\(keyPath)] appears more than once in its object; "
                    + "the value of its first occurrence was already written")
        }
        selector.callbacks = callbacks
        return selector
    }

    /// The selector that a worker of ``writeMatches(from:atKeyPath:wildcard:to:options:whenInputWaits:)``
    /// reads a split array's elements with, each a top-level value: it sends what `keyPath` leads
    /// to past its first wildcard to `handler`, as the stream's selector does in each element.
    static func makeElementSelector(keyPath: String, wildcard: String, handler: any JSONEventHandler)
        -> KeyPathSelector
    {
        let path = KeyPath(keyPath)
        let rest = Array(path.components.drop(while: { $0 != wildcard }).dropFirst())
        let target = KeyPathSelector.Target(
            id: 0, components: rest, mode: .forward(handler), strictIndices: path.isPointer)
        return withForwardingCallbacks(
            KeyPathSelector(targets: [target], callbacks: KeyPathSelector.Callbacks(), wildcard: wildcard),
            keyPath: keyPath)
    }

    /// With several workers, for ``writeElementLines(from:atKeyPath:wildcard:to:options:whenInputWaits:)``
    /// and ``writeMatches(from:atKeyPath:wildcard:to:options:whenInputWaits:)``: where the
    /// split array's runs go, and the split parse.
    var lineWriter: SplitElementLinesWriter?
    /// See ``DocumentPass/whenInputWaits``.
    var whenInputWaits: (() throws -> Void)?
    private(set) var split: SplitArrayReader?

    /// Asked at each array's `[` where its runs go (a whole value written in place, each array in
    /// turn); nil to split only the array set in ``SplitArrayReader/startedArray``.
    var chooser: (() -> (any SplitRunConsumer)?)?
    /// Whether the array split is the one the path's first wildcard matches in (its matches
    /// written by the workers), rather than the value at the path.
    var splitsFirstWildcardArray = false

    func makeSplitReader(parser: JSONEventParser, options: StreamingOptions) -> (any SplitFeeding)? {
        guard lineWriter != nil, options.concurrency > 1, SplitArrayReader.applies(to: options) else { return nil }
        split = SplitArrayReader(
            parser: parser, options: options,
            containersOffSplit: splitsFirstWildcardArray
                ? { [unowned selector] in selector.containersOffFirstWildcardArray }
                : { [unowned selector] in selector.containersOffTargets },
            chooser: chooser)
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

    /// Runs the pass, calling `whenInputWaits` before a read that would wait, once the runs
    /// handed over so far are written.
    func run(_ input: JSONInput, options: StreamingOptions, whenInputWaits: (() throws -> Void)?) throws -> Bool {
        if let whenInputWaits {
            self.whenInputWaits = { [unowned self] in
                try lineWriter?.settle()
                try whenInputWaits()
            }
        }
        return try run(input, options: options)
    }
}
