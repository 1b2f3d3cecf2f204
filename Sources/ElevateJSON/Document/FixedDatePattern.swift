import Foundation

/// A date format made only of fixed-width numeric fields and literal separators, parsed without
/// ICU. It accepts only strings whose every field has its full width and a valid value, in years
/// 1583...9999 (before 1583 ICU's calendar is Julian), and only in fixed-offset time zones;
/// everything else is left to `DateFormatter`, so results never differ from it.
package struct FixedDatePattern: Sendable {
    package enum Field: Sendable {
        case year, month, day, hour, minute, second
        case literal(UInt8)

        var width: Int {
            switch self {
            case .year: return 4
            case .literal: return 1
            default: return 2
            }
        }
    }

    let fields: [Field]
    let length: Int

    /// Compiled patterns by format string; only format-derived, immutable values, at most 256.
    private final class Cache: Sendable {
        private let patterns = LockedBox([String: FixedDatePattern?]())

        func pattern(for format: String) -> FixedDatePattern? {
            patterns.withLock { patterns in
                if let known = patterns[format] { return known }
                let pattern = FixedDatePattern(format: format)
                if patterns.count >= 256 { patterns.removeAll() }
                patterns[format] = pattern
                return pattern
            }
        }
    }

    private static let cache = Cache()

    package static func cached(for format: String) -> FixedDatePattern? {
        cache.pattern(for: format)
    }

    /// The offset of a time zone whose offset never changes, or nil.
    package static func fixedOffset(of timeZone: TimeZone) -> Int? {
        let identifier = timeZone.identifier
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu"].contains(identifier) {
            return 0
        }
        // Zones made from an offset have no rules that change it.
        if identifier.hasPrefix("GMT+") || identifier.hasPrefix("GMT-") {
            return timeZone.secondsFromGMT()
        }
        return nil
    }

    package init?(format: String) {
        var fields: [Field] = []
        var bytes = Array(format.utf8)[...]
        while let byte = bytes.first {
            switch byte {
            case UInt8(ascii: "y"), UInt8(ascii: "M"), UInt8(ascii: "d"), UInt8(ascii: "H"), UInt8(ascii: "m"),
                UInt8(ascii: "s"):
                let run = bytes.prefix { $0 == byte }.count
                let field: Field
                switch (byte, run) {
                case (UInt8(ascii: "y"), 4): field = .year
                case (UInt8(ascii: "M"), 2): field = .month
                case (UInt8(ascii: "d"), 2): field = .day
                case (UInt8(ascii: "H"), 2): field = .hour
                case (UInt8(ascii: "m"), 2): field = .minute
                case (UInt8(ascii: "s"), 2): field = .second
                default: return nil
                }
                fields.append(field)
                bytes = bytes.dropFirst(run)
            case UInt8(ascii: "'"):
                // A quoted literal of one plain character, such as 'T'.
                guard bytes.count >= 3, bytes[bytes.startIndex + 2] == UInt8(ascii: "'") else { return nil }
                let literal = bytes[bytes.startIndex + 1]
                guard literal != UInt8(ascii: "'"), literal < 0x80 else { return nil }
                fields.append(.literal(literal))
                bytes = bytes.dropFirst(3)
            case UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "/"), UInt8(ascii: "."):
                fields.append(.literal(byte))
                bytes = bytes.dropFirst()
            default:
                return nil
            }
        }
        guard fields.contains(where: { if case .year = $0 { return true } else { return false } }),
            fields.contains(where: { if case .month = $0 { return true } else { return false } }),
            fields.contains(where: { if case .day = $0 { return true } else { return false } })
        else { return nil }
        self.fields = fields
        self.length = fields.reduce(0) { $0 + $1.width }
    }

    package func date(from string: String, offsetSeconds: Int) -> Date? {
        var string = string
        return string.withUTF8 { bytes -> Date? in
            guard bytes.count == length else { return nil }
            var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
            var index = 0
            for field in fields {
                if case .literal(let literal) = field {
                    guard bytes[index] == literal else { return nil }
                    index += 1
                    continue
                }
                var value = 0
                for _ in 0..<field.width {
                    let digit = bytes[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int(digit)
                    index += 1
                }
                switch field {
                case .year: year = value
                case .month: month = value
                case .day: day = value
                case .hour: hour = value
                case .minute: minute = value
                case .second: second = value
                case .literal: break
                }
            }
            guard year >= 1583, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
                hour < 24, minute < 60, second < 60
            else { return nil }
            let days = Self.daysSinceEpoch(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
