/// A single-value container of this library's encoder, which can write JSON number text as it is:
/// how a ``JSON`` number beyond `Double` and `Decimal` (``JSONNumber/large(_:)``) is encoded
/// exactly, as ``JSONWriter`` writes it, where another encoder only takes a `Decimal`.
protocol ExactNumberTextEncoding {
    /// Writes `text`, which must already be a valid JSON number, as the value.
    func encodeNumberText(_ text: String) throws
}
