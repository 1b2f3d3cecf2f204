/// Casts out of `Any` that skip the runtime's general cast when the value holds exactly the type
/// asked for, which is what an entity holds for a property read with the type its schema names.
///
/// `value as? T` goes through `swift_dynamicCast`, a few hundred instructions even when the types
/// are the same, and every `<-!` pays it. Opening the existential gives the held type's metadata,
/// one comparison away from the answer; any other case (an `Optional`, `Any`, a protocol, a
/// bridged collection) still takes the general cast, so the results are `as?`'s.
@inlinable @inline(__always)
func castValue<T>(_ value: Any, to type: T.Type) -> T? {
    func open<Held>(_ held: Held) -> T? {
        guard Held.self == T.self else { return held as? T }
        // The same type: the bits are the value.
        return unsafeBitCast(held, to: T.self)
    }
    return open(value)
}

/// The value if it holds exactly a `T`, and nil otherwise (no conversion is tried).
@inline(__always)
func exactValue<T>(_ value: Any, as type: T.Type) -> T? {
    func open<Held>(_ held: Held) -> T? {
        guard Held.self == T.self else { return nil }
        return unsafeBitCast(held, to: T.self)
    }
    return open(value)
}
