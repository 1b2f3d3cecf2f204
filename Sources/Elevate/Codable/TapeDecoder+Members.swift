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
        let slot: UnsafeMutablePointer<Int>? = depth < hintDepth ? hints + depth : nil
        var start = first
        if let previous = slot?.pointee, previous >= first, previous < end {
            start = tape.end(of: previous + 1)
            if start >= end { start = first }
        }
        var position = start
        repeat {
            if matches(position), !tape.isShadowed(position) {
                slot?.pointee = position
                return position + 1
            }
            position = tape.end(of: position + 1)
            if position >= end { position = first }
        } while position != start
        return nil
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
            return findMember(in: object, depth: site.logicalDepth) { context.snakeCaseKey(at: $0) == name }
        case .custom(let closure):
            let base = codingPath(site)
            return findMember(in: object, depth: site.logicalDepth) {
                closure(base + [StringCodingKey(tape.string(at: $0))]).stringValue == name
            }
        }
    }
}
