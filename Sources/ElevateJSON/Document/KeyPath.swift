/// A key path as Elevate spells it: `"response.items"`, or `""` for the root.
///
/// The path splits on `.`; a component that is a decimal number also selects an array element
/// where the container is an array (`"items.0.name"`). A root key that itself contains dots
/// (`"a.b"`) wins over the split path, as in Elevate.
///
/// Schemas are rebuilt for every decoded element, so creating a key path must cost nothing: the
/// text is only examined (for dots, for components) when a lookup needs it.
package struct KeyPath: Hashable, Sendable {
    /// The text the user wrote.
    package let text: String

    package init(_ text: String) {
        self.text = text
    }

    /// Whether the text contains a dot, i.e. names more than one component.
    package var hasLiteralAlternative: Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.count > 0 && memchr($0.baseAddress!, 0x2E, $0.count) != nil }
            ?? text.utf8.contains(UInt8(ascii: "."))
    }

    /// The split components; empty for the root.
    package var components: [String] {
        if text.isEmpty { return [] }
        if !hasLiteralAlternative { return [text] }
        return text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The value at this key path in a value tree, with Elevate's rules; nil when absent.
    package func value(in root: Any) -> Any? {
        if text.isEmpty { return root }
        if let object = root as? [String: Any] { return value(inObject: object) }
        return Self.value(in: root, at: components[...])
    }

    /// The value at this key path below a root object (already cast, to cast once per entity).
    package func value(inObject object: [String: Any]) -> Any? {
        if text.isEmpty { return object }
        // A single key, or a literal dotted key, is one dictionary lookup.
        if let value = object[text] { return value }
        guard hasLiteralAlternative else { return nil }
        return Self.value(in: object, at: components[...])
    }

    /// Walks `components` from `value`: keys into objects, indices into arrays.
    static func value(in value: Any, at components: ArraySlice<String>) -> Any? {
        var current = value
        for component in components {
            if let object = current as? [String: Any] {
                guard let next = object[component] else { return nil }
                current = next
            } else if let array = current as? [Any] {
                guard let index = Self.arrayIndex(component), index < array.count else { return nil }
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// The array index a component names, if it is a plain decimal number.
    package static func arrayIndex(_ component: String) -> Int? {
        guard !component.isEmpty, component.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(component)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
