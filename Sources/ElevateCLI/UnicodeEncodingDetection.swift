import Elevate

/// Recognises UTF-16 and UTF-32 input, which YAJL can only call an "invalid char", so that the
/// tool can say what is wrong with the file.
///
/// It runs only after a syntax error, on the first bytes of the input: a byte order mark, or ASCII
/// text with NULs between its bytes, which is what JSON in those encodings looks like without a
/// mark (`[` is `5B 00` in UTF-16 little-endian, `00 00 00 5B` in UTF-32 big-endian).
enum UnicodeEncodingDetection {
    /// An encoding JSON text must not be in, as printed in the message.
    enum Encoding: String, CustomStringConvertible {
        case utf16LittleEndian = "UTF-16 (little-endian)"
        case utf16BigEndian = "UTF-16 (big-endian)"
        case utf32LittleEndian = "UTF-32 (little-endian)"
        case utf32BigEndian = "UTF-32 (big-endian)"

        var description: String { rawValue }
    }

    /// The encoding of input that failed with `error`, or nil when it looks like neither UTF-16 nor
    /// UTF-32 (or the error is too far in for the encoding to be its cause).
    static func encoding(of file: InputFile, failingWith error: JSONSyntaxError) -> Encoding? {
        // Such input fails within its first four bytes (at a NUL or a byte order mark); an error
        // further in is about something else, even in a file that starts oddly.
        guard error.byteOffset <= 4 else { return nil }
        if let head = file.firstBytes(headLength) { return encoding(of: head, isWholeInput: head.count < headLength) }
        // Standard input cannot be read again: its head is the excerpt's, which starts at the
        // input's first byte and goes on 16 bytes past the error, so that it is shorter than a
        // file's head only where the input ends (or, from a slow writer, its first read). It is looked
        // at as a file's is, whole when short.
        guard let excerpt = bytes(fromExcerpt: error.excerpt) else { return nil }
        let head = Array(excerpt.prefix(headLength))
        return encoding(of: head, isWholeInput: head.count < headLength)
    }

    /// How many of the input's first bytes are looked at.
    private static let headLength = 16

    /// The encoding of text starting with `head`, when it looks like UTF-16 or UTF-32.
    ///
    /// UTF-32 is tried first: its little-endian mark (`FF FE 00 00`) starts with UTF-16's, and
    /// its three NULs in every four bytes would also pass for UTF-16 text.
    /// - Parameters:
    ///   - head: The first bytes of the input.
    ///   - isWholeInput: Whether `head` is the whole input, which must then end with a whole unit.
    static func encoding(of head: [UInt8], isWholeInput: Bool = false) -> Encoding? {
        if head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return .utf32LittleEndian }
        if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .utf32BigEndian }
        if head.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if head.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        if let position = asciiPosition(in: head, unitSize: 4, isWholeInput: isWholeInput) {
            return position == 0 ? .utf32LittleEndian : .utf32BigEndian
        }
        if let position = asciiPosition(in: head, unitSize: 2, isWholeInput: isWholeInput) {
            return position == 0 ? .utf16LittleEndian : .utf16BigEndian
        }
        return nil
    }

    /// Where in each code unit of `unitSize` bytes the text's bytes are, when `head` reads as ASCII
    /// in such units: 0 when every unit's first byte is text and its others NUL (little-endian),
    /// `unitSize - 1` the other way round (big-endian), nil otherwise. JSON text has no NUL
    /// character, so a unit without a text byte means the input is something else.
    private static func asciiPosition(in head: [UInt8], unitSize: Int, isWholeInput: Bool) -> Int? {
        let units = head.count / unitSize
        guard units >= 1, !isWholeInput || head.count % unitSize == 0 else { return nil }
        for position in [0, unitSize - 1] {
            var matches = true
            for unit in 0..<units where matches {
                for offset in 0..<unitSize where (head[unit * unitSize + offset] != 0) != (offset == position) {
                    matches = false
                }
            }
            if matches { return position }
        }
        return nil
    }

    /// The bytes of an error's excerpt, which for an error in the first bytes of the input starts
    /// at the input's first byte: the way to look at standard input, which cannot be read again.
    /// Printable ASCII stands for itself; `\\`, `\n`, `\t`, `\r` and `\xHH` are decoded. Nil
    /// for a text no excerpt can be.
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
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            default: return nil
            }
            rest = rest.dropFirst()
        }
        return bytes
    }
}
