/// The unkeyed container of ``StreamingEncoder``: elements go straight to the generator; nested
/// containers and `superEncoder` are held back until the next element (see ``EncodingStream``).
struct StreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let stream: EncodingStream
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] {
        StreamingEncoder(stream: stream, frame: frame, generation: generation).codingPath
    }

    var count: Int { stream.count(frame, generation) }

    @inline(__always)
    private func write(_ value: EncodedValue) throws {
        _ = try stream.beginElement(frame, generation)
        try stream.output.write(value, sealing: false)
    }

    private func elementPath() -> [any CodingKey] { codingPath + [IndexCodingKey(count)] }

    mutating func encodeNil() throws { try write(.null) }
    mutating func encode(_ value: Bool) throws { try write(.bool(value)) }
    mutating func encode(_ value: String) throws { try write(.string(value)) }
    mutating func encode(_ value: Double) throws { try write(try stream.context.number(value, elementPath)) }
    mutating func encode(_ value: Float) throws { try write(try stream.context.number(value, elementPath)) }
    mutating func encode(_ value: Int) throws { try write(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try write(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try write(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try write(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try write(.integer(value)) }
    mutating func encode(_ value: UInt) throws { try write(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try write(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { try write(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { try write(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { try write(.unsigned(value)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { try write(.exactInteger(value)) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { try write(.exactInteger(value)) }

    mutating func encode<T: Swift.Encodable>(_ value: T) throws {
        let index = try stream.beginElement(frame, generation)
        try stream.encodeValue(value, at: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let object = EncodedObject()
        let path = holdBack(.object(object))
        return KeyedEncodingContainer(
            BufferedKeyedContainer<NestedKey>(context: stream.context, object: object, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let array = EncodedArray()
        let path = holdBack(.array(array))
        return BufferedUnkeyedContainer(context: stream.context, array: array, codingPath: path)
    }

    mutating func superEncoder() -> any Swift.Encoder {
        let slot = EncodedSlot()
        let path = holdBack(.slot(slot))
        return BufferedEncoder(context: stream.context, slot: slot, codingPath: path)
    }

    /// Holds back the next element and returns its coding path.
    private func holdBack(_ value: EncodedValue) -> [any CodingKey] {
        let path = elementPath()
        do {
            _ = try stream.holdBackElement(value, frame, generation)
        } catch {
            stream.context.poisoned = true
        }
        return path
    }
}
