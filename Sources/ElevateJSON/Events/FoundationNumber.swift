import Foundation

/// What an `NSNumber` of a Foundation value tree (from `JSONSerialization`, or built by hand)
/// holds, told the one way every part of the library tells it: the mutable ``JSON``, the writer
/// and Elevate's schema.
///
/// A Boolean only when it was made from a `Bool`: its class says so, not its type code, which an
/// `Int8` and a `BOOL` share (`c`). An `NSDecimalNumber` is its exact decimal. Otherwise the type
/// code tells a `Float` (kept as the decimal it prints as, `0.1`, not the `Double` nearest its
/// binary value), a `Double`, and unsigned and signed integers.
package enum FoundationNumber {
    case bool(Bool)
    case decimal(Decimal)
    case float(Float)
    case double(Double)
    case unsigned(UInt64)
    case signed(Int64)

    /// The number `value` holds; nil when `value` is not an `NSNumber` (a Swift `Int`, `Double`
    /// or `Bool` in an `Any` is not one here: it is never bridged to find out).
    package init?(_ value: Any) {
        guard type(of: value) is NSNumber.Type, let number = value as? NSNumber else { return nil }
        if ObjectIdentifier(type(of: number)) == Self.booleanClass {
            self = .bool(number.boolValue)
        } else if let decimal = number as? NSDecimalNumber {
            self = .decimal(decimal.decimalValue)
        } else {
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "f"): self = .float(number.floatValue)
            case UInt8(ascii: "d"): self = .double(number.doubleValue)
            case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
                self = .unsigned(number.uint64Value)
            default: self = .signed(number.int64Value)
            }
        }
    }

    /// The class of `NSNumber(value: true)`, which Foundation gives every Boolean `NSNumber`.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// A `Float` as the `Double` of the decimal text it prints as (`0.1` for `Float(0.1)`), which is
    /// what a JSON document holding it says.
    package static func double(_ float: Float) -> Double {
        Double(float.description) ?? Double(float)
    }
}
