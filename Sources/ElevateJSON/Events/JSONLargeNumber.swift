/// A JSON number that no 64-bit type holds — an integer beyond `UInt.max` or below `Int.min`,
/// an exponent that would overflow to infinity or underflow to zero, or a non-integer whose nearest
/// `Double` is an integer (`1.00000000000000011`) — kept as its exact text.
///
/// ``JSONValue/foundationValue`` puts one in the tree where `JSONSerialization` would round or wrap.
public struct JSONLargeNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in the JSON text.
    public let text: String

    /// Creates a large number from its JSON text.
    /// - Parameter text: The number's JSON text, kept as is (not checked).
    public init(text: String) {
        self.text = text
    }

    /// The nearest `Double`, or nil when the magnitude overflows to infinity or underflows to zero.
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        if value == 0 {
            // A zero is real only when no digit before the exponent is non-zero.
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            if mantissa.contains(where: { ("1"..."9").contains($0) }) { return nil }
        }
        return value
    }

    /// The JSON text.
    public var description: String { text }
}

// MARK: - Exact value

/// The exact value of JSON number text in one canonical form, `±digits × 10^exponent` with the
/// digits' leading and trailing zeros stripped, so that every spelling of a value (`1e400`,
/// `1E400`, `10e399`, `0.1e401`) gives the same form. Equality and hashing of numbers kept as
/// text use it; it is computed only for those, never for numbers that fit a 64-bit type.
///
/// The exponent is kept exactly however long its text (`1e999999999999999999999`): it is
/// compared by its digits, never expanded into that many digits of the value.
struct ExactDecimalValue: Hashable {
    /// A decimal exponent: an `Int` whenever it fits one (the form is then unique), its sign and
    /// decimal digits (without leading zeros) beyond that.
    enum Exponent: Hashable {
        case int(Int)
        case huge(negative: Bool, magnitude: [UInt8])
    }

    /// The sign; false for zero.
    var negative: Bool
    /// The significant digits (values 0...9), without leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    /// The power of ten of the last digit; `.int(0)` for zero.
    var exponent: Exponent

