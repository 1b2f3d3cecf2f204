/// A key path as Elevate spells it: `"response.items"`, or `""` for the root; or a JSON Pointer
/// (RFC 6901), which starts with `/`.
///
/// The path splits on `.`; a component that is a decimal number also selects an array element
/// where the container is an array (`"items.0.name"`). A root key that itself contains dots
/// (`"a.b"`) wins over the split path, as in Elevate.
///
/// A path that starts with `/` is a JSON Pointer: it splits on `/` only, `~1` stands for `/` and
/// `~0` for `~` in a component (`"/a.b/c~1d"` is the key `a.b`, then the key `c/d`), and nothing is
/// tried as a literal key. So a key that holds dots, or starts with `/`, can always be addressed:
/// `"/~1tmp"` is the root key `/tmp`. (Elevate read such a path as one key: the only change from it.)
///
/// Schemas are rebuilt for every decoded element, so creating a key path must cost nothing: the
/// text is only examined (for dots, for components) when a lookup needs it.
package struct KeyPath: Hashable, Sendable {
    /// The text the user wrote.
    package let text: String

    package init(_ text: String) {
        self.text = text
    }

    /// Whether the path is a JSON Pointer (it starts with `/`).
    @inline(__always)
    package var isPointer: Bool { text.utf8.first == UInt8(ascii: "/") }

    /// Whether the whole text may also be one key: a dotted Elevate path (never a pointer).
    package var hasLiteralAlternative: Bool {
        guard !isPointer else { return false }
        return text.utf8.withContiguousStorageIfAvailable {
            $0.count > 0 && memchr($0.baseAddress!, 0x2E, $0.count) != nil
        } ?? text.utf8.contains(UInt8(ascii: "."))
    }

    /// The split components; empty for the root.
    package var components: [String] {
        if text.isEmpty { return [] }
        if isPointer {
            // The first `/` starts the first component; `~1` before `~0`, as RFC 6901 says, so
            // that `~01` is `~1` and not `/`. A `~` followed by anything else is kept as it is.
            return text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
                let component = String(decoding: $0, as: UTF8.self)
                guard component.contains("~") else { return component }
                return component.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
        }
        if !hasLiteralAlternative { return [text] }
        return text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Where this key path leads from `root`, by Elevate's rule, the one every reader of the
    /// library follows, on the tape and in Foundation values alike: `""` is the root itself; in an
    /// object, the whole path as one key wins (a key may contain dots); otherwise the path splits
    /// on `.` and each component is a member's key or, where the container is an array, an
    /// element's index in decimal digits (see ``walk(_:from:step:)``).
    /// - Parameters:
    ///   - root: Where the path starts.
    ///   - step: Told each step taken, in order (for a coding path).
    /// - Returns: The value at the path, or the component at which nothing was found.
    @inline(__always)
    package func resolve<Node: KeyPathNode>(
        from root: Node, step: (KeyPathStep) -> Void = { _ in }
    ) -> KeyPathWalk<Node> {
        if text.isEmpty { return .found(root) }
        if isPointer { return Self.walk(components, from: root, strictIndices: true, step: step) }
        let rootIsObject = root.isObjectNode
        if rootIsObject, let literal = root.member(forKey: text) {
            step(.key(text))
            return .found(literal)
        }
        // In an object, a path without a dot is that one key, already looked for.
        guard hasLiteralAlternative || !rootIsObject else { return .missing(component: text) }
        return Self.walk(components, from: root, step: step)
    }

    /// Follows `components` from `node`: a member's key in an object, an element's index (decimal
    /// digits) in an array.
    /// - Parameters:
    ///   - components: The split key path, or what is left of it.
    ///   - node: Where the walk starts.
    ///   - step: Told each step taken, in order.
    /// - Returns: The value reached, or the first component at which nothing was found.
    package static func walk<Node: KeyPathNode>(
        _ components: some Sequence<String>, from node: Node, strictIndices: Bool = false,
        step: (KeyPathStep) -> Void = { _ in }
    ) -> KeyPathWalk<Node> {
        var current = node
        for component in components {
            if current.isObjectNode, let member = current.member(forKey: component) {
                step(.key(component))
                current = member
            } else if let index = arrayIndex(component, strict: strictIndices), let element = current.element(at: index) {
                step(.index(index))
                current = element
            } else {
                return .missing(component: component)
            }
        }
        return .found(current)
    }

    /// The value at this key path in a Foundation value tree (`[String: Any]`, `[Any]`), with
    /// Elevate's rule (``resolve(from:step:)``); nil when absent.
    package func value(in root: Any) -> Any? {
        resolve(from: FoundationNode(value: root)).value?.value
    }

    /// ``value(in:)`` below a root object already cast (an entity casts once): the rule of
    /// ``resolve(from:step:)`` without casting the root again.
    package func value(inObject object: [String: Any]) -> Any? {
        if text.isEmpty { return object }
        if isPointer { return Self.walk(components, from: FoundationNode(value: object), strictIndices: true).value?.value }
        // A single key, or a literal dotted key, is one dictionary lookup; a missing key without
        // a dot is missing, with no second lookup (optional properties miss often).
        if let value = object[text] { return value }
        guard hasLiteralAlternative else { return nil }
        return Self.walk(components, from: FoundationNode(value: object)).value?.value
    }

    /// The array index a component names, if it is a plain decimal number.
    /// - Parameter strict: Whether a number with a leading zero (`01`) is a key only, as RFC 6901
    ///   says of a JSON Pointer's indices; Elevate's dotted paths read it as a number.
    package static func arrayIndex(_ component: String, strict: Bool = false) -> Int? {
        guard !component.isEmpty, component.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if strict, component.utf8.count > 1, component.utf8.first == UInt8(ascii: "0") { return nil }
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

/// A value a key path walks through: a view on the tape, or a Foundation value.
package protocol KeyPathNode {
    /// Whether the value is an object (whose whole-path key is looked up first).
    var isObjectNode: Bool { get }
    /// The member of an object with this key; nil when there is none or this is not an object.
    func member(forKey key: String) -> Self?
    /// The element of an array at this index; nil when there is none or this is not an array.
    func element(at index: Int) -> Self?
}

/// One step of a key path's walk.
package enum KeyPathStep {
    /// Into an object's member.
    case key(String)
    /// Into an array's element.
    case index(Int)
}

/// Where a key path led.
package enum KeyPathWalk<Node> {
    /// The value at the path.
    case found(Node)
    /// Nothing at this component of the path.
    case missing(component: String)

    /// The value found, or nil.
    @inline(__always)
    package var value: Node? {
        if case .found(let node) = self { return node }
        return nil
    }
}

/// A `JSONSerialization`-shaped value as a ``KeyPathNode``.
package struct FoundationNode: KeyPathNode {
    package let value: Any

    package var isObjectNode: Bool { value is [String: Any] }

    package func member(forKey key: String) -> FoundationNode? {
        (value as? [String: Any])?[key].map(FoundationNode.init)
    }

    package func element(at index: Int) -> FoundationNode? {
        guard let array = value as? [Any], index < array.count else { return nil }
        return FoundationNode(value: array[index])
    }
}
