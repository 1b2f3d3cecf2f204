/// The properties ``Parser/parseEntity(data:closure:)`` validates, in the order they were added.
///
/// ```swift
/// let entity = try Parser.parseEntity(data: data) { schema in
///     schema.addProperty(keyPath: "name", type: .string)
///     schema.addProperty(keyPath: "age", type: .uint, optional: true)
///     schema.addProperty(keyPath: "born", type: .string, decoder: DateDecoder(dateFormatString: "yyyy-MM-dd"))
///     schema.addProperty(keyPath: "addresses", type: .array, decodableType: Address.self)
/// }
/// ```
public final class Schema {
    /// The properties added so far, in order.
    public var properties: [SchemaProperty] {
        stopReplaying()
        return storage
    }

    /// A schema is built for every decoded entity and never shared while being built; decoding
    /// reuses one per nesting level and thread (see ``SchemaPool``), so that building it
    /// allocates nothing.
    @exclusivity(unchecked) var storage: [SchemaProperty] = []

    /// While a closure rebuilds a schema this thread has planned before: that plan. Properties
    /// that match it one by one are counted instead of stored, so that rebuilding the same
    /// schema for every element neither copies nor destroys a property.
    @exclusivity(unchecked) private var expected: EntityPlan?
    /// How many of `expected`'s properties the closure has added again, in order.
    @exclusivity(unchecked) private var replayedCount = 0

    /// Room for one value per property while an entity of this schema is filled in (see
    /// ``valueSlots(count:)``).
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Any>?
    @exclusivity(unchecked) private var slotCapacity = 0

    init() {
        storage.reserveCapacity(8)
    }

    deinit {
        slots?.deallocate()
    }

    /// Uninitialized room for `count` values, which the caller leaves uninitialized again. It is
    /// the schema's, one per nesting level like the schema itself, rather than on the stack: a
    /// deeply recursive `init(json:)` pays no extra frames for it at every level.
    func valueSlots(count: Int) -> UnsafeMutablePointer<Any> {
        if let slots, count <= slotCapacity { return slots }
        slots?.deallocate()
        slotCapacity = max(count, 8)
        let allocated = UnsafeMutablePointer<Any>.allocate(capacity: slotCapacity)
        slots = allocated
        return allocated
    }

    /// Starts checking the properties added against `plan` instead of storing them.
    func replay(_ plan: EntityPlan) {
        expected = plan
        replayedCount = 0
    }

    /// Ends a replay: `plan` when the closure added exactly its properties (it validates with
    /// them), otherwise nil, with every property added now in ``storage``. A schema the closure
    /// kept a reference to always stores its properties, for whoever reads them later.
    func finishReplay(isKept: Bool) -> EntityPlan? {
        guard let plan = expected else { return nil }
        guard replayedCount == plan.properties.count, !isKept else {
            stopReplaying()
            return nil
        }
        expected = nil
        return plan
    }

    /// Stores the properties matched so far: the closure added one that differs, or asked for
    /// ``properties``.
    private func stopReplaying() {
        guard let plan = expected else { return }
        storage.append(contentsOf: plan.properties[..<replayedCount])
        expected = nil
    }

    /// Adds a property whose value is kept as its JSON type.
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is, from the entity's root (`"response.items"`).
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    /// - Returns: The property added.
    @discardableResult @inlinable
    public func addProperty(keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false) -> SchemaProperty {
        record(keyPath: keyPath, type: type, optional: optional, decodableType: nil)
        // Made where the caller can see it: a closure that drops it (every schema closure) then
        // makes and destroys nothing, a retain and release of the key path per property.
        return SchemaProperty(
            keyPath: keyPath, type: type, optional: optional, decodableType: nil, decoder: nil, methodIdentity: nil)
    }

    /// Adds a property decoded by a ``Decodable`` type (each element, for `.array`).
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is, from the entity's root (`"response.items"`).
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    ///   - decodableType: The type that decodes the value; `nil` keeps the value as its JSON type.
    /// - Returns: The property added.
    @discardableResult @inlinable
    public func addProperty(
        keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false, decodableType: (any Decodable.Type)?
    ) -> SchemaProperty {
        record(keyPath: keyPath, type: type, optional: optional, decodableType: decodableType)
        return SchemaProperty(
            keyPath: keyPath, type: type, optional: optional, decodableType: decodableType, decoder: nil,
            methodIdentity: decodableType.map { ObjectIdentifier($0) })
    }

    /// What the ``addProperty(keyPath:type:optional:decodableType:)`` family does besides making
    /// the property it returns: replays it against the plan, or stores it.
    @usableFromInline
    func record(keyPath: String, type: SchemaPropertyProtocol, optional: Bool, decodableType: (any Decodable.Type)?) {
        let identity = decodableType.map { ObjectIdentifier($0) }
        guard !replays(keyPath, type, optional, method: identity) else { return }
        storage.append(
            SchemaProperty(
                keyPath: keyPath, type: type, optional: optional, decodableType: decodableType, decoder: nil,
                methodIdentity: identity))
    }

    /// Adds a property transformed by a ``Decoder`` (each element, for `.array`).
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is, from the entity's root (`"response.items"`).
    ///   - type: The JSON type the value must have.
    ///   - optional: Whether a missing or `null` value is allowed.
    ///   - decoder: The decoder that transforms the value; `nil` keeps the value as its JSON type.
    /// - Returns: The property added.
    @discardableResult
    public func addProperty(
        keyPath: String, type: SchemaPropertyProtocol, optional: Bool = false, decoder: (any Decoder)?
    ) -> SchemaProperty {
        // The identity is taken from the parameter: reading it back from the stored existential copies it.
        let identity = decoder.map { ObjectIdentifier(Swift.type(of: $0)) }
        let property = SchemaProperty(
            keyPath: keyPath, type: type, optional: optional, decodableType: nil, decoder: decoder,
            methodIdentity: identity)
        // A decoder is never replayed: validation must use this instance, not an earlier entity's.
        if decoder != nil || !replays(keyPath, type, optional, method: nil) {
            stopReplaying()
            storage.append(property)
        }
        return property
    }

    /// Whether a schema being replayed has this property next, as its plan does; the replay ends
    /// at the first property that differs.
    @inline(__always)
    private func replays(
        _ keyPath: String, _ type: SchemaPropertyProtocol, _ optional: Bool, method: ObjectIdentifier?
    ) -> Bool {
        guard let plan = expected else { return false }
        if plan.replays(keyPath, type, optional, method: method, at: replayedCount) {
            replayedCount += 1
            return true
        }
        stopReplaying()
        return false
    }
}
