import Foundation

/// An object on the tape, read by coding key: the work of every keyed container. See
/// ``TapeDecoder`` for how it finds keys.
///
/// Not generic: each read is generic over its `Key` instead. A method of a generic type is handed
/// its type's metadata, which code that does not know `Key` (the standard library's container box,
/// a `@TapeDecodable` initializer in another module calling in) would have to look up in the
/// runtime's cache on every call; a generic function is handed `Key` itself. When the type being
/// decoded is ``JSONKeyPathDecodable``, its ``KeyPathPlan`` routes keys to key paths and supplies
/// defaults for missing or null values.
@usableFromInline
struct TapeKeyedReader {
    let decoder: TapeDecoder
    let object: Int
    let site: ContainerSite
    let plan: KeyPathPlan?

    var codingPath: [any CodingKey] { decoder.codingPath(site) }

    /// The tape index of `key`'s value, or nil when it is missing — or null and the plan has a default.
    @inline(__always)
    private func valueIndex<Key: CodingKey>(_ key: Key) -> Int? {
        guard let plan else { return decoder.member(named: key.stringValue, in: object, site) }
        return planValueIndex(key, plan)
    }

    /// ``valueIndex(_:)`` by a key-path plan; not inlined, so that the frame of every `decode`,
    /// held once per level by a recursive type, does not grow for plans most types lack.
    @inline(never)
    private func planValueIndex<Key: CodingKey>(_ key: Key, _ plan: KeyPathPlan) -> Int? {
        let name = key.stringValue
        // A key path that leads nowhere falls back to the key's own name, as in Ladybug: the type
        // then decodes what an encoder wrote for it (by property name).
        let found =
            plan.routes[name].flatMap { $0.resolve(on: decoder.tape, in: object) }
            ?? decoder.member(named: name, in: object, site)
        if let found, plan.defaults[name] != nil, decoder.tape.kind(at: found) == .null { return nil }
        return found
    }

