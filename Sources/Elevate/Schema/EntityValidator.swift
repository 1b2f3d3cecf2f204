import Foundation

/// Checks each schema property against the value a lookup finds for it.
enum EntityValidator {
    /// A string, number, Boolean or null at the root is valid JSON (RFC 8259) but no entity: a
    /// validation error whenever the schema asks for anything below the root.
    static func rejectScalarRoot(of schema: Schema) throws {
        guard schema.storage.contains(where: { !$0.keyPath.isEmpty }) else { return }
        var failures = FailureCollector()
        failures.add(notAContainer, at: "")
        throw failures.error()
    }

    /// Elevate's rule for an array given to `parseEntity`: the schema must be one `.array`
    /// property (which reads the array). Any other schema is Elevate's "Invalid property list for
    /// json array." rather than a "missing" failure for each key path, which hid that the value
    /// was an array where an object was expected (found by the differential tests against Elevate
    /// 4.0.0). This library's addition stays: a schema whose key paths all start with an array
    /// index (`"0"`, `"1.name"`) reads the array's elements.
    static func checkArrayRoot(_ properties: [SchemaProperty]) throws {
        if properties.count == 1, properties[0].type == .array { return }
        if !properties.isEmpty,
            properties.allSatisfy({ property in
                property.path.components.first.map { KeyPath.arrayIndex($0) != nil } ?? false
            })
        {
            return
        }
        var failures = FailureCollector()
        failures.add(invalidPropertyListForArray, at: "")
        throw failures.error()
    }

    /// Elevate's text for a schema an array cannot satisfy.
    static let invalidPropertyListForArray = "Invalid property list for json array."

    /// Elevate's text for a root that is neither an object nor an array.
    static let notAContainer = "JSON object was not of type: [String: Any] or [Any]"

    static func validate(_ schema: Schema, lookup: (KeyPath) -> Any?) throws -> [String: Any] {
        var entity = [String: Any](minimumCapacity: schema.storage.count)
        var failures = FailureCollector()
        // Borrow each property in place: copying one copies its existentials through value witnesses.
        try schema.storage.withUnsafeBufferPointer { properties in
            for index in properties.indices {
                let value = lookup(KeyPath(properties[index].keyPath))
                guard let value, !isNull(value) else {
                    if !properties[index].optional {
                        let keyPath = properties[index].keyPath
                        failures.add(FailureText.missing(keyPath), at: keyPath)
                    }
                    continue
                }
                if let parsed = try validate(value, for: properties[index], failures: &failures) {
                    entity[properties[index].keyPath] = parsed
                }
            }
        }
        if !failures.isEmpty {
            throw failures.error()
        }
        return entity
    }

    @inline(__always)
    static func isNull(_ value: Any) -> Bool {
        type(of: value) == NSNull.self
    }

    /// The typed, decoded value, or nil after recording why it does not fit.
    private static func validate(_ value: Any, for property: SchemaProperty, failures: inout FailureCollector) throws
        -> Any?
    {
        if property.type == .array, property.hasDecodingMethod {
            // Cast once, straight to the array the elements are decoded from.
            guard let elements = StrictConversion.array(value) else {
                failures.add(FailureText.incorrectType(property.keyPath), at: property.keyPath)
                return nil
            }
            return try decodeElements(elements, property: property, failures: &failures)
        }
        if property.type == .array, StrictConversion.array(value) != nil {
            // Elevate has no default for arrays: each element needs a decoding method.
            failures.add("A decoding method was not provided for `\(property.keyPath)` array", at: property.keyPath)
            return nil
        }
        guard let typed = typedValue(value, as: property.type) else {
            if property.type == .url, StrictConversion.string(value) != nil {
                failures.add(
                    FailureText.invalidURL(property.keyPath, optional: property.optional), at: property.keyPath)
            } else {
                failures.add(FailureText.incorrectType(property.keyPath), at: property.keyPath)
            }
            return nil
        }
        guard property.hasDecodingMethod else { return typed }
        do {
            return try NestedFailures.decode { () throws -> Any in try decode(typed, with: property) }
        } catch ParserError.validation(let reason) {
            failures.addNested(reason, reason: reason, at: property.keyPath)
            return nil
        }
    }

    /// Decodes each element, recording every failing element in Elevate's words: an array of the
    /// decodable type itself, or of the decoder's results.
    static func decodeElements(
        _ elements: [Any], property: SchemaProperty, failures: inout FailureCollector
    ) throws -> Any {
        if let decodableType = property.decodableType {
            return try decodeElements(elements, as: decodableType, keyPath: property.keyPath, failures: &failures)
        }
        var decoded: [Any] = []
        decoded.reserveCapacity(elements.count)
        var elementFailures = ElementFailures(limit: ElementFailures.schemaLimit)
        for (index, element) in elements.enumerated() {
            do {
                decoded.append(try NestedFailures.decode { try decode(element, with: property) })
            } catch ParserError.validation(let reason) {
                // The method's name is only worked out on failure: describing a type is costly.
                elementFailures.addElement(
                    index, of: property.keyPath, methodName: property.decodingMethodName ?? "", reason: reason)
            }
        }
        elementFailures.finish(keyPath: property.keyPath, into: &failures)
        return decoded
    }

    /// The elements decoded as `[T]`.
    private static func decodeElements<T: Decodable>(
        _ elements: [Any], as type: T.Type, keyPath: String, failures: inout FailureCollector
    ) throws -> Any {
        var decoded: [T] = []
        decoded.reserveCapacity(elements.count)
        var elementFailures = ElementFailures(limit: ElementFailures.schemaLimit)
        for (index, element) in elements.enumerated() {
            do {
                decoded.append(try NestedFailures.decode { try T(json: element) })
            } catch ParserError.validation(let reason) {
                elementFailures.addElement(index, of: keyPath, methodName: String(describing: T.self), reason: reason)
            }
        }
        elementFailures.finish(keyPath: keyPath, into: &failures)
        return decoded
    }
    /// Runs the property's decodable type or decoder (called directly: a closure per property
    /// would be an allocation per decoded value).
    @inline(__always)
    static func decode(_ value: Any, with property: SchemaProperty) throws -> Any {
        if let decodableType = property.decodableType {
            return try decodableType.init(json: value)
        }
        return try property.decoder!.decode(value)
    }

    static func typedValue(_ value: Any, as type: SchemaPropertyProtocol) -> Any? {
        switch type {
        case .string: return StrictConversion.string(value)
        case .int: return StrictConversion.int(value)
        case .uint: return StrictConversion.uint(value)
        case .float: return StrictConversion.float(value)
        case .double: return StrictConversion.double(value)
        case .bool: return StrictConversion.bool(value)
        case .array: return StrictConversion.array(value)
        case .dictionary: return StrictConversion.dictionary(value)
        case .url: return StrictConversion.url(value)
        }
    }
}
