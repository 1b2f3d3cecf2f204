/// The delivering half of the element pipeline, shared by an array's elements streamed
/// (``ElementStream``) or gathered (``ArrayDecoding``) and the values of JSON Lines and
/// concatenated JSON (``ValueSequenceReader``): each value is decoded here or on workers, delivered
/// in document order, its failure recorded or thrown, the first error winning, a stop by the body
/// ending the stream, and nothing decoded once the call is over.
///
/// What differs between the readers is how a value is named in a failure (`describe`, from its
/// index and ``Place``), where a delivered value goes (a body, or the array being gathered), and the
/// ``FailurePolicy``.
final class ElementDelivery<T> {
    /// What a failing value's text names besides its index: its line in JSON Lines, nil for an
    /// array's element. Not a generic parameter: an empty tuple's type metadata was looked up on
    /// every element.
    typealias Place = Int?

    /// A failing value's text in the report and its path, given its index, its place, the
    /// decoder's failure text, and whether nothing was found to decode (at a key path inside it).
    typealias Describe = (_ index: Int, _ place: Place, _ reason: String, _ isMissing: Bool) -> (
        text: String, path: String
    )
    /// Where a value is, as the coding path of a Codable value's error begins (its key path and
    /// index), given its index.
    typealias CodingPrefix = (_ index: Int) -> [any CodingKey]

    /// What a value that fails to decode does to the stream.
    enum FailurePolicy {
        /// The failure is the stream's error, at once.
        case throwFirst
        /// The failure is recorded and the value skipped; the recorded failures are the error at
        /// the end (``throwSkippedFailures()``). ``StreamingOptions/skipsInvalidElements``.
        case skip
        /// As ``skip``, but a Codable value's `DecodingError` ends the stream at once, as it
        /// ends `JSONDecoder`'s decoding of the whole array: `decodeArray`, which reports every
        /// invalid element of an Elevate type.
        case skipElevateFailures
        /// Every failure is recorded with its own error (a Codable value's `DecodingError`, an
        /// Elevate value's `ParserError`) and the value skipped; the stream goes on and the
        /// failures are the caller's (``collectedFailures``): a lossy decode.
        case collect

        init(skipping: Bool) { self = skipping ? .skip : .throwFirst }
    }

    private let decode: (JSONValue) throws -> T
    /// Takes each value over (an array being gathered) or borrows it (a body).
    private let receiver: ValueReceiver<T>
    private let describe: Describe
    private let codingPrefix: CodingPrefix
    private let policy: FailurePolicy
    private var failures: ElementFailures

    /// Decodes on worker threads when ``StreamingOptions/concurrency`` is above 1; the values are
    /// then delivered in order as their batches finish.
    let parallel: ParallelElementDecoder<T>?
    /// The values on the workers (see ``InFlightValues``). Used by the calling thread only, in
    /// accesses that never overlap: not checked at run time (two access-set insertions per value
    /// delivered).
    @exclusivity(unchecked) private var inFlight = InFlightValues()
    /// The index of the next outcome the workers hand back.
    private var nextOutcome = 0
    /// Whether the values' places come with their outcomes (runs of lines, see
    /// ``takeLines(missing:parse:)``) rather than from `inFlight`, and the failure text of a value
    /// missing at the key path then.
    private var placesInOutcomes = false
    private var missingInOutcomes = ""

    /// Told each delivered value's index and place, after `deliver` returned (checkpoints).
    var delivered: ((_ index: Int, _ place: Place) -> Void)?
    /// Told each value's index just before `deliver` gets it (element positions), so that a
    /// `deliver` that throws still had its value reported.
    var willDeliver: ((_ index: Int) -> Void)?

    private(set) var deliveredCount = 0
    /// With ``FailurePolicy/collect``: the first failures (up to the options' limit), and how many
    /// there were in all.
    private(set) var collectedFailures: [ElementFailure] = []
    private(set) var collectedFailureCount = 0
    private let collectLimit: Int
    /// Whether delivering a value threw (its failure, or the body's error): the values after it
    /// must not be delivered.
    private(set) var deliveryFailed = false
    /// Whether the body stopped the stream while the workers' values were delivered outside the
    /// parser's callbacks: before an input error, where one thread would have stopped before the
    /// error, or at the end of the input.
    private(set) var stoppedOutsideParser = false

