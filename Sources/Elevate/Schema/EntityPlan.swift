/// A schema seen before, compiled: which properties it has, and its entity's keys already laid
/// out in a dictionary, so that filling in an entity sets values by position instead of hashing
/// each key path again.
///
/// Elevate rebuilds the schema in every `init(json:)`; the plan for the type being decoded is
/// found by that type (see ``ViewHandOff``) and is used only when the schema just built matches it
/// property for property, so a schema that varies between elements is simply not planned.
final class EntityPlan {
    /// The properties the plan was made from. Their decoders are not kept (see
    /// ``replays(_:at:)``): a plan must not keep alive, or hand out, a decoder of an earlier entity.
    let properties: [SchemaProperty]
    /// Whether a schema can be rebuilt against this plan without storing its properties: none of
    /// them has a decoder, whose instance may differ from entity to entity.
    let isReplayable: Bool
    /// The entity's layouts: one with every key path (``fullLayout``), and others, made as
    /// entities miss optional properties, without those properties' keys. Filling in an entity
    /// of a known layout sets values by position, with no key hashed, copied or removed. A layout
    /// found moves one place toward the front, so the shapes in use gather there.
    @exclusivity(unchecked) private var layouts: [Layout]
    /// The layout with every key path.
    let fullLayout: Layout
    /// How many layouts a plan keeps: one per combination of missing optional properties met.
    private static let maximumLayouts = 8
    /// Shapes not laid out since the last layout was made: with every place taken, the last
    /// layout is replaced only once per ``misplacedShapesPerNewLayout`` of them, so a type with
    /// many combinations in play pays a layout's making (a template and its positions) rarely,
    /// and otherwise what an entity cost before layouts (see ``layout(present:)``).
    @exclusivity(unchecked) private var misplacedShapes = 0
    private static let misplacedShapesPerNewLayout = 16
    /// How many layouts were made after the first (for tests of the policy above).
    private(set) var layoutsMade = 0
    /// The most properties a plan lays out (one bit each in ``Layout/present``).
    static let maximumProperties = 64

    /// Each property's key path as the tape compares keys, made once for every entity of the type
    /// (one per property, in order). A pointer rather than an array: reading it needs no closure,
    /// whose frame a deeply recursive `init(json:)` would pay at every level.
    let keys: UnsafeMutablePointer<PlannedKey>
    /// The bytes the keys point into.
    private let keyBytes: UnsafeMutableRawBufferPointer
    /// Plans `properties`, at most ``maximumProperties`` of them.
    init(_ properties: [SchemaProperty]) {
        precondition(properties.count <= Self.maximumProperties)
        self.properties = properties.map { property in
            SchemaProperty(
                keyPath: property.keyPath, type: property.type, optional: property.optional,
                decodableType: property.decodableType, decoder: nil, methodIdentity: property.methodIdentity)
        }
        isReplayable = properties.allSatisfy { $0.decoder == nil }
        let everyProperty = properties.count == 64 ? UInt64.max : (1 << UInt64(properties.count)) - 1
        fullLayout = Layout(present: everyProperty, of: properties)
        layouts = [fullLayout]
        let byteCount = properties.reduce(0) { $0 + $1.keyPath.utf8.count }
        keyBytes = .allocate(byteCount: max(byteCount, 1), alignment: 8)
        keys = .allocate(capacity: properties.count)
        var offset = 0
        for (index, property) in properties.enumerated() {
            let utf8 = property.keyPath.utf8
            let bytes = UnsafeMutableRawBufferPointer(start: keyBytes.baseAddress! + offset, count: utf8.count)
            bytes.copyBytes(from: utf8)
            offset += utf8.count
            (keys + index).initialize(
                to: PlannedKey(bytes: UnsafeRawBufferPointer(bytes), hasDots: utf8.contains(UInt8(ascii: "."))))
        }
    }

    deinit {
        keys.deinitialize(count: properties.count)
        keys.deallocate()
        keyBytes.deallocate()
    }

    /// A key path ready to be looked up on a tape: its UTF-8 bytes, and its inline word when it
    /// has 7 bytes or fewer (then one word compare per member), so that no `String` is read per
    /// entity.
    struct PlannedKey {
        let bytes: UnsafeRawBufferPointer
        let inlineWord: UInt64?
        /// Whether the key path names more than one component (Elevate then also walks the path).
        let hasDots: Bool

        init(bytes: UnsafeRawBufferPointer, hasDots: Bool) {
            self.bytes = bytes
            inlineWord = bytes.count <= 7 ? JSONTape.inlineWord(.inlineKey, bytes) : nil
            self.hasDots = hasDots
        }
    }