    /// The plan's default for `key` as a `T`, or nil when there is none.
    private func defaultValue<Key: CodingKey, T>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = plan?.defaults[key.stringValue] else { return nil }
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(
                T.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath(site, appending: .key(key)),
                    debugDescription:
                        "The default for \"\(key.stringValue)\" is a \(Swift.type(of: value)), not a \(T.self)."))
        }
        return typed
    }

    /// What a missing `key` gives: its default, or `keyNotFound`.
    func missing<Key: CodingKey, T>(_ type: T.Type, _ key: Key) throws -> T {
        if let value = try defaultValue(type, forKey: key) { return value }
        throw decoder.fail(
            .keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription:
                        "No value associated with key \(key) (\"\(key.stringValue)\")\(plan?.describeRoute(key.stringValue) ?? "")."
                )),
            at: object)
    }

    func contains<Key: CodingKey>(_ key: Key) -> Bool {
        valueIndex(key) != nil || plan?.defaults[key.stringValue] != nil
    }

    func decodeNil<Key: CodingKey>(forKey key: Key) throws -> Bool {
        guard let i = valueIndex(key) else {
            if plan?.defaults[key.stringValue] != nil { return false }
            _ = try missing(Never?.self, key)
            return true
        }
        return decoder.tape.kind(at: i) == .null
    }

    // MARK: Transforms

    /// The plan's transform of `key`, if any; one check for types without a plan.
    @inline(__always)
    private func transform<Key: CodingKey>(for key: Key) -> JSONTransform? {
        guard let plan, !plan.transforms.isEmpty else { return nil }
        return plan.transforms[key.stringValue]
    }

    /// A required value read through its transform.
    @inline(never)
    private func transformed<Key: CodingKey, T>(_ type: T.Type, _ key: Key, _ transform: JSONTransform) throws -> T {
        if let value = try transformedIfPresent(type, key, transform, required: true) { return value }
        return try missing(type, key)
    }

    /// The value of `key` read through `transform`: from the value at the key path, or at the key's
    /// own name; where a key path leads nowhere, the own name's value is decoded as `T` without the
    /// transform (an encoder's output). Missing or null: the default, else nil (optional) or the
    /// error the key would give without a transform (required).
    @inline(never)
    private func transformedIfPresent<Key: CodingKey, T>(
        _ type: T.Type, _ key: Key, _ transform: JSONTransform, required: Bool
    ) throws -> T? {
        let name = key.stringValue
        let tape = decoder.tape
        var found: Int?
        var decodesAsWritten = false
        if let route = plan?.routes[name] {
            found = route.resolve(on: tape, in: object)
            if found == nil {
                found = decoder.member(named: name, in: object, site)
                decodesAsWritten = found != nil
            }
        } else {
            found = decoder.member(named: name, in: object, site)
        }
        guard let index = found, tape.kind(at: index) != .null else {
            if let value = try defaultValue(type, forKey: key) { return value }
            guard required else { return nil }
            guard let index = found else { return try missing(type, key) }
            throw decoder.fail(
                .valueNotFound(
                    type,
                    DecodingError.Context(
                        codingPath: decoder.codingPath(site, appending: .key(key)),
                        debugDescription: "Expected \(T.self) value but found null instead.")),
                at: index)
        }
        if decodesAsWritten, let decodable = type as? any Swift.Decodable.Type {
            return try decodeAsWritten(decodable, at: index, key) as? T
        }
        let context = { (description: String, underlying: (any Error)?) in
            DecodingError.Context(
                codingPath: self.decoder.codingPath(self.site, appending: .key(key)),
                debugDescription:
                    "\(description) (\"\(name)\"\(self.plan?.describeRoute(name) ?? ""), \(transform.name)).",
                underlyingError: underlying)
        }
        let result: (any Sendable)?
        do {
            result = try transform.apply(JSONValue(tape: tape, index: index))
        } catch {
            throw decoder.fail(.dataCorrupted(context("The transform failed: \(error)", error)), at: index)
        }
        guard let result else {
            guard required else { return nil }
            throw decoder.fail(.dataCorrupted(context("The transform gave no value", nil)), at: index)
        }
        guard let typed = result as? T else {
            throw decoder.fail(
                .typeMismatch(T.self, context("The transform gave a \(Swift.type(of: result)), not a \(T.self)", nil)),
                at: index)
        }
        return typed
    }

    private func decodeAsWritten<Key: CodingKey, D: Swift.Decodable>(_ type: D.Type, at index: Int, _ key: Key) throws
        -> D
    {
        try decoder.decodeChild(type, at: index, site, .key(key))
    }

    // MARK: Required values

    func decode<Key: CodingKey>(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if let transform = transform(for: key) { return try transformed(type, key, transform) }
        guard let i = valueIndex(key) else { return try missing(type, key) }
        return try decoder.readBool(at: i, site, .key(key))
    }

    func decode<Key: CodingKey>(_ type: String.Type, forKey key: Key) throws -> String {
        if let transform = transform(for: key) { return try transformed(type, key, transform) }
        guard let i = valueIndex(key) else { return try missing(type, key) }
        return try decoder.readString(at: i, site, .key(key))
    }

    func decode<Key: CodingKey>(_ type: Double.Type, forKey key: Key) throws -> Double {
        if let transform = transform(for: key) { return try transformed(type, key, transform) }
        guard let i = valueIndex(key) else { return try missing(type, key) }
        return try decoder.readDouble(at: i, site, .key(key))
    }

    func decode<Key: CodingKey>(_ type: Float.Type, forKey key: Key) throws -> Float {
        if let transform = transform(for: key) { return try transformed(type, key, transform) }
        guard let i = valueIndex(key) else { return try missing(type, key) }
        return try decoder.readFloat(at: i, site, .key(key))
    }

    @inline(__always)
    private func integer<Key: CodingKey, T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        if let transform = transform(for: key) { return try transformed(type, key, transform) }
        guard let i = valueIndex(key) else { return try missing(type, key) }
        return try decoder.readInteger(type, at: i, site, .key(key))
    }

    func decode<Key: CodingKey>(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode<Key: CodingKey>(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode<Key: CodingKey>(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode<Key: CodingKey>(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, key) }

    func decode<Key: CodingKey, T: Swift.Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let transform = transform(for: key) { return try transformed(type, key, transform) }
        guard let i = valueIndex(key) else { return try missing(type, key) }
        return try decoder.decodeChild(type, at: i, site, .key(key))
    }

    // MARK: Optional values
    // Foundation's semantics (the standard library's defaults): missing or null is nil, anything
    // else must decode. Written out to look the key up once.

    @inline(__always)
    private func presentIndex<Key: CodingKey, T>(_ type: T.Type, _ key: Key, _ fallback: inout T?) throws -> Int? {
        if let i = valueIndex(key), decoder.tape.kind(at: i) != .null { return i }
        fallback = try defaultValue(type, forKey: key)
        return nil
    }

    func decodeIfPresent<Key: CodingKey>(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        if let transform = transform(for: key) {
            return try transformedIfPresent(type, key, transform, required: false)
        }
        var fallback: Bool?
        guard let i = try presentIndex(type, key, &fallback) else { return fallback }
        return try decoder.readBool(at: i, site, .key(key))
    }

    func decodeIfPresent<Key: CodingKey>(_ type: String.Type, forKey key: Key) throws -> String? {
        if let transform = transform(for: key) {
            return try transformedIfPresent(type, key, transform, required: false)
        }
        var fallback: String?
        guard let i = try presentIndex(type, key, &fallback) else { return fallback }
        return try decoder.readString(at: i, site, .key(key))
    }

    func decodeIfPresent<Key: CodingKey>(_ type: Double.Type, forKey key: Key) throws -> Double? {
        if let transform = transform(for: key) {
            return try transformedIfPresent(type, key, transform, required: false)
        }
        var fallback: Double?
        guard let i = try presentIndex(type, key, &fallback) else { return fallback }
        return try decoder.readDouble(at: i, site, .key(key))
    }

    func decodeIfPresent<Key: CodingKey>(_ type: Float.Type, forKey key: Key) throws -> Float? {
        if let transform = transform(for: key) {
            return try transformedIfPresent(type, key, transform, required: false)
        }
        var fallback: Float?
        guard let i = try presentIndex(type, key, &fallback) else { return fallback }
        return try decoder.readFloat(at: i, site, .key(key))
    }

    @inline(__always)
    private func integerIfPresent<Key: CodingKey, T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
        if let transform = transform(for: key) {
            return try transformedIfPresent(type, key, transform, required: false)
        }
        var fallback: T?
        guard let i = try presentIndex(type, key, &fallback) else { return fallback }
        return try decoder.readInteger(type, at: i, site, .key(key))
    }

    func decodeIfPresent<Key: CodingKey>(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<Key: CodingKey>(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try integerIfPresent(type, key)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent<Key: CodingKey>(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try integerIfPresent(type, key)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent<Key: CodingKey>(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try integerIfPresent(type, key)
    }

    func decodeIfPresent<Key: CodingKey, T: Swift.Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let transform = transform(for: key) {
            return try transformedIfPresent(type, key, transform, required: false)
        }
        var fallback: T?
        guard let i = try presentIndex(type, key, &fallback) else { return fallback }
        return try decoder.decodeChild(type, at: i, site, .key(key))
    }

    // MARK: Nesting

    func nestedContainer<Key: CodingKey, NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        guard let i = valueIndex(key) else {
            throw decoder.fail(
                .keyNotFound(
                    key,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription:
                            "Cannot get \(KeyedDecodingContainer<NestedKey>.self) -- no value found for key \(key) (\"\(key.stringValue)\")"
                    )),
                at: object)
        }
        try decoder.expectContainer(object: true, at: i, site, .key(key))
        return KeyedDecodingContainer(
            TapeKeyedContainer<NestedKey>(
                reader: TapeKeyedReader(decoder: decoder, object: i, site: site.appending(.key(key)), plan: nil)))
    }

    func nestedUnkeyedContainer<Key: CodingKey>(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let i = valueIndex(key) else {
            throw decoder.fail(
                .keyNotFound(
                    key,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription:
                            "Cannot get UnkeyedDecodingContainer -- no value found for key \(key) (\"\(key.stringValue)\")"
                    )),
                at: object)
        }
        try decoder.expectContainer(object: false, at: i, site, .key(key))
        return TapeUnkeyedContainer(decoder: decoder, array: i, site: site.appending(.key(key)))
    }

    /// A decoder for the value of the key `"super"`, or for `null` when there is none, as Foundation.
    func superDecoder() throws -> any Swift.Decoder {
        decoder.childDecoder(at: decoder.member(named: "super", in: object, site), site, .key(StringCodingKey.super))
    }

    /// A decoder for `key`'s value, or for `null` when there is none, as Foundation.
    func superDecoder<Key: CodingKey>(forKey key: Key) throws -> any Swift.Decoder {
        decoder.childDecoder(at: valueIndex(key), site, .key(key))
    }
}
