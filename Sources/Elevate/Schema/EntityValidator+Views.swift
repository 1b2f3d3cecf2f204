/// Schema validation read straight off a document tape: keys compared as bytes, scalars converted
/// from their tape entries, objects and arrays handed to nested decoders as views. No
/// intermediate dictionary is built and no value is cast from `Any`.
extension EntityValidator {
    /// Validates a schema's properties against the values `lookup` finds, each a view on a tape
    /// of its own (values captured from a stream).
    static func validate(_ schemaProperties: [SchemaProperty], lookup: (String) -> JSONValue?) throws -> [String: Any] {
        try fill(schemaProperties, plan: nil) { _, property, destination, failures, isMissing in
            guard let value = lookup(property.pointee.keyPath), !value.isNull else {
                isMissing = true
                return false
            }
            return try validate(value.tape, value.index, for: property, into: destination, failures: &failures)
        }
    }

    /// Validates a schema's properties against the values `lookup` finds on `tape`, as indices:
    /// scalars are converted from their entries, and only objects and arrays handed on become
    /// views, so no value costs a retain and release of the tape.
    /// `lookup` gets each property (in place: a copy would retain its key path) and its index
    /// among the properties; with a plan, the values are validated into `slots` (uninitialized
    /// room for one per property, left uninitialized) before they are laid out.
    static func validate(
        _ schemaProperties: [SchemaProperty], plan: EntityPlan?, slots: UnsafeMutablePointer<Any>, on tape: JSONTape,
        lookup: (UnsafePointer<SchemaProperty>, Int) -> Int?
    ) throws -> [String: Any] {
        try fill(schemaProperties, plan: plan, slots: slots) { propertyIndex, property, destination, failures, isMissing in
            guard let index = lookup(property, propertyIndex), !tape.kind(at: index).isNull else {
                isMissing = true
                return false
            }
            return try validate(tape, index, for: property, into: destination, failures: &failures)
        }
    }

    /// What validates one property: given its index and the property (in place), it writes the
    /// typed, decoded value into the destination and returns true, or returns false when the
    /// value is missing (then it sets `isMissing`) or rejected (its failure recorded). Values are
    /// built where they are kept: an `Any` moved from one temporary to the next cost 4% of
    /// `decodeArray`.
    typealias PropertyValidation = (
        Int, UnsafePointer<SchemaProperty>, UnsafeMutablePointer<Any>, inout FailureCollector, _ isMissing: inout Bool
    ) throws -> Bool

    /// Builds the entity from each property's validated value; with a plan (made from the same
    /// properties), the entity is one of the plan's laid-out dictionaries and values are set by
    /// position.
    @inline(__always)
    private static func fill(
        _ schemaProperties: [SchemaProperty], plan: EntityPlan?, slots: UnsafeMutablePointer<Any>? = nil,
        _ validated: PropertyValidation
    ) throws -> [String: Any] {
        if let plan, let slots { return try fill(schemaProperties, laidOutBy: plan, slots: slots, validated) }
        var entity = [String: Any](minimumCapacity: schemaProperties.count)
        var failures = FailureCollector()
        try schemaProperties.withUnsafeBufferPointer { properties in
            // Properties are read in place: copying one copies its existentials.
            let first = properties.baseAddress!
            // One value at a time: the first of the schema's slots, or one of its own.
            let slot = slots ?? UnsafeMutablePointer<Any>.allocate(capacity: 1)
            defer { if slots == nil { slot.deallocate() } }
            for index in properties.indices {
                let property = first + index
                let keyPath = property.pointee.keyPath
                var isMissing = false
                if try validated(index, property, slot, &failures, &isMissing) {
                    entity[keyPath] = slot.move()
                } else if isMissing, !property.pointee.optional {
                    failures.add(FailureText.missing(keyPath), at: keyPath)
                }
            }
        }
        if !failures.isEmpty {
            throw failures.error()
        }
        return entity
    }

