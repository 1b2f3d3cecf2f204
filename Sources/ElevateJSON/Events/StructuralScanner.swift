import CWideScans

#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// A structural pre-scan of JSON text, sixty-four bytes at a time: where strings are (quotes and
/// backslash escapes) and, outside them, brackets, braces and commas, with the nesting depth and
/// the lines on the way. It reads no value and checks nothing: it only finds where a parser
/// could be started again, so that the parse of one document can be shared by several threads
/// (see `SplitArrayReader`). On valid JSON its strings, depths and commas are exactly the
/// parser's; on invalid JSON they may not be, and the parses it starts then find the error.
///
/// The string mask is the prefix XOR of the unescaped quotes; a quote is escaped when an odd run
/// of backslashes ends just before it. Both are computed for the whole block with word
/// arithmetic (the technique of simdjson's stage 1), so the cost does not depend on how many
/// strings there are; only the structural bytes outside strings are visited one by one.
package struct StructuralScanner {
    /// Where a scan stopped.
    package enum Stop: Equatable {
        /// Every byte was read.
        case end
        /// At this offset of the buffer: an opening bracket (``Mode/findArrayStart``,
        /// ``Mode/findLongContainer(within:objects:endDepth:)``), a comma at depth 1 at or past the
        /// cut offset, or the bracket or brace that closed depth 1 (or the end depth).
        case at(Int)
    }

    /// What a scan stops at.
    package enum Mode {
        /// Each `[` outside strings.
        case findArrayStart
        /// The `[` (with `objects`, the `[` or `{`) of the first container (outside strings, at
        /// any depth, not inside an earlier one) that its own closing bracket does not close
        /// within `within` bytes after it, nor before the bytes end: the containers long enough
        /// to share, past those the stream's parser reads whole. With an `endDepth` (relative to
        /// where the scan begins, 0 or below), it stops first at a comma at that depth or at a
        /// bracket that closes it: the end of an element being read (see `SplitArrayReader`).
        case findLongContainer(within: Int, objects: Bool, endDepth: Int? = nil)
        /// A comma at depth 1 at or past an offset, or the end of depth 1.
        case splitArray(cutFrom: Int)
        /// The bracket or brace that ends a top-level value of concatenated JSON (depth 1 back
        /// to 0, the scan starting at depth 0) at or past an offset. One that would take the
        /// depth below 0 (invalid text) ends a value too, at depth 0.
        case splitValues(cutFrom: Int)

        /// The depth from which a block whose closing brackets all come first still never reaches a
        /// stop (nil: every structural byte is looked at).
        var lowestDepthSkipped: Int? {
            switch self {
            case .findArrayStart, .findLongContainer: nil
            case .splitArray: 2
            case .splitValues: 1
            }
        }
    }

    /// The nesting depth, relative to where the scan began (an array's content starts at 1).
    package var depth = 1
    /// Commas at depth 1 seen so far, and the offset of the last (in the callers' numbering, see
    /// ``scan(_:from:base:mode:)``), -1 before the first.
    var topLevelCommas = 0
    var lastTopLevelComma = -1
    /// ``Mode/splitValues(cutFrom:)``: the offset just past the last bracket or brace that ended
    /// a top-level value (in the callers' numbering), 0 before the first.
    var lastValueEnd = 0
    /// Newlines seen so far, and the offset (in the scanned buffers' own numbering, see
    /// ``scan(_:from:base:mode:)``) just after the last one.
    package var newlines = 0
    var lastLineStart = 0

    /// All ones while the previous block ended inside a string.
    private var inStringCarry: UInt64 = 0
    /// 1 when the previous block ended with an odd run of backslashes, escaping the next byte.
    private var escapeCarry: UInt64 = 0

    /// Whether the split modes may run the AVX2 scan of `CWideScans` when the processor has
    /// it (the same algorithm, several times fewer instructions per block; false in tests of this
    /// portable one).
    package var allowsWideScan = true

    package init() {}

    /// Whether a scan of `bytes` from `start` would stop within `length` bytes, in `mode`: a look
    /// ahead on a copy, this scanner unmoved (the split parse resumes after a long value only
    /// where the next one is short).
    /// - Parameter base: As in ``scan(_:from:base:mode:)``.
    package func stops(in bytes: UnsafeRawBufferPointer, from start: Int, within length: Int, base: Int, mode: Mode)
        -> Bool
    {
        let end = min(bytes.count, start + length)
        guard start < end else { return false }
        var probe = self
        return probe.scan(UnsafeRawBufferPointer(rebasing: bytes[..<end]), from: start, base: base, mode: mode) != .end
    }

    /// Scans `bytes[from...]` until `mode` says stop or the bytes end.
    /// - Parameter base: The offset of `bytes[0]` in the caller's numbering (for ``lastLineStart``).
    /// - Returns: Where it stopped; the state is then that of the byte just after the stop (a stop
    ///   is always outside a string and after no backslash, so a scan can begin again there).
    package mutating func scan(_ bytes: UnsafeRawBufferPointer, from start: Int, base: Int, mode: Mode) -> Stop {
        guard let pointer = bytes.baseAddress else { return .end }
        if allowsWideScan, WideScans.areAvailable {
            switch mode {
            case .splitArray(let cutFrom):
                return scanWide(pointer, count: bytes.count, from: start, base: base, cutFrom: cutFrom, values: false)
            case .splitValues(let cutFrom):
                return scanWide(pointer, count: bytes.count, from: start, base: base, cutFrom: cutFrom, values: true)
            case .findLongContainer(let within, let objects, let endDepth):
                return scanLongContainerWide(
                    pointer, count: bytes.count, from: start, base: base, within: within, objects: objects,
                    endDepth: endDepth)
            case .findArrayStart:
                break
            }
        }
        if case .findLongContainer(let within, let objects, let endDepth) = mode {
            return scanLongContainer(
                bytes, from: start, base: base, within: within, objects: objects, endDepth: endDepth)
        }
        var blockStart = start
        let count = bytes.count
        while blockStart < count {
            let masks = BlockMasks(of: bytes, at: blockStart)
            let inString = stringMask(
                quotes: masks.quotes, backslashes: masks.backslashes, lastBit: min(63, count - blockStart - 1))
            if let lowestSkipped = mode.lowestDepthSkipped {
                // Most blocks lie inside an element (a value), where no bracket closes depth 1
                // (ends the value) and no comma is at depth 1: their brackets only move the depth,
                // counted a block at a time.
                let closes = (masks.closes & ~inString).nonzeroBitCount
                if depth - closes >= lowestSkipped {
                    depth += (masks.brackets & ~inString).nonzeroBitCount - 2 &* closes
                    countLines(masks.newlines, blockStart: blockStart, base: base)
                    blockStart += 64
                    continue
                }
            }
            var structural = (masks.brackets | masks.commas) & ~inString
            while structural != 0 {
                let bit = structural.trailingZeroBitCount
                structural &= structural &- 1
                let offset = blockStart + bit
                let byte = pointer.load(fromByteOffset: offset, as: UInt8.self)
                switch mode {
                case .findArrayStart:
                    guard byte == UInt8(ascii: "[") else { continue }
                    stop(at: bit, masks: masks, blockStart: blockStart, base: base)
                    return .at(offset)
                case .findLongContainer:
                    preconditionFailure("scanned by scanLongContainer")
                case .splitArray(let cutFrom):
                    if byte == UInt8(ascii: ",") {
                        guard depth == 1 else { continue }
                        topLevelCommas += 1
                        lastTopLevelComma = base + offset
                        guard offset >= cutFrom else { continue }
                    } else if byte | 0x20 == UInt8(ascii: "{") {  // `[` or `{`
                        depth += 1
                        continue
                    } else {
                        depth -= 1
                        guard depth == 0 else { continue }
                    }
                    stop(at: bit, masks: masks, blockStart: blockStart, base: base)
                    return .at(offset)
                case .splitValues(let cutFrom):
                    if byte | 0x20 == UInt8(ascii: "{") {  // `[` or `{`
                        depth += 1
                        continue
                    }
                    // A comma outside every value is the parser's error to find.
                    guard byte != UInt8(ascii: ",") else { continue }
                    depth -= 1
                    guard depth <= 0 else { continue }
                    depth = 0
                    lastValueEnd = base + offset + 1
                    guard offset >= cutFrom else { continue }
                    stop(at: bit, masks: masks, blockStart: blockStart, base: base)
                    return .at(offset)
                }
            }
            countLines(masks.newlines, blockStart: blockStart, base: base)
            blockStart += 64
        }
        return .end
    }

    /// ``Mode/findLongContainer(within:objects:endDepth:)``, portably: one pass that keeps the outermost
    /// candidate open and gives it up when its closing bracket comes in time, rather than a probe
    /// of every container found (a document of many short arrays paid two scans' set-up for each).
    private mutating func scanLongContainer(
        _ bytes: UnsafeRawBufferPointer, from start: Int, base: Int, within: Int, objects: Bool, endDepth: Int?
    ) -> Stop {
        guard let pointer = bytes.baseAddress else { return .end }
        /// The outermost open candidate: its opening byte, the depth before it, where its closing
        /// byte (`]` or `}`) must come by, and the scanner's state just after it.
        var open: (offset: Int, depth: Int, limit: Int, closing: UInt8, atOpen: StructuralScanner)?
        var depth = 0
        var blockStart = start
        let count = bytes.count
        while blockStart < count {
            let masks = BlockMasks(of: bytes, at: blockStart)
            let inString = stringMask(
                quotes: masks.quotes, backslashes: masks.backslashes, lastBit: min(63, count - blockStart - 1))
            var structural = (endDepth == nil ? masks.brackets : masks.brackets | masks.commas) & ~inString
            while structural != 0 {
                let bit = structural.trailingZeroBitCount
                structural &= structural &- 1
                let offset = blockStart + bit
                if let candidate = open, offset >= candidate.limit { return found(candidate.offset, candidate.atOpen) }
                let byte = pointer.load(fromByteOffset: offset, as: UInt8.self)
                // The end: a comma at the end depth, or a bracket that closes it. No candidate is
                // open there (one opens at the end depth or deeper, and the depth stays deeper).
                var ends = false
                if byte == UInt8(ascii: ",") {
                    guard depth == endDepth else { continue }
                    ends = true
                } else if byte | 0x20 == UInt8(ascii: "{") {  // `[` or `{`
                    if byte == UInt8(ascii: "[") || objects, open == nil {
                        var atOpen = self
                        atOpen.stop(at: bit, masks: masks, blockStart: blockStart, base: base)
                        open = (offset, depth, offset + 1 + within, byte &+ 2, atOpen)  // `]` or `}`
                    }
                    depth += 1
                } else {
                    depth -= 1
                    if let candidate = open, depth == candidate.depth {
                        // Closed in time by its own bracket: short. Another is the parser's error.
                        guard byte == candidate.closing else { return found(candidate.offset, candidate.atOpen) }
                        open = nil
                    } else if let endDepth, depth < endDepth {
                        ends = true
                    }
                }
                if ends {
                    stop(at: bit, masks: masks, blockStart: blockStart, base: base)
                    return .at(offset)
                }
            }
            countLines(masks.newlines, blockStart: blockStart, base: base)
            if let candidate = open, blockStart + 64 >= candidate.limit {
                return found(candidate.offset, candidate.atOpen)
            }
            blockStart += 64
        }
        guard let candidate = open else { return .end }
        return found(candidate.offset, candidate.atOpen)
    }

    /// The stop at the `[` or `{` at `offset`, with the state just after it.
    private mutating func found(_ offset: Int, _ atOpen: StructuralScanner) -> Stop {
        self = atOpen
        return .at(offset)
    }

    /// ``Mode/findLongContainer(within:objects:endDepth:)`` in C with AVX2 (see `CWideScans.h`),
    /// on this scanner's state.
    private mutating func scanLongContainerWide(
        _ pointer: UnsafeRawPointer, count: Int, from start: Int, base: Int, within: Int, objects: Bool, endDepth: Int?
    ) -> Stop {
        withWideState { state in
            elevate_scan_long_container_wide(
                state, pointer.assumingMemoryBound(to: UInt8.self), Int64(count), Int64(start), Int64(base),
                Int64(within), objects ? 1 : 0, endDepth == nil ? 0 : 1, Int64(endDepth ?? 0))
        }
    }

    /// A split mode in C with AVX2 (see `CWideScans.h`), on this scanner's state.
    /// - Parameter values: Whether the mode is ``Mode/splitValues(cutFrom:)`` rather than
    ///   ``Mode/splitArray(cutFrom:)``.
    private mutating func scanWide(
        _ pointer: UnsafeRawPointer, count: Int, from start: Int, base: Int, cutFrom: Int, values: Bool
    ) -> Stop {
        withWideState { state in
            elevate_scan_split_wide(
                state, pointer.assumingMemoryBound(to: UInt8.self), Int64(count), Int64(start), Int64(base),
                Int64(cutFrom), values ? 1 : 0)
        }
    }

    /// Runs `scan`, a C scan, on this scanner's state as the C scans take it, and takes the state
    /// back; the scan returns the offset where it stopped, or -1 when it read every byte.
    private mutating func withWideState(_ scan: (UnsafeMutablePointer<elevate_scan_state>) -> Int64) -> Stop {
        var state = elevate_scan_state(
            depth: Int64(depth), top_level_commas: Int64(topLevelCommas),
            last_top_level_comma: Int64(lastTopLevelComma), newlines: Int64(newlines),
            last_line_start: Int64(lastLineStart), in_string_carry: inStringCarry, escape_carry: escapeCarry,
            last_value_end: Int64(lastValueEnd))
        let stop = scan(&state)
        depth = Int(state.depth)
        topLevelCommas = Int(state.top_level_commas)
        lastTopLevelComma = Int(state.last_top_level_comma)
        newlines = Int(state.newlines)
        lastLineStart = Int(state.last_line_start)
        inStringCarry = state.in_string_carry
        escapeCarry = state.escape_carry
        lastValueEnd = Int(state.last_value_end)
        return stop < 0 ? .end : .at(Int(stop))
    }

    /// The state just after the byte at `bit` of the block: outside a string, no escape pending,
    /// the lines before it counted.
    private mutating func stop(at bit: Int, masks: BlockMasks, blockStart: Int, base: Int) {
        inStringCarry = 0
        escapeCarry = 0
        countLines(masks.newlines & ((1 << bit) &- 1), blockStart: blockStart, base: base)
    }

    @inline(__always)
    private mutating func countLines(_ mask: UInt64, blockStart: Int, base: Int) {
        guard mask != 0 else { return }
        newlines += mask.nonzeroBitCount
        lastLineStart = base + blockStart + (63 - mask.leadingZeroBitCount) + 1
    }

    /// The bytes of the block inside a string (an opening quote included, the closing one not),
    /// carrying the string and escape state to the next block from bit `lastBit`, the block's last
    /// byte (a short block's padding would lose a trailing backslash's escape).
    @inline(__always)
    private mutating func stringMask(quotes: UInt64, backslashes: UInt64, lastBit: Int) -> UInt64 {
        var escaped: UInt64 = 0
        if backslashes | escapeCarry != 0 {
            // A backslash run starting on an even bit escapes the byte after it when it has odd
            // length; adding the run's starts to the odd bits carries through each run and lands
            // one past its end, on a bit whose parity tells the run's.
            let oddBits: UInt64 = 0xAAAA_AAAA_AAAA_AAAA
            let potential = backslashes & ~escapeCarry
            let maybeEscaped = potential << 1
            let seriesCodes = (maybeEscaped | oddBits) &- potential
            let escapeAndTerminal = seriesCodes ^ oddBits
            escaped = escapeAndTerminal ^ (backslashes | escapeCarry)
            escapeCarry = (escapeAndTerminal & backslashes) >> UInt64(lastBit) & 1
        }
        var inside = quotes & ~escaped
        inside ^= inside << 1
        inside ^= inside << 2
        inside ^= inside << 4
        inside ^= inside << 8
        inside ^= inside << 16
        inside ^= inside << 32
        inside ^= inStringCarry
        inStringCarry = UInt64(bitPattern: Int64(bitPattern: inside) >> 63)
        return inside
    }
}

