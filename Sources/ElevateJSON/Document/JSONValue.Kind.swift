extension JSONValue {
    /// The six kinds of JSON value.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// `{…}`.
        case object
        /// `[…]`.
        case array
        /// `"…"`.
        case string
        /// A number: an exact `Int`, `UInt` or `Double`, or text too large for any (see ``JSONNumber``).
        case number
        /// `true` or `false`.
        case bool
        /// `null`.
        case null
    }
}
