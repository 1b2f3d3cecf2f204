import CYAJL

/// A JSON number converted without loss.
///
/// Integers are exact over the whole `Int` and `UInt` range; other numbers are `Double`s.
/// A number no 64-bit type can hold — an integer beyond `UInt.max`, an exponent that would
/// overflow to infinity or underflow to zero, or a non-integer whose nearest `Double` is an
/// integer (`1.00000000000000011`) — is kept as its source text in ``large(_:)``, never silently
/// turned into `0`, `inf`, a wrapped integer or an integer it is not.
public enum JSONNumber: Sendable, Hashable {
    /// An integer in `Int.min ... Int.max`.
    case int(Int)
    /// An integer in `Int.max + 1 ... UInt.max`.
    case uint(UInt)
    /// A number with a fraction or exponent (or `-0`), converted to the nearest `Double`. The
    /// `Double` is integral only when the text spells that integer (`3.0`, `1.5e1`).
    case double(Double)
    /// A number outside every 64-bit type, as its exact JSON text: an integer beyond them, an
    /// exponent beyond `Double`'s range, or a non-integer whose nearest `Double` is an integer.
    case large(String)

    /// Parses JSON number text that has already passed the grammar check.
    @usableFromInline
    static func parse(_ text: UnsafeRawBufferPointer) -> JSONNumber { parseKeepingDigits(text).number }

    /// The exact decimal value of a number parsed as a `Double`: `±mantissa × 10^exponent`.
    package struct DecimalDigits {
        package var negative: Bool
        package var mantissa: UInt64
        package var exponent: Int
    }

    /// ``parse(_:)``, and for a `Double` the decimal digits it was read from, when they are at most
    /// 19 (nil otherwise, and for every other case), found in the same pass: the tape keeps them
    /// for the numbers whose `Double` does not give exact `Decimal` and `Float` reads.
    @inline(__always)
    package static func parseKeepingDigits(_ text: UnsafeRawBufferPointer) -> (number: JSONNumber, digits: DecimalDigits?) {
        let count = text.count
        guard count > 0 else { return (.large(""), nil) }
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index = 1 }

