import Foundation

/// Tapes handed back by the threads that decoded their values, for the thread that cuts the next
/// elements to write over instead of allocating new ones.
///
/// Parallel decoding gives every element a tape of its own (a builder cannot write over a tape a
/// worker may still read). Allocating and freeing those, three blocks each, and freeing them on
/// another thread than the one that allocated them, measured at about a quarter of the extra work
/// the parallel path does over the sequential one (14 M of 60 M instructions for `decodeArray` of
/// the 4 MB people document). A worker hands back the tapes of a batch once it
/// has decoded it and holds the only reference (a view a decoded value kept keeps its tape out);
/// the builder takes them all at once when it runs out. Both sides go through one lock, once per
/// batch, which also orders the worker's reads of a tape before the builder's writes over it.
package final class TapeRecycler: Sendable {
    private let kept = LockedBox([JSONTape]())
    /// The most tapes kept: what one window of batches in flight uses, so that a burst of large
    /// elements does not stay allocated.
    let capacity: Int

    /// - Parameter capacity: The most tapes kept waiting for reuse.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// The largest tape kept, in bytes of entries and arena together: the tape of a rare huge
    /// element is freed, not held for small ones.
    static var largestKeptBytes: Int { 1 << 20 }

    /// Keeps those of `tapes` that nothing else refers to and that are not larger than
    /// ``largestKeptBytes``, up to ``capacity``; empties `tapes`.
    func giveBack(_ tapes: inout [JSONTape]) {
        var unshared: [JSONTape] = []
        unshared.reserveCapacity(tapes.count)
        for index in tapes.indices where isKnownUniquelyReferenced(&tapes[index]) {
            let tape = tapes[index]
            if tape.wordCapacity * 8 + tape.byteCapacity <= Self.largestKeptBytes { unshared.append(tape) }
        }
        tapes.removeAll()
        guard !unshared.isEmpty else { return }
        kept.withLock { kept in
            let room = capacity - kept.count
            if room > 0 { kept.append(contentsOf: unshared.prefix(room)) }
        }
    }

    /// Moves every kept tape into `stash`.
    func takeAll(into stash: inout [JSONTape]) {
        kept.withLock { kept in
            stash.append(contentsOf: kept)
            kept.removeAll(keepingCapacity: true)
        }
    }
}
