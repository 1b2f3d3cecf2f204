import Foundation

/// An unkeyed container over an array on the tape: a cursor that moves one element (skipped in
/// O(1)) per read.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let site: ContainerSite
    /// The tape index just past the array.
    let end: Int
    let elementCount: Int
    /// The tape index of the next element.
    private var position: Int
    private(set) var currentIndex = 0

    init(decoder: TapeDecoder, array: Int, site: ContainerSite) {
        self.decoder = decoder
        self.site = site
        end = decoder.tape.end(of: array)
        elementCount = decoder.tape.count(ofContainer: array)
        position = array + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath(site) }
    var count: Int? { elementCount }
    var isAtEnd: Bool { position >= end }

    /// The next element's tape index, or Foundation's error at the end.
    @inline(__always)
    private func next<T>(_ type: T.Type, _ message: String = "Unkeyed container is at end.") throws -> Int {
        guard position < end else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: decoder.codingPath(site, appending: .index(currentIndex)), debugDescription: message))
        }
        return position
    }

    @inline(__always)
    private mutating func advance() {
        position = decoder.tape.end(of: position)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        let i = try next(Never?.self)
        guard decoder.tape.kind(at: i) == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try decoder.readBool(at: try next(type), site, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.readString(at: try next(type), site, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try decoder.readDouble(at: try next(type), site, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let value = try decoder.readFloat(at: try next(type), site, .index(currentIndex))
        advance()
        return value
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = try decoder.readInteger(type, at: try next(type), site, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }

    mutating func decode<T: Swift.Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.decodeChild(type, at: try next(type), site, .index(currentIndex))
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let i = try next(
            KeyedDecodingContainer<NestedKey>.self, "Cannot get nested keyed container -- unkeyed container is at end.")
        try decoder.expectContainer(object: true, at: i, site, .index(currentIndex))
        let container = TapeKeyedContainer<NestedKey>(
            reader: TapeKeyedReader(decoder: decoder, object: i, site: site.appending(.index(currentIndex)), plan: nil))
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let i = try next(
            (any UnkeyedDecodingContainer).self, "Cannot get nested keyed container -- unkeyed container is at end.")
        try decoder.expectContainer(object: false, at: i, site, .index(currentIndex))
        let container = TapeUnkeyedContainer(decoder: decoder, array: i, site: site.appending(.index(currentIndex)))
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Swift.Decoder {
        let i = try next((any Swift.Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let child = decoder.childDecoder(at: i, site, .index(currentIndex))
        advance()
        return child
    }
}
