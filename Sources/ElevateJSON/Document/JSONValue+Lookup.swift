#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Reading into objects and arrays.
extension JSONValue {
    /// The value of the member named `key`, or nil when the value is not an object or has no such key.
    ///
    /// ```swift
    /// document["user"]?["name"]?.string
    /// ```
    /// - Parameter key: The member's name: the member whose key has its UTF-8 bytes, or else one
    ///   whose key is the same text spelled with other code points (`"café"` precomposed or with a
    ///   combining accent), the last such one.
    /// - Returns: A view of the member's value, or nil.
    public subscript(key: String) -> JSONValue? {
        var hint: Int?
        return member(key, hint: &hint)
    }

    /// The element at `index`, or nil when the value is not an array or the index is out of range.
    ///
    /// Arrays are not indexed: this walks `index` elements (skipping each in O(1)); iterate
    /// ``elements`` to read them all.
    /// - Parameter index: The zero-based position.
    /// - Returns: A view of the element, or nil.
    public subscript(index: Int) -> JSONValue? {
        guard isArray, index >= 0 else { return nil }
        let end = endIndex
        var position = self.index + 1
        var remaining = index
        while position < end {
            if remaining == 0 { return JSONValue(tape: tape, index: position) }
            remaining -= 1
            position = tape.end(of: position)
        }
        return nil
    }

    /// The value at an Elevate key path, or nil when there is none.
    ///
    /// The path splits on `.`; `""` is the value itself; a component that is a decimal number selects
    /// an element where the container is an array; in an object, a key that itself contains dots
    /// (`"a.b"`) wins over the split path. A path that starts with `/` is a JSON Pointer (RFC 6901:
    /// `"/response/items/0"`, `~1` for `/` and `~0` for `~` in a key).
    ///
    /// ```swift
    /// document[keyPath: "response.items.0.name"]?.string
    /// ```
    /// - Parameter keyPath: The path, as Elevate spells it.
    /// - Returns: A view of the value at the path, or nil.
    public subscript(keyPath keyPath: String) -> JSONValue? {
        KeyPath(keyPath).resolve(from: self).value
    }

    /// The tape index of the value at `keyPath` below this object or array, by the rules of
    /// ``subscript(keyPath:)``; `hint` makes reading the keys of one object in document order
    /// linear (see ``memberIndex(utf8Key:hint:)``).
    @inline(__always)
    package func index(atKeyPath keyPath: String, hint: inout Int?) -> Int? {
        if keyPath.isEmpty { return index }
        if keyPath.utf8.first == UInt8(ascii: "/") { return self[keyPath: keyPath]?.index }
        if let member = memberIndex(keyPath, hint: &hint) { return member }
        guard KeyPath(keyPath).hasLiteralAlternative || isArray else { return nil }
        return self[keyPath: keyPath]?.index
    }

    /// The member whose key equals `key`'s UTF-8 bytes, or else the last one whose key is the same
    /// text in another spelling (see ``equivalentMemberIndex(utf8Key:)``).
    ///
    /// Looking starts just after `hint` (the tape index of the previous hit's key in this object, or
    /// nil for the first member) and wraps around, so that reading keys in document order is linear
    /// overall. Shadowed duplicates are skipped.
    /// - Parameters:
    ///   - key: The key's UTF-8 bytes.
    ///   - hint: In: where the previous lookup in this object hit. Out: where this one hit (unchanged
    ///     on a miss).
    /// - Returns: The member's value, or nil when the value is not an object or lacks the key.
    func member(utf8Key key: UnsafeRawBufferPointer, hint: inout Int?) -> JSONValue? {
        memberIndex(utf8Key: key, hint: &hint).map { JSONValue(tape: tape, index: $0) }
    }

    /// The tape index of the member value ``member(utf8Key:hint:)`` finds: no view is made, so the
    /// tape is not retained for it (schema validation reads scalars straight off the tape).
    func memberIndex(utf8Key key: UnsafeRawBufferPointer, hint: inout Int?) -> Int? {
        memberIndex(utf8Key: key, inlineWord: key.count <= 7 ? JSONTape.inlineWord(.inlineKey, key) : nil, hint: &hint)
    }

    /// ``memberIndex(utf8Key:hint:)`` with the key's inline word made in advance (nil when the key
    /// has more than 7 bytes).
    @inline(__always)
    package func memberIndex(utf8Key key: UnsafeRawBufferPointer, inlineWord: UInt64?, hint: inout Int?) -> Int? {
        guard isObject else { return nil }
        let first = index + 1
        let end = endIndex
        guard first < end else { return nil }
        var start = first
        if let previous = hint, previous >= first, previous < end {
            start = tape.end(of: previous + 1)
            if start >= end { start = first }
        }
        var position = start
        repeat {
            if tape.keyEquals(position, key, inlineWord: inlineWord), !tape.isShadowed(position) {
                hint = position
                return position + 1
            }
            position = tape.end(of: position + 1)
            if position >= end { position = first }
        } while position != start
        return equivalentMemberIndex(utf8Key: key)
    }

    /// After no key had `key`'s bytes: the member whose key is the same text in another Unicode
    /// spelling (`"café"` precomposed or as `e` plus a combining accent), as Swift compares
    /// strings, and so as the dictionaries of `JSONSerialization` and `JSONDecoder` find keys;
    /// the last such member when several are.
    ///
    /// Only keys that are not all ASCII can differ from `key` in spelling alone, and two ASCII
    /// keys are the same text exactly when their bytes are, so a miss among ASCII keys costs a
    /// look at each key's bytes and no `String`.
    @inline(never)
    func equivalentMemberIndex(utf8Key key: UnsafeRawBufferPointer) -> Int? {
        guard isObject else { return nil }
        let keyIsASCII = key.baseAddress.map { UTF8Validation.isASCII($0, key.count) } ?? true
        if keyIsASCII, tape.keysAreASCII { return nil }
        var wanted: String?
        var found: Int?
        var position = index + 1
        let end = endIndex
        while position < end {
            if !tape.isShadowed(position), !keyIsASCII || !tape.isASCIIKey(at: position) {
                if wanted == nil { wanted = String(decoding: key, as: UTF8.self) }
                if tape.string(at: position) == wanted { found = position + 1 }
            }
            position = tape.end(of: position + 1)
        }
        return found
    }

    /// The member named `key`; see ``member(utf8Key:hint:)``.
    /// - Parameters:
    ///   - key: The member's name.
    ///   - hint: In: where the previous lookup in this object hit. Out: where this one hit.
    /// - Returns: The member's value, or nil when the value is not an object or lacks the key.
    func member(_ key: String, hint: inout Int?) -> JSONValue? {
        memberIndex(key, hint: &hint).map { JSONValue(tape: tape, index: $0) }
    }

    /// The tape index of the member value ``member(_:hint:)`` finds.
    func memberIndex(_ key: String, hint: inout Int?) -> Int? {
        var key = key
        return key.withUTF8 { memberIndex(utf8Key: UnsafeRawBufferPointer($0), hint: &hint) }
    }
}

/// The tape's views are what key paths walk on the tape (see ``KeyPath/resolve(from:step:)``).
extension JSONValue: KeyPathNode {
    package var isObjectNode: Bool { isObject }

    package func member(forKey key: String) -> JSONValue? {
        isObject ? self[key] : nil
    }

    package func element(at index: Int) -> JSONValue? {
        isArray ? self[index] : nil
    }
}
