internal import CYAJL

/// A JSON number converted without loss.
///
/// Integers are exact over the whole `Int` and `UInt` range; other numbers are `Double`s.
/// A number no 64-bit type can hold — an integer beyond `UInt.max`, or an exponent that would
/// overflow to infinity or underflow to zero — is kept as its source text in ``large(_:)``,
/// never silently turned into `0`, `inf` or a wrapped integer.
public enum JSONNumber: Sendable, Hashable {
    /// An integer in `Int.min ... Int.max`.
    case int(Int)
    /// An integer in `Int.max + 1 ... UInt.max`.
    case uint(UInt)
    /// A number with a fraction or exponent (or `-0`), converted to the nearest `Double`.
    case double(Double)
    /// A number outside every 64-bit type, as its exact JSON text.
    case large(String)

    /// Parses JSON number text that has already passed the grammar check.
    @usableFromInline
    static func parse(_ text: UnsafeRawBufferPointer) -> JSONNumber {
        let count = text.count
        guard count > 0 else { return .large("") }
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
                return .large(String(decoding: text, as: UTF8.self))
            }
            if negative {
                if mantissa == 0 { return .double(-0.0) }
                if mantissa <= UInt64(Int.max) { return .int(-Int(mantissa)) }
                if mantissa == UInt64(Int.max) + 1 { return .int(Int.min) }
                return .large(String(decoding: text, as: UTF8.self))
            }
            if mantissa <= UInt64(Int.max) { return .int(Int(mantissa)) }
            return .uint(UInt(mantissa))
        }

        return .parseFloatingPoint(text)
    }

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private static func parseFloatingPoint(_ text: UnsafeRawBufferPointer) -> JSONNumber {
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
        var exponentTooLarge = false
        if index < count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            while index < count, let digit = Self.digit(text[index]) {
                if exponent < 100_000_000 { exponent = exponent * 10 + digit } else { exponentTooLarge = true }
                index += 1
            }
            decimalExponent += exponentNegative ? -exponent : exponent
        }

        if !nonZero {
            return .double(negative ? -0.0 : 0.0)
        }
        if exponentTooLarge {
            return .large(String(decoding: text, as: UTF8.self))
        }
        // Clinger's fast path: both operands exact, so one rounding gives the correct result.
        if exact, mantissa <= (1 << 53), decimalExponent >= -22, decimalExponent <= 22 {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= exactPowersOfTen[-decimalExponent]
            } else {
                value *= exactPowersOfTen[decimalExponent]
            }
            return .double(negative ? -value : value)
        }
        var ok: Int32 = 0
        let value = cyajl_strtod(text.baseAddress!.assumingMemoryBound(to: CChar.self), count, cLocale, &ok)
        if ok == 0 || !value.isFinite || value == 0 {
            // Overflow to infinity or underflow to zero would silently change the number.
            return .large(String(decoding: text, as: UTF8.self))
        }
        return .double(value)
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
    /// exponent (already the nearest `Double`), and integers a `Double` holds exactly; nil for
    /// integers it would round (`9007199254740993`) and for numbers beyond any 64-bit type.
    public var exactDouble: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value):
            let double = Double(value)
            return Int(exactly: double) == value ? double : nil
        case .uint(let value):
            let double = Double(value)
            return UInt(exactly: double) == value ? double : nil
        case .large: return nil
        }
    }

    /// `value` if it certainly spells an integer: integral and below 2⁵³ in magnitude. Beyond
    /// that a `Double` is rounded (`9007199254740993.0` reads as `…992`), so the integer its text
    /// spelled is not known. The one rule for every strict integer read of the library.
    static func integral(_ value: Double) -> Double? {
        guard value.magnitude < 9_007_199_254_740_992, value.rounded(.towardZero) == value else { return nil }
        return value
    }
}
