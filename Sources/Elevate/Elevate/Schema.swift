/// The properties ``Parser/parseEntity(data:closure:)`` validates, in the order they were added.
///
/// ```swift
/// let entity = try Parser.parseEntity(data: data) { schema in
///     schema.addProperty(keyPath: "name", type: .string)
///     schema.addProperty(keyPath: "age", type: .uint, optional: true)
///     schema.addProperty(keyPath: "born", type: .string, decoder: DateDecoder(dateFormatString: "yyyy-MM-dd"))
///     schema.addProperty(keyPath: "addresses", type: .array, decodableType: Address.self)
/// }
/// ```
public final class Schema {
    /// The properties added so far, in order.
    public var properties: [SchemaProperty] { storage }

    /// A schema is built for every decoded entity and never shared while being built; decoding
    /// reuses one per nesting level and thread (see ``SchemaPool``), so that building it
    /// allocates nothing.
    @exclusivity(unchecked) var storage: [SchemaProperty] = []

    init() {
        storage.reserveCapacity(8)
    }

    /// Adds a property whose value is kept as its JSON type.
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is, from the entity's root (`"response.items"`).
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    /// - Returns: The property added.
    @discardableResult
    public func addProperty(keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false) -> SchemaProperty {
        append(
            SchemaProperty(
                keyPath: keyPath, type: type, optional: optional, decodableType: nil, decoder: nil, methodIdentity: nil))
    }

    /// Adds a property decoded by a ``Decodable`` type (each element, for `.array`).
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is, from the entity's root (`"response.items"`).
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    ///   - decodableType: The type that decodes the value; `nil` keeps the value as its JSON type.
    /// - Returns: The property added.
    @discardableResult
    public func addProperty(
        keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false, decodableType: (any Decodable.Type)?
    ) -> SchemaProperty {
        append(
            SchemaProperty(
                keyPath: keyPath, type: type, optional: optional, decodableType: decodableType, decoder: nil,
                methodIdentity: decodableType.map { ObjectIdentifier($0) })
        )
    }

    /// Adds a property transformed by a ``Decoder`` (each element, for `.array`).
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is, from the entity's root (`"response.items"`).
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    ///   - decoder: The decoder that transforms the value; `nil` keeps the value as its JSON type.
    /// - Returns: The property added.
    @discardableResult
    public func addProperty(
        keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false, decoder: (any Decoder)?
    ) -> SchemaProperty {
        // The identity is taken from the parameter: reading it back from the stored existential copies it.
        let identity = decoder.map { ObjectIdentifier(Swift.type(of: $0)) }
        return append(
            SchemaProperty(
                keyPath: keyPath, type: type, optional: optional, decodableType: nil, decoder: decoder,
                methodIdentity: identity))
    }

    private func append(_ property: SchemaProperty) -> SchemaProperty {
        storage.append(property)
        return property
    }
}
