import Foundation

/// The `Swift.Decoder` of ``ElevateJSONDecoder``: a position on the tape plus the coding path that
/// led there.
///
/// ## How decoding walks the tape
///
/// One decoder serves a whole decode call, as in swift-foundation: decoding a child value moves
/// ``index`` to it and pushes a ``CodingPathComponent``, calls the child's `init(from:)` with the
/// same decoder, then moves back. The decoder is its own single-value container. Keyed and unkeyed
/// containers are small structs holding the container's tape index and a ``ContainerSite`` (how
/// much of the decoder's path leads to them, plus any components beyond it for nested containers),
/// so that creating one, reading a scalar or failing cheaply builds no path; `[CodingKey]` arrays are
/// made only when `codingPath` is read or an error is thrown. This relies on containers being used
/// while the decoder's path still leads to them, i.e. inside the `init(from:)` that created them,
/// which is how `Decodable` is written; `superDecoder()` hands out a decoder of its own.
///
/// Keys are looked up on the tape by their bytes, starting after the previous hit in the same
/// object (``hints``), so reading the keys of an object in document order is linear. No dictionary
/// is built per object.
final class TapeDecoder: Swift.Decoder, SingleValueDecodingContainer {
    let context: DecodingContext
    let tape: JSONTape
    // The mutable state below is `@exclusivity(unchecked)`: a decoder and its containers are used
    // by one thread, one call at a time, and the dynamic checks of class properties measured at
    // 5.5% of decoding the people document (callgrind, instructions).
    /// The value being decoded.
    @exclusivity(unchecked) var index: Int
    /// The coding path to ``index``.
    @exclusivity(unchecked) var path: [CodingPathComponent]
    /// Per logical depth, the tape index of the last key hit in the object being read at that depth
    /// (a hint only: a stale one is out of the object's range and ignored). A fixed `let` buffer, not
    /// an array property, so reading it costs no exclusivity check.
    let hints: UnsafeMutablePointer<Int>
    /// How many depths have a hint; deeper objects are searched from their start. A whole document
    /// gets 256; a stream's elements, each decoded by a decoder of its own, get 32, since setting
    /// up and freeing 2 KiB per element measured at a tenth of decoding small elements.
    let hintDepth: Int
    static let documentHintDepth = 256
    static let elementHintDepth = 32
    /// The key-path plan of the ``JSONKeyPathDecodable`` value being decoded, and the path depth of
    /// the keyed containers it applies to.
    @exclusivity(unchecked) var plan: KeyPathPlan?
    @exclusivity(unchecked) var planDepth = -1

    init(
        context: DecodingContext, tape: JSONTape, index: Int, path: [CodingPathComponent],
        hintDepth: Int = TapeDecoder.documentHintDepth
    ) {
        self.context = context
        self.tape = tape
        self.index = index
        self.path = path
        self.hintDepth = hintDepth
        hints = .allocate(capacity: hintDepth)
        hints.initialize(repeating: -1, count: hintDepth)
    }