    /// What every key path holds until its value is validated.
    struct Placeholder {}

    /// One shape of the entity: the key paths of the properties present, laid out in a
    /// dictionary, and the last entity filled in that shape.
    final class Layout {
        /// Bit `i` is set when property `i` is in the entity.
        let present: UInt64
        /// The present key paths, each mapped to a placeholder.
        let template: [String: Any]
        /// Where each property's key path is in `template`, by property (meaningless for the
        /// properties absent from this layout).
        let positions: [Dictionary<String, Any>.Index]
        /// The last entity filled in, kept so that the next one is filled in place: no
        /// dictionary copied from `template` and freed again per entity. It holds that entity's
        /// values until ``releaseSpareValues()`` (at the end of the outermost decode, or of a
        /// pass: see ``SchemaPool/deferringRelease(_:)``), placeholders after; it is nil while
        /// an entity is being filled. Only its plan's thread touches it (see ``SchemaPool``).
        @exclusivity(unchecked) private var spare: [String: Any]?
        /// Whether `spare` holds an entity's values rather than placeholders.
        @exclusivity(unchecked) private var spareHoldsValues = false

        init(present: UInt64, of properties: [SchemaProperty]) {
            self.present = present
            var template = [String: Any](minimumCapacity: present.nonzeroBitCount)
            for (index, property) in properties.enumerated() where present & (1 << UInt64(index)) != 0 {
                template[property.keyPath] = Placeholder()
            }
            positions = properties.map { template.index(forKey: $0.keyPath) ?? template.startIndex }
            self.template = template
        }

        /// A dictionary laid out as `template`, its values placeholders or those of an entity
        /// already handed out, to fill in by position.
        @inline(__always)
        func takeEntity() -> [String: Any] {
            guard let entity = spare else { return template }
            spare = nil
            return entity
        }

        /// Keeps the entity just filled in for the next one. The caller of
        /// `parseEntity(json:)` shares it until its decode ends; only then is it written again.
        @inline(__always)
        func keepSpare(_ entity: [String: Any]) {
            spare = entity
            spareHoldsValues = true
        }

        /// Whether the kept entity holds a decode's values (for the tests).
        var holdsSpareValues: Bool { spareHoldsValues }

        /// Lets go of the values of the kept entity (see ``EntityPlan/releaseSpareValues()``).
        func releaseSpareValues() {
            guard spareHoldsValues else { return }
            spareHoldsValues = false
            guard spare != nil else { return }
            var remaining = present
            while remaining != 0 {
                spare!.values[positions[remaining.trailingZeroBitCount]] = Placeholder()
                remaining &= remaining - 1
            }
        }
    }

    /// The layout of an entity with exactly the properties in `present` (bit `i`: property `i`),
    /// or nil when the plan has none and makes none now: then the entity is ``fullLayout``'s
    /// template with the missing keys removed.
    @inline(__always)
    func layout(present: UInt64) -> Layout? {
        let first = layouts[0]
        if first.present == present { return first }
        return otherLayout(present: present)
    }

    /// ``layout(present:)`` after the first layout did not fit: found (and moved up one place),
    /// made, or nil.
    private func otherLayout(present: UInt64) -> Layout? {
        for index in 1..<layouts.count where layouts[index].present == present {
            layouts.swapAt(index, index - 1)
            return layouts[index - 1]
        }
        if layouts.count >= Self.maximumLayouts {
            misplacedShapes += 1
            guard misplacedShapes >= Self.misplacedShapesPerNewLayout else { return nil }
            misplacedShapes = 0
            layouts.removeLast()
        }
        let layout = Layout(present: present, of: properties)
        layouts.append(layout)
        layoutsMade += 1
        return layout
    }

    /// Called when the outermost decode on this thread has returned: the kept entities let go
    /// of the decoded values, so that no value outlives its decode in this thread's state.
    /// (Should a decode have kept its entity, writing here copies the kept one first, and the
    /// entity is left as it was.)
    func releaseSpareValues() {
        for layout in layouts { layout.releaseSpareValues() }
    }

    /// How many of the kept entities hold a decode's values (for the tests).
    var layoutsHoldingValues: Int { layouts.filter(\.holdsSpareValues).count }

