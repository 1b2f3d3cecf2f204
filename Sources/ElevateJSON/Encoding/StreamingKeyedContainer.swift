/// The keyed container of ``StreamingEncoder``: members go straight to the generator; nested
/// containers and `superEncoder` are held back (see ``EncodingStream``).
struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: EncodingStream
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] {
        StreamingEncoder(stream: stream, frame: frame, generation: generation).codingPath
    }

    @inline(__always)
    private func write(_ value: EncodedValue, forKey key: Key) throws {
        try stream.beginMember(key, frame, generation)
        try stream.output.write(value, sealing: false)
    }

    mutating func encodeNil(forKey key: Key) throws { try write(.null, forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try write(.bool(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try stream.beginMember(key, frame, generation)
        try stream.output.generator.string(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        // Settled before the key is written, so that an error leaves the object whole.
        try write(try stream.context.number(value, { codingPath + [key] }), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try write(try stream.context.number(value, { codingPath + [key] }), forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try stream.beginMember(key, frame, generation)
        try stream.output.generator.integer(Int64(value))
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try write(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try write(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try write(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try write(.integer(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try write(.unsigned(UInt64(value)), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try write(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try write(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try write(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try write(.unsigned(value), forKey: key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try write(.exactInteger(value), forKey: key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try write(.exactInteger(value), forKey: key) }

    mutating func encode<T: Swift.Encodable>(_ value: T, forKey key: Key) throws {
        try stream.beginMember(key, frame, generation)
        try stream.encodeValue(value, at: .key(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let object = EncodedObject()
        holdBack(.object(object), forKey: key)
        return KeyedEncodingContainer(
            BufferedKeyedContainer<NestedKey>(context: stream.context, object: object, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let array = EncodedArray()
        holdBack(.array(array), forKey: key)
        return BufferedUnkeyedContainer(context: stream.context, array: array, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Swift.Encoder {
        superEncoder(key: StringCodingKey.super)
    }

    mutating func superEncoder(forKey key: Key) -> any Swift.Encoder {
        superEncoder(key: key)
    }

    private func superEncoder(key: some CodingKey) -> any Swift.Encoder {
        let slot = EncodedSlot()
        holdBack(.slot(slot), forKey: key)
        return BufferedEncoder(context: stream.context, slot: slot, codingPath: codingPath + [key])
    }

    private func holdBack(_ value: EncodedValue, forKey key: some CodingKey) {
        let name = stream.context.jsonKey(key, codingPath: codingPath)
        do {
            try stream.holdBack(value, forKey: name, frame, generation)
        } catch {
            // The buffered pass will give this container its place.
            stream.context.poisoned = true
        }
    }
}
