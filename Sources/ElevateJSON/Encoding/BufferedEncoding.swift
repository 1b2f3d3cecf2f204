/// The buffered pass of ``ElevateJSONEncoder``: the value becomes an ``EncodedValue`` tree, then
/// text. It gives `JSONEncoder`'s results where streaming cannot (sorted keys, a key written twice,
/// containers written out of order; see ``EncodingStream``), and its containers serve the nested
/// containers and `superEncoder`s that the streaming pass holds back.
enum BufferedEncoding {
    /// Appends `value` as one top-level value to the root generator's output.
    static func encode<T: Swift.Encodable>(_ value: T, context: EncodingContext, output: EncodingOutput) throws {
        let root = try topLevelValue(value, in: context)
        if let error = context.deferredError { throw error }
        try output.root.writeValue { try output.write(root, sealing: false) }
    }

    /// `value` as a tree of encoded values, as the text would hold it.
    static func tree<T: Swift.Encodable>(of value: T, settings: EncodingSettings) throws -> EncodedValue {
        let context = EncodingContext(settings: settings)
        let root = try topLevelValue(value, in: context)
        if let error = context.deferredError { throw error }
        return root
    }

    private static func topLevelValue<T: Swift.Encodable>(_ value: T, in context: EncodingContext) throws
        -> EncodedValue
    {
        let slot = EncodedSlot()
        switch try context.plan(value, codingPath: { [] }) {
        case .value(let scalar): return scalar
        case .stringKeyedDictionary(let dictionary): return .object(try dictionary.encodedObject(in: context, codingPath: []))
        case .custom(let body):
            // A `.custom` date or data strategy that writes nothing gives `{}`, as in Foundation.
            try body(BufferedEncoder(context: context, slot: slot, codingPath: []))
            return slot.value ?? .object(EncodedObject())
        case .ordinary: try value.encode(to: BufferedEncoder(context: context, slot: slot, codingPath: []))
        }
        guard let result = slot.value else { throw EncodingContext.nothingEncoded(value) }
        return result
    }

    /// `value` as a tree; a value that wrote nothing is `{}`, as in Foundation.
    static func value<T: Swift.Encodable>(_ value: T, in context: EncodingContext, codingPath: [any CodingKey])
        throws -> EncodedValue
    {
        let slot = EncodedSlot()
        let plan = try context.plan(value, codingPath: { codingPath })
        if case .value(let scalar) = plan { return scalar }
        if codingPath.count >= StackGuard.checkedLevels { try StackGuard.checkEncoding(value, { codingPath }) }
        switch plan {
        case .value(let scalar): return scalar
        case .stringKeyedDictionary(let dictionary):
            return .object(try dictionary.encodedObject(in: context, codingPath: codingPath))
        case .custom(let body): try body(BufferedEncoder(context: context, slot: slot, codingPath: codingPath))
        case .ordinary: try value.encode(to: BufferedEncoder(context: context, slot: slot, codingPath: codingPath))
        }
        return slot.value ?? .object(EncodedObject())
    }
}

/// The `Encoder` of one value in the buffered pass: what it writes goes into its slot.
struct BufferedEncoder: Swift.Encoder {
    let context: EncodingContext
    let slot: EncodedSlot
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        switch slot.value {
        case .object(let existing):
            object = existing
        case nil:
            object = EncodedObject()
            slot.value = .object(object)
            if slot.isSealed { context.poisoned = true }
        default:
            object = EncodedObject()
            context.deferredError = context.deferredError
                ?? EncodingContext.containerMismatch(codingPath, asked: "a keyed container")
        }
        return KeyedEncodingContainer(BufferedKeyedContainer<Key>(context: context, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        switch slot.value {
        case .array(let existing):
            array = existing
        case nil:
            array = EncodedArray()
            slot.value = .array(array)
            if slot.isSealed { context.poisoned = true }
        default:
            array = EncodedArray()
            context.deferredError = context.deferredError
                ?? EncodingContext.containerMismatch(codingPath, asked: "an unkeyed container")
        }
        return BufferedUnkeyedContainer(context: context, array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        BufferedSingleValueContainer(context: context, slot: slot, codingPath: codingPath)
    }
}

/// The single-value container of ``BufferedEncoder``.
struct BufferedSingleValueContainer: SingleValueEncodingContainer {
    let context: EncodingContext
    let slot: EncodedSlot
    let codingPath: [any CodingKey]

    private func set(_ value: EncodedValue) throws {
        guard slot.value == nil else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Attempt to encode value through single value container when previously value already encoded."
                ))
        }
        if slot.isSealed { throw context.bailout() }
        slot.value = value
    }

    mutating func encodeNil() throws { try set(.null) }
    mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
    mutating func encode(_ value: String) throws { try set(.string(value)) }
    mutating func encode(_ value: Double) throws { try set(try context.number(value, { codingPath })) }
    mutating func encode(_ value: Float) throws { try set(try context.number(value, { codingPath })) }
    mutating func encode(_ value: Int) throws { try set(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { try set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { try set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { try set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { try set(.unsigned(value)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { try set(.exactInteger(value)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { try set(.exactInteger(value)) }
    mutating func encode<T: Swift.Encodable>(_ value: T) throws {
        try set(try BufferedEncoding.value(value, in: context, codingPath: codingPath))
    }
}

extension BufferedSingleValueContainer: ExactNumberTextEncoding {
    func encodeNumberText(_ text: String) throws { try set(.number(text)) }
}
