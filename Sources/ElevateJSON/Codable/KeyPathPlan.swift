/// A ``JSONKeyPathDecodable`` type's declarations, read once per decode call: each routed key's key
/// path split in advance, the defaults and the transforms.
final class KeyPathPlan {
    /// One key path, split by Elevate's rules.
    struct Route {
        let text: String
        /// Split once per decode call, not once per object.
        let components: [String]
        /// A JSON Pointer is never one literal key, and may have a single component (`"/title"`).
        let isPointer: Bool

        init(_ text: String) {
            self.text = text
            let path = KeyPath(text)
            components = path.components
            isPointer = path.isPointer
        }

        /// The tape index of the value at this key path below the object at `object`, or nil.
        func resolve(on tape: JSONTape, in object: Int) -> Int? {
            let root = JSONValue(tape: tape, index: object)
            if text.isEmpty { return object }
            if !isPointer {
                var hint: Int?
                // A literal key that contains dots wins over the split path, as in Elevate.
                if let literal = root.memberIndex(text, hint: &hint) { return literal }
                // Without a dot, the path is that one key, already looked for.
                guard components.count > 1 else { return nil }
            }
            return KeyPath.walk(components, from: root, strictIndices: isPointer).value?.index
        }
    }

    let routes: [String: Route]
    let defaults: [String: any Sendable]
    let transforms: [String: JSONTransform]
    /// Every key name with a route, a default or a transform.
    let mappedNames: [String]

    /// The conforming type, for errors.
    let typeName: String
    /// The coding key type whose names were checked against the declarations. Locked: a plan is
    /// shared by the contexts of a stream's workers (through the strategies' known treatments).
    private let checkedKeyType = LockedBox<ObjectIdentifier?>(nil)

    init(
        keyPaths: [String: String], defaults: [String: any Sendable], transforms: [String: JSONTransform],
        typeName: String
    ) {
        routes = keyPaths.mapValues(Route.init)
        self.defaults = defaults
        self.transforms = transforms
        mappedNames = Array(Set(keyPaths.keys).union(defaults.keys).union(transforms.keys)).sorted()
        self.typeName = typeName
    }

    /// Checks, the first time a keyed container of `Key` uses the plan, that every name in
    /// `keyPaths`, `defaults` and `transforms` is one of `Key`'s: a misspelled name (`"nmae"`) would otherwise be
    /// ignored, and the property read by its own name.
    /// - Returns: The names that are no coding key, in order; empty when all are.
    func namesWithoutKey<Key: CodingKey>(_ key: Key.Type) -> [String] {
        let identifier = ObjectIdentifier(key)
        if checkedKeyType.withLock({ $0 == identifier }) { return [] }
        let unknown = mappedNames.filter { Key(stringValue: $0) == nil }
        if unknown.isEmpty { checkedKeyType.withLock { $0 = identifier } }
        return unknown
    }

    /// `" at key path "a.b""` for a routed key, for error messages.
    func describeRoute(_ name: String) -> String? {
        routes[name].map { " at key path \"\($0.text)\"" }
    }
}
