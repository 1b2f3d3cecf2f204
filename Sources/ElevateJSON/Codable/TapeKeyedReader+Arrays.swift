/// Arrays read for ``TapeKeyedDecodingContainer``, whose inlined `decode(_:forKey:)` of an array
/// builds the `[Element]` in its caller's module: there `Element` is known, so the array's storage
/// needs no runtime metadata lookup (three per array in a generic `Array.decode`, measured at a
/// tenth of decoding the people document), and each element is appended without a generic copy.
extension TapeKeyedReader {
    /// How ``readElements(forKey:ifPresent:_:)`` went.
    @usableFromInline
    enum ArrayRead {
        /// The elements were handed to the body.
        case read
        /// Missing or null, for `decodeIfPresent`: nil.
        case absent
        /// A key path or transform applies: decode through the general path instead.
        case general
    }

    /// Hands `body` the elements of the array at `key`, with the decoder exactly where
    /// `decode([Element].self, forKey:)` puts it: the same path, the same checks, the same errors
    /// (a missing key, a null, a value that is not an array), each element decoded as the standard
    /// unkeyed container decodes it.
    /// - Parameters:
    ///   - key: The key.
    ///   - ifPresent: Whether a missing key or a null is `.absent` (`decodeIfPresent`).
    ///   - body: Reads the elements.
    /// - Returns: What happened; `.general` without touching anything.
    @usableFromInline
    func readElements<Key: CodingKey>(
        forKey key: Key, ifPresent: Bool, _ body: (inout TapeElements) throws -> Void
    ) throws -> ArrayRead {
        guard plan == nil else { return .general }
        guard let valueIndex = decoder.member(named: key.stringValue, in: object, site) else {
            if ifPresent { return .absent }
            return try missing(ArrayRead.self, key)
        }
        if ifPresent, decoder.tape.kind(at: valueIndex) == .null { return .absent }
        try decoder.withChild(at: valueIndex, site, .key(key)) {
            var elements = TapeElements(container: try decoder.makeUnkeyedContainer())
            try body(&elements)
        }
        return .read
    }

}

/// The elements of an array being read for ``TapeKeyedDecodingContainer``.
@usableFromInline
struct TapeElements {
    var container: TapeUnkeyedContainer

    /// How many elements the array has.
    @usableFromInline var count: Int { container.elementCount }

    /// The next element, decoded as the standard unkeyed container decodes it, or nil at the end.
    @usableFromInline
    mutating func next<Element: Swift.Decodable>(_ type: Element.Type) throws -> Element? {
        container.isAtEnd ? nil : try container.decode(type)
    }
}
