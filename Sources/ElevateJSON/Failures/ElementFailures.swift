/// The failures of the elements of one array or stream: the first `limit` in full, with Elevate's
/// texts and their paths, and the rest only counted, so that millions of invalid elements keep a
/// bounded report, which then ends with `… and 12,345 more invalid elements`.
///
/// Streams skipping invalid elements (``StreamingOptions/skipsInvalidElements``) keep
/// ``StreamingOptions/maximumReportedFailures`` of them and throw ``error()``; a schema's `.array`
/// property keeps ``schemaLimit`` and adds them to its entity's failures (``finish(keyPath:into:)``).
/// Elevate listed every one, and one entity may hold 64 MiB of elements (`maximumElementSize`):
/// millions of texts, gigabytes, from one document.
package struct ElementFailures {
    /// The texts a schema's `.array` property keeps in full: the default of
    /// ``StreamingOptions/maximumReportedFailures``, which a schema, having no options, cannot be
    /// given.
    package static let schemaLimit = 100

    private var kept = FailureCollector()
    private let limit: Int
    /// How many failures were added, reported in full or not.
    private(set) var count = 0

    package init(limit: Int) {
        self.limit = max(limit, 0)
    }

    package var isEmpty: Bool { count == 0 }

    /// Records the failure of a nested decode, as ``FailureCollector/addNested(_:reason:at:)``.
    mutating func addNested(_ text: String, reason: String, at path: String) {
        count += 1
        if count <= limit {
            kept.addNested(text, reason: reason, at: path)
        } else {
            // Only counted: the failures the nested decode left for this text go with it.
            _ = NestedFailures.take(matching: reason)
        }
    }

    /// Records the failure of the element at `index` of the array at `keyPath`, in Elevate's words
    /// (``FailureText/arrayElement(index:methodName:reason:)``), with the failures its
    /// decode left (see ``NestedFailures``).
    /// - Parameters:
    ///   - index: The element's index.
    ///   - keyPath: The array's key path.
    ///   - methodName: The decoding type or decoder, described only when the failure is kept.
    ///   - reason: The element's failure text.
    package mutating func addElement(
        _ index: Int, of keyPath: String, methodName: @autoclosure () -> String, reason: String
    ) {
        guard count < limit else {
            count += 1
            // Only counted: the failures the nested decode left for this text go with it.
            _ = NestedFailures.take(matching: reason)
            return
        }
        addNested(
            FailureText.arrayElement(index: index, methodName: methodName(), reason: reason),
            reason: reason, at: elementPath(keyPath, index))
    }

    /// ``addElement(_:of:methodName:reason:)`` with the nested failures taken already (on a
    /// worker thread).
    package mutating func addElement(
        _ index: Int, of keyPath: String, methodName: String, reason: String, nested: [ValidationFailure]?
    ) {
        guard count < limit else {
            count += 1
            return
        }
        addNested(
            FailureText.arrayElement(index: index, methodName: methodName, reason: reason),
            reason: reason, nested: nested, at: elementPath(keyPath, index))
    }

    /// Adds what was recorded to an entity's failures, the count of those not kept as one more
    /// failure of the array itself, at `keyPath`.
    package func finish(keyPath: String, into failures: inout FailureCollector) {
        // Every array property of every entity ends here: nothing to add is the usual case.
        guard count > 0 else { return }
        failures.append(kept)
        let more = count - min(count, limit)
        if more > 0 { failures.add("… and \(Self.grouped(more)) more invalid elements", at: keyPath) }
    }

    /// Records a failure whose nested failures were taken already (on a worker thread).
    mutating func addNested(_ text: String, reason: String, nested: [ValidationFailure]?, at path: String) {
        count += 1
        if count <= limit { kept.addNested(text, reason: reason, nested: nested, at: path) }
    }

    /// The error for everything recorded.
    package func error() -> ParserError {
        let more = count - min(count, limit)
        guard more > 0 else { return kept.error() }
        let reason = (kept.texts + ["… and \(Self.grouped(more)) more invalid elements"]).joined(separator: "\n")
        // The kept failures' paths go where `FailureCollector.error()` sends them, under this text.
        NestedFailures.handOver(kept.failures, for: reason)
        return .validation(failureReason: reason)
    }

    /// `12345` as `12,345`, whatever the locale: the text is Elevate-style English.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
