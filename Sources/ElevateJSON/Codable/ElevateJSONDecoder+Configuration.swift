import Foundation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ElevateJSONDecoder {
    /// Decodes a value of a type that needs a configuration to decode, as `JSONDecoder` does.
    ///
    /// ```swift
    /// let price = try decoder.decode(Price.self, from: data, configuration: currency)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The document's bytes.
    ///   - configuration: Handed to the type's `init(from:configuration:)`.
    /// - Returns: The value.
    /// - Throws: As ``decode(_:from:atKeyPath:)-(_,Data,_)``.
    public func decode<T: DecodableWithConfiguration>(
        _ type: T.Type, from data: Data, configuration: T.DecodingConfiguration
    ) throws -> T {
        let settings = currentSettings
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data, options: settings.parsingOptions)
        } catch {
            throw Self.invalidJSON(error)
        }
        return try Self.decodeRoot(of: document, settings: settings, source: .data(data)) { decoder in
            try type.init(from: decoder, configuration: configuration)
        }
    }

    /// Decodes a value of a type that needs a configuration to decode, taking the configuration
    /// from its provider, as `JSONDecoder` does.
    ///
    /// ```swift
    /// let price = try decoder.decode(Price.self, from: data, configuration: Euro.self)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The document's bytes.
    ///   - provider: Gives the configuration handed to the type's `init(from:configuration:)`.
    /// - Returns: The value.
    /// - Throws: As ``decode(_:from:atKeyPath:)-(_,Data,_)``.
    public func decode<T, Provider: DecodingConfigurationProviding>(
        _ type: T.Type, from data: Data, configuration provider: Provider.Type
    ) throws -> T where T: DecodableWithConfiguration, T.DecodingConfiguration == Provider.DecodingConfiguration {
        try decode(type, from: data, configuration: provider.decodingConfiguration)
    }
}
