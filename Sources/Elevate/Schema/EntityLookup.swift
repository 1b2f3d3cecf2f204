/// Where an entity holds one property for the `<-!` family; the operators read the value there in
/// place (`entity.values[index]` passed straight to the cast), not a copy of the `Any` first.
///
/// An entity is small, and code reads it with the same string literals its schema was built
/// with. Up to eight keys, comparing the key path with each key is cheaper than hashing it with
/// SipHash: `==` on two strings with the same contents returns at the first compare of their
/// bits. It is the equality the dictionary itself uses (canonical equivalence), so a scan that
/// finds no key proves the key absent, with the same answer `entity[keyPath]` gives.
@inlinable @inline(__always)
func entityIndex(_ entity: [String: Any], at keyPath: String) -> Dictionary<String, Any>.Index? {
    guard entity.count <= 8 else { return entity.index(forKey: keyPath) }
    var index = entity.startIndex
    while index != entity.endIndex {
        if entity.keys[index] == keyPath { return index }
        entity.formIndex(after: &index)
    }
    return nil
}