        // Integer part, accumulated while it fits 64 bits.
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var overflowed = false
        var droppedIntegerDigits = 0
        while index < count, let digit = Self.digit(text[index]) {
            if significantDigits < 19 {
                if mantissa != 0 || digit != 0 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                }
            } else {
                // The 20th significant digit may still fit a UInt64.
                let (times10, o1) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
                if o1 || o2 || overflowed || droppedIntegerDigits > 0 {
                    overflowed = true
                    droppedIntegerDigits += 1
                } else {
                    mantissa = sum
                    significantDigits += 1
                }
            }
            index += 1
        }

        if index == count {
            if overflowed {
                return (.large(String(decoding: text, as: UTF8.self)), nil)
            }
            if negative {
                if mantissa == 0 { return (.double(-0.0), nil) }
                if mantissa <= UInt64(Int.max) { return (.int(-Int(mantissa)), nil) }
                if mantissa == UInt64(Int.max) + 1 { return (.int(Int.min), nil) }
                return (.large(String(decoding: text, as: UTF8.self)), nil)
            }
            if mantissa <= UInt64(Int.max) { return (.int(Int(mantissa)), nil) }
            return (.uint(UInt(mantissa)), nil)
        }

        return parseFloatingPoint(text)
    }

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    private static func parseFloatingPoint(_ text: UnsafeRawBufferPointer) -> (number: JSONNumber, digits: DecimalDigits?) {
        let count = text.count
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var decimalExponent = 0
        var exact = true
        var nonZero = false
        while index < count, let digit = Self.digit(text[index]) {
            if digit != 0 { nonZero = true }
            if digits < 19 {
                if mantissa != 0 || digit != 0 {
                    mantissa = mantissa * 10 + UInt64(digit)
                    digits += 1
                }
            } else {
                exact = false
                decimalExponent += 1
            }
            index += 1
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, let digit = Self.digit(text[index]) {
                if digit != 0 { nonZero = true }
                if digits < 19 {
                    if mantissa != 0 || digit != 0 {
                        mantissa = mantissa * 10 + UInt64(digit)
                        digits += 1
                    }
                    decimalExponent -= 1
                } else if digit != 0 {
                    exact = false
                }
                index += 1
            }
        }
        let (exponent, exponentTooLarge) = Self.exponent(of: text, from: index)
        decimalExponent += exponent

        if !nonZero {
            return (.double(negative ? -0.0 : 0.0), nil)
        }
        // The digits read, when they are the whole number (no non-zero digit past the 19th).
        let decimalDigits = exact ? DecimalDigits(negative: negative, mantissa: mantissa, exponent: decimalExponent) : nil
        if exponentTooLarge {
            return (.large(String(decoding: text, as: UTF8.self)), nil)
        }
        // Clinger's fast path: both operands exact, so one rounding gives the correct result.
        if exact, mantissa <= (1 << 53), decimalExponent >= -22, decimalExponent <= 22 {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= exactPowersOfTen[-decimalExponent]
            } else {
                value *= exactPowersOfTen[decimalExponent]
            }
            return (.double(negative ? -value : value), decimalDigits)
        }
        // Clinger's fast path needs no integrality check: its `Double` is integral exactly when the
        // text spells an integer (a mantissa of at most 2⁵³ divided by 10^k lies at least 10^-k
        // from every integer, more than half a unit in the last place of the result). Past it, a
        // long mantissa can round to an integer that the text is not.
        var ok: Int32 = 0
        let value = cyajl_strtod(text.baseAddress!.assumingMemoryBound(to: CChar.self), count, cLocale, &ok)
        if ok == 0 || !value.isFinite || value == 0 {
            // Overflow to infinity or underflow to zero would silently change the number.
            return (.large(String(decoding: text, as: UTF8.self)), nil)
        }
        if integral(value) != nil, !spellsInteger(text) {
            // `1.00000000000000011` is the `Double` 1.0, which integer reads would take for the
            // integer 1: kept as text, so that they refuse it as they refuse `1.5`. Beyond 2⁵³ they
            // refuse every number with a fraction or exponent anyway.
            return (.large(String(decoding: text, as: UTF8.self)), nil)
        }
        return (.double(value), decimalDigits)
    }

    /// Whether a number read as `double` from text of `textCount` bytes needs its decimal digits
    /// kept for an exact `Decimal` or `Float` read, which the `Double` alone cannot give:
    /// - text of more than 16 bytes may have more than 15 significant digits, which a `Double`'s
    ///   shortest text need not repeat (up to 15, text → `Double` → shortest text is the same
    ///   number, so `Decimal` reads it from the `Double`); 16 bytes with a point or a sign hold
    ///   at most 15 digits, and 16 digits alone are an integer, never a `Double` here;
    /// - a `Double` exactly halfway between two `Float`s (or below `Float`'s normal range, where
    ///   halfway is harder to tell) was maybe rounded onto that tie from one side: rounding it again
    ///   to a `Float` can go the wrong way (`1.00000005960464477539063` is a hair above the tie
    ///   between 1 and the next `Float`, which ties to even as 1). Any other `Double` rounds to the
    ///   `Float` the text does.
    package static func needsExactDigits(for double: Double, textCount: Int) -> Bool {
        if double == 0 { return false }
        if textCount > 16 { return true }
        let bits = double.bitPattern
        let exponent = Int((bits >> 52) & 0x7FF)
        // Float's normal range is 2^-126 up to 2^128, biased 1023 in a Double.
        if exponent < 1023 - 126 { return true }
        // Halfway: the 29 bits below a Float's 23-bit mantissa are 1 then zeros.
        return bits & 0x1FFF_FFFF == 0x1000_0000
    }

    /// The `Float` nearest the number `text` spells, rounded once (`strtof`); nil when the text is
    /// not a number (never for text that passed the grammar check). Out of range, it is infinite or
    /// zero, as `strtof` gives it.
    package static func float(fromText text: UnsafeRawBufferPointer) -> Float? {
        guard let base = text.baseAddress, !text.isEmpty else { return nil }
        var ok: Int32 = 0
        let value = cyajl_strtof(base.assumingMemoryBound(to: CChar.self), text.count, cLocale, &ok)
        return ok == 0 ? nil : value
    }

    /// Whether number text that passed the grammar check spells an integer: every non-zero digit
    /// stands before the decimal point once the exponent has moved it. Runs only for the rare
    /// slow-path numbers whose `Double` is integral.
    static func spellsInteger(_ text: UnsafeRawBufferPointer) -> Bool {
        let count = text.count
        var index = text.first == UInt8(ascii: "-") ? 1 : 0
        // Digits before the decimal point, and the position (among all mantissa digits) just past
        // the last non-zero one.
        var integerDigits = 0
        var digitCount = 0
        var significantEnd = 0
        while index < count, let digit = Self.digit(text[index]) {
            integerDigits += 1
            digitCount += 1
            if digit != 0 { significantEnd = digitCount }
            index += 1
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, let digit = Self.digit(text[index]) {
                digitCount += 1
                if digit != 0 { significantEnd = digitCount }
                index += 1
            }
        }
        // (A saturated exponent never gets here: such a number is kept as text before the slow path.)
        return significantEnd <= integerDigits + exponent(of: text, from: index).value
    }

    /// The exponent of number text that passed the grammar check, read from `index` (at its `e`
    /// or `E`, or at the end of the text when there is none: 0). Its magnitude stops growing at
    /// 10⁹, far beyond any `Double`'s, and `saturated` then says so.
    @inline(__always)
    private static func exponent(of text: UnsafeRawBufferPointer, from start: Int) -> (value: Int, saturated: Bool) {
        let count = text.count
        var index = start
        guard index < count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else {
            return (0, false)
        }
        index += 1
        var negative = false
        if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var exponent = 0
        var saturated = false
        while index < count, let digit = Self.digit(text[index]) {
            if exponent < 100_000_000 { exponent = exponent * 10 + digit } else { saturated = true }
            index += 1
        }
        return (negative ? -exponent : exponent, saturated)
    }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int? {
        let value = byte &- UInt8(ascii: "0")
        return value < 10 ? Int(value) : nil
    }
}

