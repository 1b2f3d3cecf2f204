/// What sits at a key path, and how many children it has.
public struct JSONContainerSummary: Sendable, Hashable {
    /// The kind of value found.
    public enum Kind: Sendable, Hashable {
        /// An array; `count` is its number of elements.
        case array
        /// An object; `count` is its number of members.
        case object
        /// A string, number, Boolean or null; `count` is 0.
        case scalar
    }

    /// The kind of value found.
    public var kind: Kind
    /// Elements of an array or members of an object.
    public var count: Int

    /// Creates a summary, as ``summarizeValue(from:atKeyPath:options:)`` returns it (for tests and
    /// test doubles of code that takes one).
    /// - Parameters:
    ///   - kind: The kind of value found.
    ///   - count: Elements of an array or members of an object; 0 for a scalar.
    public init(kind: Kind, count: Int) {
        self.kind = kind
        self.count = count
    }
}
