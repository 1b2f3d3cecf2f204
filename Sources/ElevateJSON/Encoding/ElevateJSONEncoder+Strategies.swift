import Foundation

// The options have Foundation's names and meanings, so `encoder.dateEncodingStrategy = .iso8601` reads
// as it does with `JSONEncoder`. They are types of their own, as the decoder's are, and each converts
// from Foundation's, so a configured strategy can be shared.

extension ElevateJSONEncoder {
    /// How the text is laid out, as `JSONEncoder.OutputFormatting`.
    public struct OutputFormatting: OptionSet, Sendable, Hashable {
        /// The option bits.
        public let rawValue: UInt

        /// Creates formatting options from their bits.
        /// - Parameter rawValue: The option bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// One member or element per line, indented by two spaces, `"key" : value`: the same bytes as
        /// `JSONEncoder`'s pretty output (empty containers too, which both write over two lines).
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
        /// Object members in the order of their keys' UTF-8 bytes (Unicode code point order), as
        /// `JSONEncoder` sorts them; otherwise the order is unspecified, as with `JSONEncoder`.
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
        /// `/` written as is; by default it is written `\/`, as `JSONEncoder` does.
        public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 3)

        /// Foundation's options; others are ignored.
        /// - Parameter formatting: `JSONEncoder` output formatting.
        public init(_ formatting: JSONEncoder.OutputFormatting) {
            var result: OutputFormatting = []
            if formatting.contains(.prettyPrinted) { result.insert(.prettyPrinted) }
            if formatting.contains(.sortedKeys) { result.insert(.sortedKeys) }
            if formatting.contains(.withoutEscapingSlashes) { result.insert(.withoutEscapingSlashes) }
            self = result
        }
    }

    /// How `CodingKey`s become JSON keys, as `JSONEncoder.KeyEncodingStrategy`.
    ///
    /// Neither conversion applies to the keys of a `[String: T]`, as in Foundation.
    public enum KeyEncodingStrategy: Sendable {
        /// Keys are written as they are.
        case useDefaultKeys
        /// `myURLProperty` is written `my_url_property`, converted exactly as Foundation converts:
        /// words split where lowercase turns uppercase and before the last capital of a run of
        /// capitals, then lowercased and joined with `_`.
        case convertToSnakeCase
        /// The closure maps the coding path ending in a key to the key to write.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)

        /// Foundation's strategy.
        /// - Parameter strategy: A `JSONEncoder` key strategy.
        public init(_ strategy: JSONEncoder.KeyEncodingStrategy) {
            switch strategy {
            case .useDefaultKeys: self = .useDefaultKeys
            case .convertToSnakeCase: self = .convertToSnakeCase
            case .custom(let closure): self = .custom(closure)
            @unknown default: self = .useDefaultKeys
            }
        }
    }

    /// How a `Date` is written, as `JSONEncoder.DateEncodingStrategy`; it applies wherever the date
    /// is, in a property, an array or a dictionary.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `encode(to:)`: seconds since 2001 as a number.
        case deferredToDate
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
        /// An ISO 8601 (RFC 3339) string in UTC without fractional seconds, as Foundation writes it
        /// (`1970-01-01T00:00:01Z`).
        case iso8601
        /// The formatter's string.
        case formatted(DateFormatter)
        /// The closure writes the date to the encoder; writing nothing gives `{}`, as in Foundation.
        case custom(@Sendable (_ date: Date, _ encoder: any Swift.Encoder) throws -> Void)

        /// Foundation's strategy (on Linux its `.formatted` is a `.custom` closure, which works the
        /// same).
        /// - Parameter strategy: A `JSONEncoder` date strategy.
        public init(_ strategy: JSONEncoder.DateEncodingStrategy) {
            switch strategy {
            case .deferredToDate: self = .deferredToDate
            case .secondsSince1970: self = .secondsSince1970
            case .millisecondsSince1970: self = .millisecondsSince1970
            case .iso8601: self = .iso8601
            case .custom(let closure): self = .custom(closure)
            @unknown default: self = .deferredToDate
            }
        }
    }

    /// How `Data` is written, as `JSONEncoder.DataEncodingStrategy`.
    public enum DataEncodingStrategy: Sendable {
        /// `Data`'s own `encode(to:)`: an array of byte values.
        case deferredToData
        /// A Base64 string.
        case base64
        /// The closure writes the data to the encoder; writing nothing gives `{}`, as in Foundation.
        case custom(@Sendable (_ data: Data, _ encoder: any Swift.Encoder) throws -> Void)

        /// Foundation's strategy.
        /// - Parameter strategy: A `JSONEncoder` data strategy.
        public init(_ strategy: JSONEncoder.DataEncodingStrategy) {
            switch strategy {
            case .deferredToData: self = .deferredToData
            case .base64: self = .base64
            case .custom(let closure): self = .custom(closure)
            @unknown default: self = .base64
            }
        }
    }

    /// What to write for infinities and NaN, which JSON numbers cannot hold, as
    /// `JSONEncoder.NonConformingFloatEncodingStrategy`.
    public enum NonConformingFloatEncodingStrategy: Sendable {
        /// Throw `EncodingError.invalidValue` at the value's coding path.
        case `throw`
        /// Write these strings instead.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)

        /// Foundation's strategy.
        /// - Parameter strategy: A `JSONEncoder` non-conforming float strategy.
        public init(_ strategy: JSONEncoder.NonConformingFloatEncodingStrategy) {
            switch strategy {
            case .throw: self = .throw
            case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
                self = .convertToString(positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
            @unknown default: self = .throw
            }
        }
    }
}
