import Foundation

/// Decodes a date string with a date format, exactly as a `DateFormatter` with that format
/// (`en_US_POSIX` locale, the current time zone) would.
///
/// ```swift
/// let dateDecoder = DateDecoder(dateFormatString: "yyyy-MM-dd")
/// schema.addProperty(keyPath: "birthDate", type: .string, decoder: dateDecoder)
/// ```
///
/// Creating one is cheap, so the common pattern of building a `DateDecoder` inside every
/// `init(json:)` costs little: numeric formats (`yyyy-MM-dd`, `yyyy-MM-dd'T'HH:mm:ss`, …) in a
/// fixed-offset time zone such as UTC are parsed by a fast path that gives `DateFormatter`'s
/// results, and a `DateFormatter` is only created for strings the fast path does not handle.
///
/// One decoder may be shared by any number of threads, as the workers of a parallel
/// `decodeArray` share it: it holds only constants, and the formatters it borrows are lent to
/// one caller at a time.
public final class DateDecoder: Decoder, Sendable {
    private let dateFormatString: String?
    private let fastPath: FixedDatePattern?
    private let fastPathOffset: Int
    private let dateFormatter: DateFormatter?
    /// The zone strings are read in, for a format string: the current one when the decoder was made.
    private let timeZone: TimeZone

    /// Creates a decoder for a `DateFormatter` format string.
    ///
    /// Strings are read in the process's current time zone when the decoder is created
    /// (`TimeZone.current`, from `TZ` on Linux), with the `en_US_POSIX` locale, as Elevate's
    /// `DateFormatter` did; put an explicit zone in the format (`yyyy-MM-dd'T'HH:mm:ssZ`) or pass
    /// your own formatter to choose another.
    /// - Parameter dateFormatString: A `DateFormatter` format, such as `"yyyy-MM-dd"`.
    public init(dateFormatString: String) {
        self.dateFormatString = dateFormatString
        self.dateFormatter = nil
        let timeZone = TimeZone.current
        self.timeZone = timeZone
        // The fast path and the formatter read in the same zone, whatever `TZ` does later.
        if let offset = FixedDatePattern.fixedOffset(of: timeZone) {
            self.fastPath = FixedDatePattern.cached(for: dateFormatString)
            self.fastPathOffset = offset
        } else {
            self.fastPath = nil
            self.fastPathOffset = 0
        }
    }

    /// Creates a decoder that uses the given formatter for every string.
    /// - Parameter dateFormatter: The formatter; its time zone and locale apply.
    public init(dateFormatter: DateFormatter) {
        self.dateFormatString = nil
        self.fastPath = nil
        self.fastPathOffset = 0
        self.dateFormatter = dateFormatter
        self.timeZone = dateFormatter.timeZone
    }

    /// The `Date` the string spells.
    /// - Parameter object: The JSON value, which must be a string.
    /// - Returns: The `Date`.
    /// - Throws: `ParserError.validation(failureReason:)` when the value is not a string, or
    ///   the string does not match the format.
    public func decode(_ object: Any) throws -> Any {
        guard let string = StrictConversion.string(object) else {
            throw ParserError.validation(failureReason: "DateParser object to parse was not a String.")
        }
        if let fastPath, let date = fastPath.date(from: string, offsetSeconds: fastPathOffset) {
            return date
        }
        let date: Date?
        if let dateFormatter {
            date = dateFormatter.date(from: string)
        } else {
            date = DateFormatterPool.shared.date(from: string, format: dateFormatString ?? "", timeZone: timeZone)
        }
        guard let date else {
            throw ParserError.validation(
                failureReason: "DateParser string could not be parsed to Date with the given formatter.")
        }
        return date
    }
}
