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
/// made only when `codingPath` is read or an error is thrown. While the decoder's path still leads
/// to a container (inside the `init(from:)` that created it, which is how `Decodable` is written)
/// its path is a prefix of the decoder's. A container kept past that point (stored in a property,
/// read while a sibling is decoded) is detected by its site's ``ContainerSite/base``: the decoder
/// is at the container's depth and value only while the path leads there. Such a container's path
/// is then rebuilt from the tape (``rebuiltPath(to:)``), only when a path is needed (its
/// `codingPath`, an error, a child value); its values are found from its own tape index either way.
/// `superDecoder()` hands out a decoder of its own.
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
    /// Per logical depth, two words: the tape index of the object last searched at that depth and
    /// of the last key hit in it (a hint only: one for another object is ignored). A fixed `let`
    /// buffer, not an array property, so reading it costs no exclusivity check.
    let hints: UnsafeMutablePointer<Int>
    /// How many depths have a hint; deeper objects are searched from their start. A whole document
    /// gets 256; a stream's elements, each decoded by a decoder of its own, get 32, since setting
    /// up and freeing 4 KiB per element measured at a tenth of decoding small elements.
    let hintDepth: Int
    static let documentHintDepth = 256
    static let elementHintDepth = 32
    /// The key-path plan of the ``JSONKeyPathDecodable`` value being decoded, and the path depth of
    /// the keyed containers it applies to.
    @exclusivity(unchecked) var plan: KeyPathPlan?
    @exclusivity(unchecked) var planDepth = -1
    /// Per logical depth, the converted key names of the last large object looked up there by a
    /// key strategy (see ``convertedMember(named:in:_:convert:)``); one per depth keeps memory
    /// within the document's, and the tables go with the decoder. Indexed by depth: a dictionary
    /// hashed the depth at every converted lookup once any table existed.
    /// Unchecked as the decoder's other state is: its dynamic exclusivity checks measured 1.3 M of
    /// 106.0 M instructions decoding twitter.json with `.convertFromSnakeCase`.
    @exclusivity(unchecked) var memberTables: [MemberTable?] = []

    /// Where the decoder started: its first value and the length of the path that led there, from
    /// which the path of a container kept past its `init(from:)` is rebuilt.
    let rootIndex: Int
    let rootDepth: Int

    init(
        context: DecodingContext, tape: JSONTape, index: Int, path: [CodingPathComponent],
        hintDepth: Int = TapeDecoder.documentHintDepth
    ) {
        self.context = context
        self.tape = tape
        self.index = index
        self.path = path
        rootIndex = index
        rootDepth = path.count
        self.hintDepth = hintDepth
        hints = .allocate(capacity: 2 * hintDepth)
        hints.initialize(repeating: -1, count: 2 * hintDepth)
    }

    deinit {
        hints.deallocate()
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    /// The site of a container created for the current value.
    var currentSite: ContainerSite { ContainerSite(depth: path.count, suffix: [], base: index) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(TapeKeyedContainer<Key>(reader: try keyedReader(for: type)))
    }

    /// The reader of a keyed container over the current value, after checking that the value is an
    /// object (and that a key-path plan names only `Key`'s keys): for ``container(keyedBy:)`` and for
    /// ``TapeDecodingValue/container(keyedBy:)``, which makes its container in its caller's module.
    func keyedReader<Key: CodingKey>(for type: Key.Type) throws -> TapeKeyedReader {
        let site = currentSite
        try expectContainer(object: true, at: index, site, nil)
        let plan = planDepth == site.depth ? self.plan : nil
        if let plan {
            let unknown = plan.namesWithoutKey(Key.self)
            if !unknown.isEmpty {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath(site, appending: nil),
                        debugDescription: "\(plan.typeName).keyPaths or .defaults names "
                            + unknown.map { "\"\($0)\"" }.joined(separator: ", ")
                            + ", which is no coding key of \(plan.typeName)"))
            }
        }
        return TapeKeyedReader(decoder: self, object: index, site: site, plan: plan)
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

    /// Whether the decoder's path leads to the site's base value: the decoder is at that depth and
    /// value, as it is throughout the `init(from:)` that made the container. (Deeper, it may or may
    /// not pass through it, so that case counts as not leading there, and the path is rebuilt.)
    @inline(__always)
    func leads(to site: ContainerSite) -> Bool {
        path.count == site.depth && index == site.base
    }

    /// The path to the site's base value: the decoder's own while it leads there, else rebuilt.
    func basePath(_ site: ContainerSite) -> [CodingPathComponent] {
        leads(to: site) ? path : rebuiltPath(to: site.base)
    }

    /// The coding path of a container's site, plus `component`.
    func codingPath(_ site: ContainerSite, appending component: CodingPathComponent? = nil) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        keys.reserveCapacity(site.depth + site.suffix.count + 1)
        if leads(to: site) {
            for element in path.prefix(site.depth) { keys.append(element.codingKey) }
        } else {
            for element in rebuiltPath(to: site.base) { keys.append(element.codingKey) }
        }
        for element in site.suffix { keys.append(element.codingKey) }
        if let component { keys.append(component.codingKey) }
        return keys
    }

    /// The coding path from the decoder's root to the value at `target`, read off the tape: for a
    /// container whose `init(from:)` has returned, when the decoder's path has moved on.
    ///
    /// Object members are named by the key strategy, as the container matched them; array
    /// elements by index. Two cases cannot be told from the tape and give the JSON's own steps:
    /// values reached through a ``JSONKeyPathDecodable`` key path (one path component for several
    /// steps), and a `[String: T]`'s keys under a key strategy (which Foundation leaves as they are).
    func rebuiltPath(to target: Int) -> [CodingPathComponent] {
        var components = Array(path.prefix(rootDepth))
        var current = rootIndex
        while current != target {
            let end = tape.end(of: current)
            guard target > current, target < end else { break }
            let isObject = tape.kind(at: current) == .object
            var position = current + 1
            var ordinal = 0
            var next: Int?
            while position < end {
                let value = isObject ? position + 1 : position
                let valueEnd = tape.end(of: value)
                if target >= value, target < valueEnd {
                    components.append(isObject ? .key(StringCodingKey(rebuiltKeyName(at: position, components))) : .index(ordinal))
                    next = value
                    break
                }
                position = valueEnd
                ordinal += 1
            }
            guard let next else { break }
            current = next
        }
        return components
    }

    /// The name the key strategy gives the key entry at `keyIndex`, in the object at `path`.
    private func rebuiltKeyName(at keyIndex: Int, _ path: [CodingPathComponent]) -> String {
        switch context.keyMode {
        case .bytes: return tape.string(at: keyIndex)
        case .snakeCase: return context.snakeCaseKey(at: keyIndex)
        case .custom(let closure):
            return closure(path.map(\.codingKey) + [StringCodingKey(tape.string(at: keyIndex))]).stringValue
        }
    }

    /// A decoder of its own for the value at `valueIndex` (or `null` when nil), for `superDecoder()`:
    /// the caller may keep it beyond the current container's use.
    func childDecoder(at valueIndex: Int?, _ site: ContainerSite, _ component: CodingPathComponent) -> TapeDecoder {
        let childPath = Array(basePath(site).prefix(site.depth)) + site.suffix + [component]
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
        try withChild(at: valueIndex, site, component) { try unwrap(type) }
    }

    /// Runs `body` with the decoder at the child value at `valueIndex` of the container at `site`
    /// (its index, its path), then moves back; notes where an error arose.
    @inline(__always)
    func withChild<R>(
        at valueIndex: Int, _ site: ContainerSite, _ component: CodingPathComponent, _ body: () throws -> R
    ) throws -> R {
        let savedIndex = index
        var savedPath: [CodingPathComponent]?
        var savedPlan: (KeyPathPlan?, Int)?
        if path.count != site.depth || index != site.base || !site.suffix.isEmpty {
            (savedPath, savedPlan) = moveToSite(site)
        }
        path.append(component)
        index = valueIndex
        defer {
            index = savedIndex
            if let savedPath { path = savedPath } else { path.removeLast() }
            if let savedPlan { (plan, planDepth) = savedPlan }
        }
        do {
            return try body()
        } catch {
            noteChildError(error, at: valueIndex)
            throw error
        }
    }

    // The two below are kept out of `decodeChild`, which is inlined into every container's
    // `decode`: a recursive type nests those frames once per level, and their rare work made
    // them bigger (see ``StackGuard``).

    /// Sets the path to a container's site; returns the path and key-path plan it replaced (the
    /// plan only when it was put aside).
    @inline(never)
    func moveToSite(_ site: ContainerSite) -> ([CodingPathComponent], (KeyPathPlan?, Int)?) {
        let saved = path
        var savedPlan: (KeyPathPlan?, Int)?
        if !leads(to: site) {
            // A kept container: its child's path starts from the container's own, and the plan
            // of whatever the decoder is in the middle of does not apply to it.
            path = rebuiltPath(to: site.base)
            savedPlan = (plan, planDepth)
            (plan, planDepth) = (nil, -1)
        }
        path.append(contentsOf: site.suffix)
        return (saved, savedPlan)
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
            // The metatype given, not `T`: a subclass asked for through its base class's metatype
            // is built as the subclass, as Foundation does.
            return try type.init(from: self)
        case .array(let array):
            func decode<A: TapeDecodableArray>(_ type: A.Type) throws -> T { Self.same(try A.decode(from: self)) }
            return try decode(array)
        case .stringKeyedDictionary(let dictionary):
            return try dictionary.decode(from: self) as! T
        case .direct(let direct):
            func decode<D: TapeDecodable>(_ type: D.Type) throws -> T {
                Self.same(try D(fromTape: TapeDecodingValue(decoder: self)))
            }
            return try decode(direct)
        case .keyPaths(let typePlan):
            let saved = (plan, planDepth)
            plan = typePlan
            planDepth = path.count
            defer { (plan, planDepth) = saved }
            return try type.init(from: self)
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
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try readInteger(type, at: index, currentSite, nil) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try readInteger(type, at: index, currentSite, nil) }
    func decode<T: Swift.Decodable>(_ type: T.Type) throws -> T { try unwrap(type) }
}

/// Where a container sits: the first `depth` components of its decoder's path, then `suffix` (the
/// keys and indices of `nestedContainer` calls, which do not move the decoder).
struct ContainerSite {
    let depth: Int
    let suffix: [CodingPathComponent]
    /// The tape index of the value the decoder was at when the outermost container was made (the
    /// container's own value unless nested): how a kept container tells that the decoder's path no
    /// longer leads to it.
    let base: Int

    /// The container's depth in the document, for its key-lookup hint.
    var logicalDepth: Int { depth + suffix.count }

    /// The site of a container nested in this one at `component`.
    func appending(_ component: CodingPathComponent) -> ContainerSite {
        ContainerSite(depth: depth, suffix: suffix + [component], base: base)
    }
}
