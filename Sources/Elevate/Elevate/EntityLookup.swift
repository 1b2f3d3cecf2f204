/// Reads one property of an entity for the `<-!` family, without hashing its key path when it
/// can.
///
/// An entity is small, and code reads it with the same string literals its schema was built
/// with: `schema.addProperty(keyPath: "name", …)`, then `entity <-! "name"`. Two strings with the
/// same in-memory representation are equal (the same inline bytes, or the same storage), so a
/// scan for such a key finds the one entry `entity[keyPath]` would find, for a fraction of the
/// cost of hashing the key path with SipHash. Anything the scan does not find (a key spelled
/// differently, a large entity, a key that is not there) is looked up by hash, as before.
@inlinable @inline(__always)
func entityValue(_ entity: [String: Any], at keyPath: String) -> Any? {
    if entity.count <= 8 {
        var index = entity.startIndex
        while index != entity.endIndex {
            if hasSameRepresentation(entity.keys[index], keyPath) { return entity.values[index] }
            entity.formIndex(after: &index)
        }
    }
    return entity[keyPath]
}

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
