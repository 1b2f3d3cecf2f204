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
/// A key costs its bytes, its start (8 bytes) and two slots of the table (4 bytes each, the table
/// at most half full): 24 bytes for an 8-byte key, where a `Set<[UInt8]>` took about 63 (an array
/// object per key). Keys are equal when their bytes are, as the tape's duplicate check has it.
/// Hashing uses the standard library's `Hasher`, seeded per process, so that a document cannot
/// choose keys that all collide.
struct KeyBytesSet {
    /// The keys' bytes, one after another.
    private var bytes: [UInt8] = []
    /// Where each key starts in `bytes`, and one more entry for where the last ends.
    private var starts: [Int] = [0]
    /// Open addressing: the ordinal of the key in each slot, or -1.
    private var slots: [Int32] = []

    /// The number of keys.
    var count: Int { starts.count - 1 }

    /// Adds `key`; false when the set already had it.
    mutating func insert(_ key: UnsafeRawBufferPointer) -> Bool {
        if count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        while true {
            let ordinal = Int(slots[slot])
            if ordinal < 0 { break }
            if equals(ordinal, key) { return false }
            slot = (slot + 1) & mask
        }
        // A set of more than 2^31 keys would need more than 48 GiB: Int32 ordinals are enough.
        slots[slot] = Int32(truncatingIfNeeded: count)
        bytes.append(contentsOf: key)
        starts.append(bytes.count)
        return true
    }

    /// Empties the set, keeping its buffers when they are small.
    mutating func removeAll() {
        let keeps = bytes.count < 1 << 16 && slots.count <= 1 << 12
        bytes.removeAll(keepingCapacity: keeps)
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

    /// Doubles the table (16 slots at first) and places every key again.
    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        bytes.withUnsafeBytes { stored in
            for ordinal in 0..<count {
                let key = UnsafeRawBufferPointer(rebasing: stored[starts[ordinal]..<starts[ordinal + 1]])
                var slot = Self.hash(key) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(truncatingIfNeeded: ordinal)
            }
        }
    }

    private static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: key)
        return hasher.finalize()
    }
}
