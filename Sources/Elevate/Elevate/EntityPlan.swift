/// A schema seen before, compiled: which properties it has, and its entity's keys already laid
/// out in a dictionary, so that filling in an entity sets values by position instead of hashing
/// each key path again.
///
/// Elevate rebuilds the schema in every `init(json:)`; the plan for the type being decoded is
/// found by that type (see ``ViewHandOff``) and is used only when the schema just built matches it
/// property for property, so a schema that varies between elements is simply not planned.
final class EntityPlan {
    private struct Signature: Equatable {
        var keyPath: String
        var type: SchemaPropertyProtocol
        var optional: Bool
        var method: ObjectIdentifier?
    }

    private let signatures: [Signature]
    /// Every key path, mapped to a placeholder.
    let template: [String: Any]
    /// Where each property's key path is in `template`.
    let positions: [Dictionary<String, Any>.Index]

    init(_ properties: [SchemaProperty]) {
        signatures = properties.map(Self.signature)
        var template = [String: Any](minimumCapacity: properties.count)
        for property in properties { template[property.keyPath] = Placeholder() }
        positions = properties.map { template.index(forKey: $0.keyPath)! }
        self.template = template
    }

    /// What every key path holds until its value is validated: removed if it is never set.
    struct Placeholder {}

    private static func signature(_ property: SchemaProperty) -> Signature {
        Signature(
            keyPath: property.keyPath, type: property.type, optional: property.optional, method: property.methodIdentity)
    }

    /// Whether `properties` are exactly the ones this plan was made from. Key paths are usually
    /// the same string literals each time, which compare equal without looking at their bytes.
    func matches(_ properties: [SchemaProperty]) -> Bool {
        guard properties.count == signatures.count else { return false }
        return properties.withUnsafeBufferPointer { buffer in
            signatures.withUnsafeBufferPointer { signatures in
                for index in buffer.indices {
                    let property = buffer.baseAddress! + index
                    let signature = signatures.baseAddress! + index
                    // The key path last: the others compare without touching memory elsewhere.
                    guard property.pointee.type == signature.pointee.type,
                        property.pointee.optional == signature.pointee.optional,
                        property.pointee.methodIdentity == signature.pointee.method,
                        property.pointee.keyPath == signature.pointee.keyPath
                    else { return false }
                }
                return true
            }
        }
    }
}

/// Per-thread reuse of what building and validating an entity needs: one ``Schema`` per nesting
/// level, and the plans of the types decoded on this thread.
final class SchemaPool {
    // Touched on every decoded entity, by this thread only: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var idle: [Schema] = []
    /// Most recently used first; programs decode a handful of types, so a scan beats hashing.
    @exclusivity(unchecked) private var plans: [(identity: ObjectIdentifier, plan: EntityPlan)] = []
    private let maximumPlans = 64

    /// An empty schema for the closure to fill.
    @inline(__always)
    func take() -> Schema {
        idle.popLast() ?? Schema()
    }

    /// Gives a schema back, emptied, unless the closure kept a reference to it.
    @inline(__always)
    func giveBack(_ schema: inout Schema) {
        guard isKnownUniquelyReferenced(&schema) else { return }
        schema.storage.removeAll(keepingCapacity: true)
        if idle.count < 16 { idle.append(schema) }
    }

    /// The plan for the entity a type or decoder builds, made on first sight and replaced when
    /// the schema changes.
    func plan(for identity: ObjectIdentifier, _ properties: [SchemaProperty]) -> EntityPlan {
        for index in plans.indices where plans[index].identity == identity {
            let known = plans[index].plan
            if known.matches(properties) {
                if index > 0 { plans.swapAt(index, index - 1) }
                return known
            }
            let plan = EntityPlan(properties)
            plans[index].plan = plan
            return plan
        }
        let plan = EntityPlan(properties)
        if plans.count >= maximumPlans { plans.removeLast() }
        plans.append((identity, plan))
        return plan
    }
}
