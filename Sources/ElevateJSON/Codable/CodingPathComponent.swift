/// One step of a coding path, kept unmaterialized while decoding succeeds.
///
/// The decoder keeps its path as a stack of these: pushing a user's `CodingKey` (usually a small enum,
/// stored inline in the existential) or an index allocates nothing, and `[CodingKey]` is built only
/// when someone reads `codingPath` or an error is thrown.
enum CodingPathComponent {
    case key(any CodingKey)
    case index(Int)

    /// The component as Foundation's coding paths hold it (an index as `"Index 3"`).
    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): IndexCodingKey(index)
        }
    }
}

/// A coding key made from a string: JSON keys in `allKeys` under a custom key strategy, key-path
/// components, `super`.
package struct StringCodingKey: CodingKey, Sendable {
    package var stringValue: String
    package var intValue: Int? { nil }

    package init(_ stringValue: String) { self.stringValue = stringValue }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }

    /// The key `superDecoder()` reads, as in Foundation.
    static let `super` = StringCodingKey("super")
}

/// The coding key of an array element, spelled as Foundation spells it (`"Index 3"`).
package struct IndexCodingKey: CodingKey, Sendable {
    package var intValue: Int?
    package var stringValue: String { "Index \(intValue ?? 0)" }

    package init(_ index: Int) { intValue = index }
    package init?(stringValue: String) { nil }
    package init?(intValue: Int) { self.intValue = intValue }
}
