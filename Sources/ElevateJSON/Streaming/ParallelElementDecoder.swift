import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes the elements of one array on worker threads while the calling thread parses, and
/// gives them back in document order, with the failures the sequential decoding would report.
///
/// The calling thread runs YAJL and cuts the array into elements, each on a tape of its own
/// (``JSONTapeBuilder`` starts a new tape while a view of the last one is still held). Elements
/// are grouped in batches, so that handing work over costs little next to decoding it, and the
/// batches go into one first-in, first-out queue served by `workers - 1` threads of this decoder's
/// own. The calling thread is the last worker: when more batches wait than the threads can take,
/// it decodes the oldest waiting one itself instead of parsing further. So exactly `workers`
/// threads run, one per core with the automatic choice (a pool thread per worker on top of the
/// parsing thread left three threads on two cores, and the parsing thread, which every other
/// thread waits for, was the one descheduled); the oldest batches are decoded first, which is the
/// order they are delivered in; and the elements waiting are bounded by the queue's length.
/// Nothing runs after ``finish()`` or ``cancel()`` return.
///
/// The decode closure runs on several threads at once: the decodable types and decoders it calls
/// must be safe to use that way (a `Decoder` instance passed to `decodeArray(…, with:)` is shared
/// by all workers; `DateDecoder` and `StringToIntDecoder` are).
final class ParallelElementDecoder<Element>: @unchecked Sendable {
    /// One element that failed validation.
    typealias Failure = FailedElement

    /// The outcomes of a batch, in order: the decoded elements in a buffer of their own, the
    /// failures beside them with their positions.
    ///
    /// Not an array of an enum over `Element`: in this code, generic over a type known only at
    /// run time, making, copying or switching over such an enum looks its type's metadata up in
    /// the runtime's cache at every element (two lookups per element, and appending to an array
    /// of them another), measured at 4% of a parallel read of JSON Lines. The buffer's elements
    /// are reached through `Element`'s own metadata, which is at hand.
    final class Outcomes {
        // One thread at a time uses a batch's outcomes (the worker that fills them, then the
        // caller that takes them, ordered by the lock behind the batch's `done`): no dynamic
        // exclusivity checks, which cost an access-set insertion per element read.
        @exclusivity(unchecked) private var elements: UnsafeMutablePointer<Element>
        @exclusivity(unchecked) private var capacity: Int
        @exclusivity(unchecked) private var decodedCount = 0
        /// The elements before this one were moved out by ``moveEach(to:failed:)``.
        @exclusivity(unchecked) private var firstKept = 0
        @exclusivity(unchecked) private var failures: [Failure] = []
        /// Where each failure sits among the outcomes.
        @exclusivity(unchecked) private var failurePositions: [Int] = []
        /// Whether the outcomes were taken (by ``moveEach(to:failed:)`` or ``lendEach(to:failed:)``).
        private var isTaken = false

        /// How many outcomes there are.
        var count: Int { decodedCount + failures.count }

        init() {
            capacity = 0
            elements = .allocate(capacity: 0)
        }

        func append(decoded element: consuming Element) {
            if decodedCount == capacity { grow(to: capacity + 1) }
            (elements + decodedCount).initialize(to: element)
            decodedCount += 1
        }

        func append(failed failure: Failure) {
            failurePositions.append(count)
            failures.append(failure)
        }

        func reserveCapacity(_ minimum: Int) {
            if minimum > capacity { grow(to: minimum) }
        }

        /// The room made at once for `count` elements the pre-scan expects: all of them, up to
        /// 1 MiB of elements. The count is the run's commas, which invalid input (a run of commas
        /// and nothing else, parsed no further than the second) makes as large as the run is long:
        /// past the cap, the outcomes grow only as elements are decoded.
        static func upFrontCapacity(forExpected count: Int) -> Int {
            min(count, max(16, (1 << 20) / max(1, MemoryLayout<Element>.stride)))
        }

        private func grow(to minimum: Int) {
            let newCapacity = max(minimum, capacity * 2, 4)
            let moved = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
            moved.moveInitialize(from: elements, count: decodedCount)
            elements.deallocate()
            elements = moved
            capacity = newCapacity
        }

