/// One property of a ``Schema``: where it is, what type it must have, and how to decode it.
public struct SchemaProperty {
    /// The key path of the property, as given to ``Schema/addProperty(keyPath:type:optional:)``.
    public let keyPath: String
    /// The JSON type the value must have.
    public let type: SchemaPropertyProtocol
    /// Whether a missing or `null` value is allowed (the key is then left out of the entity).
    public let optional: Bool
    /// The type that decodes the value (each element, for `.array`).
    public let decodableType: (any Decodable.Type)?
    /// The decoder that transforms the value (each element, for `.array`).
    public let decoder: (any Decoder)?

    /// The key path, parsed when a lookup needs it.
    var path: KeyPath { KeyPath(keyPath) }

    @inlinable
    init(
        keyPath: String, type: SchemaPropertyProtocol, optional: Bool,
        decodableType: (any Decodable.Type)?, decoder: (any Decoder)?, methodIdentity: ObjectIdentifier?
    ) {
        self.keyPath = keyPath
        self.type = type
        self.optional = optional
        self.decodableType = decodableType
        self.decoder = decoder
        self.methodIdentity = methodIdentity
    }

    /// The decodable type, or the decoder's type: what a plan compares (without copying the decoder).
    @usableFromInline let methodIdentity: ObjectIdentifier?

    /// Whether a decodable type or decoder is set.
    var hasDecodingMethod: Bool { methodIdentity != nil }

    /// How the property names its decoding method in error texts: `Address`, `DateDecoder`.
    var decodingMethodName: String? {
        if let decodableType { return String(describing: decodableType) }
        // Elevate names the decoder instance: a class prints as `Module.Decoder`.
        if let decoder { return String(describing: decoder) }
        return nil
    }
}
