/// A JSON number that no 64-bit type holds — an integer beyond `UInt.max` or below `Int.min`,
/// an exponent that would overflow to infinity or underflow to zero, or a non-integer whose nearest
/// `Double` is an integer (`1.00000000000000011`) — kept as its exact text.
///
/// ``JSONValueBuilder`` puts one in the tree where `JSONSerialization` would round or wrap.
public struct JSONLargeNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in the JSON text.
    public let text: String

    /// Creates a large number from its JSON text.
    /// - Parameter text: The number's JSON text, kept as is (not checked).
    public init(text: String) {
        self.text = text
    }

    /// The nearest `Double`, or nil when the magnitude overflows to infinity or underflows to zero.
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        if value == 0 {
            // A zero is real only when no digit before the exponent is non-zero.
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            if mantissa.contains(where: { ("1"..."9").contains($0) }) { return nil }
        }
        return value
    }

    /// The JSON text.
    public var description: String { text }
}
