import Foundation

/// Validates JSON against a ``Schema`` and returns the entity: a dictionary from each property's
/// key path to its typed (and decoded) value, ready for the `<-!` family of operators.
///
/// ```swift
/// let entity = try Parser.parseEntity(data: data) { schema in
///     schema.addProperty(keyPath: "id", type: .int)
///     schema.addProperty(keyPath: "nickname", type: .string, optional: true)
/// }
/// let id: Int = entity <-! "id"
/// let nickname: String? = entity <-? "nickname"
/// ```
///
/// All failures of one entity are reported together, in schema order, one per line.
public enum Parser {
    /// Validates an already parsed JSON value (usually the `json` handed to a ``Decodable``)
    /// against the schema the closure builds.
    /// - Parameters:
    ///   - json: A `JSONValue` view, or a `[String: Any]` or `[Any]` from `JSONSerialization` or
    ///     anywhere else.
    ///   - closure: Adds the properties to validate to the schema it is given.
    /// - Returns: The entity: each property's key path mapped to its converted value; missing or
    ///   `null` optional properties are absent.
    /// - Throws: `ParserError.validation(failureReason:)` when it does not match the schema.
    public static func parseEntity(json: Any, closure: (Schema) -> Void) throws -> [String: Any] {
        if let view = JSONValue.exactly(json) {
            return try parseEntity(view: view, closure: closure)
        }
        let schema = Schema()
        closure(schema)
        if let object = json as? [String: Any] {
            return try EntityValidator.validate(schema) { $0.value(inObject: object) }
        }
        guard let array = json as? [Any] else {
            throw ParserError.validation(failureReason: EntityValidator.notAContainer)
        }
        try EntityValidator.checkArrayRoot(schema.storage)
        if let property = schema.storage.first, schema.storage.count == 1, property.type == .array {
            // Elevate's rule for an array root: its one `.array` property is the array itself,
            // whatever the key path says.
            return try EntityValidator.validate(schema) { _ in array }
        }
        return try EntityValidator.validate(schema) { $0.value(in: array) }
    }

    /// `parseEntity(json:)` of a value on a document tape, read in place.
    static func parseEntity(view: JSONValue, closure: (Schema) -> Void) throws -> [String: Any] {
        let thread = DecodingThread.current
        let identity = ViewHandOff.read(view, in: thread)
        var schema = thread.schemas.take()
        defer { thread.schemas.giveBack(&schema) }
        // A type decoded again and again gets its entity laid out once, and its schema, rebuilt
        // for every entity, is checked against that plan instead of being stored.
        if let identity, let known = thread.schemas.replayablePlan(for: identity) { schema.replay(known) }
        closure(schema)
        let plan: EntityPlan?
        let properties: [SchemaProperty]
        let isKept = !isKnownUniquelyReferenced(&schema)
        if let replayed = schema.finishReplay(isKept: isKept) {
            plan = replayed
            properties = replayed.properties
        } else {
            plan = identity.flatMap { thread.schemas.plan(for: $0, schema.storage) }
            properties = schema.storage
        }
        let slots = schema.valueSlots(count: properties.count)
        if view.isObject {
            var hint: Int?
            // A plan has each key's bytes ready (its `keys` line up with `properties`).
            let keys = plan?.keys
            return try EntityValidator.validate(properties, plan: plan, slots: slots, on: view.tape) { property, index in
                if let keys { return EntityValidator.index(at: keys[index], of: property, in: view, hint: &hint) }
                return EntityValidator.index(at: property.pointee.keyPath, in: view, hint: &hint)
            }
        }
        guard view.isArray else {
            throw ParserError.validation(failureReason: EntityValidator.notAContainer)
        }
        try EntityValidator.checkArrayRoot(properties)
        if let property = properties.first, properties.count == 1, property.type == .array {
            return try EntityValidator.validate(properties, plan: plan, slots: slots, on: view.tape) { _, _ in view.index }
        }
        var hint: Int?
        return try EntityValidator.validate(properties, plan: plan, slots: slots, on: view.tape) { property, _ in
            EntityValidator.index(at: property.pointee.keyPath, in: view, hint: &hint)
        }
    }

    /// Whether `value` has the JSON type a property names, with this library's strict rules.
    static func isValue(_ value: Any, ofType type: SchemaPropertyProtocol) -> Bool {
        EntityValidator.typedValue(value, as: type) != nil
    }
}