    /// ``fill(_:plan:slots:_:)`` with a plan: every value is validated into its slot first, then
    /// set by position in the layout of the properties present, kept for the next entity of that
    /// shape.
    @inline(__always)
    private static func fill(
        _ schemaProperties: [SchemaProperty], laidOutBy plan: EntityPlan, slots firstValue: UnsafeMutablePointer<Any>,
        _ validated: PropertyValidation
    ) throws -> [String: Any] {
        // Bit `i`: slot `i` holds property `i`'s value (a plan has at most 64 properties).
        var present: UInt64 = 0
        defer {
            // Values not moved into an entity (a failure, or a throwing decoder) are let go.
            while present != 0 {
                (firstValue + present.trailingZeroBitCount).deinitialize(count: 1)
                present &= present - 1
            }
        }
        var failures = FailureCollector()
        try schemaProperties.withUnsafeBufferPointer { properties in
            // Properties are read in place: copying one copies its existentials.
            let first = properties.baseAddress!
            for index in properties.indices {
                let property = first + index
                var isMissing = false
                if try validated(index, property, firstValue + index, &failures, &isMissing) {
                    present |= 1 << UInt64(index)
                } else if isMissing, !property.pointee.optional {
                    let keyPath = property.pointee.keyPath
                    failures.add(FailureText.missing(keyPath), at: keyPath)
                }
            }
        }
        if !failures.isEmpty {
            throw failures.error()
        }
        guard let layout = plan.layout(present: present) else {
            let entity = makeEntity(schemaProperties, present, from: firstValue, withoutLayoutOf: plan)
            present = 0  // Every value was moved into the entity.
            return entity
        }
        var entity = layout.takeEntity()
        while present != 0 {
            let index = present.trailingZeroBitCount
            entity.values[layout.positions[index]] = (firstValue + index).move()
            present &= present - 1
        }
        layout.keepSpare(entity)
        return entity
    }

    /// An entity of a shape `plan` has no layout for: every key path, the missing ones removed
    /// once the values (moved out of their slots) are in place, since removing may move other
    /// entries. Out of line: `fill` is on the stack at every level of a recursive type, and this
    /// path's locals would grow its frame (in unoptimized builds, by their sum).
    @inline(never)
    private static func makeEntity(
        _ schemaProperties: [SchemaProperty], _ present: UInt64, from firstValue: UnsafeMutablePointer<Any>,
        withoutLayoutOf plan: EntityPlan
    ) -> [String: Any] {
        let full = plan.fullLayout
        var entity = full.template
        var remaining = present
        while remaining != 0 {
            let index = remaining.trailingZeroBitCount
            entity.values[full.positions[index]] = (firstValue + index).move()
            remaining &= remaining - 1
        }
        var missing = full.present & ~present
        while missing != 0 {
            entity.removeValue(forKey: schemaProperties[missing.trailingZeroBitCount].keyPath)
            missing &= missing - 1
        }
        return entity
    }

    /// The tape index of the value at `keyPath` below an object or array root, with Elevate's
    /// rules: the whole key path as one key first (it may contain dots), then the split path.
    /// `hint` makes reading the keys of one object in document order linear.
    @inline(__always)
    static func index(at keyPath: String, in root: JSONValue, hint: inout Int?) -> Int? {
        root.index(atKeyPath: keyPath, hint: &hint)
    }

    /// ``index(at:in:hint:)`` for a key path a plan has made ready: its bytes compared with no
    /// `String` read, and the dotted walk tried only when the key path has a dot.
    @inline(__always)
    static func index(
        at key: EntityPlan.PlannedKey, of property: UnsafePointer<SchemaProperty>, in root: JSONValue,
        hint: inout Int?
    ) -> Int? {
        if key.bytes.isEmpty { return root.index }
        if let member = root.memberIndex(utf8Key: key.bytes, inlineWord: key.inlineWord, hint: &hint) {
            return member
        }
        guard key.hasDots || root.isArray else { return nil }
        return root[keyPath: property.pointee.keyPath]?.index
    }

