import Foundation

/// Reusable `DateFormatter`s by format and time zone: creating one costs far more than parsing
/// with it, and decoders are created per element. A formatter is lent to one caller at a time,
/// so none is used from two threads at once. It holds only formatters (no decoded data), at most
/// `maximumFormats` formats of `perFormat` idle formatters each. Process-wide on purpose, and
/// harmless: a formatter is set up from its key alone (format, time zone, the POSIX locale) and
/// parsing changes none of that, so which formatter a call is lent never changes its result.
package final class DateFormatterPool: Sendable {
    package static let shared = DateFormatterPool()
    private let maximumFormats = 32
    private let perFormat = 8

    private let idle = LockedBox([String: [DateFormatter]]())

    /// The date `string` spells in `format`, read in `timeZone` with the `en_US_POSIX` locale, as a
    /// `DateFormatter` set up so reads it; nil when it does not match.
    package func date(from string: String, format: String, timeZone: TimeZone) -> Date? {
        let key = timeZone.identifier + "|" + format
        let formatter =
            idle.withLock { $0[key]?.popLast() }
            ?? {
                let made = DateFormatter()
                made.locale = Locale(identifier: "en_US_POSIX")
                made.timeZone = timeZone
                made.dateFormat = format
                return made
            }()
        defer {
            idle.withLock { idle in
                // A program cycling through many formats starts over rather than growing.
                if idle[key] == nil, idle.count >= maximumFormats { idle.removeAll() }
                if idle[key, default: []].count < perFormat { idle[key, default: []].append(formatter) }
            }
        }
        return formatter.date(from: string)
    }
}
