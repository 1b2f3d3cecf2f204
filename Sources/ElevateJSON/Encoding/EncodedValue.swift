/// A value held back from the generator: the whole document when keys must be sorted or the
/// streaming pass gave up, or a nested container and `superEncoder` target while streaming (see
/// ``EncodingStream``).
///
/// Containers are classes because Encoder semantics are by reference: a nested container obtained
/// earlier can still be written to, and its writes must show up where it sits in its parent.
enum EncodedValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    /// JSON number text that is already valid.
    case number(String)
    case string(String)
    case object(EncodedObject)
    case array(EncodedArray)
    /// The value a `superEncoder` writes, filled in when it does.
    case slot(EncodedSlot)

    /// An integer of any width, exactly: its digits when no 64-bit type holds it (`Int128`).
    static func exactInteger(_ value: some BinaryInteger) -> EncodedValue {
        if let small = Int64(exactly: value) { return .integer(small) }
        if let unsigned = UInt64(exactly: value) { return .unsigned(unsigned) }
        return .number(String(value))
    }
}

/// An object's members in the order first written; writing a key again replaces its value in place,
/// as `JSONEncoder`'s dictionary does.
final class EncodedObject {
    private(set) var keys: [String] = []
    private(set) var values: [EncodedValue] = []
    /// Built once the object is too large for a linear search to stay cheap.
    private var positions: [String: Int]?
    /// Set once the object's text was written; a write after that cannot reach the output.
    var isSealed = false

    private static let linearSearchLimit = 16

    func value(forKey key: String) -> EncodedValue? {
        position(of: key).map { values[$0] }
    }

    func set(_ key: String, _ value: EncodedValue) {
        if let position = position(of: key) {
            values[position] = value
            return
        }
        keys.append(key)
        values.append(value)
        if positions != nil {
            positions![key] = keys.count - 1
        } else if keys.count > Self.linearSearchLimit {
            positions = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
        }
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return keys.firstIndex(of: key)
    }
}

/// An array's elements.
final class EncodedArray {
    var elements: [EncodedValue] = []
    /// Set once the array's text was written.
    var isSealed = false
}

/// The place a `superEncoder` writes to.
final class EncodedSlot {
    var value: EncodedValue?
    /// Set once the slot's text was written.
    var isSealed = false
}
