/// The distinct keys of one object on a tape, found in O(1) each: what `==` looks keys up in when
/// two large objects list their members in different orders (looking each up by a scan made that
/// quadratic).
///
/// A lookup answers as ``JSONValue/member(utf8Key:hint:)`` does: the member whose key has the
/// bytes, or else the last one whose key is the same text in another Unicode spelling.
struct ObjectKeyIndex {
    let tape: JSONTape
    let object: Int
    /// Open addressing over the key entries' tape indices (-1: empty), by a hash of the key bytes.
    private var slots: [Int]
    private let mask: Int
    /// Each key's text to its last key entry, made at the first lookup that needs another spelling.
    private var byText: [String: Int]?

    /// Indexes the members of the object at tape index `object` that no later duplicate replaced.
    init(tape: JSONTape, object: Int) {
        self.tape = tape
        self.object = object
        let count = tape.count(ofContainer: object)
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = [Int](repeating: -1, count: capacity)
        var position = object + 1
        let end = tape.end(of: object)
        while position < end {
            if !tape.isShadowed(position) {
                var slot = tape.withText(at: position) { Self.hash($0) } & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = position
            }
            position = tape.end(of: position + 1)
        }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// The key entry whose key is `key`, and whether its bytes are `key`'s (false: another
    /// spelling of the same text); nil when there is none. `steps` counts the entries looked at.
    mutating func keyIndex(of key: UnsafeRawBufferPointer, steps: inout Int) -> (index: Int, sameBytes: Bool)? {
        var slot = Self.hash(key) & mask
        while slots[slot] >= 0 {
            steps += 1
            let candidate = slots[slot]
            if tape.withText(at: candidate, { $0.elementsEqual(key) }) { return (candidate, true) }
            slot = (slot + 1) & mask
        }
        let keyIsASCII = key.baseAddress.map { UTF8Validation.isASCII($0, key.count) } ?? true
        if keyIsASCII, tape.keysAreASCII { return nil }
        if byText == nil {
            var texts: [String: Int] = [:]
            var position = object + 1
            let end = tape.end(of: object)
            while position < end {
                steps += 1
                if !tape.isShadowed(position) { texts[tape.string(at: position)] = position }
                position = tape.end(of: position + 1)
            }
            byText = texts
        }
        return byText?[String(decoding: key, as: UTF8.self)].map { ($0, false) }
    }
}
