import Foundation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ElevateJSONEncoder {
    /// Encodes a value of a type that needs a configuration to encode, as `JSONEncoder` does.
    ///
    /// ```swift
    /// let data = try encoder.encode(price, configuration: currency)
    /// ```
    /// - Parameters:
    ///   - value: The value.
    ///   - configuration: Handed to the value's `encode(to:configuration:)`.
    /// - Returns: The JSON text in UTF-8.
    /// - Throws: As ``encode(_:)``.
    public func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws -> Data {
        try encode(Configured(value: value, configuration: configuration))
    }

    /// Encodes a value of a type that needs a configuration to encode, taking the configuration
    /// from its provider, as `JSONEncoder` does.
    ///
    /// ```swift
    /// let data = try encoder.encode(price, configuration: Euro.self)
    /// ```
    /// - Parameters:
    ///   - value: The value.
    ///   - provider: Gives the configuration handed to the value's `encode(to:configuration:)`.
    /// - Returns: The JSON text in UTF-8.
    /// - Throws: As ``encode(_:)``.
    public func encode<T, Provider: EncodingConfigurationProviding>(_ value: T, configuration provider: Provider.Type)
        throws -> Data
    where T: EncodableWithConfiguration, T.EncodingConfiguration == Provider.EncodingConfiguration {
        try encode(value, configuration: provider.encodingConfiguration)
    }
}

/// A value and its configuration, encoded as the value encodes itself with it.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private struct Configured<T: EncodableWithConfiguration>: Swift.Encodable {
    let value: T
    let configuration: T.EncodingConfiguration

    func encode(to encoder: any Swift.Encoder) throws {
        try value.encode(to: encoder, configuration: configuration)
    }
}