    /// Whether the property added at `index` while a schema is rebuilt is the plan's property
    /// there. (Properties with a decoder are never replayed: see ``isReplayable``.) Key paths are
    /// usually the same string literals each time, which compare equal without looking at their
    /// bytes; they are compared last, as the rest compares without touching memory elsewhere.
    @inline(__always)
    func replays(
        _ keyPath: String, _ type: SchemaPropertyProtocol, _ optional: Bool, method: ObjectIdentifier?, at index: Int
    ) -> Bool {
        guard index < properties.count else { return false }
        return properties.withUnsafeBufferPointer { planned in
            let property = planned.baseAddress! + index
            return property.pointee.type == type && property.pointee.optional == optional
                && property.pointee.methodIdentity == method && property.pointee.keyPath == keyPath
        }
    }

    /// Whether `properties` are exactly the ones this plan was made from.
    func matches(_ properties: [SchemaProperty]) -> Bool {
        guard properties.count == self.properties.count else { return false }
        return properties.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let property = buffer.baseAddress! + index
                guard
                    replays(
                        property.pointee.keyPath, property.pointee.type, property.pointee.optional,
                        method: property.pointee.methodIdentity, at: index)
                else { return false }
            }
            return true
        }
    }
}

/// Reuse of what building and validating an entity needs, per thread: one ``Schema`` per nesting
/// level, emptied after each use, and the plans of the types decoded on the thread, whose kept
/// entities are emptied when each call ends (see ``DecodingThread/endCall()``). Neither holds a
/// value of a call past its end, and neither changes a result: a cache, not state.
final class SchemaPool {
    // Touched on every decoded entity, by this thread only: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var idle: [Schema] = []
    /// Most recently used first; programs decode a handful of types, so a scan beats hashing.
    @exclusivity(unchecked) private var plans: [(identity: ObjectIdentifier, plan: EntityPlan)] = []
    private let maximumPlans = 64

    /// How many kept entities hold a decode's values (for the tests).
    var heldValueCount: Int { plans.reduce(0) { $0 + $1.plan.layoutsHoldingValues } }

    /// An empty schema for the closure to fill.
    @inline(__always)
    func take() -> Schema {
        idle.popLast() ?? Schema()
    }

    /// The plan last used for `identity`'s entities, to rebuild a schema against.
    @inline(__always)
    func replayablePlan(for identity: ObjectIdentifier) -> EntityPlan? {
        guard let first = plans.first, first.identity == identity else {
            return plans.first { $0.identity == identity }.flatMap { $0.plan.isReplayable ? $0.plan : nil }
        }
        return first.plan.isReplayable ? first.plan : nil
    }

    /// Gives a schema back, emptied, unless the closure kept a reference to it.
    @inline(__always)
    func giveBack(_ schema: inout Schema) {
        guard isKnownUniquelyReferenced(&schema) else { return }
        // A replayed schema stored nothing: no call to empty it.
        if !schema.storage.isEmpty { schema.storage.removeAll(keepingCapacity: true) }
        if idle.count < 16 { idle.append(schema) }
    }

    /// The call is over (see ``DecodingThread/endCall()``): the kept entities let go of the
    /// values they hold (see ``EntityPlan/releaseSpareValues()``). The plans stay: a plan only
    /// lays out the entity of a schema, and every schema is still built by its closure and
    /// checked against the plan before it is used, so a plan never changes a result; it saves
    /// laying out the same entity again in the next call (a fifth of a small `decodeObject`).
    func endCall() {
        for entry in plans {
            entry.plan.releaseSpareValues()
        }
    }

    /// The plans one type or decoder keeps: one per schema its `init(json:)` builds, for a type
    /// that picks its schema by a discriminator (`"kind": "circle"` or `"square"`). Replacing a
    /// single plan instead made such a type lay out its entity again at every switch.
    private let maximumPlansPerType = 4

    /// The plan for the entity a type or decoder builds, made on first sight of each schema it
    /// builds (its least recently used one replaced beyond ``maximumPlansPerType``); nil for a
    /// schema of more than ``EntityPlan/maximumProperties``.
    func plan(for identity: ObjectIdentifier, _ properties: [SchemaProperty]) -> EntityPlan? {
        guard properties.count <= EntityPlan.maximumProperties else { return nil }
        var plansOfType = 0
        var leastRecentOfType = 0
        for index in plans.indices where plans[index].identity == identity {
            let known = plans[index].plan
            if known.matches(properties) {
                if index > 0 { plans.swapAt(index, index - 1) }
                return known
            }
            plansOfType += 1
            leastRecentOfType = index
        }
        let plan = EntityPlan(properties)
        if plansOfType >= maximumPlansPerType {
            plans[leastRecentOfType].plan = plan
        } else {
            if plans.count >= maximumPlans { plans.removeLast() }
            plans.append((identity, plan))
        }
        return plan
    }
}
