import struct Foundation.Data

/// The mutable ``JSON`` value written by ``JSONWriter`` and ``JSONStreamWriter`` directly, without a
/// detour through Foundation values: integers exact over the whole `Int`/`UInt` range, doubles as
/// their shortest round-trip text, large numbers as their text.
extension JSON: JSONGeneratorWritable {
    func write(to generator: JSONGenerator, depth: Int) throws {
        switch self {
        case .null: try generator.null()
        case .bool(let value): try generator.bool(value)
        case .string(let value): try generator.string(value)
        case .number(.int(let value)): try generator.integer(Int64(value))
        case .number(.uint(let value)):
            if let small = Int64(exactly: value) { try generator.integer(small) } else { try generator.rawValue(String(value)) }
        case .number(.double(let value)): try generator.double(value)
        case .number(.large(let text)):
            guard JSONNumberFormat.isValid(text.utf8) else {
                throw JSONWriterError(kind: .invalidNumberText, message: "large number text \"\(text)\" is not a JSON number")
            }
            try generator.rawValue(text)
        case .array(let elements):
            guard try generator.beginContainer(self, isEmpty: elements.isEmpty, emptyText: "[]", depth: depth) else { return }
            try generator.openArray()
            for (index, element) in elements.enumerated() {
                do {
                    try element.write(to: generator, depth: depth + 1)
                } catch var error as JSONWriterError {
                    error.prepend(.index(index))
                    throw error
                }
            }
            try generator.closeArray()
        case .object(let members):
            guard try generator.beginContainer(self, isEmpty: members.isEmpty, emptyText: "{}", depth: depth) else { return }
            try generator.openObject()
            if generator.options.sortedKeys {
                for (key, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                    try write(member, forKey: key, to: generator, depth: depth)
                }
            } else {
                for (key, member) in members { try write(member, forKey: key, to: generator, depth: depth) }
            }
            try generator.closeObject()
        }
    }

    private func write(_ member: JSON, forKey key: String, to generator: JSONGenerator, depth: Int) throws {
        do {
            try generator.string(key)
            try member.write(to: generator, depth: depth + 1)
        } catch var error as JSONWriterError {
            error.prepend(.key(key))
            throw error
        }
    }
}

extension JSONWriter {
    /// Writes a ``JSON`` value as one JSON text, in UTF-8, with its numbers exact.
    ///
    /// ```swift
    /// let json: JSON = ["id": JSON(UInt.max), "ratio": 0.1]
    /// let data = try JSONWriter.data(for: json)  // {"id":18446744073709551615,"ratio":0.1}
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - options: How to format the text.
    /// - Returns: The JSON text.
    /// - Throws: ``JSONWriterError`` for a NaN or infinite double, or nesting beyond
    ///   ``Options/maximumDepth``.
    public static func data(for value: JSON, options: Options = .default) throws -> Data {
        try data(for: value as Any, options: options)
    }

    /// Writes a ``JSON`` value as one JSON text, with its numbers exact.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - options: How to format the text.
    /// - Returns: The JSON text.
    /// - Throws: As ``data(for:options:)-(JSON,_)``.
    public static func string(for value: JSON, options: Options = .default) throws -> String {
        try string(for: value as Any, options: options)
    }

    /// Writes a ``JSON`` value as one JSON text, in UTF-8 bytes, with its numbers exact.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - options: How to format the text.
    /// - Returns: The JSON text.
    /// - Throws: As ``data(for:options:)-(JSON,_)``.
    public static func bytes(for value: JSON, options: Options = .default) throws -> [UInt8] {
        try bytes(for: value as Any, options: options)
    }
}