        /// Moves each decoded element to `decoded` (a receiver that keeps them, see
        /// ``ValueReceiver``), and hands each failure to `failed`, in order. The elements not handed
        /// over (after one that threw) are destroyed with the outcomes. The outcomes are taken once
        /// (checked).
        func moveEach(
            to decoded: (consuming Element) throws -> Void, failed: (Failure) throws -> Void
        ) rethrows {
            try forEachOutcome(failed: failed) { index in
                // Counted first: when `decoded` throws, this element is its already.
                firstKept += 1
                try decoded((elements + index).move())
            }
        }

        /// Lends each decoded element to `decoded` (a body, see ``ValueReceiver``), and hands each
        /// failure to `failed`, in order. Every element is destroyed with the outcomes, on the
        /// worker that made them (see `Pool.discard(_:decodedBy:)`). The outcomes are taken once
        /// (checked).
        func lendEach(
            to decoded: (borrowing Element) throws -> Void, failed: (Failure) throws -> Void
        ) rethrows {
            try forEachOutcome(failed: failed) { index in
                // Lent from a local moved out of the buffer and back (two copies of its bytes):
                // lent from the buffer itself, the compiler copies the value, retaining each of its
                // strings and arrays on this thread, and destroys the copy after the call.
                let slot = elements + index
                let value = slot.move()
                do {
                    try decoded(value)
                } catch {
                    slot.initialize(to: consume value)
                    throw error
                }
                slot.initialize(to: consume value)
            }
        }

        /// Calls `element` with the index of each decoded element and `failed` with each failure,
        /// in document order.
        @inline(__always)
        private func forEachOutcome(failed: (Failure) throws -> Void, element: (Int) throws -> Void) rethrows {
            // A second call would hand over moved elements again.
            precondition(!isTaken, "a batch's outcomes are taken once")
            isTaken = true
            var nextFailure = 0
            var nextElement = 0
            for position in 0..<count {
                if nextFailure < failurePositions.count, failurePositions[nextFailure] == position {
                    try failed(failures[nextFailure])
                    nextFailure += 1
                } else {
                    nextElement += 1
                    try element(nextElement - 1)
                }
            }
        }

        /// The failures, in order.
        var failedOutcomes: [Failure] { failures }

        deinit {
            (elements + firstKept).deinitialize(count: decodedCount - firstKept)
            elements.deallocate()
        }
    }

    /// A run of consecutive elements, decoded by one worker.
    private final class Batch: @unchecked Sendable {
        let firstIndex: Int
        /// nil: a placeholder (see ``submitPlaceholder(at:)``). Filled by the parsing thread, then
        /// read and emptied by the one that claims the batch (the queue's lock orders the two).
        @exclusivity(unchecked) var inputs: [JSONValue?] = []
        /// A batch of the split parse: parses the batch's elements from their text on the thread
        /// that claims it, each decoded as soon as it is parsed (see ``submitText(firstIndex:parse:)``).
        var parseText: ParseText?
        /// How many elements `parseText` is expected to hand over.
        var expectedCount = 0
        /// A run of lines: parsed, and each value decoded, as `parseText` (see ``submitLines(parse:)``).
        var parseLines: ParseLines?
        /// Work whose result is the batch's one outcome (see ``submitWork(_:)``).
        var work: (() -> Result<Element, any Error>)?
        // Written by the worker only, read by the caller once `done` is set: the lock behind
        // `done` orders the two. Neither access overlaps another, so no dynamic exclusivity
        // checks (5 M instructions of a parallel decodeArray of the 4 MB people document).
        @exclusivity(unchecked) var outcomes = Outcomes()
        var error: (any Error)?
        let done = ManagedFlag()
        /// The pool thread that decoded the batch (nil: the calling thread); written before
        /// `done` is set, read after.
        @exclusivity(unchecked) var decodedBy: Int?
        /// Set by whoever decodes the batch (a worker, or the calling thread), exactly once.
        private let claimed = ManagedFlag()

