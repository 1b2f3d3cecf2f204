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
    /// Parses JSON data and validates it against the schema the closure builds.
    ///
    /// Only the values the schema names are materialized; the rest of the document is skipped
    /// as YAJL's events stream past. Each captured value is held to ``StreamingOptions``' default
    /// maximum element size (64 MiB).
    /// - Parameters:
    ///   - data: The JSON data; its root must be an object or an array (or any value, when the
    ///     schema's only key path is `""`).
    ///   - closure: Adds the properties to validate to the schema it is given.
    /// - Returns: The entity: each property's key path mapped to its converted value; missing or
    ///   `null` optional properties are absent.
    /// - Throws: ``ParserError/deserialization(failureReason:)`` when the data is not JSON (with the
    ///   byte offset, line and column); ``ParserError/validation(failureReason:)`` when it does
    ///   not match the schema.
    public static func parseEntity(data: Data, closure: (Schema) -> Void) throws -> [String: Any] {
        try parseEntity(.data(data), closure: closure)
    }

    /// `parseEntity(data:closure:)` for any input, files and standard input included.
    static func parseEntity(
        _ input: JSONInput, options: StreamingOptions = StreamingOptions(),
        closure: (Schema) -> Void
    ) throws -> [String: Any] {
        let schema = Schema()
        closure(schema)
        return try entity(
            schema, from: CapturedValues(input: input, paths: schema.storage.map(\.path), options: options))
    }

    /// `parseEntity(data:closure:)` of an asynchronous sequence of chunks.
    static func parseEntity<Chunks: AsyncSequence>(
        _ chunks: Chunks, options: StreamingOptions = StreamingOptions(), closure: (Schema) -> Void
    ) async throws -> [String: Any] where Chunks.Element: Sequence<UInt8> {
        let schema = Schema()
        closure(schema)
        let captured = try await CapturedValues(chunks: chunks, paths: schema.storage.map(\.path), options: options)
        return try entity(schema, from: captured)
    }

    /// The entity of `schema` over the values one pass captured for its key paths.
    static func entity(_ schema: Schema, from captured: CapturedValues) throws -> [String: Any] {
        if captured.rootIsScalar { try EntityValidator.rejectScalarRoot(of: schema) }
        if captured.rootIsArray { try EntityValidator.checkArrayRoot(schema.storage) }
        return try EntityValidator.validate(schema.storage) { captured.value(at: KeyPath($0)) }
    }

    /// Validates an already parsed JSON value (usually the `json` handed to a ``Decodable``)
    /// against the schema the closure builds.
    /// - Parameters:
    ///   - json: A ``JSONValue`` view, or a `[String: Any]` or `[Any]` from `JSONSerialization` or
    ///     anywhere else.
    ///   - closure: Adds the properties to validate to the schema it is given.
    /// - Returns: The entity: each property's key path mapped to its converted value; missing or
    ///   `null` optional properties are absent.
    /// - Throws: ``ParserError/validation(failureReason:)`` when it does not match the schema.
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

/// The values at a set of key paths, captured from one pass over JSON data.
struct CapturedValues {
    private var values: [[String]: JSONValue] = [:]

    init(input: JSONInput, paths: [KeyPath], options: StreamingOptions = StreamingOptions()) throws {
        self = try Capture(paths: paths).run(input, options: options)
    }

    init<Chunks: AsyncSequence>(chunks: Chunks, paths: [KeyPath], options: StreamingOptions = StreamingOptions())
        async throws where Chunks.Element: Sequence<UInt8>
    {
        self = try await Capture(paths: paths).run(chunks, options: options)
    }

    private init(values: [[String]: JSONValue], rootIsScalar: Bool, rootIsArray: Bool) {
        self.values = values
        self.rootIsScalar = rootIsScalar
        self.rootIsArray = rootIsArray
    }

    /// The pass that captures the values at the paths (and, for Elevate's rule, at each path's
    /// literal dotted alternative).
    private final class Capture: DocumentPass {
        let selector: KeyPathSelector
        private var captured: [[String]: JSONValue] = [:]