/// One bit per byte of a 64-byte block, for each class of byte the scanner looks for.
private struct BlockMasks {
    var quotes: UInt64 = 0
    var backslashes: UInt64 = 0
    /// `[`, `]`, `{` and `}`.
    var brackets: UInt64 = 0
    /// `]` and `}`.
    var closes: UInt64 = 0
    var commas: UInt64 = 0
    var newlines: UInt64 = 0

    /// The masks of the 64-byte block of `bytes` at `blockStart`; the last, short block is padded
    /// with zero bytes, which classify as nothing.
    @inline(__always)
    init(of bytes: UnsafeRawBufferPointer, at blockStart: Int) {
        if blockStart + 64 <= bytes.count {
            self.init(bytes.baseAddress! + blockStart)
            return
        }
        var padded = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        self = withUnsafeMutableBytes(of: &padded) { block in
            block.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[blockStart...]))
            return BlockMasks(UnsafeRawPointer(block.baseAddress!))
        }
    }

    @inline(__always)
    private init(_ block: UnsafeRawPointer) {
        for lane in 0..<4 {
            let classes = Self.classify(block + lane * 16)
            quotes |= classes.quotes << (lane * 16)
            backslashes |= classes.backslashes << (lane * 16)
            brackets |= classes.brackets << (lane * 16)
            closes |= classes.closes << (lane * 16)
            commas |= classes.commas << (lane * 16)
            newlines |= classes.newlines << (lane * 16)
        }
    }

    #if arch(x86_64)
        /// SSE2: one compare per class and `pmovmskb` to gather the lanes' bits.
        @inline(__always)
        private static func classify(_ pointer: UnsafeRawPointer) -> (
            quotes: UInt64, backslashes: UInt64, brackets: UInt64, closes: UInt64, commas: UInt64, newlines: UInt64
        ) {
            let bytes = _mm_loadu_si128(pointer.assumingMemoryBound(to: __m128i.self))
            // `[` and `{`, `]` and `}` differ only in bit 0x20.
            let folded = _mm_or_si128(bytes, _mm_set1_epi8(0x20))
            let closes = _mm_cmpeq_epi8(folded, _mm_set1_epi8(0x7D))
            let brackets = _mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8(0x7B)), closes)
            return (
                bits(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x22))),
                bits(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x5C))),
                bits(brackets),
                bits(closes),
                bits(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x2C))),
                bits(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x0A)))
            )
        }

        @inline(__always)
        private static func bits(_ mask: __m128i) -> UInt64 {
            UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(mask)))
        }
    #else
        /// Portable SIMD: each lane's match becomes its bit's weight, and the weights of eight
        /// lanes are summed by one multiply (the weights are distinct bits, so nothing carries).
        @inline(__always)
        private static func classify(_ pointer: UnsafeRawPointer) -> (
            quotes: UInt64, backslashes: UInt64, brackets: UInt64, closes: UInt64, commas: UInt64, newlines: UInt64
        ) {
            let bytes = pointer.loadUnaligned(as: SIMD16<UInt8>.self)
            let folded = bytes | SIMD16(repeating: 0x20)
            let closes = folded .== SIMD16(repeating: 0x7D)
            return (
                bits(bytes .== SIMD16(repeating: 0x22)), bits(bytes .== SIMD16(repeating: 0x5C)),
                bits((folded .== SIMD16(repeating: 0x7B)) .| closes), bits(closes),
                bits(bytes .== SIMD16(repeating: 0x2C)), bits(bytes .== SIMD16(repeating: 0x0A))
            )
        }

        @inline(__always)
        private static func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
            let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
            let weighted = SIMD16<UInt8>(repeating: 0).replacing(with: weights, where: mask)
            let halves = unsafeBitCast(weighted, to: SIMD2<UInt64>.self)
            let low = (halves[0] &* 0x0101_0101_0101_0101) >> 56
            let high = (halves[1] &* 0x0101_0101_0101_0101) >> 56
            return low | high << 8
        }
    #endif
}
