extension JSONEventParser {
    /// What lies between two tokens: whitespace, comments (when allowed) and the one separator
    /// the grammar allows there (`,` after a value inside a container, `:` after a key).
    ///
    /// Every token YAJL accepts produces an event, except `,`, `:` and comments. So the token
    /// YAJL is reading (to reject it, or to deliver it) is the first byte after the last event
    /// that is not whitespace, a comment, or the one separator allowed there: a second `,` is
    /// itself the offending token (`[1,,2]`), and so is a `,` where `:` belongs. This is how an
    /// error names the offending token's first byte exactly, whatever YAJL's own offset says
    /// and however the input was chunked. The scan is resumable, so that a gap spanning chunks
    /// is read once and nothing of it is kept.
    struct Gap {
        enum Comment { case none, slash, line, block, blockStar }

        /// The separator still allowed (`,` or `:`), or 0.
        var separator: UInt8 = 0
        var comment = Comment.none
        /// The absolute offset of the `/` that opened the current comment.
        var commentStart = 0
        /// Whether nothing at all was skipped: the next token touches the previous one.
        var isEmpty = true

        init() {}

        /// The gap after an event of kind `event`, at nesting `depth` after it.
        init(after event: UInt8, depth: Int) {
            switch event {
            case EventKind.key: separator = UInt8(ascii: ":")
            case EventKind.value, EventKind.bareScalar: separator = depth > 0 ? UInt8(ascii: ",") : 0
            default: separator = 0
            }
        }

        /// Skips the gap in `bytes[from...]` (whose first byte is at absolute offset `base`) and
        /// returns the absolute offset of the first token byte, or nil when the bytes end first.
        mutating func skip(_ bytes: UnsafeRawBufferPointer, from: Int, base: Int, allowsComments: Bool) -> Int? {
            var index = from
            let count = bytes.count
            while index < count {
                if comment == .none, let base = bytes.baseAddress {
                    // Long runs of whitespace go by eight bytes at a time.
                    while index + 8 <= count, Self.isWhitespace(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                        isEmpty = false
                        index += 8
                    }
                    guard index < count else { break }
                }
                let byte = bytes[index]
                switch comment {
                case .none:
                    switch byte {
                    case 0x20, 0x0A, 0x0D, 0x09:
                        break
                    case UInt8(ascii: ","), UInt8(ascii: ":"):
                        guard byte == separator else { return base + index }
                        separator = 0
                    case UInt8(ascii: "/") where allowsComments:
                        comment = .slash
                        commentStart = base + index
                    default:
                        return base + index
                    }
                case .slash:
                    switch byte {
                    case UInt8(ascii: "/"): comment = .line
                    case UInt8(ascii: "*"): comment = .block
                    // Not a comment: the "/" is the offending token.
                    default: return commentStart
                    }
                case .line:
                    if byte == 0x0A { comment = .none }
                case .block:
                    if byte == UInt8(ascii: "*") { comment = .blockStar }
                case .blockStar:
                    if byte == UInt8(ascii: "/") {
                        comment = .none
                    } else if byte != UInt8(ascii: "*") {
                        comment = .block
                    }
                }
                isEmpty = false
                index += 1
            }
            return nil
        }

        /// Whether all eight bytes of `word` are JSON whitespace (space, `\n`, `\r`, `\t`).
        @inline(__always)
        private static func isWhitespace(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            // 0x80 in each byte equal to `byte`, exactly (no borrow between bytes).
            func equal(_ byte: UInt8) -> UInt64 {
                let difference = word ^ (ones &* UInt64(byte))
                return ~(((difference & low7) &+ low7) | difference | low7)
            }
            return equal(0x20) | equal(0x0A) | equal(0x0D) | equal(0x09) == 0x8080_8080_8080_8080
        }
    }
}