        init(paths: [KeyPath]) {
            var componentsByTarget: [[String]] = []
            var targets: [KeyPathSelector.Target] = []
            for path in paths {
                for var target in [KeyPathSelector.Target].candidates(for: path, mode: .value) {
                    target.id = componentsByTarget.count
                    componentsByTarget.append(target.components)
                    targets.append(target)
                }
            }
            var callbacks = KeyPathSelector.Callbacks()
            selector = KeyPathSelector(targets: targets, callbacks: callbacks)
            // The callbacks write into this pass, which the selector does not own: no cycle.
            callbacks.value = { [unowned self] target, value in captured[componentsByTarget[target]] = value }
            // A repeated key: the later occurrence replaces the earlier one whole, never merged.
            callbacks.duplicateKey = { [unowned self] repeated in
                for target in repeated { captured[componentsByTarget[target]] = nil }
            }
            selector.callbacks = callbacks
        }

        func result() -> CapturedValues {
            CapturedValues(
                values: captured, rootIsScalar: selector.rootIsContainer == false, rootIsArray: selector.rootIsArray == true)
        }
    }

    /// Whether the document's root is a string, number, Boolean or null.
    private(set) var rootIsScalar = false

    /// Whether the document's root is an array.
    private(set) var rootIsArray = false

    /// The value at `path`, with Elevate's rules: a literal dotted root key wins, and a path below
    /// a captured value is read out of it.
    func value(at path: KeyPath) -> JSONValue? {
        if path.hasLiteralAlternative, let literal = values[[path.text]] { return literal }
        let components = path.components
        // The longest captured path that starts `path`. Only the few captured paths can be it:
        // trying every prefix of `path` instead hashed O(n²) components, minutes for a path of
        // 31,000 that leads nowhere.
        var longest: (length: Int, value: JSONValue)?
        for (captured, value) in values
        where captured.count <= components.count && captured.count > (longest?.length ?? -1)
            && components.starts(with: captured)
        {
            longest = (captured.count, value)
        }
        guard let (prefixLength, found) = longest else { return nil }
        var value = found
        for component in components[prefixLength...] {
            if value.isObject, let member = value[component] {
                value = member
            } else if value.isArray, let index = KeyPath.arrayIndex(component), let element = value[index] {
                value = element
            } else {
                return nil
            }
        }
        return value
    }
}

/// Checks each schema property against the value a lookup finds for it.
enum EntityValidator {
    /// A string, number, Boolean or null at the root is valid JSON (RFC 8259) but no entity: a
    /// validation error whenever the schema asks for anything below the root.
    static func rejectScalarRoot(of schema: Schema) throws {
        guard schema.storage.contains(where: { !$0.keyPath.isEmpty }) else { return }
        var failures = FailureCollector()
        failures.add(notAContainer, at: "")
        throw failures.error()
    }

    /// Elevate's rule for an array given to `parseEntity`: the schema must be one `.array`
    /// property (which reads the array). Any other schema is Elevate's "Invalid property list for
    /// json array." rather than a "missing" failure for each key path, which hid that the value
    /// was an array where an object was expected (found by the differential tests against Elevate
    /// 4.0.0). This library's addition stays: a schema whose key paths all start with an array
    /// index (`"0"`, `"1.name"`) reads the array's elements.
    static func checkArrayRoot(_ properties: [SchemaProperty]) throws {
        if properties.count == 1, properties[0].type == .array { return }
        if !properties.isEmpty,
            properties.allSatisfy({ property in
                property.path.components.first.map { KeyPath.arrayIndex($0) != nil } ?? false
            })
        {
            return
        }
        var failures = FailureCollector()
        failures.add(invalidPropertyListForArray, at: "")
        throw failures.error()
    }

    /// Elevate's text for a schema an array cannot satisfy.
    static let invalidPropertyListForArray = "Invalid property list for json array."

    /// Elevate's text for a root that is neither an object nor an array.
    static let notAContainer = "JSON object was not of type: [String: Any] or [Any]"

    static func validate(_ schema: Schema, lookup: (KeyPath) -> Any?) throws -> [String: Any] {
        var entity = [String: Any](minimumCapacity: schema.storage.count)
        var failures = FailureCollector()
        // Borrow each property in place: copying one copies its existentials through value witnesses.
        try schema.storage.withUnsafeBufferPointer { properties in
            for index in properties.indices {
                let value = lookup(KeyPath(properties[index].keyPath))
                guard let value, !isNull(value) else {
                    if !properties[index].optional {
                        let keyPath = properties[index].keyPath
                        failures.add("Required key path [\(keyPath)] was missing or null", at: keyPath)
                    }
                    continue
                }
                if let parsed = try validate(value, for: properties[index], failures: &failures) {
                    entity[properties[index].keyPath] = parsed
                }
            }
        }
        if !failures.isEmpty {
            throw failures.error()
        }
        return entity
    }

