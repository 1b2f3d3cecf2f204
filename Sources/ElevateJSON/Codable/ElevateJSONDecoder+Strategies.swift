import Foundation

// The strategies have Foundation's case names and meanings, so `decoder.dateDecodingStrategy =
// .formatted(formatter)` reads as it does with `JSONDecoder`. They are types of their own because
// Foundation on Linux makes `.formatted` a `.custom` closure, which hides the formatter from the
// fast path; each converts from Foundation's type, so a configured strategy can still be shared.

extension ElevateJSONDecoder {
    /// How JSON keys map to `CodingKey`s, as `JSONDecoder.KeyDecodingStrategy`.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are matched as they are.
        case useDefaultKeys
        /// `first_name` matches `firstName`, converted exactly as Foundation converts.
        case convertFromSnakeCase
        /// The closure maps the coding path ending in a JSON key to the key to match.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)

        /// Foundation's strategy.
        /// - Parameter strategy: A `JSONDecoder` key strategy.
        public init(_ strategy: JSONDecoder.KeyDecodingStrategy) {
            switch strategy {
            case .useDefaultKeys: self = .useDefaultKeys
            case .convertFromSnakeCase: self = .convertFromSnakeCase
            case .custom(let closure): self = .custom(closure)
            @unknown default: self = .useDefaultKeys
            }
        }
    }

    /// How a `Date` is read, as `JSONDecoder.DateDecodingStrategy`.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `init(from:)`: seconds since 2001 as a number.
        case deferredToDate
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
        /// An ISO 8601 (RFC 3339) string, as Foundation parses it.
        case iso8601
        /// A string the formatter parses; see ``ElevateJSONDecoder/dateDecodingStrategy`` for the
        /// fast path.
        case formatted(DateFormatter)
        /// The closure reads the date from the decoder.
        case custom(@Sendable (_ decoder: any Swift.Decoder) throws -> Date)

        /// Foundation's strategy (on Linux its `.formatted` is a `.custom` closure, so it loses the
        /// fast path; use ``formatted(_:)`` directly for that).
        /// - Parameter strategy: A `JSONDecoder` date strategy.
        public init(_ strategy: JSONDecoder.DateDecodingStrategy) {
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

    /// How `Data` is read, as `JSONDecoder.DataDecodingStrategy`.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `init(from:)`: an array of bytes.
        case deferredToData
        /// A Base64 string.
        case base64
        /// The closure reads the data from the decoder.
        case custom(@Sendable (_ decoder: any Swift.Decoder) throws -> Data)

        /// Foundation's strategy.
        /// - Parameter strategy: A `JSONDecoder` data strategy.
        public init(_ strategy: JSONDecoder.DataDecodingStrategy) {
            switch strategy {
            case .deferredToData: self = .deferredToData
            case .base64: self = .base64
            case .custom(let closure): self = .custom(closure)
            @unknown default: self = .base64
            }
        }
    }

    /// Which strings stand for infinities and NaN, as `JSONDecoder.NonConformingFloatDecodingStrategy`.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// Only numbers are `Float`s and `Double`s.
        case `throw`
        /// These exact strings are read as infinity, negative infinity and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)

        /// Foundation's strategy.
        /// - Parameter strategy: A `JSONDecoder` non-conforming float strategy.
        public init(_ strategy: JSONDecoder.NonConformingFloatDecodingStrategy) {
            switch strategy {
            case .throw: self = .throw
            case .convertFromString(let positiveInfinity, let negativeInfinity, let nan):
                self = .convertFromString(positiveInfinity: positiveInfinity, negativeInfinity: negativeInfinity, nan: nan)
            @unknown default: self = .throw
            }
        }
    }
}
