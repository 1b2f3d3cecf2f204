import CWideScans

/// The newlines of some bytes, whatever else they hold: how many, and where the line after the
/// last one starts. A raw newline cannot occur inside a JSON value, so this is how JSON Lines is
/// cut into runs of whole lines (``LinesRunCutter``) and how an element's line is found
/// (``ElementStartFinder``). One AVX2 pass where the processor has it (`CWideScans`), a word at a
/// time elsewhere.
struct NewlineCount {
    /// How many `\n` bytes there are.
    private(set) var count = 0
    /// The offset just past the last `\n`; nil when there is none.
    private(set) var lastLineStart: Int?

    init(in bytes: UnsafeRawBufferPointer) {
        guard WideScans.areAvailable, let base = bytes.baseAddress else {
            self.init(portable: bytes)
            return
        }
        var last: Int64 = -1
        let count = elevate_count_newlines_wide(base.assumingMemoryBound(to: UInt8.self), Int64(bytes.count), &last)
        self.init(count: Int(count), lastLineStart: last >= 0 ? Int(last) + 1 : nil)
    }

    private init(count: Int, lastLineStart: Int?) {
        self.count = count
        self.lastLineStart = lastLineStart
    }

    /// The count a word at a time: what runs without AVX2, and what the wide pass is tested against.
    init(portable bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var index = 0
        while index &+ 8 <= bytes.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let found = InputLayout.bytesEqual(word, 0x0A)
            if found != 0 {
                count &+= found.nonzeroBitCount
                lastLineStart = index &+ (63 &- found.leadingZeroBitCount) / 8 &+ 1
            }
            index &+= 8
        }
        while index < bytes.count {
            if base.load(fromByteOffset: index, as: UInt8.self) == 0x0A {
                count &+= 1
                lastLineStart = index &+ 1
            }
            index &+= 1
        }
    }
}
