/// Finding an object's members on the tape.
extension TapeDecoder {
    /// The tape index of the value whose key's bytes are `key`, in the object at `object`.
    ///
    /// The search starts after the last hit at the same depth and wraps around (the same walk as
    /// `JSONValue.member(utf8Key:hint:)`), so that reading keys in document order is linear; a key of
    /// up to 7 bytes is one word compare per member.
    @inline(__always)
    func findMember(utf8 key: UnsafeRawBufferPointer, in object: Int, depth: Int) -> Int? {
        let inlineWord: UInt64? = key.count <= 7 ? JSONTape.inlineWord(.inlineKey, key) : nil
        if let found = findMember(in: object, depth: depth, where: { tape.keyEquals($0, key, inlineWord: inlineWord) }) {
            return found
        }
        // The same text spelled with other code points, as JSONDecoder's dictionary would find it.
        return JSONValue(tape: tape, index: object).equivalentMemberIndex(utf8Key: key)
    }

    /// The tape index of the value whose key entry satisfies `matches`, in the object at `object`.
    @inline(__always)
    func findMember(in object: Int, depth: Int, where matches: (Int) -> Bool) -> Int? {
        let first = object + 1
        let end = tape.end(of: object)
        guard first < end else { return nil }
        let slot = hintSlot(depth)
        let start = walkStart(slot, object: object, first: first, end: end)
        var position = start
        repeat {
            if matches(position), !tape.isShadowed(position) {
                Self.noteHit(slot, object: object, key: position)
                return position + 1
            }
            position = tape.end(of: position + 1)
            if position >= end { position = first }
        } while position != start
        return nil
    }

    /// The hint slot of logical depth `depth`, or nil past ``hintDepth``: two words, the object
    /// last searched at that depth and the key entry hit in it.
    @inline(__always)
    func hintSlot(_ depth: Int) -> UnsafeMutablePointer<Int>? {
        depth < hintDepth ? hints + 2 * depth : nil
    }

    /// Where a walk of the members of `object` (`first` ..< `end`) starts: just after the last hit
    /// when that hit was in this very object, else at the first member. A hint of the same depth
    /// found in another object is never used: a key-path property is decoded at a coding depth
    /// other than its tape depth, so such a hint can lie inside a member of this object, and a
    /// walk started there never comes back to its start.
    @inline(__always)
    func walkStart(_ slot: UnsafeMutablePointer<Int>?, object: Int, first: Int, end: Int) -> Int {
        guard let slot, slot[0] == object else { return first }
        let start = tape.end(of: slot[1] + 1)
        return start < end ? start : first
    }

    /// Notes in `slot` that the key entry `key` of `object` was hit.
    @inline(__always)
    static func noteHit(_ slot: UnsafeMutablePointer<Int>?, object: Int, key: Int) {
        guard let slot else { return }
        slot[0] = object
        slot[1] = key
    }

    /// The name a `CodingKey` is matched against for the key entry at `keyIndex`, by the key strategy.
    func keyName(at keyIndex: Int, _ site: ContainerSite) -> String {
        switch context.keyMode {
        case .bytes: return tape.string(at: keyIndex)
        case .snakeCase: return context.snakeCaseKey(at: keyIndex)
        case .custom(let closure):
            return closure(codingPath(site, appending: .key(StringCodingKey(tape.string(at: keyIndex))))).stringValue
        }
    }

    /// The tape index of the value of the member named `name` (after the key strategy).
    @inline(__always)
    func member(named name: String, in object: Int, _ site: ContainerSite) -> Int? {
        switch context.keyMode {
        case .bytes:
            var name = name
            return name.withUTF8 {
                findMember(utf8: UnsafeRawBufferPointer($0), in: object, depth: site.logicalDepth)
            }
        case .snakeCase, .custom:
            return convertedMember(named: name, in: object, site)
        }
    }

    /// ``member(named:in:_:)`` under a key strategy that converts keys; not inlined, so that the
    /// frame of every container `decode` (one per level of a recursive type) stays small.
    @inline(never)
    func convertedMember(named name: String, in object: Int, _ site: ContainerSite) -> Int? {
        switch context.keyMode {
        case .bytes:
            return nil
        case .snakeCase:
            return convertedMember(named: name, in: object, site) { context.snakeCaseKey(at: $0) }
        case .custom(let closure):
            let base = codingPath(site)
            return convertedMember(named: name, in: object, site) {
                closure(base + [StringCodingKey(tape.string(at: $0))]).stringValue
            }
        }
    }

    /// How many members a lookup by converted name compares, from the hint, before it converts the
    /// object's keys once into a ``MemberTable``: small objects, and keys read in document order,
    /// stay on the walk; a miss in a large object costs one conversion per member for the whole
    /// visit instead of one per member per lookup (a million members: 77 s before the table).
    static let convertedProbeLimit = 32

    /// The tape index of the value of the member whose key, converted by `convert`, is `name`.
    ///
    /// Keys that convert to the same name: the walk finds the first after the last hit (so the first
    /// in document order for the first lookup), the table keeps the first in document order, as
    /// Foundation's dictionary of converted keys does.
    func convertedMember(named name: String, in object: Int, _ site: ContainerSite, convert: (Int) -> String) -> Int? {
        let depth = site.logicalDepth
        if depth < memberTables.count, let table = memberTables[depth], table.object == object {
            return table.member(named: name, hint: hintSlot(depth))
        }
        let first = object + 1
        let end = tape.end(of: object)
        guard first < end else { return nil }
        let slot = hintSlot(depth)
        let start = walkStart(slot, object: object, first: first, end: end)
        var position = start
        var probes = 0
        repeat {
            if probes == Self.convertedProbeLimit {
                let table = MemberTable(object: object, tape: tape, convert: convert)
                if depth >= memberTables.count {
                    memberTables.append(contentsOf: repeatElement(nil, count: depth + 1 - memberTables.count))
                }
                memberTables[depth] = table
                return table.member(named: name, hint: slot)
            }
            if !tape.isShadowed(position), convert(position) == name {
                Self.noteHit(slot, object: object, key: position)
                return position + 1
            }
            probes += 1
            position = tape.end(of: position + 1)
            if position >= end { position = first }
        } while position != start
        return nil
    }
}

/// An object's members by converted key name, made once per object (per logical depth, the last
/// object that needed one) when a lookup by converted name misses its short walk.
struct MemberTable {
    /// The tape index of the object.
    let object: Int
    /// The key entry of the first member (in document order, shadowed repeats skipped) per name.
    let keys: [String: Int]

    /// Converts every key of the object at `object` once.
    init(object: Int, tape: JSONTape, convert: (Int) -> String) {
        self.object = object
        var keys: [String: Int] = Dictionary(minimumCapacity: tape.count(ofContainer: object))
        let end = tape.end(of: object)
        var position = object + 1
        while position < end {
            if !tape.isShadowed(position) {
                let name = convert(position)
                if keys[name] == nil { keys[name] = position }
            }
            position = tape.end(of: position + 1)
        }
        self.keys = keys
    }

    /// The value index of the member named `name`, noting its key entry in the hint slot `hint`.
    func member(named name: String, hint: UnsafeMutablePointer<Int>?) -> Int? {
        guard let key = keys[name] else { return nil }
        TapeDecoder.noteHit(hint, object: object, key: key)
        return key + 1
    }
}
