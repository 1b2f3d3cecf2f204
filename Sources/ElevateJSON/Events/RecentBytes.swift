/// The last bytes of the input before the chunk being parsed, up to sixteen: where the excerpt of
/// an error at a chunk's start finds what came before it.
///
/// Two words rather than an array: every chunk updates it, and a line of JSON Lines is a chunk (its
/// closing space another), where appending to an array and removing its first bytes cost about 400
/// instructions a line.
struct RecentBytes {
    /// Bytes 0 to 7 and 8 to 15, the first in the lowest bits.
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    /// How many bytes are kept, at most 16.
    private(set) var count = 0

    /// Appends `bytes`, keeping the last sixteen.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 16 else {
            for byte in bytes { push(byte) }
            return
        }
        low = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 16, as: UInt64.self))
        high = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        count = 16
    }

    /// Appends `bytes` one at a time, keeping the last sixteen.
    mutating func append(contentsOf bytes: some Collection<UInt8>) {
        for byte in bytes.suffix(16) { push(byte) }
    }

    private mutating func push(_ byte: UInt8) {
        if count == 16 {
            low = low >> 8 | high << 56
            high = high >> 8 | UInt64(byte) << 56
        } else {
            if count < 8 { low |= UInt64(byte) << (8 * count) } else { high |= UInt64(byte) << (8 * (count - 8)) }
            count += 1
        }
    }

    /// The byte at `index`, counted from the oldest kept.
    /// - Precondition: `index` is below ``count``.
    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "a kept byte")
        return UInt8(truncatingIfNeeded: index < 8 ? low >> (8 * index) : high >> (8 * (index - 8)))
    }
}
