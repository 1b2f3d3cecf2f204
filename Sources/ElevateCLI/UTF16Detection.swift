import Elevate

/// Recognises UTF-16 input, which YAJL can only call an "invalid char", so that the tool can say
/// what is wrong with the file.
///
/// It runs only after a syntax error, on the first bytes of the input: a byte order mark (`FF FE`
/// or `FE FF`), or ASCII text with a NUL every other byte, which is what UTF-16 JSON looks like
/// without a mark (`[` is `5B 00` little-endian, `00 5B` big-endian).
enum UTF16Detection {
    /// The byte order, as printed in the message.
    enum ByteOrder: String, CustomStringConvertible {
        case littleEndian = "little-endian"
        case bigEndian = "big-endian"

        var description: String { rawValue }
    }

    /// The byte order of UTF-16 input that failed with `error`, or nil when it does not look like
    /// UTF-16 (or the error is too far in for the encoding to be its cause).
    static func encoding(of file: InputFile, failingWith error: JSONSyntaxError) -> ByteOrder? {
        // UTF-16 fails at its first or second byte (a NUL or a byte order mark); an error further
        // in is about something else, even in a file that starts oddly.
        guard error.byteOffset <= 4 else { return nil }
        guard let head = file.firstBytes(16) ?? bytes(fromExcerpt: error.excerpt) else { return nil }
        return byteOrder(of: head)
    }

    /// The byte order of text starting with `head`, when it looks like UTF-16.
    static func byteOrder(of head: [UInt8]) -> ByteOrder? {
        if head.starts(with: [0xFF, 0xFE]) { return .littleEndian }
        if head.starts(with: [0xFE, 0xFF]) { return .bigEndian }
        let pairs = head.count / 2
        guard pairs >= 1 else { return nil }
        let even = (0..<pairs).map { head[2 * $0] }
        let odd = (0..<pairs).map { head[2 * $0 + 1] }
        if odd.allSatisfy({ $0 == 0 }), even.contains(where: { $0 != 0 }) { return .littleEndian }
        if even.allSatisfy({ $0 == 0 }), odd.contains(where: { $0 != 0 }) { return .bigEndian }
        return nil
    }

    /// The bytes of an error's excerpt, which for an error in the first bytes of the input starts
    /// at the input's first byte: the way to look at standard input, which cannot be read again.
    /// Printable ASCII stands for itself; `\n`, `\t`, `\r` and `\xHH` are decoded.
    static func bytes(fromExcerpt excerpt: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var rest = Substring(excerpt).utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            switch rest.first {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "x"):
                let hex = String(decoding: rest.dropFirst().prefix(2), as: UTF8.self)
                guard hex.utf8.count == 2, let value = UInt8(hex, radix: 16) else { return nil }
                bytes.append(value)
                rest = rest.dropFirst(2)
            default:
                // A backslash of the input itself (the excerpt does not escape it).
                bytes.append(UInt8(ascii: "\\"))
                continue
            }
            rest = rest.dropFirst()
        }
        return bytes
    }
}
