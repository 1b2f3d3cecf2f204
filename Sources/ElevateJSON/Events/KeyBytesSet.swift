#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A set of keys, kept as their bytes one after another in one buffer: for the keys of an object
/// that must all be remembered, to reject a repeated one (``DuplicateKeyTracker``) or to count the
/// object's distinct members (`KeyPathSelector`).
///
/// A key costs its bytes, its start (8 bytes), its hash (4 bytes) and two slots of the table
/// (4 bytes each, the table at most half full): 28 bytes for an 8-byte key, where a
/// `Set<[UInt8]>` took about 63 (an array object per key). Keys are equal when their bytes are,
/// as the tape's duplicate check has it. Hashing uses the standard library's `Hasher`, seeded per
/// process, so that a document cannot choose keys that all collide; each key is hashed once, and
/// the table grows from the hashes kept (hashing every key again at each growth was half of the
/// set's cost, a fifth of counting an object of 578,550 members).
struct KeyBytesSet {
    /// The keys' bytes, one after another.
    private var bytes: [UInt8] = []
    /// Where each key starts in `bytes`, and one more entry for where the last ends.
    private var starts: [Int] = [0]
    /// Each key's hash (its low 32 bits: the table never has more than 2^32 slots).
    private var hashes: [UInt32] = []
    /// Open addressing: the ordinal of the key in each slot, or -1.
    private var slots: [Int32] = []

    /// The number of keys.
    var count: Int { starts.count - 1 }

    /// Adds `key`; false when the set already had it.
    mutating func insert(_ key: UnsafeRawBufferPointer) -> Bool {
        insert(key, hash: Self.hash(key))
    }

    /// Adds the keys of `other`, by the hashes it kept: the keys of an object counted in runs,
    /// each run's set made (and its keys hashed) on a worker.
    mutating func formUnion(_ other: KeyBytesSet) {
        other.bytes.withUnsafeBytes { stored in
            for ordinal in 0..<other.count {
                let start = other.starts[ordinal]
                let key = UnsafeRawBufferPointer(rebasing: stored[start..<other.starts[ordinal + 1]])
                _ = insert(key, hash: other.hashes[ordinal])
            }
        }
    }

    private mutating func insert(_ key: UnsafeRawBufferPointer, hash: UInt32) -> Bool {
        if count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let ordinal = Int(slots[slot])
            if ordinal < 0 { break }
            if hashes[ordinal] == hash, equals(ordinal, key) { return false }
            slot = (slot + 1) & mask
        }
        // A set of more than 2^31 keys would need more than 56 GiB: Int32 ordinals are enough.
        slots[slot] = Int32(truncatingIfNeeded: count)
        hashes.append(hash)
        bytes.append(contentsOf: key)
        starts.append(bytes.count)
        return true
    }

    /// Empties the set, keeping its buffers when they are small.
    mutating func removeAll() {
        let keeps = bytes.count < 1 << 16 && slots.count <= 1 << 12
        bytes.removeAll(keepingCapacity: keeps)
        hashes.removeAll(keepingCapacity: keeps)
        starts.removeAll(keepingCapacity: keeps)
        starts.append(0)
        if keeps {
            for index in slots.indices { slots[index] = -1 }
        } else {
            slots = []
        }
    }

    private func equals(_ ordinal: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = starts[ordinal]
        guard starts[ordinal + 1] - start == key.count else { return false }
        return bytes.withUnsafeBytes { stored in
            key.count == 0 || memcmp(stored.baseAddress! + start, key.baseAddress!, key.count) == 0
        }
    }

    /// Doubles the table (16 slots at first) and places every key again, by its kept hash.
    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for ordinal in 0..<count {
            var slot = Int(hashes[ordinal]) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: ordinal)
        }
    }

    private static func hash(_ key: UnsafeRawBufferPointer) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(bytes: key)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }
}
