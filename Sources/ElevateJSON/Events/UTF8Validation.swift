/// Checks that YAJL adds to its own: YAJL only checks UTF-8 byte *patterns*, so overlong forms,
/// encoded surrogates and code points above U+10FFFF reach the callbacks unless we look.
enum UTF8Validation {
    struct Result {
        /// Offset of the first invalid sequence, or nil when the text is valid.
        var invalidOffset: Int?
        /// Whether the text holds a supplementary-plane character (a 4-byte sequence), which a
        /// surrogate-pair escape would also produce.
        var hasFourByteSequence: Bool
    }

    static func validate(_ bytes: UnsafeRawBufferPointer) -> Result {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return Result(invalidOffset: nil, hasFourByteSequence: false) }
        if isASCII(base, count) { return Result(invalidOffset: nil, hasFourByteSequence: false) }
        return scan(base, count)
    }

    /// The sequence-by-sequence check, for text that is not all ASCII.
    @inline(never)
    private static func scan(_ base: UnsafeRawPointer, _ count: Int) -> Result {
        var index = 0
        var hasFourByte = false
        while index < count {
            // Skip ASCII eight bytes at a time: most JSON text is ASCII.
            while index + 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { break }
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                index += 1
                continue
            }
            let length = sequenceLength(base, at: index, count)
            guard length > 0 else { return Result(invalidOffset: index, hasFourByteSequence: hasFourByte) }
            if length == 4 { hasFourByte = true }
            index += length
        }
        return Result(invalidOffset: nil, hasFourByteSequence: hasFourByte)
    }

    /// The length of the longest prefix of `count` bytes at `base` that is valid UTF-8 and ends at
    /// a character boundary: it stops at the first invalid sequence, or at one the end cuts short.
    ///
    /// The event parser checks each chunk once with this, before YAJL reads it. Any string YAJL
    /// then finds whole inside that prefix is valid without another look: it lies between two
    /// quotes, and an ASCII byte is always a character of its own in valid UTF-8, so the text
    /// between them is made of complete, valid characters.
    static func validPrefixLength(_ base: UnsafeRawPointer, _ count: Int) -> Int {
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        // After a block failed, the characters are checked one by one to its end (see below).
        var blocksFrom = 0
        while true {
            // ASCII sixty-four bytes at a time, then eight: most JSON is ASCII.
            while index &+ 64 <= count {
                let lanes =
                    base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                    | base.loadUnaligned(fromByteOffset: index &+ 16, as: SIMD16<UInt8>.self)
                    | base.loadUnaligned(fromByteOffset: index &+ 32, as: SIMD16<UInt8>.self)
                    | base.loadUnaligned(fromByteOffset: index &+ 48, as: SIMD16<UInt8>.self)
                // The two halves as words: no lane reduction, which SSE2 lacks for bytes.
                let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
                if (words[0] | words[1]) & high != 0 { break }
                index &+= 64
            }
            // Then straight to the first byte at or above 0x80 (the lowest such byte of the word).
            var found = false
            while index &+ 8 <= count {
                let bits = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & high
                if bits != 0 {
                    index &+= UInt64(littleEndian: bits).trailingZeroBitCount &>> 3
                    found = true
                    break
                }
                index &+= 8
            }
            if !found {
                while index < count, base.load(fromByteOffset: index, as: UInt8.self) < 0x80 { index &+= 1 }
                guard index < count else { return count }
            }
            // Multi-byte characters come a few bytes apart (a Latin script's accented letters,
            // "Königstraße") or in runs (text in a non-Latin script). One at a time, then the next
            // word, is cheapest for the first; a run of twelve bytes or more goes on in blocks of
            // sixteen bytes, which check every rule at once without a branch per character (one per
            // character, on text of mixed lengths, is mispredicted about every other time).
            var runStart = index
            while true {
                let length = sequenceLength(base, at: index, count)
                if length == 0 { return index }
                index &+= length
                if index < count, base.load(fromByteOffset: index, as: UInt8.self) >= 0x80 {
                    if index &- runStart >= 12, index >= blocksFrom, index &+ 16 <= count {
                        let stop = checkBlocks(base, from: index, count)
                        // A failed block holds an invalid sequence, which may have begun up to three
                        // bytes before it: the characters from there are checked one at a time,
                        // which finds where it starts.
                        if stop.failed { blocksFrom = stop.index &+ 16 }
                        index = startOfCharacter(base, before: stop.index)
                        break
                    }
                    continue
                }
                guard index &+ 8 <= count else { break }
                let bits = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & high
                if bits == 0 {
                    index &+= 8
                    break
                }
                index &+= UInt64(littleEndian: bits).trailingZeroBitCount &>> 3
                runStart = index
            }
        }
    }

    /// Checks sixteen-byte blocks from `start` while they hold multi-byte text: each byte against
    /// the three before it, so that a character may cross from one block into the next.
    /// Returns where the blocks stopped, and whether because the block there is invalid.
    /// - Precondition: `start >= 3`, and the bytes before `start` are valid but for characters
    ///   that the bytes from `start` on complete.
    // Out of line: inlined, its vector registers made the character-by-character loop spill.
    @inline(never)
    private static func checkBlocks(_ base: UnsafeRawPointer, from start: Int, _ count: Int) -> (index: Int, failed: Bool)
    {
        typealias Bytes = SIMD16<UInt8>
        var index = start
        while index &+ 16 <= count {
            let current = base.loadUnaligned(fromByteOffset: index, as: Bytes.self)
            let previous1 = base.loadUnaligned(fromByteOffset: index &- 1, as: Bytes.self)
            let previous2 = base.loadUnaligned(fromByteOffset: index &- 2, as: Bytes.self)
            let previous3 = base.loadUnaligned(fromByteOffset: index &- 3, as: Bytes.self)
            // (Comparisons with vectors, not scalars: the scalar forms go lane by lane.)
            // A continuation byte exactly where a lead byte one, two or three back asks for one.
            let isContinuation = (current & Bytes(repeating: 0xC0)) .== Bytes(repeating: 0x80)
            let wantsContinuation =
                (previous1 .>= Bytes(repeating: 0xC0)) .| (previous2 .>= Bytes(repeating: 0xE0))
                .| (previous3 .>= Bytes(repeating: 0xF0))
            var invalid = isContinuation .^ wantsContinuation
            // Bytes that are never UTF-8: C0 and C1 (overlong), F5 and above (past U+10FFFF).
            invalid .|= (current .>= Bytes(repeating: 0xF5)) .| ((current & Bytes(repeating: 0xFE)) .== Bytes(repeating: 0xC0))
            // The four leads whose second byte has a narrower range (as in `sequenceLength`).
            invalid .|= ((previous1 .== Bytes(repeating: 0xE0)) .& (current .< Bytes(repeating: 0xA0)))
                .| ((previous1 .== Bytes(repeating: 0xED)) .& (current .> Bytes(repeating: 0x9F)))
            invalid .|= ((previous1 .== Bytes(repeating: 0xF0)) .& (current .< Bytes(repeating: 0x90)))
                .| ((previous1 .== Bytes(repeating: 0xF4)) .& (current .> Bytes(repeating: 0x8F)))
            let invalidWords = unsafeBitCast(invalid, to: SIMD2<UInt64>.self)
            if invalidWords[0] | invalidWords[1] != 0 { return (index, true) }
            index &+= 16
            let words = unsafeBitCast(current, to: SIMD2<UInt64>.self)
            // An ASCII block: the run is over, and no character is left open.
            if (words[0] | words[1]) & 0x8080_8080_8080_8080 == 0 { break }
        }
        return (index, false)
    }

    /// The first byte of the character that holds the byte before `index` (0 when `index` is 0).
    @inline(__always)
    private static func startOfCharacter(_ base: UnsafeRawPointer, before index: Int) -> Int {
        guard index > 0 else { return 0 }
        var position = index &- 1
        var steps = 0
        while steps < 3, position > 0, base.load(fromByteOffset: position, as: UInt8.self) & 0xC0 == 0x80 {
            position &-= 1
            steps &+= 1
        }
        return position
    }

    /// The length of the valid multi-byte sequence at `index` (whose lead byte is 0x80 or
    /// above), or 0 when it is invalid or runs past `count`.
    @inline(__always)
    private static func sequenceLength(_ base: UnsafeRawPointer, at index: Int, _ count: Int) -> Int {
        let lead = base.load(fromByteOffset: index, as: UInt8.self)
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0  // overlong below U+0800
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F  // U+D800...U+DFFF are surrogates
        case 0xF0: length = 4; lowerBound = 0x90  // overlong below U+10000
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F  // above U+10FFFF
        default: return 0
        }
        guard index &+ length <= count else { return 0 }
        let second = base.load(fromByteOffset: index &+ 1, as: UInt8.self)
        guard second >= lowerBound, second <= upperBound else { return 0 }
        var position = index &+ 2
        while position < index &+ length {
            guard base.load(fromByteOffset: position, as: UInt8.self) & 0xC0 == 0x80 else { return 0 }
            position &+= 1
        }
        return length
    }

    /// Copies `bytes` to `destination` and tells whether they may hold what YAJL makes of a bad
    /// `\u` surrogate escape: `?` (a lone high surrogate), a three-byte sequence led by 0xED (a
    /// lone low one, invalid UTF-8) or a four-byte sequence (a pair, or a high surrogate followed
    /// by another escape). Text decoded from a raw token that is valid UTF-8 holds nothing else
    /// that is not valid: YAJL copies the raw bytes between escapes, and every other escape
    /// becomes a valid character. A false alarm (a real `?`, a character from U+D000 to U+FFFF)
    /// only sends the text to the full check.
    ///
    /// One pass does both, eight bytes at a time: escaped text must be copied out of YAJL's buffer
    /// anyway, and most of it is short, for which a call to `memcpy` and a separate scan cost
    /// more than the copy itself.
    /// - Precondition: `destination` has room for `bytes.count` bytes and does not overlap them.
    @inline(__always)
    static func copyFindingSurrogateArtifacts(_ bytes: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer)
        -> Bool
    {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        guard count >= 8 else {
            var found = false
            for index in 0..<count {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                destination.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                found = found || byte == 0x3F || byte >= 0xED
            }
            return found
        }
        // Every word, without a branch per word, the last one overlapping the one before it.
        // The first word on its own: with the last, it covers most texts with no loop at all.
        let first = base.loadUnaligned(as: UInt64.self)
        destination.storeBytes(of: first, as: UInt64.self)
        var found = artifactBytes(first)
        var index = 8
        while index &+ 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            destination.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
            found |= artifactBytes(word)
            index &+= 8
        }
        let last = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        destination.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        found |= artifactBytes(last)
        return found != 0
    }

    /// 0x80 in each byte of `word` that is `?` or 0xED and above (0xEE and 0xEF, leads of
    /// U+E000 to U+FFFF, are false alarms: rare, and only sent to the full check).
    @inline(__always)
    private static func artifactBytes(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let high: UInt64 = 0x8080_8080_8080_8080
        // Exactly the bytes equal to `?`: no borrow crosses from one byte into the next.
        let difference = word ^ 0x3F3F_3F3F_3F3F_3F3F
        let isQuestionMark = ~(((difference & low7) &+ low7) | difference | low7)
        // A byte with its top bit set is 0xED or above when its low seven bits are 0x6D or above,
        // which adding 0x13 carries into its top bit (never past it: 0x7F + 0x13 < 0x100).
        let isHigh = ((word & low7) &+ 0x1313_1313_1313_1313) & word & high
        return isQuestionMark | isHigh
    }

    /// Whether every byte is below 0x80: the common case, answered with word-sized loads
    /// (overlapping at the end rather than falling back to single bytes).
    @inline(__always)
    static func isASCII(_ base: UnsafeRawPointer, _ count: Int) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            var bits: UInt64 = 0
            var index = 0
            while index + 8 <= count {
                bits |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            bits |= base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return bits & high == 0
        }
        if count >= 4 {
            let bits =
                base.loadUnaligned(as: UInt32.self) | base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return bits & 0x8080_8080 == 0
        }
        var bits: UInt8 = 0
        for index in 0..<count { bits |= base.load(fromByteOffset: index, as: UInt8.self) }
        return bits & 0x80 == 0
    }

    /// Checks the `\u` escapes of a raw string token (between its quotes) for unpaired surrogates,
    /// which YAJL would otherwise turn into `?` or a bogus code point.
    /// Returns the offset of the first bad escape.
    static func firstUnpairedSurrogateEscape(in raw: UnsafeRawBufferPointer) -> Int? {
        let count = raw.count
        var index = 0
        var pendingHigh: Int? = nil
        while index < count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < count else {
                if pendingHigh != nil { return pendingHigh }
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            guard escaped == UInt8(ascii: "u"), index + 5 < count else {
                if let high = pendingHigh { return high }
                index += 2
                continue
            }
            var unit: UInt16 = 0
            for offset in 2..<6 {
                unit = unit << 4 | UInt16(hexValue(raw[index + offset]))
            }
            switch unit {
            case 0xD800...0xDBFF:
                if let high = pendingHigh { return high }
                pendingHigh = index
            case 0xDC00...0xDFFF:
                if pendingHigh == nil { return index }
                pendingHigh = nil
            default:
                if let high = pendingHigh { return high }
            }
            index += 6
        }
        return pendingHigh
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return 0
        }
    }
}