    /// Writes the typed, decoded value into `destination` and returns true, or returns false after
    /// recording why it does not fit.
    private static func validate(
        _ tape: JSONTape, _ index: Int, for pointer: UnsafePointer<SchemaProperty>,
        into destination: UnsafeMutablePointer<Any>, failures: inout FailureCollector
    ) throws -> Bool {
        // Read only to report a failure: the usual path retains no key path.
        var keyPath: String { pointer.pointee.keyPath }
        let hasMethod = pointer.pointee.hasDecodingMethod
        let kind = tape.kind(at: index)
        switch pointer.pointee.type {
        case .array:
            guard case .array = kind else {
                failures.add(FailureText.incorrectType(keyPath), at: keyPath)
                return false
            }
            guard hasMethod else {
                failures.add("A decoding method was not provided for `\(keyPath)` array", at: keyPath)
                return false
            }
            destination.initialize(
                to: try decodeElements(of: JSONValue(tape: tape, index: index), property: pointer, failures: &failures))
            return true
        case .dictionary:
            guard case .object = kind else {
                failures.add(FailureText.incorrectType(keyPath), at: keyPath)
                return false
            }
            let value = JSONValue(tape: tape, index: index)
            guard hasMethod else {
                destination.initialize(to: value.foundationValue)
                return true
            }
            guard let decoded = try decodeNested(value, with: pointer.pointee, at: keyPath, failures: &failures) else {
                return false
            }
            destination.initialize(to: decoded)
            return true
        default:
            guard scalar(tape, index, kind, as: pointer.pointee.type, into: destination) else {
                if pointer.pointee.type == .url, kind.isString {
                    failures.add(FailureText.invalidURL(keyPath, optional: pointer.pointee.optional), at: keyPath)
                } else {
                    failures.add(FailureText.incorrectType(keyPath), at: keyPath)
                }
                return false
            }
            guard hasMethod else { return true }
            let typed = destination.move()
            do {
                destination.initialize(
                    to: try NestedFailures.decode { () throws -> Any in try decode(typed, with: pointer.pointee) })
                return true
            } catch ParserError.validation(let reason) {
                failures.addNested(reason, reason: reason, at: keyPath)
                return false
            }
        }
    }

    /// Writes a scalar entry into `destination` as the Swift type a property names and returns
    /// true, with the same strictness as for Foundation values; false when it does not convert.
    @inline(__always)
    private static func scalar(
        _ tape: JSONTape, _ index: Int, _ kind: JSONTape.Kind, as type: SchemaPropertyProtocol,
        into destination: UnsafeMutablePointer<Any>
    ) -> Bool {
        let isString = kind.isString
        switch type {
        case .string: return isString && put(tape.string(at: index), into: destination)
        case .int:
            return put(tape.number(at: index).flatMap { StrictConversion.int(number: .init($0)) }, into: destination)
        case .uint:
            return put(tape.number(at: index).flatMap { StrictConversion.uint(number: .init($0)) }, into: destination)
        case .float:
            // Rounded once, from the text when the tape kept it (see `JSONTape.float(at:)`).
            return put(tape.float(at: index).flatMap { StrictConversion.float(rounded: $0, from: tape.number(at: index)) }, into: destination)
        case .double:
            return put(tape.number(at: index).flatMap { StrictConversion.double(number: .init($0)) }, into: destination)
        case .bool: return kind.isBool && put(kind.isTrue, into: destination)
        case .url: return isString && put(StrictConversion.url(string: tape.string(at: index)), into: destination)
        case .array, .dictionary: return false
        }
    }

    /// Writes `value`, when there is one, into `destination`.
    @inline(__always)
    private static func put<T>(_ value: T?, into destination: UnsafeMutablePointer<Any>) -> Bool {
        guard let value else { return false }
        destination.initialize(to: value)
        return true
    }

    /// Decodes an object with the property's decodable type or decoder, handing it a view.
    private static func decodeNested(
        _ value: JSONValue, with property: SchemaProperty, at keyPath: String, failures: inout FailureCollector
    ) throws -> Any? {
        do {
            return try NestedFailures.decode { () throws -> Any in try decodeView(value, with: property) }
        } catch ParserError.validation(let reason) {
            failures.addNested(reason, reason: reason, at: keyPath)
            return nil
        }
    }