    /// - Parameters:
    ///   - options: The workers (``StreamingOptions/concurrency``), the failure limit, and the
    ///     policy unless `policy` is given (``StreamingOptions/skipsInvalidElements``).
    ///   - policy: What a failing value does to the stream.
    ///   - decode: Decodes one value.
    ///   - receiver: Takes each decoded value, in document order: moved to a receiver that keeps
    ///     it, lent to one that does not (see ``ValueReceiver``).
    ///   - describe: Names a failing value.
    ///   - codingPrefix: Where a value is, for a Codable error's coding path.
    init(
        options: StreamingOptions, policy: FailurePolicy? = nil, decode: @escaping (JSONValue) throws -> T,
        receiver: ValueReceiver<T>, describe: @escaping Describe,
        codingPrefix: @escaping CodingPrefix
    ) {
        self.decode = decode
        self.receiver = receiver
        self.describe = describe
        self.codingPrefix = codingPrefix
        self.policy = policy ?? FailurePolicy(skipping: options.skipsInvalidElements)
        collectLimit = options.maximumReportedFailures
        failures = ElementFailures(limit: options.maximumReportedFailures)
        parallel =
            options.concurrency > 1
            ? ParallelElementDecoder(workers: options.concurrency, scope: options.decodingScope, decode: decode) : nil
    }

    /// Takes the next value (called from the parser's callbacks, in document order): decodes and
    /// delivers it here, or hands it to the workers and delivers what they have finished.
    /// - Parameters:
    ///   - value: The value; nil when nothing was found to decode, whose failure text is `missing`.
    ///   - index: Its index among the values.
    ///   - place: What its failure names.
    ///   - missing: The failure text of a value that is nil, made only then (built for every
    ///     line of JSON Lines, it was 3% of reading them).
    func take(_ value: JSONValue?, at index: Int, place: Place, missing: @autoclosure () -> String = "") throws {
        do {
            if let parallel {
                inFlight.add(place: place, missing: value == nil ? missing() : nil, count: 1)
                if let value { parallel.submit(value, at: index) } else { parallel.submitPlaceholder(at: index) }
                try parallel.drain(
                    untilAllDone: false, to: takeDecoded, failed: receiveFailed)
                return
            }
            guard let value else {
                return try fail(index: index, place: place, reason: missing(), nested: nil, isMissing: true)
            }
            let decoded: T
            do {
                decoded = try NestedFailures.decode { try decode(value) }
            } catch ParserError.validation(let reason) {
                let nested = NestedFailures.take(matching: reason)
                return try fail(index: index, place: place, reason: reason, nested: nested, isMissing: false)
            } catch let failure as DecodingFailure {
                return try fail(
                    index: index, place: place, reason: failure.reason, nested: nil, isMissing: false,
                    decodingError: failure.error)
            }
            deliveredCount += 1
            willDeliver?(index)
            switch receiver {
            case .keeping(let keep): try keep(consume decoded)
            case .borrowing(let lend): try lend(decoded)
            }
            delivered?(index, place)
        } catch {
            deliveryFailed = true
            throw error
        }
    }

    /// Takes the next `count` values as text for the workers to parse and decode (the split
    /// parse, see `SplitArrayReader`), and delivers what they have finished.
    /// - Parameters:
    ///   - count: How many values the text holds.
    ///   - index: The index of its first value.
    ///   - parse: Parses the text on a worker, handing over each value (see
    ///     ``ParallelElementDecoder/ParseText``).
    func takeText(count: Int, at index: Int, parse: @escaping ParallelElementDecoder<T>.ParseText) throws {
        guard let parallel else { preconditionFailure("text goes to workers") }
        do {
            inFlight.add(place: nil, missing: nil, count: count)
            parallel.submitText(firstIndex: index, count: count, parse: parse)
            try parallel.drain(untilAllDone: false, to: takeDecoded, failed: receiveFailed)
        } catch {
            deliveryFailed = true
            throw error
        }
    }

