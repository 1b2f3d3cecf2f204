import Foundation

/// Times every applicable contender on a document and measures its peak memory.
///
/// ```swift
/// let runner = BenchmarkRunner(
///     runs: 3, childCommand: .currentExecutable(leadingArguments: ["bench", "--child"]))
/// let result = try runner.measure(try BenchmarkDocument.generated(.people, targetSize: 64_000_000)
///     .prepare(in: directory))
/// print(BenchmarkReport.markdown(for: result))
/// ```
public struct BenchmarkRunner: Sendable {
    /// Timed rounds, after one warm-up; in each, every contender runs once, in turn.
    public var runs: Int
    /// How to start a child process for memory; `nil` skips memory.
    public var childCommand: PeakMemory.ChildCommand?
    /// Receives one line of progress per measurement.
    public var log: @Sendable (String) -> Void

    /// Creates a runner.
    /// - Parameters:
    ///   - runs: Timed rounds, after one warm-up; in each, every contender runs once, in turn.
    ///   - childCommand: How to start the host executable in child mode; `nil` skips memory.
    ///   - log: Receives progress lines; by default they go to standard error.
    public init(
        runs: Int, childCommand: PeakMemory.ChildCommand?,
        log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.runs = runs
        self.childCommand = childCommand
        self.log = log
    }

    /// Measures `contenders` (by default every one that applies) on `input`.
    ///
    /// Every contender that ``Contender/countsElements`` must decode the same number of elements:
    /// ``BenchmarkInput/expectedElementCount`` when known, else what the first of them decoded;
    /// in its child process too.
    /// - Returns: One row per contender, in the order given.
    /// - Throws: A contender's error, ``ContenderFailure`` when element counts disagree, or
    ///   ``PeakMemory/ChildFailure``.
    /// - Parameters:
    ///   - input: The document to measure.
    ///   - contenders: Which contenders to run; `nil` for every one that applies.
    public func measure(_ input: BenchmarkInput, contenders: [Contender]? = nil) throws -> DocumentResult {
        var result = DocumentResult(
            name: input.name, byteCount: input.data.count, elementCount: input.expectedElementCount, rows: [])
        let contenders = contenders ?? input.contenders
        // The contenders take turns (see `Stopwatch.bestTakingTurns`): their ratios are the point.
        let timings = try Stopwatch.bestTakingTurns(
            of: runs, contenders.map { contender in { try contender.run(on: input) } })
        for (contender, timing) in zip(contenders, timings) {
            try check(contender, decoded: timing.result, against: &result.elementCount)
            var row = ContenderResult(
                contender: contender, seconds: timing.seconds / Double(contender.documentsPerRun), result: timing.result
            )
            let speed = BenchmarkReport.format(row.megabytesPerSecond(byteCount: input.data.count))
            if let childCommand {
                let report = try PeakMemory.measure(.contender(contender), file: input.file, using: childCommand)
                try check(contender, decoded: report.result, against: &result.elementCount)
                row.peakKiB = report.peakKiB
                log("\(input.name): \(contender.displayName): \(speed) MB/s, \(report.peakKiB / 1024) MiB peak")
            } else {
                log("\(input.name): \(contender.displayName): \(speed) MB/s")
            }
            result.rows.append(row)
        }
        if let childCommand {
            result.idlePeakKiB = try PeakMemory.measure(.idle, file: input.file, using: childCommand).peakKiB
            result.loadOnlyPeakKiB = try PeakMemory.measure(.loadOnly, file: input.file, using: childCommand).peakKiB
        }
        return result
    }

    private func check(_ contender: Contender, decoded: Int, against expected: inout Int?) throws {
        guard contender.countsElements else { return }
        if let expected, expected != decoded {
            throw ContenderFailure(contender: contender, reason: "decoded \(decoded) elements, expected \(expected)")
        }
        expected = decoded
    }
}

/// What ``BenchmarkRunner`` measured on one document.
public struct DocumentResult: Sendable {
    /// The document's name.
    public var name: String
    /// The document's size in bytes.
    public var byteCount: Int
    /// The number of people every people contender decoded; `nil` for other documents.
    public var elementCount: Int?
    /// One row per contender.
    public var rows: [ContenderResult]
    /// The peak of a child that does nothing, in KiB.
    public var idlePeakKiB: Int?
    /// The peak of a child that only reads the file, in KiB.
    public var loadOnlyPeakKiB: Int?

    /// Creates a result.
    /// - Parameters:
    ///   - name: See ``name``.
    ///   - byteCount: See ``byteCount``.
    ///   - elementCount: See ``elementCount``.
    ///   - rows: See ``rows``.
    public init(name: String, byteCount: Int, elementCount: Int?, rows: [ContenderResult]) {
        self.name = name
        self.byteCount = byteCount
        self.elementCount = elementCount
        self.rows = rows
    }

    /// The row of `contender`, if it ran.
    /// - Parameter contender: The contender.
    public subscript(contender: Contender) -> ContenderResult? {
        rows.first { $0.contender == contender }
    }
}

/// One contender's measurements on one document.
public struct ContenderResult: Sendable {
    /// The contender.
    public var contender: Contender
    /// The best time of one parse, in seconds (of one document, for a contender that decodes
    /// several at once: ``Contender/documentsPerRun``).
    public var seconds: Double
    /// What the contender returned: the element count, or a checksum.
    public var result: Int
    /// The peak resident set of the child process, in KiB, when measured.
    public var peakKiB: Int?

    /// Creates a result.
    /// - Parameters:
    ///   - contender: See ``contender``.
    ///   - seconds: See ``seconds``.
    ///   - result: See ``result``.
    ///   - peakKiB: See ``peakKiB``.
    public init(contender: Contender, seconds: Double, result: Int, peakKiB: Int? = nil) {
        self.contender = contender
        self.seconds = seconds
        self.result = result
        self.peakKiB = peakKiB
    }

    /// Throughput in MB/s (10^6 bytes per second).
    /// - Parameter byteCount: The size of the input, in bytes.
    public func megabytesPerSecond(byteCount: Int) -> Double {
        Double(byteCount) / 1e6 / seconds
    }
}
