import Foundation

// Elevate 1.x and 2.x spellings of the calls that read JSON data (the others are in
// Schema/LegacyNames.swift); each deprecation names its replacement.

extension Parser {
    /// Elevate 1.x/2.x name of ``parseEntity(data:closure:)``.
    /// - Parameters:
    ///   - data: The JSON data.
    ///   - closure: Adds the properties to validate.
    /// - Returns: The entity, keyed by key path.
    /// - Throws: `ParserError`, as ``parseEntity(data:closure:)``.
    @available(*, deprecated, renamed: "parseEntity(data:closure:)")
    public static func parseProperties(data: Data, closure: (Schema) -> Void) throws -> [String: Any] {
        try parseEntity(data: data, closure: closure)
    }

    /// Elevate 1.x/2.x name of `Elevate.decodeObject(from:atKeyPath:)`.
    /// - Parameters:
    ///   - data: The JSON data.
    ///   - keyPath: Where the object is; `""` for the root.
    /// - Returns: The decoded object.
    /// - Throws: `ParserError`, as `Elevate.decodeObject(from:atKeyPath:)`.
    @available(*, deprecated, renamed: "Elevate.decodeObject(from:atKeyPath:)")
    public static func parseObject<T: Decodable>(data: Data, forKeyPath keyPath: String) throws -> T {
        try decodeObject(from: data, atKeyPath: keyPath)
    }

    /// Elevate 1.x/2.x name of `Elevate.decodeObject(from:atKeyPath:with:)`.
    /// - Parameters:
    ///   - data: The JSON data.
    ///   - keyPath: Where the object is; `""` for the root.
    ///   - decoder: The decoder that produces the object.
    /// - Returns: The decoded object.
    /// - Throws: `ParserError`, as `Elevate.decodeObject(from:atKeyPath:with:)`.
    @available(*, deprecated, renamed: "Elevate.decodeObject(from:atKeyPath:with:)")
    public static func parseObject<T>(data: Data, forKeyPath keyPath: String, withDecoder decoder: any Decoder) throws
        -> T
    {
        try decodeObject(from: data, atKeyPath: keyPath, with: decoder)
    }
}
