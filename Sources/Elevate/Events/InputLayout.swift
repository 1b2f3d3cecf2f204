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
        // Bytes below 0x0D are rare in JSON (only \t and \n are legal); skip 16 at a time.
        let threshold = SIMD16<UInt8>(repeating: 0x0D)
        while index < count {
            while index + 16 <= count {
                let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                if any(block .< threshold) { break }
                index += 16
            }
            let end = min(index + 16, count)
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
