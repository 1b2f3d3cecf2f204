/// An element decoded by a ``Decodable`` type (handed a view, see ``ViewHandOff``).
@inline(__always)
func decodeElement<T: Decodable>(_ element: JSONValue, as type: T.Type) throws -> T {
    try ViewHandOff.decode(element, by: ObjectIdentifier(T.self)) { try T(json: $0) }
}

/// An element decoded by a ``Decoder`` (handed a view, see ``ViewHandOff``) as a `T`.
@inline(__always)
func decodeElement<T>(_ element: JSONValue, with decoder: any Decoder, keyPath: String) throws -> T {
    let decoded = try ViewHandOff.decode(element, by: ObjectIdentifier(type(of: decoder))) { try decoder.decode($0) }
    return try typedResult(decoded, keyPath: keyPath, method: type(of: decoder))
}

/// The decoded value as a `T`, or a validation error naming both types.
func typedResult<T>(_ value: Any?, keyPath: String, method: Any.Type) throws -> T {
    guard let value else {
        throw ParserError.validation(failureReason: FailureText.missing(keyPath))
    }
    guard let typed = value as? T else {
        throw ParserError.validation(
            failureReason: "Decoder [\(method)] returned \(type(of: value)), not the requested \(T.self)")
    }
    return typed
}