        /// Takes the batch for decoding; false if someone already has.
        func claim() -> Bool { claimed.setIfUnset() }

        init(firstIndex: Int, capacity: Int) {
            self.firstIndex = firstIndex
            inputs.reserveCapacity(capacity)
        }
    }

    /// The queue of batches waiting and the threads that serve it. The threads hold this, not
    /// the decoder, so that a decoder its owner drops still stops them (see `deinit`).
    private final class Pool: @unchecked Sendable {
        let decode: (JSONValue) throws -> Element
        /// What runs around each batch on a worker, made on the calling thread (see
        /// ``DecodingScope/forWorkers``).
        let scope: DecodingScope
        let cancelled = ManagedFlag()
        /// Where the tapes of decoded batches go back to the parsing thread.
        let recycler: TapeRecycler
        // Behind `condition`.
        private let condition = NSCondition()
        private var waiting: [Batch] = []
        private var closed = false
        private var threadsRunning = 0
        /// Outcomes delivered, for the pool thread that decoded them to destroy (see
        /// ``discard(_:decodedBy:)``), one list per thread; behind `trashLock`.
        private var trash: [[Outcomes]] = []
        private let trashLock = NSLock()

        init(decode: @escaping (JSONValue) throws -> Element, scope: DecodingScope, recycledTapes: Int) {
            self.decode = decode
            self.recycler = TapeRecycler(capacity: recycledTapes)
            self.scope = scope.forWorkers()
        }

        static var threadName: String { "Elevate.decoder" }

        /// Gives the calling thread the name `top -H`, debuggers and the tests see (Foundation's
        /// `Thread.name` does not reach the system on Linux; 15 bytes at most).
        private static func nameCurrentThread() {
            #if canImport(Glibc)
                let file = open("/proc/thread-self/comm", O_WRONLY)
                guard file >= 0 else { return }
                var name = threadName
                _ = name.withUTF8 { write(file, $0.baseAddress, $0.count) }
                close(file)
            #endif
        }

        func start(threads: Int) {
            condition.withLock { threadsRunning = threads }
            trashLock.withLock { trash = Array(repeating: [], count: threads) }
            for index in 0..<threads {
                let thread = Thread { [self] in
                    Self.nameCurrentThread()
                    serve(index)
                }
                // As much stack as the main thread has, so that what decodes sequentially
                // (deep nesting included) decodes here too.
                thread.stackSize = 8 << 20
                thread.name = Self.threadName
                thread.start()
            }
        }

        /// Queues `batch`; when more than `maximumWaiting` wait, takes the oldest back for the
        /// caller to decode.
        func add(_ batch: Batch, maximumWaiting: Int) -> Batch? {
            condition.withLock {
                waiting.append(batch)
                condition.signal()
                // Queues hold a few batches: removing the first costs nothing to speak of.
                return waiting.count > maximumWaiting ? waiting.removeFirst() : nil
            }
        }

        /// A pool thread: decodes the oldest waiting batch until the queue is closed and empty.
        private func serve(_ thread: Int) {
            while let batch = nextWaiting() {
                emptyTrash(of: thread)
                if !cancelled.isSet, batch.claim() {
                    batch.decodedBy = thread
                    run(batch)
                }
            }
            emptyTrash(of: thread)
            condition.withLock {
                threadsRunning -= 1
                condition.broadcast()
            }
        }

        /// Hands the outcomes of a batch that `thread` decoded, once delivered, back to that thread
        /// to destroy: what the body did not keep is freed where it was allocated. Freed on the
        /// calling thread, each value's memory went back to the worker's malloc arena under its
        /// lock, which the worker, allocating the next values, held as often: the two threads
        /// waited for each other thousands of times a second (a context switch each).
        func discard(_ outcomes: Outcomes, decodedBy thread: Int) {
            trashLock.withLock {
                if thread < trash.count { trash[thread].append(outcomes) }
            }
        }

