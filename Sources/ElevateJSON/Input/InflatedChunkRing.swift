import Foundation

/// The hand-off between the thread that inflates gzip input and the thread that parses it: a few
/// buffers of the chunk size, each held by one side at a time.
///
/// The inflating thread takes a free buffer, fills it, and publishes it; the parsing thread takes
/// published buffers in order, parses each, and gives it back. Neither side touches a buffer the
/// other holds, and a buffer changes hands only under the condition's lock, so the buffers need no
/// lock of their own; the lock guards the two queues and the ends. Each side waits on the
/// condition, never spins: the parser when nothing is published, the inflater when every buffer is
/// published or being parsed. Memory is the buffers, allocated once: however fast the inflater
/// runs ahead, it stops when they are all full.
final class InflatedChunkRing {
    /// A buffer published by the inflating thread.
    struct Filled {
        /// Which buffer of ``buffers``.
        let slot: Int
        /// How many bytes at its start are text.
        let count: Int
        /// The compressed bytes taken once it was filled, for progress.
        let compressedOffset: Int
    }

    /// The buffers, each of the chunk size.
    let buffers: [UnsafeMutableRawBufferPointer]

    private let condition = NSCondition()
    // Behind `condition`.
    private var free: [Int]
    private var published: [Filled] = []
    private var isInflatingDone = false
    private var inflatingError: (any Error)?
    private var isParsingStopped = false

    /// `count` buffers of `size` bytes.
    init(count: Int, size: Int) {
        buffers = (0..<count).map { _ in .allocate(byteCount: size, alignment: 16) }
        free = Array(buffers.indices)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    // MARK: The inflating thread

    /// A buffer to fill, when one is free; nil once the parsing thread has stopped.
    func takeFreeBuffer() -> Int? {
        condition.withLock {
            while free.isEmpty && !isParsingStopped { condition.wait() }
            return isParsingStopped ? nil : free.removeFirst()
        }
    }

    /// Hands a filled buffer to the parsing thread.
    func publish(_ filled: Filled) {
        condition.withLock {
            published.append(filled)
            condition.broadcast()
        }
    }

    /// Says that nothing more will be published, because the text ended (`error` nil) or because
    /// inflating failed: the parsing thread gets `error` after the buffers published before it.
    func finishInflating(with error: (any Error)?) {
        condition.withLock {
            isInflatingDone = true
            inflatingError = error
            condition.broadcast()
        }
    }

    // MARK: The parsing thread

    /// The next published buffer, in order; nil at the end of the text.
    /// - Throws: What ended the inflating, once every buffer published before it was taken.
    func takePublishedBuffer() throws -> Filled? {
        try condition.withLock {
            while published.isEmpty && !isInflatingDone { condition.wait() }
            if !published.isEmpty { return published.removeFirst() }
            if let inflatingError { throw inflatingError }
            return nil
        }
    }

    /// Gives a parsed buffer back to be filled again.
    func giveBack(_ slot: Int) {
        condition.withLock {
            free.append(slot)
            condition.broadcast()
        }
    }

    /// Says that the parsing thread takes nothing more (it stopped early or failed): the inflating
    /// thread stops at its next buffer.
    func stopParsing() {
        condition.withLock {
            isParsingStopped = true
            condition.broadcast()
        }
    }
}