    @inline(__always)
    static func isNull(_ value: Any) -> Bool {
        type(of: value) == NSNull.self
    }

    /// The typed, decoded value, or nil after recording why it does not fit.
    private static func validate(_ value: Any, for property: SchemaProperty, failures: inout FailureCollector) throws
        -> Any?
    {
        if property.type == .array, property.hasDecodingMethod {
            // Cast once, straight to the array the elements are decoded from.
            guard let elements = StrictConversion.array(value) else {
                failures.add("Value for key path [\(property.keyPath)] is of incorrect type", at: property.keyPath)
                return nil
            }
            return try decodeElements(elements, property: property, failures: &failures)
        }
        if property.type == .array, StrictConversion.array(value) != nil {
            // Elevate has no default for arrays: each element needs a decoding method.
            failures.add("A decoding method was not provided for `\(property.keyPath)` array", at: property.keyPath)
            return nil
        }
        guard let typed = typedValue(value, as: property.type) else {
            if property.type == .url, StrictConversion.string(value) != nil {
                failures.add(
                    "Required key path [\(property.keyPath)] could not be parsed to valid URL", at: property.keyPath)
            } else {
                failures.add("Value for key path [\(property.keyPath)] is of incorrect type", at: property.keyPath)
            }
            return nil
        }
        guard property.hasDecodingMethod else { return typed }
        do {
            return try NestedFailures.decode { () throws -> Any in try decode(typed, with: property) }
        } catch ParserError.validation(let reason) {
            failures.addNested(reason, reason: reason, at: property.keyPath)
            return nil
        }
    }

    /// Decodes each element, recording every failing element in Elevate's words: an array of the
    /// decodable type itself, or of the decoder's results.
    static func decodeElements(
        _ elements: [Any], property: SchemaProperty, failures: inout FailureCollector
    ) throws -> Any {
        if let decodableType = property.decodableType {
            return try decodeElements(elements, as: decodableType, keyPath: property.keyPath, failures: &failures)
        }
        var decoded: [Any] = []
        decoded.reserveCapacity(elements.count)
        var elementFailures = ArrayElementFailures()
        for (index, element) in elements.enumerated() {
            do {
                decoded.append(try NestedFailures.decode { try decode(element, with: property) })
            } catch ParserError.validation(let reason) {
                // The method's name is only worked out on failure: describing a type is costly.
                elementFailures.add(
                    index: index, methodName: property.decodingMethodName ?? "", reason: reason,
                    keyPath: property.keyPath, to: &failures)
            }
        }
        elementFailures.finish(keyPath: property.keyPath, into: &failures)
        return decoded
    }

    /// The elements decoded as `[T]`.
    private static func decodeElements<T: Decodable>(
        _ elements: [Any], as type: T.Type, keyPath: String, failures: inout FailureCollector
    ) throws -> Any {
        var decoded: [T] = []
        decoded.reserveCapacity(elements.count)
        var elementFailures = ArrayElementFailures()
        for (index, element) in elements.enumerated() {
            do {
                decoded.append(try NestedFailures.decode { try T(json: element) })
            } catch ParserError.validation(let reason) {
                elementFailures.add(
                    index: index, methodName: String(describing: T.self), reason: reason, keyPath: keyPath,
                    to: &failures)
            }
        }
        elementFailures.finish(keyPath: keyPath, into: &failures)
        return decoded
    }

    static func arrayElementFailure(index: Int, methodName: String, reason: String) -> String {
        "Error parsing array object at index \(index) with parser [\(methodName)]\n\(reason)\n--"
    }

    /// Runs the property's decodable type or decoder (called directly: a closure per property
    /// would be an allocation per decoded value).
    @inline(__always)
    static func decode(_ value: Any, with property: SchemaProperty) throws -> Any {
        if let decodableType = property.decodableType {
            return try decodableType.init(json: value)
        }
        return try property.decoder!.decode(value)
    }

    static func typedValue(_ value: Any, as type: SchemaPropertyProtocol) -> Any? {
        switch type {
        case .string: return StrictConversion.string(value)
        case .int: return StrictConversion.int(value)
        case .uint: return StrictConversion.uint(value)
        case .float: return StrictConversion.float(value)
        case .double: return StrictConversion.double(value)
        case .bool: return StrictConversion.bool(value)
        case .array: return StrictConversion.array(value)
        case .dictionary: return StrictConversion.dictionary(value)
        case .url: return StrictConversion.url(value)
        }
    }
}
