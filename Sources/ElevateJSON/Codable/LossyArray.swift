/// An array property that keeps the elements that decode and drops the others, instead of failing
/// the whole model: for a lossy array inside a model (``decodeLossyArray(from:atKeyPath:as:decoder:options:)``
/// is the form for an array at a key path, with the failures).
///
/// ```swift
/// struct Feed: Codable {
///     @LossyArray var posts: [Post]   // a post of a shape Post does not know is left out
/// }
/// ```
///
/// It works with any decoder (`JSONDecoder` too). A missing key or `null` is still an error, as for
/// a plain array; an element that throws something other than a `DecodingError` still fails the
/// model. It encodes as the array it holds.
@propertyWrapper
public struct LossyArray<Element> {
    /// The elements that decoded, in order.
    public var wrappedValue: [Element]

    /// Wraps an array.
    /// - Parameter wrappedValue: The elements.
    public init(wrappedValue: [Element]) {
        self.wrappedValue = wrappedValue
    }
}

extension LossyArray: Swift.Decodable where Element: Swift.Decodable {
    /// Decodes each element that decodes; an element whose decode throws a `DecodingError` is
    /// skipped.
    /// - Parameter decoder: The decoder, at the array.
    /// - Throws: `DecodingError` when the value is not an array; what an element's `init(from:)`
    ///   throws other than a `DecodingError`.
    public init(from decoder: any Swift.Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd {
            do {
                elements.append(try container.decode(Element.self))
            } catch is DecodingError {
                // A failed decode leaves the container at the element: step over it.
                _ = try container.decode(Skipped.self)
            }
        }
        wrappedValue = elements
    }

    /// Any value, read as nothing.
    private struct Skipped: Swift.Decodable {
        init(from decoder: any Swift.Decoder) throws {}
    }
}

extension LossyArray: Swift.Encodable where Element: Swift.Encodable {
    /// Encodes the elements as an array.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the elements' `encode(to:)` throws.
    public func encode(to encoder: any Swift.Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension LossyArray: Equatable where Element: Equatable {}
extension LossyArray: Hashable where Element: Hashable {}
extension LossyArray: Sendable where Element: Sendable {}
