#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Duplicate keys: the last occurrence of a key replaces the earlier ones whole. The check runs once,
/// when an object ends, and marks every earlier occurrence shadowed so that readers skip it; an object
/// whose keys all matched a duplicate-free sibling's never gets here.
extension JSONTapeBuilder {
    /// The pairwise comparison is cheaper than hashing up to this many keys.
    private static let pairwiseLimit = 12

    /// Marks the earlier occurrences of repeated keys in the object at `start` and returns how many it
    /// marked.
    func shadowDuplicates(objectAt start: Int, keyCount: Int) -> Int {
        let tape = self.tape
        if keyCount <= Self.pairwiseLimit {
            return withUnsafeTemporaryAllocation(of: PairwiseKey.self, capacity: keyCount) { keys in
                var position = start + 1
                for ordinal in 0..<keyCount {
                    let key = PairwiseKey(index: position, signature: signature(ofKeyAt: position, tape))
                    keys.initializeElement(at: ordinal, to: key)
                    position = tapeEnd(of: position + 1)
                }
                // Signatures first (equal keys have equal ones): distinct keys, nearly every pair,
                // cost one comparison instead of a look at their bytes.
                var shadowed = 0
                for later in 1..<keyCount {
                    for earlier in 0..<later
                    where keys[earlier].signature == keys[later].signature
                        && keysEqual(keys[earlier].index, keys[later].index, tape)
                    {
                        if !tape.isShadowed(keys[earlier].index) {
                            tape.words[keys[earlier].index] |= JSONTape.shadowedFlag
                            shadowed += 1
                        }
                    }
                }
                return shadowed
            }
        }
        // The key indices, in order.
        scratch.removeAll(keepingCapacity: true)
        var position = start + 1
        for _ in 0..<keyCount {
            scratch.append(position)
            position = tapeEnd(of: position + 1)
        }
        var shadowed = 0
        // Open addressing over the key ordinals, later keys first: a key that finds its equal already
        // in the table is an earlier occurrence.
        var capacity = 16
        while capacity < keyCount * 2 { capacity <<= 1 }
        let tableBase = scratch.count
        scratch.append(contentsOf: repeatElement(-1, count: capacity))
        let mask = capacity - 1
        for step in 0..<keyCount {
            let ordinal = keyCount - 1 - step
            let index = scratch[ordinal]
            var slot = Int(truncatingIfNeeded: hash(ofKeyAt: index, tape)) & mask
            while true {
                let occupant = scratch[tableBase + slot]
                if occupant < 0 {
                    scratch[tableBase + slot] = ordinal
                    break
                }
                if keysEqual(index, scratch[occupant], tape) {
                    tape.words[index] |= JSONTape.shadowedFlag
                    shadowed += 1
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return shadowed
    }

    private func keysEqual(_ first: Int, _ second: Int, _ tape: JSONTape) -> Bool {
        let a = tape.words[first] & ~JSONTape.shadowedFlag
        let b = tape.words[second] & ~JSONTape.shadowedFlag
        if a == b { return true }
        // Inline keys are equal exactly when their words are; arena keys compare their bytes.
        guard JSONTape.kind(of: a) == .key, JSONTape.kind(of: b) == .key else { return false }
        let x = tape.arenaText(a)
        let y = tape.arenaText(b)
        return x.count == y.count && JSONTape.bytesEqual(x.baseAddress!, y.baseAddress!, count: x.count)
    }

    /// A key of an object small enough to compare pairwise: where it is, and its signature.
    private struct PairwiseKey {
        var index: Int
        var signature: UInt64
    }

    /// The key's word when it is inline; otherwise its length and first eight bytes.
    @inline(__always)
    private func signature(ofKeyAt index: Int, _ tape: JSONTape) -> UInt64 {
        let word = tape.words[index] & ~JSONTape.shadowedFlag
        if JSONTape.kind(of: word) == .inlineKey { return word }
        let text = tape.arenaText(word)
        var head: UInt64 = 0
        if text.count >= 8 {
            head = text.loadUnaligned(as: UInt64.self)
        } else {
            for offset in 0..<text.count { head |= UInt64(text[offset]) << (8 * UInt64(offset)) }
        }
        // Inline keys have a kind nibble above their bytes; this value never does.
        return (head ^ UInt64(text.count) &* 0x9E37_79B9_7F4A_7C15) & ~(0xF << 60)
    }

    /// The key's hash for the open-addressing table of a large object: the standard library's
    /// `Hasher`, seeded at random per process. A fixed mixing function let a document choose keys
    /// that all land in one run of the table, turning the check of one object of n keys into n²/2
    /// comparisons (a few megabytes of JSON for minutes of work); only objects of more than
    /// ``pairwiseLimit`` keys get here, where the hash's cost is small against the rest.
    private func hash(ofKeyAt index: Int, _ tape: JSONTape) -> UInt64 {
        let word = tape.words[index] & ~JSONTape.shadowedFlag
        var hasher = Hasher()
        if JSONTape.kind(of: word) == .inlineKey {
            hasher.combine(word)
        } else {
            hasher.combine(bytes: tape.arenaText(word))
        }
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }
}
