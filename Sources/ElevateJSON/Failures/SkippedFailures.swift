/// The failures of the elements a stream skips (``StreamingOptions/skipsInvalidElements``): the
/// first ``StreamingOptions/maximumReportedFailures`` in full, with Elevate's texts and their
/// paths, and the rest only counted, so that a stream of millions of invalid elements keeps a
/// bounded report. The error then ends with `… and 12,345 more invalid elements`.
struct SkippedFailures {
    private var kept = FailureCollector()
    private let limit: Int
    /// How many failures were added, reported in full or not.
    private(set) var count = 0

    package init(limit: Int) {
        self.limit = max(limit, 0)
    }

    var isEmpty: Bool { count == 0 }

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

    /// Records a failure whose nested failures were taken already (on a worker thread).
    mutating func addNested(_ text: String, reason: String, nested: [ValidationFailure]?, at path: String) {
        count += 1
        if count <= limit { kept.addNested(text, reason: reason, nested: nested, at: path) }
    }

    /// The error for everything recorded.
    func error() -> ParserError {
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
