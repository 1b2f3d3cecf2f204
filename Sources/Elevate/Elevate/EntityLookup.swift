/// Where an entity holds one property for the `<-!` family, found without hashing its key path
/// when it can; the operators read the value there in place (`entity.values[index]` passed
/// straight to the cast), not a copy of the `Any` first.
///
/// An entity is small, and code reads it with the same string literals its schema was built
/// with: `schema.addProperty(keyPath: "name", …)`, then `entity <-! "name"`. Two strings with the
/// same in-memory representation are equal (the same inline bytes, or the same storage), so a
/// scan for such a key finds the one entry `entity[keyPath]` would find, for a fraction of the
/// cost of hashing the key path with SipHash. A key that is not there (an optional property
/// left out) is known to be absent without hashing when every key and the key path are small
/// ASCII strings (see ``isSmallASCII(_:)``). Anything else the scan does not find (a key spelled
/// differently, a large entity) is looked up by hash, as before.
@inlinable @inline(__always)
func entityIndex(_ entity: [String: Any], at keyPath: String) -> Dictionary<String, Any>.Index? {
    if entity.count <= 8 {
        var index = entity.startIndex
        while index != entity.endIndex {
            if hasSameRepresentation(entity.keys[index], keyPath) { return index }
            entity.formIndex(after: &index)
        }
        if isSmallASCII(keyPath), smallASCIIStringsAreRecognized, entity.keys.allSatisfy(isSmallASCII) { return nil }
    }
    return entity.index(forKey: keyPath)
}

/// Whether `string` is stored inline (15 UTF-8 bytes or fewer) and all ASCII, as the flags in its
/// bits say. Two such strings are equal exactly when their bits are: ASCII text is equal only
/// to the same bytes, and an inline string's unused bytes are zero. Only trusted when
/// ``smallASCIIStringsAreRecognized``.
@inlinable @inline(__always)
func isSmallASCII(_ string: String) -> Bool {
    withUnsafeBytes(of: string) { bytes in
        // On 64-bit platforms the top nibble of the second word is the discriminator: 0xE for
        // an inline ASCII string (immortal, ASCII, small), never for any other kind of string.
        MemoryLayout<String>.size == 16 && bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) >> 60 == 0xE
    }
}

/// Whether this platform's strings have the layout ``isSmallASCII(_:)`` reads, checked once on
/// strings of every kind: otherwise entities are never searched that way.
@usableFromInline
let smallASCIIStringsAreRecognized: Bool = {
    let literal = "key"
    // The same text made in other ways, each of which could leave bytes past the end: they must
    // come out with the literal's bits (unused inline bytes zero).
    let built = String(decoding: Array("key".utf8), as: UTF8.self)
    let overwritten = String(unsafeUninitializedCapacity: 15) { buffer in
        _ = buffer.initialize(from: Array("keyXXXXXXXXXXXX".utf8))
        return 3
    }
    var shortened = "keys and more"
    shortened.removeLast(10)
    let longLiteral = "a key longer than fifteen bytes"
    let longBuilt = String(repeating: "k", count: 40)
    let nonASCII = ["caf\u{E9}", String(decoding: Array("caf\u{E9}".utf8), as: UTF8.self), "\u{1F600}"]
    return isSmallASCII(literal) && isSmallASCII("") && [built, overwritten, shortened].allSatisfy { text in
        isSmallASCII(text) && hasSameRepresentation(literal, text)
    } && !isSmallASCII(longLiteral) && !isSmallASCII(longBuilt) && !nonASCII.contains(where: isSmallASCII)
}()

/// Whether two strings are the same bits: then they are equal. (Equal strings may still differ
/// in their bits: `==` decides those.)
@inlinable @inline(__always)
func hasSameRepresentation(_ first: String, _ second: String) -> Bool {
    withUnsafeBytes(of: first) { first in
        withUnsafeBytes(of: second) { second in
            guard MemoryLayout<String>.size == 2 * MemoryLayout<UInt64>.size else {
                return first.elementsEqual(second)
            }
            return first.loadUnaligned(as: UInt64.self) == second.loadUnaligned(as: UInt64.self)
                && first.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    == second.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        }
    }
}
