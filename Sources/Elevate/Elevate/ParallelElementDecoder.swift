import Dispatch
import Foundation

/// Decodes the elements of one array on worker threads while the calling thread parses, and
/// gives them back in document order, with the failures the sequential decoding would report.
///
/// The calling thread runs YAJL and cuts the array into elements, each on a tape of its own
/// (``JSONTapeBuilder`` starts a new tape while a view of the last one is still held). Elements
/// are grouped in batches, so that handing work over costs little next to decoding it; at most
/// two batches per worker are in flight, which bounds the memory held by elements not yet
/// decoded: when they are all taken, the parsing thread decodes the next batch itself.
/// Nothing runs after ``finish()`` or ``cancel()`` return.
///
/// The decode closure runs on several threads at once: the decodable types and decoders it calls
/// must be safe to use that way (a `Decoder` instance passed to `decodeArray(…, with:)` is shared
/// by all workers; `DateDecoder` and `StringToIntDecoder` are).
final class ParallelElementDecoder<Element>: @unchecked Sendable {
    /// One element that failed validation.
    struct Failure {
        var index: Int
        var reason: String
        /// Its structured failures, when this library raised them.
        var nested: [ValidationFailure]?
    }

    /// What became of one element.
    enum Outcome {
        case decoded(Element)
        case failed(Failure)
    }

    /// A run of consecutive elements, decoded by one worker.
    private final class Batch: @unchecked Sendable {
        let firstIndex: Int
        /// nil: a placeholder (see ``submitPlaceholder(at:)``).
        var inputs: [JSONValue?] = []
        // Written by the worker only, read by the caller once `done` is set (or the group is
        // waited on): the lock behind `done` orders the two.
        var outcomes: [Outcome] = []
        var error: (any Error)?
        let done = ManagedFlag()
        /// Set by whoever decodes the batch (a worker, or the calling thread), exactly once.
        private let claimed = ManagedFlag()

        /// Takes the batch for decoding; false if someone already has.
        func claim() -> Bool { claimed.setIfUnset() }

        init(firstIndex: Int, capacity: Int) {
            self.firstIndex = firstIndex
            inputs.reserveCapacity(capacity)
        }
    }

    private let decode: (JSONValue) throws -> Element
    private let batchSize: Int
    private let inFlight: DispatchSemaphore
    /// The most batches a stream holds undelivered before it waits for the oldest. Batches the
    /// parsing thread decodes itself queue behind the oldest worker batch; a window of a few
    /// (six for two workers) made the parsing thread wait for that batch often enough to cost a
    /// fifth of the parallel forEachElement's speed, so it is sixteen per worker: with 64 small
    /// elements per batch, still a few MiB at most.
    private let maximumQueued: Int
    private let group = DispatchGroup()
    private let queue = DispatchQueue(label: "Elevate.ParallelElementDecoder", attributes: .concurrent)
    /// Whether the caller asked for Foundation values (``withFoundationValues(_:)``), which is
    /// per thread: the workers are told.
    private let forcesFoundationValues: Bool
    private let cancelled = ManagedFlag()
    private var pending: Batch?
    private var batches: [Batch] = []

    /// - Parameters:
    ///   - workers: How many elements are decoded at once (at least 2; 1 is the sequential path).
    ///   - batchSize: Elements per work item.
    ///   - decode: Decodes one element; runs on worker threads.
    init(workers: Int, batchSize: Int = 64, decode: @escaping (JSONValue) throws -> Element) {
        self.decode = decode
        self.batchSize = batchSize
        // Two batches per worker: one being decoded, one ready.
        self.inFlight = DispatchSemaphore(value: max(2, workers * 2))
        self.maximumQueued = max(2, workers * 2) * 8
        self.forcesFoundationValues = DecodingThread.current.views.forcesFoundationValues
    }

    /// Queues the element at `index` (indices arrive in increasing order).
    func submit(_ element: JSONValue, at index: Int) {
        enqueue(element, at: index)
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
        batches.append(batch)
        if inFlight.wait(timeout: .now()) == .timedOut {
            // The workers are behind: rather than wait, the parsing thread decodes this batch.
            guard !cancelled.isSet, batch.claim() else { return }
            run(batch)
            return
        }
        group.enter()
        queue.async { [self] in
            defer {
                inFlight.signal()
                group.leave()
            }
            guard !cancelled.isSet, batch.claim() else { return }
            run(batch)
        }
    }

    private func run(_ batch: Batch) {
        defer { batch.done.set() }
        let views = DecodingThread.current.views
        let saved = views.forcesFoundationValues
        views.forcesFoundationValues = forcesFoundationValues
        defer { views.forcesFoundationValues = saved }
        batch.outcomes.reserveCapacity(batch.inputs.count)
        for offset in batch.inputs.indices {
            guard let input = batch.inputs[offset] else {
                batch.outcomes.append(.failed(Failure(index: batch.firstIndex + offset, reason: "", nested: nil)))
                continue
            }
            do {
                batch.outcomes.append(.decoded(try NestedFailures.decode { try decode(input) }))
            } catch ParserError.validation(let reason) {
                batch.outcomes.append(
                    .failed(
                        Failure(
                            index: batch.firstIndex + offset, reason: reason,
                            nested: NestedFailures.take(matching: reason))))
            } catch {
                // As in the sequential decoding, any other error ends everything.
                batch.error = error
                cancelled.set()
                break
            }
        }
        // The elements' tapes can go now.
        batch.inputs = []
    }

    /// Hands over, in document order, the outcomes of the batches finished so far (all of them,
    /// once the input has ended, when `untilAllDone`), and forgets them: what a stream delivers
    /// as it goes, in memory bounded by the batches in flight.
    /// - Throws: The first error a decode threw other than a validation failure, or what
    ///   `handle` throws; either way the remaining work is cancelled.
    func drain(untilAllDone: Bool, _ handle: (Outcome) throws -> Void) throws {
        if untilAllDone, let last = pending {
            pending = nil
            dispatch(last)
        }
        do {
            while let first = batches.first {
                if !first.done.isSet {
                    // Batches the parsing thread decoded itself queue behind a slow one: past the
                    // window, wait for it, so that what is held stays bounded.
                    guard untilAllDone || batches.count > maximumQueued else { return }
                    finishBatch(first)
                }
                batches.removeFirst()
                // The outcomes before an element that threw come first, as one thread delivers them.
                for outcome in first.outcomes { try handle(outcome) }
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
        group.wait()
        var elements: [Element] = []
        elements.reserveCapacity(batches.reduce(0) { $0 + $1.outcomes.count })
        var failures: [Failure] = []
        for batch in batches {
            if let error = batch.error { throw error }
            for outcome in batch.outcomes {
                switch outcome {
                case .decoded(let element): elements.append(element)
                case .failed(let failure): failures.append(failure)
                }
            }
        }
        batches = []
        return (elements, failures)
    }

    /// Makes sure `batch` is decoded: here, if no one took it, otherwise by waiting for it.
    private func finishBatch(_ batch: Batch) {
        if batch.claim() { run(batch) } else { batch.done.wait() }
    }

    /// Stops handing out work and waits for the workers to finish what they started.
    func cancel() {
        cancelled.set()
        pending = nil
        group.wait()
        batches = []
    }

    deinit {
        // Never leave a worker running past the decoder's owner.
        cancelled.set()
        group.wait()
    }
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
