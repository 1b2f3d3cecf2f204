/// A `Decodable` type with a second initializer that reads ``ElevateJSONDecoder``'s tape through
/// concrete containers, skipping the standard library's type-erasing container boxes.
///
/// Attach the `@TapeDecodable` macro of the `ElevateMacros` product to a struct that is
/// `Decodable`, and it writes ``init(fromTape:)`` as the compiler writes `init(from:)`: the same
/// coding keys in the same order, `decode` for each stored property, `decodeIfPresent` for each
/// optional one. A conformance written by hand must do the same, or the two initializers differ.
///
/// ```swift
/// import ElevateMacros
///
/// @TapeDecodable
/// struct Person: Codable {
///     var name: String
///     var nickname: String?
/// }
/// ```
///
/// ``ElevateJSONDecoder`` (and every element stream and array decode of Codable types) calls
/// ``init(fromTape:)`` where it would call `init(from:)`, except for a ``JSONKeyPathDecodable``
/// type, whose plan applies through `init(from:)`, and a class, which is built through the
/// metatype asked for. Every other decoder keeps using `init(from:)`.
///
/// Why it is faster: a `KeyedDecodingContainer<Key>` boxes its concrete container in a generic class
/// whose type the runtime looks up for each container made, and forwards every call through that
/// box. The generated initializer creates ``TapeKeyedDecodingContainer`` in the type's own module,
/// where its type is known at compile time, and calls it directly.
public protocol TapeDecodable: Swift.Decodable {
    /// Creates a value from the tape, as `init(from:)` would from ``ElevateJSONDecoder``.
    ///
    /// - Parameter value: The value being decoded; read its members through
    ///   ``TapeDecodingValue/container(keyedBy:)``.
    /// - Throws: The `DecodingError` that `init(from:)` would throw.
    init(fromTape value: TapeDecodingValue) throws
}

/// The value a ``TapeDecodable`` type's ``TapeDecodable/init(fromTape:)`` decodes: a position on
/// ``ElevateJSONDecoder``'s tape.
public struct TapeDecodingValue {
    let decoder: TapeDecoder

    init(decoder: TapeDecoder) {
        self.decoder = decoder
    }

    /// Checks the value is an object and makes its reader.
    @usableFromInline
    func keyedReader<Key: CodingKey>(for type: Key.Type) throws -> TapeKeyedReader {
        try decoder.keyedReader(for: type)
    }

    /// The value's members, by `Key`: what `decoder.container(keyedBy:)` gives `init(from:)`.
    ///
    /// Inlined, so that the container's type is made in the caller's module, where `Key` is known.
    /// - Parameter type: The coding keys of the type being decoded.
    /// - Returns: The keyed container over the object.
    /// - Throws: `DecodingError.typeMismatch` (or `valueNotFound`) when the value is not an object.
    @inlinable
    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> TapeKeyedDecodingContainer<Key> {
        TapeKeyedDecodingContainer(reader: try keyedReader(for: type))
    }

    /// The value as a standard `Decoder`, for code that needs one (a superclass's or a property
    /// wrapper's `init(from:)`).
    public var standardDecoder: any Swift.Decoder { decoder }
}

/// The keyed container of ``TapeDecodingValue/container(keyedBy:)``: the container that
/// ``ElevateJSONDecoder`` gives `init(from:)`, unboxed.
///
/// It has the reads that generated initializers make. Each behaves as the same call on
/// `KeyedDecodingContainer<Key>`: a missing key is `keyNotFound`, a null `valueNotFound`, a value of
/// another kind `typeMismatch`; `decodeIfPresent` gives nil for a missing key or a null. The type
/// may be left out where the result's type says it (`name = try container.decode(forKey: .name)`),
/// which is how generated initializers call them: a type named inside a struct is not always
/// in scope in an extension of it (a nested type's siblings).
public struct TapeKeyedDecodingContainer<Key: CodingKey> {
    // The reader, whose reads are generic over `Key`: this type's methods, called from the
    // caller's module where `Key` is known, hand it `Key` without any runtime lookup.
    @usableFromInline let reader: TapeKeyedReader

    @usableFromInline
    init(reader: TapeKeyedReader) {
        self.reader = reader
    }

    /// The coding path of the object.
    public var codingPath: [any CodingKey] { reader.codingPath }

    /// Whether the object has a value for `key` (or the type's key-path plan a default).
    /// - Parameter key: The key.
    /// - Returns: True when a value is there.
    public func contains(_ key: Key) -> Bool { reader.contains(key) }