        private func emptyTrash(of thread: Int) {
            var taken: [Outcomes] = []
            trashLock.withLock {
                guard thread < trash.count, !trash[thread].isEmpty else { return }
                swap(&taken, &trash[thread])
            }
            // `taken` goes out of scope here, on this thread.
        }

        private func nextWaiting() -> Batch? {
            condition.withLock {
                while waiting.isEmpty && !closed { condition.wait() }
                return waiting.isEmpty ? nil : waiting.removeFirst()
            }
        }

        /// Lets the threads end once the queue is empty (at once when cancelled), and waits
        /// until they have.
        func closeAndJoin() {
            condition.withLock {
                closed = true
                if cancelled.isSet { waiting.removeAll() }
                condition.broadcast()
                while threadsRunning > 0 { condition.wait() }
            }
        }

        func run(_ batch: Batch) {
            defer { batch.done.set() }
            scope.enter()
            defer { scope.leave() }
            if let work = batch.work {
                batch.work = nil
                switch work() {
                case .success(let value): batch.outcomes.append(decoded: value)
                case .failure(let error):
                    batch.error = error
                    cancelled.set()
                }
                return
            }
            if let parseLines = batch.parseLines {
                batch.parseLines = nil
                let parseError = parseLines { value, line in
                    guard let value else {
                        batch.outcomes.append(
                            failed: Failure(
                                index: batch.outcomes.count, reason: "", nested: nil, place: line, isMissing: true))
                        return true
                    }
                    return decode(value, at: batch.outcomes.count, into: batch, place: line)
                }
                if let parseError, batch.error == nil {
                    batch.error = parseError
                    cancelled.set()
                }
                return
            }
            guard let parseText = batch.parseText else { return decodeElements(of: batch) }
            batch.parseText = nil
            // Made here, on the thread that fills it, whose allocator it then goes back to.
            batch.outcomes.reserveCapacity(Outcomes.upFrontCapacity(forExpected: batch.expectedCount))
            // The elements before the text's error come first, as the sequential parse delivers them.
            let parseError = parseText { element in
                decode(element, at: batch.firstIndex + batch.outcomes.count, into: batch)
            }
            if let parseError, batch.error == nil {
                batch.error = parseError
                cancelled.set()
            }
        }

        /// Decodes every element of `batch` (see ``run(_:)``).
        private func decodeElements(of batch: Batch) {
            batch.outcomes.reserveCapacity(batch.inputs.count)
            for offset in batch.inputs.indices {
                guard let input = batch.inputs[offset] else {
                    batch.outcomes.append(failed: Failure(index: batch.firstIndex + offset, reason: "", nested: nil))
                    continue
                }
                guard decode(input, at: batch.firstIndex + offset, into: batch) else { break }
            }
            // The elements' tapes can go now: back to the parsing thread, unless a decoded value
            // kept a view of one.
            var tapes = batch.inputs.compactMap { $0?.tape }
            batch.inputs = []
            recycler.giveBack(&tapes)
        }

        /// Decodes `input`, the element at `index`, into an outcome of `batch`.
        /// - Returns: false when the decode threw an error that ends everything (then `batch`'s).
        /// - Parameter place: The value's line, when the batch is a run of lines.
        private func decode(_ input: JSONValue, at index: Int, into batch: Batch, place: Int? = nil) -> Bool {
            do {
                batch.outcomes.append(decoded: try NestedFailures.decode { try decode(input) })
            } catch ParserError.validation(let reason) {
                batch.outcomes.append(
                    failed: Failure(
                        index: index, reason: reason, nested: NestedFailures.take(matching: reason), place: place))
            } catch let failure as DecodingFailure {
                batch.outcomes.append(
                    failed: Failure(
                        index: index, reason: failure.reason, nested: nil, decodingError: failure.error, place: place))
            } catch {
                // As in the sequential decoding, any other error ends everything.
                batch.error = error
                cancelled.set()
                return false
            }
            return true
        }
    }

