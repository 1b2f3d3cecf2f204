/// Reading and writing members and elements.
extension JSON {
    /// The member named `key`: `.null` when missing or when the value is not an object. Setting it
    /// makes the value an object if it is not one (see ``JSON`` for the rules), so that
    /// `json["a"]["b"] = 1` creates `"a"`.
    /// - Parameter key: The member's name.
    /// - Returns: The member, or `.null`.
    public subscript(key: String) -> JSON {
        get {
            if case .object(let object) = self { return object[key] ?? .null }
            return .null
        }
        set {
            var object: [String: JSON]
            if case .object(let existing) = self { object = existing } else { object = [:] }
            self = .null
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index`: `.null` when out of range or when the value is not an array. Setting
    /// it makes the value an array if it is not one and pads it with `null`s up to `index`.
    /// - Parameter index: A position; negative positions trap when set, as with `Array`.
    /// - Returns: The element, or `.null`.
    public subscript(index: Int) -> JSON {
        get {
            if case .array(let array) = self, array.indices.contains(index) { return array[index] }
            return .null
        }
        set {
            precondition(index >= 0, "JSON array index out of range: \(index)")
            var array: [JSON]
            if case .array(let existing) = self { array = existing } else { array = [] }
            self = .null
            if array.count <= index { array.append(contentsOf: repeatElement(.null, count: index - array.count + 1)) }
            array[index] = newValue
            self = .array(array)
        }
    }

    /// Appends `element` to an array; `null` becomes `[element]`, and any other non-array value
    /// becomes the first element of a new array (nothing is dropped).
    /// - Parameter element: The new last element.
    public mutating func append(_ element: JSON) {
        var array: [JSON]
        switch self {
        case .array(let existing): array = existing
        case .null: array = []
        default: array = [self]
        }
        self = .null
        array.append(element)
        self = .array(array)
    }

    /// Removes the member named `key` from an object.
    /// - Parameter key: The member's name.
    /// - Returns: The removed value, or nil when there was none (or the value is not an object).
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSON? {
        guard case .object(var object) = self else { return nil }
        self = .null
        let removed = object.removeValue(forKey: key)
        self = .object(object)
        return removed
    }

    /// Merges `other` into this value: when both are objects, each of `other`'s members is merged into
    /// the member of the same name (recursively); otherwise `other` replaces this value. Arrays are
    /// replaced, not concatenated, and a `null` in `other` is stored as `null`.
    ///
    /// ```swift
    /// var settings: JSON = ["ui": ["theme": "dark", "size": 12]]
    /// settings.merge(["ui": ["size": 14], "beta": true])
    /// // ["ui": ["theme": "dark", "size": 14], "beta": true]
    /// ```
    /// - Parameter other: The value to merge in.
    public mutating func merge(_ other: JSON) {
        guard case .object(let incoming) = other, case .object(var object) = self else {
            self = other
            return
        }
        self = .null
        for (key, value) in incoming {
            if case .object = value, object[key]?.object != nil {
                object[key]!.merge(value)
            } else {
                object[key] = value
            }
        }
        self = .object(object)
    }

    /// This value with `other` merged in; see ``merge(_:)``.
    /// - Parameter other: The value to merge in.
    /// - Returns: The merged value.
    public func merging(_ other: JSON) -> JSON {
        var copy = self
        copy.merge(other)
        return copy
    }
}