    /// The string at `key`.
    /// - Parameters:
    ///   - type: `String.self`.
    ///   - key: The key.
    /// - Returns: The string.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    public func decode(_ type: String.Type = String.self, forKey key: Key) throws -> String { try reader.decode(type, forKey: key) }

    /// The Boolean at `key`.
    /// - Parameters:
    ///   - type: `Bool.self`.
    ///   - key: The key.
    /// - Returns: The Boolean.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    public func decode(_ type: Bool.Type = Bool.self, forKey key: Key) throws -> Bool { try reader.decode(type, forKey: key) }

    /// The integer at `key`.
    /// - Parameters:
    ///   - type: `Int.self`.
    ///   - key: The key.
    /// - Returns: The integer.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    public func decode(_ type: Int.Type = Int.self, forKey key: Key) throws -> Int { try reader.decode(type, forKey: key) }

    /// The number at `key`.
    /// - Parameters:
    ///   - type: `Double.self`.
    ///   - key: The key.
    /// - Returns: The number.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    public func decode(_ type: Double.Type = Double.self, forKey key: Key) throws -> Double { try reader.decode(type, forKey: key) }

    /// The value at `key`, of any other type: through ``TapeDecodable/init(fromTape:)`` where `T`
    /// has it, else `init(from:)`.
    /// - Parameters:
    ///   - type: The value's type.
    ///   - key: The key.
    /// - Returns: The value.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    public func decode<T: Swift.Decodable>(_ type: T.Type = T.self, forKey key: Key) throws -> T {
        try reader.decode(type, forKey: key)
    }

    /// `decode` through the reader's general path, which the inlined array reads fall back on.
    @usableFromInline
    func generalDecode<T: Swift.Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try reader.decode(type, forKey: key)
    }

    /// `decodeIfPresent` through the reader's general path.
    @usableFromInline
    func generalDecodeIfPresent<T: Swift.Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try reader.decodeIfPresent(type, forKey: key)
    }

    /// The array at `key`.
    ///
    /// Inlined, so that the array is built where `Element` is known.
    /// - Parameters:
    ///   - type: The array's type.
    ///   - key: The key.
    /// - Returns: The array.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    @inlinable
    public func decode<Element: Swift.Decodable>(_ type: [Element].Type = [Element].self, forKey key: Key) throws -> [Element] {
        var result: [Element] = []
        let read = try reader.readElements(forKey: key, ifPresent: false) { elements in
            result.reserveCapacity(elements.count)
            while let element = try elements.next(Element.self) { result.append(element) }
        }
        return read == .read ? result : try generalDecode(type, forKey: key)
    }

    /// The string at `key`, or nil when it is missing or null.
    /// - Parameters:
    ///   - type: `String.self`.
    ///   - key: The key.
    /// - Returns: The string, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    public func decodeIfPresent(_ type: String.Type = String.self, forKey key: Key) throws -> String? {
        try reader.decodeIfPresent(type, forKey: key)
    }

    /// The Boolean at `key`, or nil when it is missing or null.
    /// - Parameters:
    ///   - type: `Bool.self`.
    ///   - key: The key.
    /// - Returns: The Boolean, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    public func decodeIfPresent(_ type: Bool.Type = Bool.self, forKey key: Key) throws -> Bool? {
        try reader.decodeIfPresent(type, forKey: key)
    }

    /// The integer at `key`, or nil when it is missing or null.
    /// - Parameters:
    ///   - type: `Int.self`.
    ///   - key: The key.
    /// - Returns: The integer, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    public func decodeIfPresent(_ type: Int.Type = Int.self, forKey key: Key) throws -> Int? {
        try reader.decodeIfPresent(type, forKey: key)
    }

    /// The number at `key`, or nil when it is missing or null.
    /// - Parameters:
    ///   - type: `Double.self`.
    ///   - key: The key.
    /// - Returns: The number, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    public func decodeIfPresent(_ type: Double.Type = Double.self, forKey key: Key) throws -> Double? {
        try reader.decodeIfPresent(type, forKey: key)
    }

    /// The array at `key`, or nil when it is missing or null.
    ///
    /// Inlined, so that the array is built where `Element` is known.
    /// - Parameters:
    ///   - type: The array's type.
    ///   - key: The key.
    /// - Returns: The array, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeIfPresent<Element: Swift.Decodable>(_ type: [Element].Type = [Element].self, forKey key: Key) throws
        -> [Element]?
    {
        var result: [Element] = []
        switch try reader.readElements(
            forKey: key, ifPresent: true,
            { elements in
                result.reserveCapacity(elements.count)
                while let element = try elements.next(Element.self) { result.append(element) }
            })
        {
        case .read: return result
        case .absent: return nil
        case .general: return try generalDecodeIfPresent(type, forKey: key)
        }
    }

    /// The value at `key`, of any other type, or nil when it is missing or null.
    /// - Parameters:
    ///   - type: The value's type.
    ///   - key: The key.
    /// - Returns: The value, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    public func decodeIfPresent<T: Swift.Decodable>(_ type: T.Type = T.self, forKey key: Key) throws -> T? {
        try reader.decodeIfPresent(type, forKey: key)
    }

    // MARK: Properties, as the compiler's init(from:) reads them

    // `decodeProperty(\Self.name, forKey: .name)` is what generated initializers call for every
    // property. The key path names no type: the compiler chooses the overload from the property's
    // type, as it does when it synthesizes `init(from:)` (an optional however spelled, `T?`,
    // `Optional<T>` or a type alias of one, is read with `decodeIfPresent`), and a type named
    // inside the struct (a nested type's sibling) need not be in scope in the extension. The
    // overloads differ in a parameter, so the most specific one is chosen: a string, an array
    // built in the caller's module, an optional of either.

    /// The property at `key`, read with `decode` as the compiler's `init(from:)` reads a property
    /// of this type.
    /// - Parameters:
    ///   - property: The property's key path (`\Self.name`), which gives its type.
    ///   - key: The key.
    /// - Returns: The value.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root, T: Swift.Decodable>(_ property: Swift.KeyPath<Root, T>, forKey key: Key) throws -> T {
        try decode(T.self, forKey: key)
    }

    /// The optional property at `key`: nil when the key is missing or null, as the compiler's
    /// `init(from:)` reads a property whose type is an optional (`decodeIfPresent`).
    /// - Parameters:
    ///   - property: The property's key path (`\Self.name`), which gives its type.
    ///   - key: The key.
    /// - Returns: The value, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root, T: Swift.Decodable>(_ property: Swift.KeyPath<Root, T?>, forKey key: Key) throws
        -> T?
    {
        try decodeIfPresent(T.self, forKey: key)
    }

    /// The `String` property at `key`, read with `decode`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, String>, forKey key: Key) throws -> String {
        try decode(String.self, forKey: key)
    }

    /// The optional `String` property at `key`, read with `decodeIfPresent`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, String?>, forKey key: Key) throws -> String? {
        try decodeIfPresent(String.self, forKey: key)
    }

    /// The `Bool` property at `key`, read with `decode`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, Bool>, forKey key: Key) throws -> Bool {
        try decode(Bool.self, forKey: key)
    }

    /// The optional `Bool` property at `key`, read with `decodeIfPresent`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, Bool?>, forKey key: Key) throws -> Bool? {
        try decodeIfPresent(Bool.self, forKey: key)
    }

    /// The `Int` property at `key`, read with `decode`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, Int>, forKey key: Key) throws -> Int {
        try decode(Int.self, forKey: key)
    }

    /// The optional `Int` property at `key`, read with `decodeIfPresent`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, Int?>, forKey key: Key) throws -> Int? {
        try decodeIfPresent(Int.self, forKey: key)
    }

    /// The `Double` property at `key`, read with `decode`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, Double>, forKey key: Key) throws -> Double {
        try decode(Double.self, forKey: key)
    }

    /// The optional `Double` property at `key`, read with `decodeIfPresent`.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The value, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root>(_ property: Swift.KeyPath<Root, Double?>, forKey key: Key) throws -> Double? {
        try decodeIfPresent(Double.self, forKey: key)
    }

    /// The array property at `key`, read with `decode` and built where `Element` is known.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The array.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decode(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root, Element: Swift.Decodable>(
        _ property: Swift.KeyPath<Root, [Element]>, forKey key: Key
    ) throws -> [Element] {
        try decode([Element].self, forKey: key)
    }

    /// The optional array property at `key`, read with `decodeIfPresent` and built where `Element`
    /// is known.
    /// - Parameters:
    ///   - property: The property's key path.
    ///   - key: The key.
    /// - Returns: The array, or nil.
    /// - Throws: `DecodingError` as `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`.
    @inlinable
    public func decodeProperty<Root, Element: Swift.Decodable>(
        _ property: Swift.KeyPath<Root, [Element]?>, forKey key: Key
    ) throws -> [Element]? {
        try decodeIfPresent([Element].self, forKey: key)
    }
}
