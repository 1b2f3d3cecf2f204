import struct Foundation.Decimal

/// Number text for the writer: Swift's shortest round-trip formatting, checked against the JSON
/// number grammar, instead of YAJL's locale-dependent `%.20g` (which writes 0.1 as
/// `0.10000000000000000555`).
enum JSONNumberFormat {
    /// The shortest text that reads back as exactly `value` (`0.1`, `1e-05`, `5.0`), or nil for
    /// NaN and infinities.
    ///
    /// Swift's `description` of a finite `Double` always fits JSON's grammar: a leading digit, a
    /// fraction or an exponent, and exponents such as `e-05` or `e+16` (JSON allows the sign and
    /// leading zeros).
    static func text(for value: Double) -> String? {
        guard value.isFinite else { return nil }
        return value.description
    }

    /// The shortest text that reads back as exactly `value` as a `Float` (`0.1`, not
    /// `0.10000000149011612`), or nil for NaN and infinities.
    static func text(for value: Float) -> String? {
        guard value.isFinite else { return nil }
        return value.description
    }

    /// The decimal's exact text, or nil for NaN.
    static func text(for value: Decimal) -> String? {
        guard !value.isNaN else { return nil }
        return value.description
    }

    /// Whether `text` is a JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isValid<Bytes: Collection<UInt8>>(_ text: Bytes) -> Bool {
        var index = text.startIndex
        func peek() -> UInt8? { index < text.endIndex ? text[index] : nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        func skipDigits() -> Bool {
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { index = text.index(after: index) }
            return true
        }

        if peek() == UInt8(ascii: "-") { index = text.index(after: index) }
        if peek() == UInt8(ascii: "0") {
            index = text.index(after: index)
        } else if !skipDigits() {
            return false
        }
        if peek() == UInt8(ascii: ".") {
            index = text.index(after: index)
            guard skipDigits() else { return false }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index = text.index(after: index)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index = text.index(after: index) }
            guard skipDigits() else { return false }
        }
        return index == text.endIndex
    }
}
