extension JSON {
    /// A typed read or a conversion that failed, with the full path to the value.
    ///
    /// ```swift
    /// do { _ = try json.string(at: "items", 3, "name") } catch let error as JSON.AccessError {
    ///     print(error)  // items[3].name: expected a string, found a number
    /// }
    /// ```
    public struct AccessError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        public enum Reason: Sendable, Hashable {
            /// Nothing at the path: a missing key, an index out of range, or a step into `null`.
            case missing
            /// A value of another kind (or a number the type cannot hold exactly) is there, or on
            /// the way: a key looked up in an array or a scalar, an index in an object or a scalar.
            case typeMismatch(expected: String, found: String)
            /// A Foundation value that has no JSON form (a `Date`, a custom class), by type name.
            case unsupportedType(String)
            /// A value that is there, of the right type, that a check refused
            /// (``JSON/assert(_:_:at:)``), with what is wrong.
            case invalid(String)
        }

        /// The path to the value, as `items[3].name` (`""` for the root).
        public var path: String
        /// What went wrong.
        public var reason: Reason

        /// Creates an error.
        /// - Parameters:
        ///   - path: The path to the value.
        ///   - reason: What went wrong.
        public init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        /// `"items[3].name: expected a string, found a number"`.
        public var description: String {
            let place = path.isEmpty ? "root" : path
            switch reason {
            case .missing: return "\(place): missing"
            case .typeMismatch(let expected, let found): return "\(place): expected \(expected), found \(found)"
            case .unsupportedType(let type): return "\(place): \(type) has no JSON representation"
            case .invalid(let message): return "\(place): \(message)"
            }
        }
    }
}

/// One step of a path into a ``JSON`` value: a key or an index, written as a literal.
///
/// ```swift
/// try json.string(at: "items", 3, "name")
/// ```
public enum JSONPathComponent: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// An object member.
    case key(String)
    /// An array element.
    case index(Int)

    /// A key.
    /// - Parameter value: The key.
    public init(stringLiteral value: String) { self = .key(value) }
    /// An index.
    /// - Parameter value: The index.
    public init(integerLiteral value: Int) { self = .index(value) }

    /// A path as text: `items[3].name`.
    static func text(_ path: some Sequence<JSONPathComponent>) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
