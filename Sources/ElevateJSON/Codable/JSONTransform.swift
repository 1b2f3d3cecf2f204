import Foundation

/// How a ``JSONKeyPathDecodable`` property is read from a JSON value of another shape: a string
/// that holds a number, a date in a format of its own, a value computed from an array — Ladybug's
/// transformers.
///
/// A transform is given the value at the property's key path (or at its own name) as a
/// ``JSONValue`` and returns the property's value, or nil when it has none. It runs while the
/// type decodes, in the same single pass; its errors name the property's coding key and key path.
///
/// ```swift
/// // {"count": "100", "july4th": "7/4/1776", "y2k": 946684800, "values": [1, 1, 2, 3, 5]}
/// struct Sample: Codable, JSONKeyPathDecodable {
///     var count: Int
///     var july4th: Date
///     var y2k: Date
///     var sum: Int
///
///     static let keyPaths = ["sum": "values"]
///     static let transforms: [String: JSONTransform] = [
///         "count": JSONTransform { Int($0.string ?? "") },
///         "july4th": .date(format: "M/d/yyyy"),
///         "y2k": .secondsSince1970,
///         "sum": .decoding([Int].self) { $0.reduce(0, +) },
///     ]
/// }
/// ```
public struct JSONTransform: Sendable {
    let apply: @Sendable (JSONValue) throws -> (any Sendable)?
    /// A name for messages (`"a date in the format M/d/yyyy"`).
    let name: String

    /// A transform that reads the property's value from the JSON value with `transform`.
    ///
    /// The value it returns must be of the property's type (`Int` for an `Int` or `Int?`
    /// property), or decoding throws `typeMismatch`. Returning nil makes a required property's
    /// decoding fail and an optional property nil. What it throws fails decoding, as
    /// `dataCorrupted` with the error as its underlying error.
    /// - Parameter transform: From the JSON value (never missing or `null`: those take the
    ///   property's default, or make it nil or missing) to the property's value.
    public init<Value: Sendable>(_ transform: @escaping @Sendable (JSONValue) throws -> Value?) {
        apply = { try transform($0) }
        name = "a transform to \(Value.self)"
    }

    private init(name: String, _ apply: @escaping @Sendable (JSONValue) throws -> (any Sendable)?) {
        self.apply = apply
        self.name = name
    }

    /// A transform that decodes the JSON value as `type` (with a default ``ElevateJSONDecoder``),
    /// then makes the property's value from it: a value computed from a JSON value of another
    /// shape, such as the sum of an array.
    /// - Parameters:
    ///   - type: The type the JSON value has, such as `[Int].self`.
    ///   - transform: From the decoded value to the property's value, or nil when there is none.
    /// - Returns: The transform; a value that does not decode as `type` fails with its
    ///   `DecodingError` as the underlying error.
    public static func decoding<Decoded: Swift.Decodable, Value: Sendable>(
        _ type: Decoded.Type, _ transform: @escaping @Sendable (Decoded) throws -> Value?
    ) -> JSONTransform {
        JSONTransform(name: "a transform of \(Decoded.self) to \(Value.self)") { value -> (any Sendable)? in
            try transform(try ElevateJSONDecoder().decode(type, from: value))
        }
    }

    /// A date from a number of seconds since 1970-01-01T00:00:00Z (a UNIX timestamp).
    public static let secondsSince1970 = JSONTransform(name: "seconds since 1970") { value -> (any Sendable)? in
        value.double.map { Date(timeIntervalSince1970: $0) }
    }

    /// A date from a number of milliseconds since 1970-01-01T00:00:00Z.
    public static let millisecondsSince1970 = JSONTransform(name: "milliseconds since 1970") { value -> (any Sendable)? in
        value.double.map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    /// A date from RFC 3339 text, with or without fractional seconds (`2026-11-27T15:14:08Z`,
    /// `2026-11-27T15:14:08.123+01:00`).
    public static let iso8601 = JSONTransform(name: "an ISO 8601 date") { value -> (any Sendable)? in
        guard let text = value.string else { return nil }
        return (try? Date.ISO8601FormatStyle().parse(text))
            ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
    }

    /// A date from a string in a `DateFormatter` format, read with the `en_US_POSIX` locale.
    ///
    /// Formatters are lent from a pool, to one thread at a time; numeric formats (`yyyy-MM-dd`, `MM-dd-yyyy HH:mm`, …) in
    /// a fixed-offset zone such as UTC are read without it, with the same results.
    /// - Parameters:
    ///   - format: The format, such as `"MM-dd-yyyy"`.
    ///   - timeZone: The zone of dates without one in their text; UTC by default (not the
    ///     process's zone, so that a date reads the same on every machine).
    /// - Returns: The transform.
    public static func date(format: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> JSONTransform {
        let offset = FixedDatePattern.fixedOffset(of: timeZone)
        let pattern = offset == nil ? nil : FixedDatePattern.cached(for: format)
        return JSONTransform(name: "a date in the format \(format)") { value -> (any Sendable)? in
            guard let text = value.string else { return nil }
            if let pattern, let offset, let date = pattern.date(from: text, offsetSeconds: offset) { return date }
            return DateFormatterPool.shared.date(from: text, format: format, timeZone: timeZone)
        }
    }
}
