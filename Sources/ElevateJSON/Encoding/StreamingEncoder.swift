/// The `Encoder` of one value in the streaming pass; see ``EncodingStream``.
///
/// Three words, so it fits an existential's inline buffer: handing it to `encode(to:)` allocates
/// nothing.
struct StreamingEncoder: Swift.Encoder {
    let stream: EncodingStream
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] {
        frame < stream.frames.count && stream.frames[frame].generation == generation
            ? stream.codingPath(depth: stream.frames[frame].pathDepth) : stream.currentCodingPath
    }

    var userInfo: [CodingUserInfoKey: Any] { stream.context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if !stream.requestObject(frame, generation) {
            // A stale encoder or a second kind of container: the buffered pass settles it (and
            // reports the misuse, where Foundation traps).
            stream.context.poisoned = true
        }
        return KeyedEncodingContainer(StreamingKeyedContainer<Key>(stream: stream, frame: frame, generation: generation))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if !stream.requestArray(frame, generation) { stream.context.poisoned = true }
        return StreamingUnkeyedContainer(stream: stream, frame: frame, generation: generation)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(stream: stream, frame: frame, generation: generation)
    }
}

/// The single-value container of ``StreamingEncoder``.
struct StreamingSingleValueContainer: SingleValueEncodingContainer {
    let stream: EncodingStream
    let frame: Int
    let generation: Int

    var codingPath: [any CodingKey] {
        StreamingEncoder(stream: stream, frame: frame, generation: generation).codingPath
    }

    private func write(_ value: EncodedValue) throws {
        try stream.beginSingleValue(frame, generation)
        try stream.output.write(value, sealing: false)
    }

    mutating func encodeNil() throws { try write(.null) }
    mutating func encode(_ value: Bool) throws { try write(.bool(value)) }
    mutating func encode(_ value: String) throws { try write(.string(value)) }
    mutating func encode(_ value: Double) throws {
        try write(try stream.context.number(value, { codingPath }))
    }
    mutating func encode(_ value: Float) throws {
        try write(try stream.context.number(value, { codingPath }))
    }
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
        try stream.beginSingleValue(frame, generation)
        try stream.encodeValue(value)
    }
}

extension StreamingSingleValueContainer: ExactNumberTextEncoding {
    func encodeNumberText(_ text: String) throws { try write(.number(text)) }
}
