import Elevate

import class Foundation.NSNull

/// Whether two trees in `JSONSerialization`'s shape (`[String: Any]`, `[Any]`, `String`, `Int`,
/// `UInt`, `Double`, `Bool`, `NSNull`, `JSONLargeNumber`) are the same JSON value.
///
/// Types must match exactly, with no bridging: `1` (`Int`) is not `1.0` (`Double`), and `-0.0`
/// is not `0.0`. Doubles compare by bit pattern (NaN cannot come out of the parser).
public func sameJSON(_ a: Any, _ b: Any) -> Bool {
    switch (a, b) {
    case (let a as [String: Any], let b as [String: Any]):
        guard a.count == b.count else { return false }
        for (key, value) in a {
            guard let other = b[key], sameJSON(value, other) else { return false }
        }
        return true
    case (let a as [Any], let b as [Any]):
        return a.count == b.count && zip(a, b).allSatisfy { sameJSON($0, $1) }
    case (let a as String, let b as String):
        // Swift's String equality is canonical equivalence; JSON strings are equal only byte for byte.
        return Array(a.utf8) == Array(b.utf8)
    case (let a as Bool, let b as Bool):
        return a == b
    case (let a as Int, let b as Int):
        return a == b
    case (let a as UInt, let b as UInt):
        return a == b
    case (let a as Double, let b as Double):
        return a.bitPattern == b.bitPattern
    case (is NSNull, is NSNull):
        return true
    case (let a as JSONLargeNumber, let b as JSONLargeNumber):
        return a == b
    default:
        return false
    }
}

/// A short dump of a tree for failure messages, with each leaf's type.
public func describeJSON(_ value: Any) -> String {
    switch value {
    case let object as [String: Any]:
        let members = object.keys.sorted().map { "\($0.debugDescription): \(describeJSON(object[$0]!))" }
        return "{" + members.joined(separator: ", ") + "}"
    case let array as [Any]:
        return "[" + array.map(describeJSON).joined(separator: ", ") + "]"
    case let string as String:
        return string.debugDescription
    default:
        return "\(value) as \(type(of: value))"
    }
}
