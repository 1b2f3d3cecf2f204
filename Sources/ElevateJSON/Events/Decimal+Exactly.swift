import Foundation

extension Decimal {
    /// The `Decimal` that number text spells, only when it holds exactly that number.
    ///
    /// `Decimal(string:)` keeps 38 digits and silently drops the rest (a 50-digit integer comes back
    /// with zeros at its end), and `Decimal(Double)` beyond `Decimal`'s exponent range is `NaN` or
    /// another number (`1e130` becomes `…8192000…`): either would hand out a value the JSON did
    /// not hold. So the result's own text is compared with `text`, digit for digit.
    /// - Parameter text: A JSON number's text, or a `Double`'s description.
    init?(exactly text: String) {
        guard let value = Decimal(string: text), !value.isNaN,
            let spelled = DecimalDigits(text), let held = DecimalDigits(value.description), spelled == held
        else { return nil }
        self = value
    }
}

/// A decimal number's exact value as its significant digits and a power of ten, so that two
/// spellings of one number (`1.50`, `15e-1`) compare equal.
private struct DecimalDigits: Equatable {
    var negative = false
    /// Without leading or trailing zeros; empty for zero.
    var digits: [UInt8] = []
    var exponent = 0

    /// Nil for text that is not a plain decimal number.
    init?(_ text: String) {
        var exponentText = Substring()
        var mantissa = Substring(text)
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponentText = text[text.index(after: e)...]
            mantissa = text[..<e]
        }
        if mantissa.first == "-" {
            negative = true
            mantissa = mantissa.dropFirst()
        }
        var fractionDigits = 0
        var seenPoint = false
        for byte in mantissa.utf8 {
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if digits.isEmpty, byte == UInt8(ascii: "0") {
                if seenPoint { fractionDigits += 1 }
                continue
            }
            digits.append(byte &- UInt8(ascii: "0"))
            if seenPoint { fractionDigits += 1 }
        }
        guard let shift = exponentText.isEmpty ? 0 : Int(exponentText) else { return nil }
        exponent = shift - fractionDigits
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            // Zero, whatever its sign or spelling: `Decimal` has no negative zero.
            negative = false
            exponent = 0
        }
    }
}
