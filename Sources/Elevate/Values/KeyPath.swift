import class Foundation.NSNull

/// A key path as Elevate spells it: `"response.items"`, or `""` for the root.
///
/// The path splits on `.`; a component that is a decimal number also selects an array element
/// where the container is an array (`"items.0.name"`). A root key that itself contains dots
/// (`"a.b"`) wins over the split path, as in Elevate.
struct KeyPath: Hashable, Sendable {
    /// The text the user wrote.
    let text: String
    /// The split components; empty for the root.
    let components: [String]

    init(_ text: String) {
        self.text = text
        self.components = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether the whole text may also name a single root key (it contains a dot).
    var hasLiteralAlternative: Bool { components.count > 1 }

    /// The value at this key path in a value tree, with Elevate's rules; nil when absent.
    func value(in root: Any) -> Any? {
        if components.isEmpty { return root }
        if hasLiteralAlternative, let object = root as? [String: Any], let value = object[text] {
            return value
        }
        return Self.value(in: root, at: components[...])
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
    static func arrayIndex(_ component: String) -> Int? {
        guard !component.isEmpty, component.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(component)
    }
}