    deinit {
        hints.deallocate()
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    /// The site of a container created for the current value.
    var currentSite: ContainerSite { ContainerSite(depth: path.count, suffix: []) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let site = currentSite
        try expectContainer(object: true, at: index, site, nil)
        let plan = planDepth == site.depth ? self.plan : nil
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: index, site: site, plan: plan))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try makeUnkeyedContainer()
    }

    /// The unkeyed container, unboxed.
    func makeUnkeyedContainer() throws -> TapeUnkeyedContainer {
        let site = currentSite
        try expectContainer(object: false, at: index, site, nil)
        return TapeUnkeyedContainer(decoder: self, array: index, site: site)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Paths

    /// The coding path of a container's site, plus `component`.
    func codingPath(_ site: ContainerSite, appending component: CodingPathComponent? = nil) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        keys.reserveCapacity(site.depth + site.suffix.count + 1)
        for element in path.prefix(site.depth) { keys.append(element.codingKey) }
        for element in site.suffix { keys.append(element.codingKey) }
        if let component { keys.append(component.codingKey) }
        return keys
    }

    /// A decoder of its own for the value at `valueIndex` (or `null` when nil), for `superDecoder()`:
    /// the caller may keep it beyond the current container's use.
    func childDecoder(at valueIndex: Int?, _ site: ContainerSite, _ component: CodingPathComponent) -> TapeDecoder {
        let childPath = Array(path.prefix(site.depth)) + site.suffix + [component]
        if let valueIndex {
            return TapeDecoder(context: context, tape: tape, index: valueIndex, path: childPath)
        }
        return TapeDecoder(context: context, tape: .null(), index: 0, path: childPath)
    }

    // MARK: Children

    /// Decodes the child value at `valueIndex` of the container at `site`.
    @inline(__always)
    func decodeChild<T: Swift.Decodable>(
        _ type: T.Type, at valueIndex: Int, _ site: ContainerSite, _ component: CodingPathComponent
    ) throws -> T {
        let savedIndex = index
        var savedPath: [CodingPathComponent]?
        if path.count != site.depth || !site.suffix.isEmpty { savedPath = moveToSite(site) }
        path.append(component)
        index = valueIndex
        defer {
            index = savedIndex
            if let savedPath { path = savedPath } else { path.removeLast() }
        }
        do {
            return try unwrap(type)
        } catch {
            noteChildError(error, at: valueIndex)
            throw error
        }
    }

    // The two below are kept out of `decodeChild`, which is inlined into every container's
    // `decode`: a recursive type nests those frames once per level, and their rare work made
    // them bigger (see ``StackGuard``).

    /// Sets the path to a nested container's site; returns the path it replaced.
    @inline(never)
    func moveToSite(_ site: ContainerSite) -> [CodingPathComponent] {
        let saved = path
        path.removeSubrange(min(site.depth, path.count)...)
        path.append(contentsOf: site.suffix)
        return saved
    }

    /// Records where a child's `error` arose.
    @inline(never)
    func noteChildError(_ error: any Error, at valueIndex: Int) {
        context.noteError(error, at: valueIndex, path: self.path.map(\.codingKey.stringValue), tape: tape)
    }

    /// Decodes the current value as `T`: the types Foundation's decoder treats specially (dates, data,
    /// URLs, decimals, string-keyed dictionaries) by its rules, the rest by their `init(from:)`.
    func unwrap<T: Swift.Decodable>(_ type: T.Type) throws -> T {
        // Metatype comparisons are pointer compares; the common scalars skip `init(from:)` and the
        // single-value container round trip.
        if T.self == String.self { return Self.same(try readString(at: index, currentSite, nil)) }
        if T.self == Int.self { return Self.same(try readInteger(Int.self, at: index, currentSite, nil)) }
        if T.self == Double.self { return Self.same(try readDouble(at: index, currentSite, nil)) }
        if T.self == Bool.self { return Self.same(try readBool(at: index, currentSite, nil)) }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
            || T.self == JSON.self
        {
            return try unwrapFoundationType(type)
        }
        switch context.treatment(of: T.self) {
        case .plain:
            return try T(from: self)
        case .array(let array):
            func decode<A: TapeDecodableArray>(_ type: A.Type) throws -> T { Self.same(try A.decode(from: self)) }
            return try decode(array)
        case .stringKeyedDictionary(let dictionary):
            return try dictionary.decode(from: self) as! T
        case .keyPaths(let typePlan):
            let saved = (plan, planDepth)
            plan = typePlan
            planDepth = path.count
            defer { (plan, planDepth) = saved }
            return try T(from: self)
        }
    }

    /// The current value as a `Date`, `Data`, `URL`, `Decimal` or ``JSON``, by Foundation's rules
    /// for the first four. Apart from ``unwrap(_:)``, whose frame every level of a recursive type
    /// holds, so that their work does not make it bigger.
    @inline(never)
    func unwrapFoundationType<T>(_ type: T.Type) throws -> T {
        if T.self == Date.self { return Self.same(try readDate()) }
        if T.self == Data.self { return Self.same(try readData()) }
        if T.self == URL.self { return Self.same(try readURL()) }
        if T.self == Decimal.self { return Self.same(try readDecimal(at: index, currentSite, nil)) }
        return Self.same(try JSON(from: self))
    }

    /// `value` as `T`, where the caller has checked that `T` is `U`.
    @inline(__always)
    static func same<U, T>(_ value: U) -> T {
        unsafeBitCast(value, to: T.self)
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { tape.kind(at: index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try readBool(at: index, currentSite, nil) }
    func decode(_ type: String.Type) throws -> String { try readString(at: index, currentSite, nil) }
    func decode(_ type: Double.Type) throws -> Double { try readDouble(at: index, currentSite, nil) }
    func decode(_ type: Float.Type) throws -> Float { try readFloat(at: index, currentSite, nil) }
    func decode(_ type: Int.Type) throws -> Int { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try readInteger(type, at: index, currentSite, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try readInteger(type, at: index, currentSite, nil) }
    func decode<T: Swift.Decodable>(_ type: T.Type) throws -> T { try unwrap(type) }
}

/// Where a container sits: the first `depth` components of its decoder's path, then `suffix` (the
/// keys and indices of `nestedContainer` calls, which do not move the decoder).
struct ContainerSite {
    let depth: Int
    let suffix: [CodingPathComponent]

    /// The container's depth in the document, for its key-lookup hint.
    var logicalDepth: Int { depth + suffix.count }

    /// The site of a container nested in this one at `component`.
    func appending(_ component: CodingPathComponent) -> ContainerSite {
        ContainerSite(depth: depth, suffix: suffix + [component])
    }
}
