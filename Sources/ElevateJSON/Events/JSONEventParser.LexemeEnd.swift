extension JSONEventParser {
    /// Looks for the end of the long lexeme that chunks are held back for (see `parse(_:)`).
    ///
    /// Held chunks are parsed as soon as one of them brings the lexeme's end: what follows it is
    /// then parsed, and an error in it found, in the `parse` call that brings it, as though
    /// nothing had been held. Holding on until as much had arrived as the lexeme's length found
    /// such an error later, or never, when the input failed first; and the split parse, whose
    /// runs start after the lexeme, found it. Ending the hold early costs one more lexing of the
    /// lexeme, once per lexeme.
    ///
    /// A byte that YAJL rejects in a string (a control character) ends the hold as well, so that
    /// it is reported when it arrives. Stopping too early is never wrong, only slower: YAJL reads
    /// on as it would, and the parser holds chunks again if the lexeme is still open.
    struct LexemeEnd {
        private enum Lexeme {
            /// A string; `escaped` when the last byte read was a backslash that escapes the next.
            case string(escaped: Bool)
            /// A number, at this point of its grammar.
            case number(NumberPart)
            case lineComment
            /// A block comment; `afterStar` when the last byte read was a `*`.
            case blockComment(afterStar: Bool)
            /// Nothing YAJL lets grow this long: the hold ends only by size.
            case other
        }

        /// Where a number's grammar is: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        private enum NumberPart {
            case sign, zero, integer, point, fraction, exponentMark, exponentSign, exponent

            /// The part after `byte`, or nil when the number cannot go on with it: its token ends
            /// there (YAJL reads the byte as the next token's, or rejects it).
            func after(_ byte: UInt8) -> NumberPart? {
                let isDigit = byte &- UInt8(ascii: "0") < 10
                switch self {
                case .sign:
                    return byte == UInt8(ascii: "0") ? .zero : isDigit ? .integer : nil
                case .zero, .integer:
                    if isDigit { return self == .zero ? nil : .integer }
                    if byte == UInt8(ascii: ".") { return .point }
                    return byte | 0x20 == UInt8(ascii: "e") ? .exponentMark : nil
                case .point, .fraction:
                    if isDigit { return .fraction }
                    return self == .fraction && byte | 0x20 == UInt8(ascii: "e") ? .exponentMark : nil
                case .exponentMark:
                    if isDigit { return .exponent }
                    return byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") ? .exponentSign : nil
                case .exponentSign, .exponent:
                    return isDigit ? .exponent : nil
                }
            }
        }

        private var lexeme: Lexeme

        /// For the open token `token` (its bytes so far, from its first).
        init(token: [UInt8]) {
            switch token.first ?? 0 {
            case UInt8(ascii: "\""):
                // An odd run of backslashes at the end escapes what comes next.
                let backslashes = token.dropFirst().reversed().prefix { $0 == UInt8(ascii: "\\") }.count
                lexeme = .string(escaped: backslashes % 2 == 1)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Where the number so far leaves its grammar (read once, when the hold begins).
                var part = NumberPart.sign
                for byte in token.dropFirst(token.first == UInt8(ascii: "-") ? 1 : 0) {
                    guard let next = part.after(byte) else {
                        lexeme = .other
                        return
                    }
                    part = next
                }
                lexeme = .number(part)
            default:
                lexeme = .other
            }
        }

        /// For the open comment whose state the gap scan left at `comment`.
        init(comment: Gap.Comment) {
            switch comment {
            case .line: lexeme = .lineComment
            case .block: lexeme = .blockComment(afterStar: false)
            case .blockStar: lexeme = .blockComment(afterStar: true)
            case .none, .slash: lexeme = .other
            }
        }

        /// Reads `bytes`, the next bytes of the input: whether the lexeme ends in them.
        mutating func ends(in bytes: UnsafeRawBufferPointer) -> Bool {
            switch lexeme {
            case .string(var escaped):
                for byte in bytes {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") || byte < 0x20 {
                        return true
                    }
                }
                lexeme = .string(escaped: escaped)
                return false
            case .number(var part):
                for byte in bytes {
                    guard let next = part.after(byte) else { return true }
                    part = next
                }
                lexeme = .number(part)
                return false
            case .lineComment:
                return bytes.contains(UInt8(ascii: "\n"))
            case .blockComment(var afterStar):
                for byte in bytes {
                    if afterStar && byte == UInt8(ascii: "/") { return true }
                    afterStar = byte == UInt8(ascii: "*")
                }
                lexeme = .blockComment(afterStar: afterStar)
                return false
            case .other:
                return false
            }
        }
    }
}
