import Foundation

// Elevate 1.x and 2.x spellings, kept so that old code still compiles; each deprecation names
// its replacement, and Xcode and SourceKit-LSP offer it as a fix-it.

extension Parser {
    /// Elevate 1.x/2.x name of ``parseEntity(json:closure:)``.
    /// - Parameters:
    ///   - json: An already parsed JSON value.
    ///   - closure: Adds the properties to validate.
    /// - Returns: The entity, keyed by key path.
    /// - Throws: `ParserError`, as ``parseEntity(json:closure:)``.
    @available(*, deprecated, renamed: "parseEntity(json:closure:)")
    public static func parseProperties(json: Any, closure: (Schema) -> Void) throws -> [String: Any] {
        try parseEntity(json: json, closure: closure)
    }
}

extension Schema {
    /// Elevate 1.x/2.x name of ``addProperty(keyPath:type:optional:)`` and its decoder form.
    /// - Parameters:
    ///   - keyPath: Where the value is.
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    ///   - decoder: The decoder that transforms the value, if any.
    /// - Returns: The property added.
    @available(*, deprecated, renamed: "addProperty(keyPath:type:optional:decoder:)")
    @discardableResult
    public func propertyForKeyPath(
        _ keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false, decoder: (any Decoder)? = nil
    ) -> SchemaProperty {
        addProperty(keyPath: keyPath, type: type, optional: optional, decoder: decoder)
    }

    /// Elevate 1.x/2.x name of ``addProperty(keyPath:type:optional:decodableType:)``.
    /// - Parameters:
    ///   - keyPath: Where the value is.
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    ///   - decodedToType: The type that decodes the value (each element, for `.array`).
    /// - Returns: The property added.
    @available(*, deprecated, renamed: "addProperty(keyPath:type:optional:decodableType:)")
    @discardableResult
    public func propertyForKeyPath(
        _ keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false, decodedToType: any Decodable.Type
    ) -> SchemaProperty {
        addProperty(keyPath: keyPath, type: type, optional: optional, decodableType: decodedToType)
    }
}

// Swift looks members up before module-level types, so these capitalized names would shadow
// `Int`, `String`, … inside the enum: they live in this extension, which refers to no type by name.
extension SchemaPropertyProtocol {
    /// Elevate 1.x/2.x spelling of ``string``.
    @available(*, deprecated, renamed: "string") public static var `String`: Self { .string }
    /// Elevate 1.x/2.x spelling of ``uint``.
    @available(*, deprecated, renamed: "uint") public static var `UInt`: Self { .uint }
    /// Elevate 1.x/2.x spelling of ``int``.
    @available(*, deprecated, renamed: "int") public static var `Int`: Self { .int }
    /// Elevate 1.x/2.x spelling of ``float``.
    @available(*, deprecated, renamed: "float") public static var `Float`: Self { .float }
    /// Elevate 1.x/2.x spelling of ``double``.
    @available(*, deprecated, renamed: "double") public static var `Double`: Self { .double }
    /// Elevate 1.x/2.x spelling of ``bool``.
    @available(*, deprecated, renamed: "bool") public static var `Bool`: Self { .bool }
    /// Elevate 1.x/2.x spelling of ``array``.
    @available(*, deprecated, renamed: "array") public static var `Array`: Self { .array }
    /// Elevate 1.x/2.x spelling of ``dictionary``.
    @available(*, deprecated, renamed: "dictionary") public static var `Dictionary`: Self { .dictionary }
    /// Elevate 1.x/2.x spelling of ``url``.
    @available(*, deprecated, renamed: "url") public static var `URL`: Self { .url }
}