    private let pool: Pool
    private let batchSize: Int
    /// The pool's threads: the calling thread is the last worker.
    private let threadCount: Int
    private var threadsStarted = false
    /// More batches than this waiting, and the calling thread decodes the oldest itself: one
    /// ready for each thread, plus one, so that no thread starves while the caller decodes.
    private let maximumWaiting: Int
    /// The most batches a stream holds undelivered before it waits for the oldest (sixteen per
    /// worker): a batch finished early queues behind an older one still being decoded, and a
    /// short window made the parsing thread wait for that one often.
    private let maximumQueued: Int
    /// The same for batches of the split parse, each a run of many elements: a few per worker.
    private let maximumQueuedRuns: Int
    /// Whether batches are runs of the split parse (see ``submitText(firstIndex:parse:)``).
    private var queuesRuns = false
    private var pending: Batch?
    /// Batches dispatched so far, and how many had been when ``drain(untilAllDone:_:)`` last
    /// looked at the queue: called after every element, it looks again only once another batch
    /// went out (a look takes the first batch's lock and, in this code generic over a type known
    /// only at run time, two metadata lookups, measured at 3% of a parallel `forEachElement`).
    private var dispatchedCount = 0
    private var dispatchedCountAtLastDrain = -1
    /// Every batch not yet delivered, in document order.
    private var batches: [Batch] = []
    private var cancelled: ManagedFlag { pool.cancelled }

    /// - Parameters:
    ///   - workers: How many elements are decoded at once, the calling thread's included (at
    ///     least 2; 1 is the sequential path).
    ///   - batchSize: Elements per work item.
    ///   - decode: Decodes one element; runs on worker threads.
    init(
        workers: Int, batchSize: Int = 64, scope: DecodingScope = .none, decode: @escaping (JSONValue) throws -> Element
    ) {
        // A mistyped `concurrency` (10_000) must not start that many threads, nor widen the
        // window of batches held to match.
        let workers = min(workers, Self.maximumWorkers)
        // Enough tapes for the batches the threads decode at once and the next to be cut.
        self.pool = Pool(decode: decode, scope: scope, recycledTapes: batchSize * (workers + 2))
        self.batchSize = batchSize
        self.threadCount = max(1, workers - 1)
        self.maximumWaiting = threadCount + 1
        self.maximumQueued = max(2, workers * 2) * 8
        self.maximumQueuedRuns = workers * 4
    }

