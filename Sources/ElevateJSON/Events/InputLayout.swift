import CWideScans

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
        // Sixty-four bytes at a time and with one branch per group when it holds no newline: newlines
        // are counted per lane (flushed before a lane can wrap) and only the last group holding one
        // is remembered; the loops leave at the first group holding a form feed or vertical tab,
        // which the exact word loop below then places.
        let newline = SIMD16<UInt8>(repeating: 0x0A)
        let verticalTab = SIMD16<UInt8>(repeating: 0x0B)
        let formFeed = SIMD16<UInt8>(repeating: 0x0C)
        let zero = SIMD16<UInt8>(repeating: 0)
        var laneCounts = zero
        var groupsInLanes = 0
        var lastNewlineEnd = -1
        while index + 64 <= count {
            let b0 = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let b1 = base.loadUnaligned(fromByteOffset: index + 16, as: SIMD16<UInt8>.self)
            let b2 = base.loadUnaligned(fromByteOffset: index + 32, as: SIMD16<UInt8>.self)
            let b3 = base.loadUnaligned(fromByteOffset: index + 48, as: SIMD16<UInt8>.self)
            // Most groups hold none of the three bytes looked for (minified JSON has no newline at
            // all): one range test per block finds them all.
            let r0 = Self.isNewlineOrInvalid(b0)
            let r1 = Self.isNewlineOrInvalid(b1)
            let r2 = Self.isNewlineOrInvalid(b2)
            let r3 = Self.isNewlineOrInvalid(b3)
            if !Self.isAnySet(r0 .| r1 .| r2 .| r3) {
                index &+= 64
                continue
            }
            let n0 = b0 .== newline
            let n1 = b1 .== newline
            let n2 = b2 .== newline
            let n3 = b3 .== newline
            // The newlines are among the lanes the range test found: the others are vertical tabs
            // and form feeds.
            if Self.isAnySet((r0 .^ n0) .| (r1 .^ n1) .| (r2 .^ n2) .| (r3 .^ n3)) { break }
            laneCounts &+= zero.replacing(with: 1, where: n0) &+ zero.replacing(with: 1, where: n1)
            laneCounts &+= zero.replacing(with: 1, where: n2) &+ zero.replacing(with: 1, where: n3)
            // The range test found something, and it was no vertical tab or form feed.
            lastNewlineEnd = index &+ 64
            groupsInLanes &+= 1
            if groupsInLanes == 63 {
                newlines &+= Self.sum(laneCounts)
                laneCounts = zero
                groupsInLanes = 0
            }
            index &+= 64
        }
        newlines &+= Self.sum(laneCounts)
        while index + 16 <= count {
            let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            if Self.isAnySet((block .== verticalTab) .| (block .== formFeed)) { break }
            let isNewline = block .== newline
            newlines &+= Self.sum(zero.replacing(with: 1, where: isNewline))
            lastNewlineEnd = Self.isAnySet(isNewline) ? index &+ 16 : lastNewlineEnd
            index &+= 16
        }
        if lastNewlineEnd >= 0 {
            lastLineStart = Self.lastNewline(base, before: lastNewlineEnd).map { $0 + 1 }
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

    /// The layout of `bytes` when they are plain text, strict UTF-8 with no form feed or vertical
    /// tab, as the event layer requires of every string and between tokens: found in one AVX2 pass
    /// (`CWideScans`) with the UTF-8 check, where ``init(scanning:)`` and
    /// `UTF8Validation.validPrefixLength` take two. Nil when the bytes are anything else (a
    /// character cut at the chunk's end included), or the processor lacks AVX2: the portable
    /// scans then find where.
    init?(plainText bytes: UnsafeRawBufferPointer) {
        guard WideScans.areAvailable, let base = bytes.baseAddress else { return nil }
        var newlines: Int64 = 0
        var lastNewline: Int64 = -1
        let isPlain = elevate_text_layout_wide(
            base.assumingMemoryBound(to: UInt8.self), Int64(bytes.count), &newlines, &lastNewline)
        guard isPlain != 0 else { return nil }
        self.newlines = Int(newlines)
        lastLineStart = lastNewline >= 0 ? Int(lastNewline) + 1 : nil
    }

    /// Whether `bytes` are plain text, as ``init(plainText:)`` finds, without counting their lines
    /// (a counted run needs none); nil when the processor lacks AVX2.
    static func isPlainText(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        guard WideScans.areAvailable else { return nil }
        guard let base = bytes.baseAddress else { return true }
        return elevate_text_is_plain_wide(base.assumingMemoryBound(to: UInt8.self), Int64(bytes.count)) != 0
    }

    /// Whether `bytes` hold a form feed or a vertical tab: the check of `init(scanning:)` alone,
    /// for text whose lines are not needed (a run of a split array, counted).
    static func containsInvalidWhitespace(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let verticalTab = SIMD16<UInt8>(repeating: 0x0B)
        let formFeed = SIMD16<UInt8>(repeating: 0x0C)
        var index = 0
        while index &+ 64 <= bytes.count {
            var found = SIMDMask<SIMD16<Int8>>(repeating: false)
            for lane in 0..<4 {
                let block = base.loadUnaligned(fromByteOffset: index &+ lane &* 16, as: SIMD16<UInt8>.self)
                found = found .| (block .== verticalTab) .| (block .== formFeed)
            }
            if isAnySet(found) { return true }
            index &+= 64
        }
        return bytes[index...].contains { $0 == 0x0B || $0 == 0x0C }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let high: UInt64 = 0x8080_8080_8080_8080

    /// 0x80 in each byte of `word` equal to `byte`, 0 elsewhere, exactly (no borrow between bytes).
    /// Also ``NewlineCount``'s portable count.
    @inline(__always)
    static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
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

    /// The sum of the lanes, each below 256.
    @inline(__always)
    private static func sum(_ lanes: SIMD16<UInt8>) -> Int {
        // Pairs of bytes summed as 16-bit words cannot carry into each other (2 × 255 < 2^16).
        let words = unsafeBitCast(lanes, to: SIMD8<UInt16>.self)
        let pairs = (words & 0x00FF) &+ (words &>> 8)
        return Int(pairs.wrappedSum())
    }

    /// The lanes holding 0x0A, 0x0B or 0x0C (a newline, a vertical tab, a form feed), with one
    /// add and one signed compare: the add moves exactly those three bytes to the three lowest
    /// signed values (0x80...0x82), wrapping every other byte above them.
    @inline(__always)
    private static func isNewlineOrInvalid(_ block: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        let shifted = unsafeBitCast(block &+ SIMD16(repeating: 0x80 - 0x0A), to: SIMD16<Int8>.self)
        return shifted .< SIMD16(repeating: Int8(bitPattern: 0x83))
    }

    /// Whether any lane of `mask` is set, without a reduction (which SSE2 lacks for bytes and
    /// which then became a call): the two halves of the mask as words.
    @inline(__always)
    private static func isAnySet(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// The offset of the last newline in the first `limit` bytes at `base`, read backwards a
    /// word at a time (called with the end of the last block known to hold one).
    private static func lastNewline(_ base: UnsafeRawPointer, before limit: Int) -> Int? {
        var end = limit
        while end >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
            let mask = bytesEqual(word, 0x0A)
            if mask != 0 { return end - 8 + (63 - mask.leadingZeroBitCount) / 8 }
            end -= 8
        }
        while end > 0 {
            end -= 1
            if base.load(fromByteOffset: end, as: UInt8.self) == 0x0A { return end }
        }
        return nil
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
