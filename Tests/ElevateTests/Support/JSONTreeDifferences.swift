import Foundation

@testable import Elevate
@testable import ElevateJSON

/// The paths (`$.a[3].b`) at which a `JSONValueBuilder` tree differs from a `JSONSerialization`
/// tree, each with both values; empty when they are equivalent.
///
/// `JSONSerialization` gives `NSNumber`s, which also answer `as? Bool` and `as? Int` for any
/// number: its Booleans are told apart by their `objCType` (`c`). Numbers compare exactly when
/// both are integers and by `Double` value otherwise, so the `Int` `0` from `-0` equals our
/// `-0.0` (see the intentional-difference tests). A ``JSONLargeNumber`` equals an
/// `NSDecimalNumber` of the same decimal value, and a `Double` equals an `NSDecimalNumber` whose
/// nearest `Double` it is.
func jsonDifferences(_ ours: Any, _ theirs: Any, path: String = "$") -> [String] {
    func mismatch() -> [String] { ["\(path): ours \(describe(ours)), theirs \(describe(theirs))"] }

    if let object = ours as? [String: Any] {
        guard let other = theirs as? [String: Any] else { return mismatch() }
        var found: [String] = []
        for key in Set(object.keys).union(other.keys).sorted() {
            let child = "\(path).\(key)"
            switch (object[key], other[key]) {
            case (let a?, let b?): found += jsonDifferences(a, b, path: child)
            case (_?, nil): found.append("\(child): only ours")
            default: found.append("\(child): only theirs")
            }
        }
        return found
    }
    if let array = ours as? [Any] {
        guard let other = theirs as? [Any] else { return mismatch() }
        guard array.count == other.count else {
            return ["\(path): ours has \(array.count) elements, theirs \(other.count)"]
        }
        return zip(array, other).enumerated().flatMap { jsonDifferences($1.0, $1.1, path: "\(path)[\($0)]") }
    }
    if let string = ours as? String {
        return (theirs as? String) == string ? [] : mismatch()
    }
    if ours is NSNull {
        return theirs is NSNull ? [] : mismatch()
    }
    guard let number = theirs as? NSNumber else { return mismatch() }
    let theirsIsBool = String(cString: number.objCType) == "c"
    if type(of: ours) == Bool.self {
        return theirsIsBool && number.boolValue == (ours as! Bool) ? [] : mismatch()
    }
    if theirsIsBool { return mismatch() }
    if let large = ours as? JSONLargeNumber {
        guard let decimal = Decimal(string: large.text, locale: Locale(identifier: "en_US_POSIX")) else {
            return mismatch()
        }
        return number.decimalValue == decimal ? [] : mismatch()
    }
    if let decimal = number as? NSDecimalNumber {
        // Foundation on Linux keeps numbers whose digits a Double cannot hold (many of canada.json's
        // 17-digit coordinates) as decimals: ours must be the Double nearest to the same digits.
        let text = decimal.stringValue
        switch ours {
        case let value as Int: return String(value) == text ? [] : mismatch()
        case let value as UInt: return String(value) == text ? [] : mismatch()
        case let value as Double: return value == Double(text) ? [] : mismatch()
        default: return mismatch()
        }
    }
    let type = String(cString: number.objCType)
    let theirsIsInteger = type != "d" && type != "f"
    switch ours {
    case let value as Int where theirsIsInteger:
        return type == "Q"
            ? (value >= 0 && UInt64(value) == number.uint64Value ? [] : mismatch())
            : (Int64(value) == number.int64Value ? [] : mismatch())
    case let value as UInt where theirsIsInteger:
        return UInt64(value) == number.uint64Value ? [] : mismatch()
    case let value as Int:
        return Double(value) == number.doubleValue ? [] : mismatch()
    case let value as UInt:
        return Double(value) == number.doubleValue ? [] : mismatch()
    case let value as Double:
        let other =
            theirsIsInteger
            ? (type == "Q" ? Double(number.uint64Value) : Double(number.int64Value))
            : number.doubleValue
        return value == other ? [] : mismatch()
    default:
        return mismatch()
    }
}

private func describe(_ value: Any) -> String {
    if let number = value as? NSNumber, !(value is Int), !(value is Double), type(of: value) != Bool.self {
        return "\(type(of: value))(\(String(cString: number.objCType))) \(number)"
    }
    let text = String(describing: value)
    return "\(type(of: value)) " + (text.count > 60 ? text.prefix(60) + "…" : text)
}
