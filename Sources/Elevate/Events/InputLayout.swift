/// One pass over each chunk before YAJL sees it: counts lines (YAJL reports neither line nor
/// column) and finds form feeds and vertical tabs, which YAJL wrongly accepts as whitespace.
struct InputLayout {
    /// Newlines before `limit`.
    var newlines = 0
    /// Offset just after the last newline before `limit`, if any.
    var lastLineStart: Int?
    /// Offset of the first `\f` or `\v`; the scan stops there.
    var firstInvalidWhitespace: Int?

    init(scanning bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        // Bytes below 0x0D are rare in JSON (only \t and \n are legal): skip a word at a time
        // while no byte is below 0x0D (the "has less than" bit trick, which may report false
        // positives but never misses); a word with a candidate is examined with exact masks.
        let threshold = SIMD16<UInt8>(repeating: 0x0D)
        while index + 16 <= count {
            let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            if !any(block .< threshold) {
                index += 16
                continue
            }
            for half in 0..<2 {
                let offset = index + half * 8
                // Little-endian order, so that bit positions map to byte offsets on every platform.
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let newlineMask = Self.bytesEqual(word, 0x0A)
                let invalidMask = Self.bytesEqual(word, 0x0B) | Self.bytesEqual(word, 0x0C)
                if invalidMask != 0 {
                    let position = invalidMask.trailingZeroBitCount / 8
                    record(newlineMask & ((1 << (position * 8)) &- 1), at: offset)
                    firstInvalidWhitespace = offset + position
                    return
                }
                record(newlineMask, at: offset)
            }
            index += 16
        }
        while index + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if (word &- Self.ones &* 0x0D) & ~word & Self.high != 0 {
                let newlineMask = Self.bytesEqual(word, 0x0A)
                let invalidMask = Self.bytesEqual(word, 0x0B) | Self.bytesEqual(word, 0x0C)
                if invalidMask != 0 {
                    // Count only the newlines before the first form feed or vertical tab.
                    let position = invalidMask.trailingZeroBitCount / 8
                    let before = newlineMask & ((1 << (position * 8)) &- 1)
                    record(before, at: index)
                    firstInvalidWhitespace = index + position
                    return
                }
                record(newlineMask, at: index)
            }
            index += 8
        }
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x0A {
                newlines += 1
                lastLineStart = index + 1
            } else if byte == 0x0B || byte == 0x0C {
                firstInvalidWhitespace = index
                return
            }
            index += 1
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let high: UInt64 = 0x8080_8080_8080_8080

    /// 0x80 in each byte of `word` equal to `byte`, 0 elsewhere, exactly (no borrow between bytes).
    @inline(__always)
    private static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((difference & low7) &+ low7) | difference | low7)
    }

    /// Adds the newlines marked in `mask` (0x80 per newline byte) of the word at `offset`.
    @inline(__always)
    private mutating func record(_ mask: UInt64, at offset: Int) {
        guard mask != 0 else { return }
        newlines += mask.nonzeroBitCount
        lastLineStart = offset + (63 - mask.leadingZeroBitCount) / 8 + 1
    }

    /// Counts newlines in `bytes[..<limit]` (used only when reporting an error).
    static func lines(in bytes: UnsafeRawBufferPointer, upTo limit: Int) -> (newlines: Int, lastLineStart: Int?) {
        var newlines = 0
        var lastLineStart: Int?
        for index in 0..<min(limit, bytes.count) where bytes[index] == 0x0A {
            newlines += 1
            lastLineStart = index + 1
        }
        return (newlines, lastLineStart)
    }
}
