import Foundation

/// A type that represents itself as a JSON value: `[String: Any]`, `[Any]`, `String`, a number,
/// `Bool` or `NSNull`, ready for `JSONWriter` or `JSONSerialization`.
///
/// Write `Elevate.Encodable` where Swift's own `Encodable` is also in scope. It refines
/// `JSONRepresentable`, which is how the writer finds these values inside a value tree.
public protocol Encodable: JSONRepresentable {
    /// The JSON value of this instance.
    var json: Any { get }
}

extension String: Encodable {
    /// The string itself.
    public var json: Any { self }
}

extension Int: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension Int8: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension Int16: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension Int32: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension Int64: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension UInt: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension UInt8: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension UInt16: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension UInt32: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension UInt64: Encodable {
    /// The integer itself.
    public var json: Any { self }
}

extension Float: Encodable {
    /// The number itself.
    public var json: Any { self }
}

extension Double: Encodable {
    /// The number itself.
    public var json: Any { self }
}

extension Bool: Encodable {
    /// The Boolean itself.
    public var json: Any { self }
}

extension URL: Encodable {
    /// The URL's absolute string.
    public var json: Any { absoluteString }
}

extension Array where Element: Encodable {
    /// The JSON values of the elements, in order.
    public var json: Any { map { $0.json } }
}

extension Set where Element: Encodable {
    /// The JSON values of the elements, as an array.
    public var json: Any { map { $0.json } }
}

extension Dictionary where Key: Encodable, Value: Encodable {
    /// The JSON values of the values, under the same keys; a non-string key is written as the
    /// text of its JSON value (`1` becomes `"1"`), since JSON object keys are strings. Keys meant
    /// for JSON should be strings, integers or Booleans: other keys may print alike and collide.
    public var json: Any {
        var object = [String: Any](minimumCapacity: count)
        for (key, value) in self {
            let keyJSON = key.json
            object[(keyJSON as? String) ?? "\(keyJSON)"] = value.json
        }
        return object
    }
}