    /// Decodes each element, recording every failing element in Elevate's words: an array of the
    /// decodable type itself (no element boxed in `Any`), or of the decoder's results.
    private static func decodeElements(
        of array: JSONValue, property pointer: UnsafePointer<SchemaProperty>, failures: inout FailureCollector
    ) throws -> Any {
        if let decodableType = pointer.pointee.decodableType {
            return try decodeElements(of: array, as: decodableType, property: pointer, failures: &failures)
        }
        let property = pointer.pointee
        var decoded: [Any] = []
        decoded.reserveCapacity(array.count)
        var index = 0
        var elementFailures = ElementFailures(limit: ElementFailures.schemaLimit)
        for element in array.elements! {
            do {
                decoded.append(
                    try NestedFailures.decode { () throws -> Any in try decodeView(element, with: property) })
            } catch ParserError.validation(let reason) {
                elementFailures.addElement(
                    index, of: property.keyPath, methodName: property.decodingMethodName ?? "", reason: reason)
            }
            index += 1
        }
        elementFailures.finish(keyPath: property.keyPath, into: &failures)
        return decoded
    }

    /// The elements decoded as `[T]`.
    private static func decodeElements<T: Decodable>(
        of array: JSONValue, as type: T.Type, property: UnsafePointer<SchemaProperty>, failures: inout FailureCollector
    ) throws -> Any {
        // Built in place: in code generic over a type known only at run time, each array operation
        // looks the array type's metadata up again; the array itself is made by the type's own
        // conformance, where the type is known.
        var thrown: (any Error)?
        var failed = false
        var elementFailures = ElementFailures(limit: ElementFailures.schemaLimit)
        let decoded = T._makeElevateArray(capacity: array.count) { storage, initialized in
            // Storage for `array.count` values of `T`, from `[T]`'s own initializer.
            guard let elements = storage?.assumingMemoryBound(to: T.self) else { return }
            var index = 0
            for element in array.elements! {
                do {
                    let value = try NestedFailures.decode { try decodeElement(element, as: T.self) }
                    // After a failure the entity throws: later elements are decoded for their errors only.
                    if !failed {
                        (elements + initialized).initialize(to: consume value)
                        initialized += 1
                    }
                } catch ParserError.validation(let reason) {
                    failed = true
                    elementFailures.addElement(
                        index, of: property.pointee.keyPath, methodName: String(describing: T.self), reason: reason)
                } catch {
                    thrown = error
                    return
                }
                index += 1
            }
        }
        if let thrown { throw thrown }
        elementFailures.finish(keyPath: property.pointee.keyPath, into: &failures)
        return decoded
    }

    /// Runs the property's decodable type or decoder on a value on the tape (see ``ViewHandOff``).
    @inline(__always)
    static func decodeView(_ value: JSONValue, with property: SchemaProperty) throws -> Any {
        if let decodableType = property.decodableType {
            return try ViewHandOff.decode(value, by: ObjectIdentifier(decodableType)) {
                try decodableType.init(json: $0)
            }
        }
        let decoder = property.decoder!
        return try ViewHandOff.decode(value, by: ObjectIdentifier(type(of: decoder))) { try decoder.decode($0) }
    }
}

// Matched by pattern, not by `==`: the tape's kinds belong to ElevateJSON, whose synthesized
// `Equatable` this module can only call through a witness table (about 20 instructions a
// comparison, several per property read), while a pattern compares the tag in place.
extension JSONTape.Kind {
    @inline(__always) fileprivate var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    @inline(__always) fileprivate var isString: Bool {
        switch self {
        case .string, .inlineString: return true
        default: return false
        }
    }

    @inline(__always) fileprivate var isBool: Bool {
        switch self {
        case .true, .false: return true
        default: return false
        }
    }

    @inline(__always) fileprivate var isTrue: Bool {
        if case .true = self { return true }
        return false
    }
}
