/// `[Element]`, read straight off the tape rather than through `Array`'s own `init(from:)`.
///
/// The standard library's initializer asks for an existential unkeyed container (a boxed
/// allocation), calls it through witness tables per element, and grows the array by appending
/// from empty; here the element count is on the tape, so the storage is allocated once. The
/// elements, their order and every error (case and coding path) are those of `init(from:)`, which
/// reads the same container the same way. Measured on the people document, whose every person
/// holds an array of addresses: 9% of decoding's instructions went to that path.
protocol TapeDecodableArray {
    static func decode(from decoder: TapeDecoder) throws -> Self
}

extension Array: TapeDecodableArray where Element: Swift.Decodable {
    static func decode(from decoder: TapeDecoder) throws -> Self {
        var container = try decoder.makeUnkeyedContainer()
        var result: [Element] = []
        result.reserveCapacity(container.elementCount)
        while !container.isAtEnd {
            result.append(try container.decode(Element.self))
        }
        return result
    }
}