    /// The most workers a decoder uses, whatever is asked: four per processor (more than one per
    /// processor helps only decoders that wait for something).
    static var maximumWorkers: Int { 4 * max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Where the tapes of decoded elements come back, for the builder that cuts the elements
    /// (``KeyPathSelector/tapeRecycler``).
    var tapeRecycler: TapeRecycler { pool.recycler }

    /// Queues the element at `index` (indices arrive in increasing order).
    func submit(_ element: JSONValue, at index: Int) {
        enqueue(element, at: index)
    }

    /// Parses a batch of the split parse, handing each element to `each` as soon as it is parsed
    /// (the element's tape is written over by the next one) and stopping when `each` returns
    /// false; returns the error that ended the parse, if any.
    typealias ParseText = (_ each: (JSONValue) -> Bool) -> (any Error)?

    /// Queues a run of consecutive elements still to be parsed, from index `firstIndex` on:
    /// `parse` runs on whichever thread claims the batch, which decodes each element as it comes.
    /// - Parameter count: How many elements the run is expected to hold, for which the outcomes
    ///   are made room at once (not by doubling, each time moving every element decoded so far;
    ///   see `Outcomes.upFrontCapacity(forExpected:)`).
    func submitText(firstIndex: Int, count: Int, parse: @escaping ParseText) {
        if let last = pending {
            pending = nil
            dispatch(last)
        }
        queuesRuns = true
        let batch = Batch(firstIndex: firstIndex, capacity: 0)
        batch.parseText = parse
        batch.expectedCount = count
        dispatch(batch)
    }

    /// Parses a run of lines (see `SplitLinesReader`) or of concatenated values (see
    /// `SplitValuesReader`), handing each value to `each` with its line (nil for concatenated
    /// values) as soon as it is parsed (nil for a value with nothing to decode at the key path),
    /// and stopping when `each` returns false; returns the error that ended the parse, if any.
    typealias ParseLines = (_ each: (_ value: JSONValue?, _ line: Int?) -> Bool) -> (any Error)?

    /// Queues a run of lines still to be parsed: `parse` runs on whichever thread claims the batch,
    /// which decodes each value as it comes. A value's failure carries its line (``Failure/place``),
    /// and a value missing at the key path is a failure with ``Failure/isMissing`` set; the
    /// failures' indices count from the run's start (the caller counts the values it receives).
    func submitLines(parse: @escaping ParseLines) {
        queuesRuns = true
        let batch = Batch(firstIndex: 0, capacity: 0)
        batch.parseLines = parse
        dispatch(batch)
    }

    /// Queues work whose result is one outcome, delivered in order with the others: a run of the
    /// split parse counted rather than decoded.
    func submitWork(_ work: @escaping () -> Result<Element, any Error>) {
        queuesRuns = true
        let batch = Batch(firstIndex: 0, capacity: 0)
        batch.work = work
        dispatch(batch)
    }

    /// Holds the place of an element the caller judges itself (a value missing at a key path): it
    /// is not decoded, and its outcome is a failure with an empty reason, for the caller to replace
    /// with its own, in order with the others.
    func submitPlaceholder(at index: Int) {
        enqueue(nil, at: index)
    }

    private func enqueue(_ element: JSONValue?, at index: Int) {
        if pending == nil { pending = Batch(firstIndex: index, capacity: batchSize) }
        pending!.inputs.append(element)
        if pending!.inputs.count == batchSize {
            let full = pending!
            pending = nil
            dispatch(full)
        }
    }

    private func dispatch(_ batch: Batch) {
        dispatchedCount += 1
        batches.append(batch)
        guard !cancelled.isSet else { return }
        if !threadsStarted {
            // On the first batch: an array too small to fill one never starts a thread.
            threadsStarted = true
            pool.start(threads: threadCount)
        }
        // The threads are behind: rather than parse further, this thread decodes the oldest.
        if let oldest = pool.add(batch, maximumWaiting: maximumWaiting), oldest.claim() {
            pool.run(oldest)
        }
    }

    /// Hands over, in document order, the outcomes of the batches finished so far (all of them,
    /// once the input has ended, when `untilAllDone`), and forgets them: what a stream delivers
    /// as it goes, in memory bounded by the batches in flight.
    /// - Throws: The first error a decode threw other than a validation failure, or what
    ///   `handle` throws; either way the remaining work is cancelled.
    /// - Parameters:
    ///   - untilAllDone: Whether to wait for every batch (the input has ended or paused).
    ///   - receiver: Takes each decoded element, moved or lent (see ``ValueReceiver``).
    ///   - failed: Takes each failure.
    func drain(
        untilAllDone: Bool, to receiver: ValueReceiver<Element>, failed: (Failure) throws -> Void = { _ in }
    ) throws {
        if untilAllDone, let last = pending {
            pending = nil
            dispatch(last)
        }
        if !untilAllDone {
            // Nothing new went out since the last look: what finished meanwhile goes out with the
            // next batch, or when the input pauses or ends (`untilAllDone`).
            guard dispatchedCount != dispatchedCountAtLastDrain else { return }
            dispatchedCountAtLastDrain = dispatchedCount
        }
        do {
            while let first = batches.first {
                if !first.done.isSet {
                    // Batches the parsing thread decoded itself queue behind a slow one: past the
                    // window, wait for it, so that what is held stays bounded.
                    guard untilAllDone || batches.count > (queuesRuns ? maximumQueuedRuns : maximumQueued) else {
                        return
                    }
                    finishBatch(first, helpingWithLater: queuesRuns)
                }
                batches.removeFirst()
                // The outcomes before an element that threw come first, as one thread delivers them.
                switch receiver {
                case .keeping(let keep): try first.outcomes.moveEach(to: keep, failed: failed)
                case .borrowing(let lend): try first.outcomes.lendEach(to: lend, failed: failed)
                }
                if let thread = first.decodedBy { pool.discard(first.outcomes, decodedBy: thread) }
                if let error = first.error { throw error }
            }
        } catch {
            cancel()
            throw error
        }
    }

    /// Waits for every element and returns them in order with the failures in order; rethrows the
    /// first other error (in document order) a decode threw.
    func finish() throws -> (elements: [Element], failures: [Failure]) {
        if let last = pending {
            pending = nil
            dispatch(last)
        }
        // A batch skipped after a later batch's error may hold an earlier error: decode it now.
        for batch in batches { finishBatch(batch) }
        pool.closeAndJoin()
        // Forgotten before any is taken: outcomes are taken once, even when one holds an error.
        let finished = batches
        batches = []
        var elements: [Element] = []
        elements.reserveCapacity(finished.reduce(0) { $0 + $1.outcomes.count })
        var failures: [Failure] = []
        for batch in finished {
            if let error = batch.error { throw error }
            batch.outcomes.moveEach(to: { elements.append($0) }, failed: { failures.append($0) })
        }
        return (elements, failures)
    }

    /// Decodes every element queued so far and rethrows the first error (in document order) a
    /// decode threw, as ``finish()`` does, but keeps the outcomes for ``finish()``: for a caller
    /// that must know whether this array threw before it looks at another (or drops this one).
    /// - Parameter ending: The error a failed element ends the decoding with, or nil for one that
    ///   is only recorded: a failure that ends it is the first error when it comes first.
    func throwFirstError(ending: (Failure) -> (any Error)? = { _ in nil }) throws {
        if let last = pending {
            pending = nil
            dispatch(last)
        }
        for batch in batches { finishBatch(batch) }
        for batch in batches {
            for failure in batch.outcomes.failedOutcomes {
                if let error = ending(failure) { throw error }
            }
            if let error = batch.error { throw error }
        }
    }

    /// Makes sure `batch` is decoded: here, if no one took it, otherwise by waiting for it.
    /// - Parameter helpingWithLater: Whether to decode later batches no one took meanwhile rather
    ///   than wait: a run of the split parse takes long, and this thread would idle for it.
    private func finishBatch(_ batch: Batch, helpingWithLater: Bool = false) {
        if batch.claim() { return pool.run(batch) }
        if helpingWithLater {
            for later in batches where !batch.done.isSet && later !== batch && later.claim() {
                pool.run(later)
            }
        }
        batch.done.wait()
    }

    /// Stops handing out work and waits for the workers to finish what they started.
    func cancel() {
        cancelled.set()
        pending = nil
        pool.closeAndJoin()
        batches = []
    }

    deinit {
        // Never leave a thread running past the decoder's owner.
        cancelled.set()
        pool.closeAndJoin()
    }
}

/// One element that failed validation in a ``ParallelElementDecoder``. Not nested in that generic
/// class: a nested type's metadata is looked up at run time wherever it is used in unspecialized
/// code, which is every element.
struct FailedElement {
    var index: Int
    var reason: String
    /// Its structured failures, when this library raised them.
    var nested: [ValidationFailure]?
    /// A Codable element's error (see ``DecodingFailure``).
    var decodingError: DecodingError?
    /// A value of a run of lines (see ``ParallelElementDecoder/submitLines(parse:)``): its line,
    /// and whether nothing was found to decode (at the key path inside it), for the caller to name.
    var place: Int? = nil
    var isMissing = false
}

/// A flag set once, read and waited for from other threads.
final class ManagedFlag: @unchecked Sendable {
    private let condition = NSCondition()
    private var value = false

    var isSet: Bool { condition.withLock { value } }

    func set() {
        condition.withLock {
            value = true
            condition.broadcast()
        }
    }

    /// Sets the flag; false if it was set already.
    func setIfUnset() -> Bool {
        condition.withLock {
            if value { return false }
            value = true
            condition.broadcast()
            return true
        }
    }

    /// Blocks until the flag is set.
    func wait() {
        condition.withLock {
            while !value { condition.wait() }
        }
    }
}