    /// The exact value of `text`, or nil when it is not a JSON number.
    init?(text: String) {
        let bytes = Array(text.utf8)
        guard JSONNumberFormat.isValid(bytes) else { return nil }
        var index = 0
        negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: [UInt8] = []
        var fractionCount = 0
        var inFraction = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "e"), bytes[index] != UInt8(ascii: "E") {
            if bytes[index] == UInt8(ascii: ".") {
                inFraction = true
            } else {
                mantissa.append(bytes[index] &- UInt8(ascii: "0"))
                if inFraction { fractionCount += 1 }
            }
            index += 1
        }
        guard let first = mantissa.firstIndex(where: { $0 != 0 }), let last = mantissa.lastIndex(where: { $0 != 0 }) else {
            // Zero, whatever its sign and exponent.
            (negative, digits, exponent) = (false, [], .int(0))
            return
        }
        digits = Array(mantissa[first...last])
        // Stripping trailing zeros moves the exponent up; the fraction moves it down. Its
        // magnitude is at most the text's length.
        let offset = (mantissa.count - 1 - last) - fractionCount
        var exponentNegative = false
        var exponentDigits: [UInt8] = []
        if index < bytes.count {
            index += 1
            if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            for byte in bytes[index...] where !(exponentDigits.isEmpty && byte == UInt8(ascii: "0")) {
                exponentDigits.append(byte &- UInt8(ascii: "0"))
            }
        }
        if exponentDigits.count <= 18 {
            // Below 10¹⁸ in magnitude, plus an offset no larger than the text: an Int holds it.
            let written = exponentDigits.reduce(0) { $0 * 10 + Int($1) }
            exponent = .int((exponentNegative ? -written : written) + offset)
        } else {
            // 10¹⁸ or more, far beyond the offset, so the sign is the written exponent's.
            let magnitude =
                (offset < 0) == exponentNegative || offset == 0
                ? Self.adding(offset.magnitude, to: exponentDigits)
                : Self.subtracting(offset.magnitude, from: exponentDigits)
            exponent = Self.exponent(negative: exponentNegative, magnitude: magnitude)
        }
    }

    /// The exact value of a finite `Double`: its binary significand times a power of two, written
    /// out in decimal (at most 767 significant digits).
    init(exactly value: Double) {
        precondition(value.isFinite)
        guard value != 0 else {
            (negative, digits, exponent) = (false, [], .int(0))
            return
        }
        negative = value < 0
        var significand = value.significandBitPattern
        var binaryExponent: Int
        if value.exponentBitPattern == 0 {
            binaryExponent = -1074
        } else {
            significand |= 1 << 52
            binaryExponent = Int(value.exponentBitPattern) - 1075
        }
        let zeros = significand.trailingZeroBitCount
        significand >>= UInt64(zeros)
        binaryExponent += zeros
        // value = significand × 2^e: for e ≥ 0 an integer; for e < 0, significand × 5^-e × 10^e.
        var limbs = DecimalLimbs(significand)
        var decimalExponent = 0
        if binaryExponent >= 0 {
            limbs.multiply(byPowerOf: 2, count: binaryExponent)
        } else {
            limbs.multiply(byPowerOf: 5, count: -binaryExponent)
            decimalExponent = binaryExponent
        }
        var all = limbs.digits
        while all.last == 0 {
            all.removeLast()
            decimalExponent += 1
        }
        digits = all
        exponent = .int(decimalExponent)
    }

    /// The same value as an `Int`, a `UInt` or a `Double` when one of them holds it exactly: the
    /// form ``JSONNumber`` would have given it, had the text been parsed from an integer or a
    /// `Double`'s own text. Nil for values no 64-bit type holds.
    var smallEquivalent: JSONNumber? {
        if digits.isEmpty { return .int(0) }
        guard case .int(let exponent) = exponent else { return nil }
        // Where the decimal point falls, counted in digits from the first significant one.
        // (An exponent near `Int.max` overflows it: such a value is far beyond every 64-bit type.)
        let (position, overflow) = digits.count.addingReportingOverflow(exponent)
        guard !overflow else { return nil }
        if exponent >= 0, position <= 20 {
            var magnitude: UInt64 = 0
            var overflow = false
            for digit in digits + repeatElement(0, count: exponent) where !overflow {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
                (magnitude, overflow) = (sum, o1 || o2)
            }
            if !overflow {
                if !negative { return magnitude <= UInt64(Int.max) ? .int(Int(magnitude)) : .uint(UInt(magnitude)) }
                if magnitude <= UInt64(Int.max) { return .int(-Int(magnitude)) }
                if magnitude == UInt64(Int.max) + 1 { return .int(.min) }
            }
        }
        // A Double's exact value lies between 2⁻¹⁰⁷⁴ and 2¹⁰²⁴ and has at most 767 significant
        // digits: outside that, none is this value, and no text need be made.
        guard position <= 309, position >= -323, digits.count <= 767 else { return nil }
        var text = negative ? "-" : ""
        text.unicodeScalars.append(contentsOf: digits.map { Unicode.Scalar($0 + UInt8(ascii: "0")) })
        text += "e\(exponent)"
        // The nearest Double (correctly rounded) is the value itself when any Double is.
        guard let double = Double(text), double.isFinite, double != 0, Self(exactly: double) == self else { return nil }
        return .double(double)
    }

    private static func adding(_ addend: UInt, to magnitude: [UInt8]) -> [UInt8] {
        var result = magnitude
        var carry = addend
        var index = result.count - 1
        while carry > 0 {
            if index < 0 {
                result.insert(UInt8(carry % 10), at: 0)
                carry /= 10
                continue
            }
            let sum = UInt(result[index]) + carry
            result[index] = UInt8(sum % 10)
            carry = sum / 10
            index -= 1
        }
        return result
    }

    /// `magnitude - subtrahend`, for a magnitude larger than the subtrahend.
    private static func subtracting(_ subtrahend: UInt, from magnitude: [UInt8]) -> [UInt8] {
        var result = magnitude
        var borrow = subtrahend
        var index = result.count - 1
        while borrow > 0 {
            let digit = UInt8(borrow % 10)
            borrow /= 10
            if result[index] >= digit {
                result[index] -= digit
            } else {
                result[index] = result[index] + 10 - digit
                borrow += 1
            }
            index -= 1
        }
        return Array(result.drop { $0 == 0 })
    }

    /// The canonical exponent: an `Int` whenever one holds it.
    private static func exponent(negative: Bool, magnitude: [UInt8]) -> Exponent {
        if magnitude.count <= 19 {
            var value: UInt64 = 0
            for digit in magnitude { value = value * 10 + UInt64(digit) }
            if value <= UInt64(Int.max) { return .int(negative ? -Int(value) : Int(value)) }
        }
        return .huge(negative: negative, magnitude: magnitude)
    }
}

/// A non-negative integer in base 10⁹ limbs, least significant first: just enough arithmetic to
/// write out a `Double`'s exact value.
private struct DecimalLimbs {
    private static let base: UInt64 = 1_000_000_000
    private var limbs: [UInt64]

    init(_ value: UInt64) {
        limbs = []
        var rest = value
        repeat {
            limbs.append(rest % Self.base)
            rest /= Self.base
        } while rest > 0
    }

    /// Multiplies by `factor^count`, for `factor` 2 or 5, in steps whose product with a limb fits
    /// 64 bits (2²⁹ and 5¹³ are below 2³¹).
    mutating func multiply(byPowerOf factor: UInt64, count: Int) {
        let stepCount = factor == 2 ? 29 : 13
        var remaining = count
        while remaining > 0 {
            let step = min(remaining, stepCount)
            var multiplier: UInt64 = 1
            for _ in 0..<step { multiplier *= factor }
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = limbs[index] * multiplier + carry
                limbs[index] = product % Self.base
                carry = product / Self.base
            }
            while carry > 0 {
                limbs.append(carry % Self.base)
                carry /= Self.base
            }
            remaining -= step
        }
    }

    /// The decimal digits (values 0...9), most significant first, without leading zeros.
    var digits: [UInt8] {
        var result: [UInt8] = []
        for (position, limb) in limbs.reversed().enumerated() {
            var chunk = [UInt8](repeating: 0, count: 9)
            var rest = limb
            for index in (0..<9).reversed() {
                chunk[index] = UInt8(rest % 10)
                rest /= 10
            }
            result.append(contentsOf: position == 0 ? Array(chunk.drop { $0 == 0 }) : chunk)
        }
        return result
    }
}
