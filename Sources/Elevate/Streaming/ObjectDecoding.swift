import Foundation

/// The object at a key path of any input, decoded as Elevate does it: a one-property schema of
/// type `.dictionary`.
enum ObjectDecoding {
    static func decode<T: Decodable>(
        _ input: JSONInput, atKeyPath keyPath: String, options: StreamingOptions = StreamingOptions()
    ) throws -> T {
        let plan = Plan<T>(decoding: T.self, atKeyPath: keyPath)
        return try plan.result(CapturedValues(input: input, paths: plan.paths, options: options.forElevate))
    }

    static func decode<T>(
        _ input: JSONInput, atKeyPath keyPath: String, with decoder: any Decoder,
        options: StreamingOptions = StreamingOptions()
    ) throws -> T {
        let plan = Plan<T>(decoder: decoder, atKeyPath: keyPath)
        return try plan.result(CapturedValues(input: input, paths: plan.paths, options: options.forElevate))
    }

    static func decode<T: Decodable, Chunks: AsyncSequence>(
        _ chunks: Chunks, atKeyPath keyPath: String, options: StreamingOptions = StreamingOptions()
    ) async throws -> T where Chunks.Element: Sequence<UInt8> {
        let plan = Plan<T>(decoding: T.self, atKeyPath: keyPath)
        return try plan.result(await CapturedValues(chunks: chunks, paths: plan.paths, options: options.forElevate))
    }

    static func decode<T, Chunks: AsyncSequence>(
        _ chunks: Chunks, atKeyPath keyPath: String, with decoder: any Decoder,
        options: StreamingOptions = StreamingOptions()
    ) async throws -> T where Chunks.Element: Sequence<UInt8> {
        let plan = Plan<T>(decoder: decoder, atKeyPath: keyPath)
        return try plan.result(await CapturedValues(chunks: chunks, paths: plan.paths, options: options.forElevate))
    }

    /// What one `decodeObject` captures, and how it turns the captured values into its result.
    private struct Plan<T> {
        let paths: [KeyPath]
        let result: (CapturedValues) throws -> T

        init(decoding type: T.Type, atKeyPath keyPath: String) where T: Decodable {
            let path = KeyPath(keyPath)
            if T.self is any DecodableArray.Type {
                // `let people: [Person] = try decodeObject(…)`: the value is an array, decoded whole.
                paths = [path]
                result = { captured in
                    guard let value = captured.value(at: path), !value.isNull else {
                        throw ParserError.validation(
                            failureReason: FailureText.missing(keyPath))
                    }
                    return try ViewHandOff.decode(value, by: ObjectIdentifier(T.self)) { try T(json: $0) }
                }
                return
            }
            let schema = Schema()
            // As in Elevate, a primitive is read as its own property type; anything else is an object.
            schema.addProperty(keyPath: keyPath, type: primitivePropertyType(T.self) ?? .dictionary, decodableType: T.self)
            paths = schema.storage.map(\.path)
            result = { captured in
                try typedResult(Parser.entity(schema, from: captured)[keyPath], keyPath: keyPath, method: T.self)
            }
        }

        init(decoder: any Decoder, atKeyPath keyPath: String) {
            let schema = Schema()
            schema.addProperty(keyPath: keyPath, type: .dictionary, decoder: decoder)
            paths = schema.storage.map(\.path)
            result = { captured in
                try typedResult(
                    Parser.entity(schema, from: captured)[keyPath], keyPath: keyPath, method: type(of: decoder))
            }
        }
    }
}

/// The property type Elevate's `decodeObject` uses for a primitive result type.
private func primitivePropertyType(_ type: Any.Type) -> SchemaPropertyProtocol? {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(String.self): return .string
    case ObjectIdentifier(Int.self): return .int
    case ObjectIdentifier(UInt.self): return .uint
    case ObjectIdentifier(Float.self): return .float
    case ObjectIdentifier(Double.self): return .double
    case ObjectIdentifier(Bool.self): return .bool
    default: return nil
    }
}