    /// Takes a run of lines for the workers to parse and decode (see `SplitLinesReader`), and
    /// delivers what they have finished. The run's values are counted as they come back; each
    /// failure names the line the worker found it on.
    /// - Parameters:
    ///   - missing: The failure text of a value missing at the key path.
    ///   - parse: Parses the run on a worker (see ``ParallelElementDecoder/ParseLines``).
    func takeLines(missing: String, parse: @escaping ParallelElementDecoder<T>.ParseLines) throws {
        guard let parallel else { preconditionFailure("lines go to workers") }
        placesInOutcomes = true
        missingInOutcomes = missing
        do {
            parallel.submitLines(parse: parse)
            try parallel.drain(untilAllDone: false, to: takeDecoded, failed: receiveFailed)
        } catch {
            deliveryFailed = true
            throw error
        }
    }

    /// The values the workers have handed back so far, failures included: at a run's error,
    /// the index of the value it was reading.
    var outcomesTaken: Int { nextOutcome }

    /// Records that the body stopped the stream while values were delivered outside the parser's
    /// callbacks (by ``takeText(count:at:parse:)``).
    func noteStopOutsideParser() {
        stoppedOutsideParser = true
    }

    /// The values decoded on workers, each handled as ``take(_:at:place:missing:)`` handles one
    /// decoded here: moved or lent as `receiver` takes them. Made once; closures rather than
    /// references to a method, which made a thunk that copied each value and destroyed the original.
    private lazy var takeDecoded: ValueReceiver<T> =
        switch receiver {
        case .keeping(let keep):
            .keeping { [unowned self] (decoded: consuming T) in try receiveKept(consume decoded, keep) }
        case .borrowing(let lend):
            .borrowing { [unowned self] (decoded: borrowing T) in try receiveLent(decoded, lend) }
        }

    /// A value decoded on a worker, moved to `keep`.
    private func receiveKept(_ decoded: consuming T, _ keep: (consuming T) throws -> Void) throws {
        guard let (index, place) = try nextOutcomeEntry() else { return }
        deliveredCount += 1
        willDeliver?(index)
        try keep(consume decoded)
        delivered?(index, place)
    }

    /// A value decoded on a worker, lent to `lend`.
    private func receiveLent(_ decoded: borrowing T, _ lend: (borrowing T) throws -> Void) throws {
        guard let (index, place) = try nextOutcomeEntry() else { return }
        deliveredCount += 1
        willDeliver?(index)
        try lend(decoded)
        delivered?(index, place)
    }

    /// A value that failed on a worker, handled as ``take(_:at:place:missing:)`` handles one that
    /// failed here.
    private func receiveFailed(_ failure: FailedElement) throws {
        guard let (index, place) = try nextOutcomeEntry() else { return }
        // A value of a run of lines names its own line.
        if failure.isMissing {
            return try fail(
                index: index, place: failure.place, reason: missingInOutcomes, nested: nil, isMissing: true)
        }
        try fail(
            index: index, place: failure.place ?? place, reason: failure.reason, nested: failure.nested,
            isMissing: false, decodingError: failure.decodingError)
    }

    /// The index and place of the next outcome from the workers, or nil when its entry says that
    /// nothing was found at the key path (then reported here, whatever the outcome).
    private func nextOutcomeEntry() throws -> (index: Int, place: Place)? {
        let index = nextOutcome
        nextOutcome += 1
        var place: Place = nil
        if !placesInOutcomes {
            let missing: String?
            (place, missing) = inFlight.next()
            if let missing {
                try fail(index: index, place: place, reason: missing, nested: nil, isMissing: true)
                return nil
            }
        }
        return (index, place)
    }

