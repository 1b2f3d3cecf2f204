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
        // Bytes below 0x0D are rare in JSON (only \t and \n are legal): skip eight at a time
        // while no byte of the word is below 0x0D (the "has less than" bit trick).
        let ones: UInt64 = 0x0101_0101_0101_0101
        let below0D = ones &* 0x0D
        let high = ones &* 0x80
        while index < count {
            while index + 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if (word &- below0D) & ~word & high != 0 { break }
                index += 8
            }
            let end = min(index + 8, count)
            while index < end {
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
