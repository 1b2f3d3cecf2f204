/// The JSON type a schema property must have.
///
/// Conversions are strict where Elevate was lossy: `.int` rejects fractions and values outside
/// `Int`, `.uint` rejects negatives, `.float`/`.double` reject magnitudes they cannot hold, and
/// `.bool` accepts only `true`/`false`.
public enum SchemaPropertyProtocol: Sendable, Hashable {
    /// A JSON string; the entity holds a `String`.
    case string
    /// A non-negative integer up to `UInt.max`; the entity holds a `UInt`.
    case uint
    /// An integer in `Int`'s range (an integral number such as `3.0` counts); the entity holds an `Int`.
    case int
    /// A number within `Float`'s range; the entity holds a `Float`.
    case float
    /// A number within `Double`'s range; the entity holds a `Double`.
    case double
    /// `true` or `false`; the entity holds a `Bool`.
    case bool
    /// A JSON array; the entity holds `[Any]`, or the decoded elements.
    case array
    /// A JSON object; the entity holds `[String: Any]`, or the decoded object.
    case dictionary
    /// A string that is a valid URL (RFC 3986, checked the same way on every platform);
    /// the entity holds a `URL`.
    case url
}