/// The "C" locale for `strtod_l`, created once (Swift globals initialize exactly once, thread-safely).
/// Read-only after creation, so sharing it is safe.
nonisolated(unsafe) private let cLocale = cyajl_c_locale()

/// A borrowed view of a number's exact source text, valid only during the
/// ``JSONEventHandler/number(_:)`` call that received it.
///
/// Convert it with ``value``, copy it with ``text``, or read its bytes inside
/// ``withUnsafeBytes(_:)``.
///
/// ```swift
/// func number(_ number: JSONNumberText) throws {
///     if case .int(let count) = number.value { total += count }
/// }
/// ```
public struct JSONNumberText {
    /// The number's bytes as they appear in the input (ASCII); valid only during the handler
    /// call. For the library's own readers, which copy them before returning.
    @usableFromInline
    package let bytes: UnsafeRawBufferPointer

    @inlinable
    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Calls `body` with the number's bytes as they appear in the input (ASCII).
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid only inside it:
    ///   do not store or return it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(bytes)
    }

    /// The number converted without loss; see ``JSONNumber``.
    public var value: JSONNumber { JSONNumber.parse(bytes) }

    /// The source text as a `String`.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension JSONNumber {
    /// The number as a `Double` when a `Double` holds it: every number written with a fraction or
    /// exponent within `Double`'s range (the nearest `Double`), and integers a `Double` holds
    /// exactly; nil for integers it would round (`9007199254740993`), for integers beyond 64 bits,
    /// and for exponents that overflow or underflow.
    public var exactDouble: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value):
            let double = Double(value)
            return Int(exactly: double) == value ? double : nil
        case .uint(let value):
            let double = Double(value)
            return UInt(exactly: double) == value ? double : nil
        case .large(let text):
            // A non-integer kept as text because its `Double` is an integer (`1.00000000000000011`)
            // is still that `Double`; overflows and underflows have none (`doubleValue` is nil).
            guard text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) else {
                return nil
            }
            return JSONLargeNumber(text: text).doubleValue
        }
    }

    /// `value` if it certainly spells an integer: integral and below 2⁵³ in magnitude. Beyond
    /// that a `Double` is rounded (`9007199254740993.0` reads as `…992`), so the integer its text
    /// spelled is not known. Below it, a parsed ``double(_:)`` is integral only when its text is an
    /// integer (see `parseFloatingPoint`). The one rule for every strict integer read.
    package static func integral(_ value: Double) -> Double? {
        guard value.magnitude < 9_007_199_254_740_992, value.rounded(.towardZero) == value else { return nil }
        return value
    }
}