    /// Waits for every value the workers were handed and throws the first error, in document
    /// order, that delivering them would throw: a decode's error, or a failure that ends the
    /// stream under the policy (a Codable value's `DecodingError`, unless skipping). The outcomes
    /// stay for delivery. For a caller that must know whether these values threw before it
    /// looks at others, or drops them.
    func throwFirstError() throws {
        try parallel?.throwFirstError { failure in
            endingError(
                index: failure.index, place: nil, reason: failure.reason, nested: failure.nested, isMissing: false,
                decodingError: failure.decodingError)
        }
    }

    /// The error a failure ends the stream with under the policy, or nil when it is recorded.
    private func endingError(
        index: Int, place: Place, reason: String, nested: [ValidationFailure]?, isMissing: Bool,
        decodingError: DecodingError?
    ) -> (any Error)? {
        guard policy != .collect else { return nil }
        // A Codable value's error stops the stream as the error it is, as `JSONDecoder` decoding
        // the whole array would throw it: its coding path from the document's root.
        if let decodingError, policy != .skip { return decodingError.prefixingCodingPath(codingPrefix(index)) }
        // Not skipping: this failure alone is the error.
        guard policy == .throwFirst else { return nil }
        var single = FailureCollector()
        let (text, path) = describe(index, place, reason, isMissing)
        single.addNested(text, reason: reason, nested: nested, at: path)
        return single.error()
    }

    private func fail(
        index: Int, place: Place, reason: String, nested: [ValidationFailure]?, isMissing: Bool,
        decodingError: DecodingError? = nil
    ) throws {
        if let error = endingError(
            index: index, place: place, reason: reason, nested: nested, isMissing: isMissing,
            decodingError: decodingError)
        {
            throw error
        }
        if policy == .collect {
            collectedFailureCount += 1
            guard collectedFailures.count < collectLimit else { return }
            let error: any Error =
                decodingError.map { $0.prefixingCodingPath(codingPrefix(index)) }
                ?? ParserError.validation(failureReason: isMissing ? describe(index, place, reason, true).text : reason)
            collectedFailures.append(ElementFailure(index: index, byteOffset: place ?? -1, error: error))
            return
        }
        let (text, path) = describe(index, place, reason, isMissing)
        failures.addNested(text, reason: reason, nested: nested, at: path)
    }

    /// Delivers every value the workers were handed, waiting for them (see
    /// ``ChunkDecoder/deliverCompleted()``); nothing to do without workers, which deliver as
    /// they parse.
    /// - Parameter isStopped: Whether the stream is stopped already.
    func deliverCompleted(isStopped: Bool) throws {
        guard let parallel, !isStopped, !deliveryFailed else { return }
        do {
            try parallel.drain(untilAllDone: true, to: takeDecoded, failed: receiveFailed)
        } catch is JSONEventParser.Stop {
            stoppedOutsideParser = true
        } catch {
            deliveryFailed = true
            throw error
        }
    }

    /// Runs a parse step. On an error in the input (bad bytes, a limit, a repeated key), the
    /// values the workers still hold are delivered first, as one thread would have delivered them
    /// before meeting it: an invalid one among them is the error then, and a stop by the body
    /// ends the stream instead. Whatever stops the stream stops the workers too.
    func catchingUp(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            if let parallel, !deliveryFailed {
                do {
                    try parallel.drain(
                        untilAllDone: true, to: takeDecoded, failed: receiveFailed)
                } catch is JSONEventParser.Stop {
                    stoppedOutsideParser = true
                    return
                }
            }
            parallel?.cancel()
            throw error
        }
    }

    /// After the input's end: delivers what the workers still hold (a stop by the body then ends
    /// it, as one thread ends, and what was skipped is still reported).
    /// - Parameter isStopped: Whether the stream is stopped already.
    func deliverRest(isStopped: Bool) throws {
        guard !isStopped, let parallel else { return }
        do {
            try parallel.drain(untilAllDone: true, to: takeDecoded, failed: receiveFailed)
        } catch is JSONEventParser.Stop {
            stoppedOutsideParser = true
        }
    }

    /// Throws the skipped values' failures, if any.
    func throwSkippedFailures() throws {
        if !failures.isEmpty { throw failures.error() }
    }
}
