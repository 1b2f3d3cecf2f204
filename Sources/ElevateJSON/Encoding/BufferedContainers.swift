/// The keyed container of the buffered pass (and of the streaming pass's nested containers).
struct BufferedKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let context: EncodingContext
    let object: EncodedObject
    let codingPath: [any CodingKey]

    private func name(_ key: Key) -> String { context.jsonKey(key, codingPath: codingPath) }

    private func set(_ value: EncodedValue, forKey key: Key) throws {
        if object.isSealed { throw context.bailout() }
        object.set(name(key), value)
    }

    mutating func encodeNil(forKey key: Key) throws { try set(.null, forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try set(.bool(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try set(.string(value), forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try set(try context.number(value, { codingPath + [key] }), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try set(try context.number(value, { codingPath + [key] }), forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try set(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try set(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try set(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try set(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try set(.integer(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try set(.unsigned(UInt64(value)), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try set(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try set(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try set(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try set(.unsigned(value), forKey: key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try set(.exactInteger(value), forKey: key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try set(.exactInteger(value), forKey: key) }

    mutating func encode<T: Swift.Encodable>(_ value: T, forKey key: Key) throws {
        try set(try BufferedEncoding.value(value, in: context, codingPath: codingPath + [key]), forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        // As in Foundation, asking twice for the same key gives the same object.
        let name = name(key)
        let nested: EncodedObject
        if case .object(let existing)? = object.value(forKey: name) {
            nested = existing
        } else {
            if object.value(forKey: name) != nil { mismatch(key, asked: "a keyed container") }
            nested = EncodedObject()
            place(.object(nested), name)
        }
        return KeyedEncodingContainer(
            BufferedKeyedContainer<NestedKey>(context: context, object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = name(key)
        let nested: EncodedArray
        if case .array(let existing)? = object.value(forKey: name) {
            nested = existing
        } else {
            if object.value(forKey: name) != nil { mismatch(key, asked: "an unkeyed container") }
            nested = EncodedArray()
            place(.array(nested), name)
        }
        return BufferedUnkeyedContainer(context: context, array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Swift.Encoder { superEncoder(key: StringCodingKey.super) }

    mutating func superEncoder(forKey key: Key) -> any Swift.Encoder { superEncoder(key: key) }

    private func superEncoder(key: some CodingKey) -> any Swift.Encoder {
        let slot = EncodedSlot()
        place(.slot(slot), context.jsonKey(key, codingPath: codingPath))
        return BufferedEncoder(context: context, slot: slot, codingPath: codingPath + [key])
    }

    /// A nested container asked for under a key that holds another kind of value: Foundation traps;
    /// the encode call throws when it ends, rather than keep the container and silently drop what
    /// went into the other.
    private func mismatch(_ key: Key, asked: String) {
        if context.deferredError == nil {
            context.deferredError = EncodingContext.containerMismatch(codingPath + [key], asked: asked)
        }
    }

    /// Adds a member where no error can be thrown; a sealed object sends the call to the buffered pass.
    private func place(_ value: EncodedValue, _ name: String) {
        if object.isSealed { context.poisoned = true }
        object.set(name, value)
    }
}

/// The unkeyed container of the buffered pass (and of the streaming pass's nested containers).
struct BufferedUnkeyedContainer: UnkeyedEncodingContainer {
    let context: EncodingContext
    let array: EncodedArray
    let codingPath: [any CodingKey]

    var count: Int { array.elements.count }

    private func append(_ value: EncodedValue) throws {
        if array.isSealed { throw context.bailout() }
        array.elements.append(value)
    }

    private func elementPath() -> [any CodingKey] { codingPath + [IndexCodingKey(count)] }

    mutating func encodeNil() throws { try append(.null) }
    mutating func encode(_ value: Bool) throws { try append(.bool(value)) }
    mutating func encode(_ value: String) throws { try append(.string(value)) }
    mutating func encode(_ value: Double) throws { try append(try context.number(value, elementPath)) }
    mutating func encode(_ value: Float) throws { try append(try context.number(value, elementPath)) }
    mutating func encode(_ value: Int) throws { try append(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { try append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { try append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { try append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { try append(.unsigned(value)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { try append(.exactInteger(value)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { try append(.exactInteger(value)) }

    mutating func encode<T: Swift.Encodable>(_ value: T) throws {
        try append(try BufferedEncoding.value(value, in: context, codingPath: elementPath()))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = EncodedObject()
        let path = elementPath()
        place(.object(nested))
        return KeyedEncodingContainer(BufferedKeyedContainer<NestedKey>(context: context, object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let path = elementPath()
        place(.array(nested))
        return BufferedUnkeyedContainer(context: context, array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Swift.Encoder {
        let slot = EncodedSlot()
        let path = elementPath()
        place(.slot(slot))
        return BufferedEncoder(context: context, slot: slot, codingPath: path)
    }

    private func place(_ value: EncodedValue) {
        if array.isSealed { context.poisoned = true }
        array.elements.append(value)
    }
}
