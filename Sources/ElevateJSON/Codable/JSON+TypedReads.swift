/// Reads that tell missing from `null` and say where they failed.
extension JSON {
    /// The value at `path`.
    ///
    /// ```swift
    /// let item = try json.value(at: "items", 3)
    /// ```
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The value there (possibly `.null`).
    /// - Throws: ``AccessError`` with ``AccessError/Reason/missing`` and the path up to the missing
    ///   step (a missing key, an index out of range, a step into `null`), or with
    ///   ``AccessError/Reason/typeMismatch(expected:found:)`` and the path to a value on the way
    ///   that is not the container the next step needs.
    public func value(at path: JSONPathComponent...) throws -> JSON {
        try value(atPath: path)
    }

    /// The string at `path`.
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The string.
    /// - Throws: ``AccessError`` when the value is missing or not a string.
    public func string(at path: JSONPathComponent...) throws -> String {
        try typed(path, "a string") { $0.string }
    }

    /// The Boolean at `path`.
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The Boolean.
    /// - Throws: ``AccessError`` when the value is missing or not a Boolean.
    public func bool(at path: JSONPathComponent...) throws -> Bool {
        try typed(path, "a Boolean") { $0.bool }
    }

    /// The integer at `path`, by the rules of ``int``.
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The integer.
    /// - Throws: ``AccessError`` when the value is missing or not exactly an `Int`.
    public func int(at path: JSONPathComponent...) throws -> Int {
        try typed(path, "an integer") { $0.int }
    }

    /// The number at `path` as a `Double`, by the rules of ``double``.
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The number.
    /// - Throws: ``AccessError`` when the value is missing or not a number a `Double` holds.
    public func double(at path: JSONPathComponent...) throws -> Double {
        try typed(path, "a number") { $0.double }
    }

    /// The number at `path`, exactly.
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The number.
    /// - Throws: ``AccessError`` when the value is missing or not a number.
    public func number(at path: JSONPathComponent...) throws -> JSONNumber {
        try typed(path, "a number") { $0.number }
    }

    /// The elements of the array at `path`.
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The elements.
    /// - Throws: ``AccessError`` when the value is missing or not an array.
    public func array(at path: JSONPathComponent...) throws -> [JSON] {
        try typed(path, "an array") { $0.array }
    }

    /// The members of the object at `path`.
    /// - Parameter path: Keys and indices from this value.
    /// - Returns: The members.
    /// - Throws: ``AccessError`` when the value is missing or not an object.
    public func object(at path: JSONPathComponent...) throws -> [String: JSON] {
        try typed(path, "an object") { $0.object }
    }

    func value(atPath path: [JSONPathComponent]) throws -> JSON {
        var current = self
        for (step, component) in path.enumerated() {
            let next: JSON?
            switch (component, current) {
            case (.key(let key), .object(let object)): next = object[key]
            case (.index(let index), .array(let array)):
                // Spelled out: in `c ? array[index] : nil` the nil would become JSON's null literal.
                if array.indices.contains(index) { next = array[index] } else { next = Optional<JSON>.none }
            case (_, .null): next = nil
            case (.key, _):
                // A step into a value of another kind is a wrong type on the path, not a missing
                // value: Lift's optional read gives nil for missing, and throws for this.
                throw AccessError(
                    path: JSONPathComponent.text(path[..<step]),
                    reason: .typeMismatch(expected: "an object", found: current.kindDescription))
            case (.index, _):
                throw AccessError(
                    path: JSONPathComponent.text(path[..<step]),
                    reason: .typeMismatch(expected: "an array", found: current.kindDescription))
            }
            guard let next else {
                throw AccessError(path: JSONPathComponent.text(path[...step]), reason: .missing)
            }
            current = next
        }
        return current
    }

    private func typed<T>(_ path: [JSONPathComponent], _ expected: String, _ read: (JSON) -> T?) throws -> T {
        let value = try value(atPath: path)
        guard let typed = read(value) else {
            throw AccessError(
                path: JSONPathComponent.text(path), reason: .typeMismatch(expected: expected, found: value.kindDescription))
        }
        return typed
    }
}
