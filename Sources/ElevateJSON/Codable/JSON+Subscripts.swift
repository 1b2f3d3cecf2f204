import Foundation

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

    /// The member named `key` as a `Value`, for any ``JSONConvertible`` type: setting a value stores
    /// its JSON, and setting a nil optional removes the member, as in Lift
    /// (`json["note"] = note` with `note == nil` leaves no `"note"`; `json["note"] = nil`, JSON's own
    /// `nil`, stores `null`).
    ///
    /// Reading through it gives the member decoded as `Value` when `Value` is `Decodable` and the
    /// member decodes as one (a `Date` from the text its ``Foundation/Date/jsonRepresentation``
    /// writes), and nil otherwise (missing, `null`, another type); the throwing
    /// ``decodeIfPresent(_:at:decoder:)`` tells those apart.
    /// - Parameter key: The member's name.
    /// - Returns: The member as a `Value`, or nil.
    public subscript<Value: JSONConvertible>(key: String) -> Value? {
        get { self[key].converted(to: Value.self) }
        set {
            if let newValue {
                self[key] = newValue.jsonRepresentation
            } else if case .object = self {
                removeValue(forKey: key)
            } else {
                // As for any other member set on a non-object: the value becomes an object.
                self = .object([:])
            }
        }
    }

    /// The element at `index` as a `Value`, for any ``JSONConvertible`` type: setting a value stores
    /// its JSON (padding with `null`s, as ``subscript(_:)-(Int)``), and setting a nil optional
    /// stores `null`, which keeps the positions of the elements after it.
    ///
    /// Reading through it gives the element decoded as `Value` when `Value` is `Decodable` and the
    /// element decodes as one, and nil otherwise.
    /// - Parameter index: A position; negative positions trap when set, as with `Array`.
    /// - Returns: The element as a `Value`, or nil.
    public subscript<Value: JSONConvertible>(index: Int) -> Value? {
        get { self[index].converted(to: Value.self) }
        set { self[index] = newValue?.jsonRepresentation ?? .null }
    }

    /// Appends the JSON of `element`, by the rules of ``append(_:)-(JSON)``.
    /// - Parameter element: Any convertible value; a nil optional appends `null`.
    public mutating func append(_ element: some JSONConvertible) {
        append(element.jsonRepresentation)
    }

    /// Stores `value` at `path`, creating the objects and arrays that are missing (or `null`) on the
    /// way, and padding arrays with `null`s, as the subscripts do — but refusing to replace a value
    /// of another kind: the subscripts, like Lift's `Jar`, turn an array into an object when a key
    /// is set on it, dropping its elements; this throws instead.
    ///
    /// ```swift
    /// var json: JSON = ["items": [1, 2]]
    /// try json.set("x", at: "items", 2)        // {"items":[1,2,"x"]}
    /// try json.set(true, at: "meta", "seen")   // creates "meta"
    /// try json.set(0, at: "items", "count")    // throws: items: expected an object, found an array
    /// ```
    /// - Parameters:
    ///   - value: The value to store; a nil optional stores `null`.
    ///   - path: Keys and indices from this value; none replaces the value itself.
    /// - Throws: ``AccessError`` with ``AccessError/Reason/typeMismatch(expected:found:)`` naming the
    ///   step that meets a value of another kind, or ``AccessError/Reason/invalid(_:)`` for a
    ///   negative index; nothing is changed then.
    public mutating func set(_ value: some JSONConvertible, at path: JSONPathComponent...) throws {
        try set(value.jsonRepresentation, at: path[...], whole: path)
    }

    private mutating func set(_ value: JSON, at path: ArraySlice<JSONPathComponent>, whole: [JSONPathComponent]) throws {
        guard let step = path.first else {
            self = value
            return
        }
        let place = JSONPathComponent.text(whole[..<path.startIndex])
        switch (step, self) {
        case (.key(let key), .object(var object)):
            var member = object[key] ?? .null
            try member.set(value, at: path.dropFirst(), whole: whole)
            self = .null
            object[key] = member
            self = .object(object)
        case (.key(let key), .null):
            var member = JSON.null
            try member.set(value, at: path.dropFirst(), whole: whole)
            self = .object([key: member])
        case (.index(let index), .array), (.index(let index), .null):
            guard index >= 0 else {
                throw AccessError(
                    path: JSONPathComponent.text(whole[...path.startIndex]), reason: .invalid("a negative index"))
            }
            var array = self.array ?? []
            var element = index < array.count ? array[index] : .null
            try element.set(value, at: path.dropFirst(), whole: whole)
            self = .null
            if array.count <= index { array.append(contentsOf: repeatElement(.null, count: index - array.count + 1)) }
            array[index] = element
            self = .array(array)
        case (.key, _):
            throw AccessError(path: place, reason: .typeMismatch(expected: "an object", found: kindDescription))
        case (.index, _):
            throw AccessError(path: place, reason: .typeMismatch(expected: "an array", found: kindDescription))
        }
    }

    /// This value as a `Value`: itself for ``JSON``, decoded for a `Decodable` type; nil for `null`
    /// or a value that does not decode.
    private func converted<Value>(to type: Value.Type) -> Value? {
        if isNull { return nil }
        if let same = self as? Value { return same }
        if Value.self == Date.self, let text = string {
            // The text a `Date` writes (see its `jsonRepresentation`), with or without the fraction.
            let date = (try? JSON.dateStyle.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
            return date as? Value
        }
        guard let decodable = type as? any Swift.Decodable.Type else { return nil }
        return (try? decode(decodable)) as? Value
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
