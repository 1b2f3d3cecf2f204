// The operators are inlinable so that callers specialize them for their concrete types: a
// generic cast per extracted property otherwise costs a runtime metadata lookup.

/// The precedence of the extraction operators: above `??`, so that
/// `entity <-? "count" ?? 0` reads as `(entity <-? "count") ?? 0`.
precedencegroup ElevateExtractionPrecedence {
    associativity: left
    higherThan: NilCoalescingPrecedence
}

/// Extracts a required value from an entity.
infix operator <-! : ElevateExtractionPrecedence
/// Extracts an optional value from an entity.
infix operator <-? : ElevateExtractionPrecedence
/// Extracts a required array from an entity.
infix operator <--! : ElevateExtractionPrecedence
/// Extracts an optional array from an entity.
infix operator <--? : ElevateExtractionPrecedence

/// The value of a required property, as the type its schema guarantees.
///
/// The schema has already checked the JSON: a type mismatch here is a programming error (the
/// property's Swift type differs from its schema type), and stops the program with a message
/// naming the key path.
/// - Parameters:
///   - entity: What ``Parser/parseEntity(json:closure:)`` returned.
///   - keyPath: The property's key path, as given to the schema.
/// - Returns: The value, cast to `T`.
@inlinable
public func <-! <T>(entity: [String: Any], keyPath: String) -> T {
    guard let index = entityIndex(entity, at: keyPath) else {
        // Elevate's `<-!` is `entity[keyPath] as! T`: into an optional type (`let nickname: String? =
        // entity <-! "nickname"`) an absent optional property is nil, not a crash (found by the
        // differential tests against Elevate 4.0.0).
        if let none = absentValue(as: T.self) { return none }
        preconditionFailure("Elevate: key path [\(keyPath)] is not in the entity; is it optional in the schema?")
    }
    guard let typed = castValue(entity.values[index], to: T.self) else {
        preconditionFailure("Elevate: key path [\(keyPath)] holds \(type(of: entity.values[index])), not \(T.self)")
    }
    return typed
}

/// The value of an optional property, or nil when it was missing or null.
/// - Parameters:
///   - entity: What ``Parser/parseEntity(json:closure:)`` returned.
///   - keyPath: The property's key path, as given to the schema.
/// - Returns: The value, or nil when it is missing, null or not a `T`.
@inlinable
public func <-? <T>(entity: [String: Any], keyPath: String) -> T? {
    // Unwrapped here rather than by `flatMap`, which copies the optional `Any` into its closure.
    guard let index = entityIndex(entity, at: keyPath) else { return nil }
    return castValue(entity.values[index], to: T.self)
}

/// The elements of a required array property, as the element type its schema guarantees.
/// - Parameters:
///   - entity: What ``Parser/parseEntity(json:closure:)`` returned.
///   - keyPath: The property's key path, as given to the schema.
/// - Returns: The elements, each cast to `T`; `[]` when the (optional) property was missing or null.
@inlinable
public func <--! <T>(entity: [String: Any], keyPath: String) -> [T] {
    // Elevate's `<--!` returns an empty array for an optional array property that was missing or
    // null (it is left out of the entity), where this stopped the program (found by the
    // differential tests against Elevate 4.0.0).
    guard let index = entityIndex(entity, at: keyPath) else { return [] }
    // Arrays of decodables are stored typed: no cast per element.
    if let typed = castValue(entity.values[index], to: [T].self) { return typed }
    guard let elements = entity.values[index] as? [Any] else {
        preconditionFailure("Elevate: key path [\(keyPath)] is not an array in the entity")
    }
    return elements.map { element in
        guard let typed = element as? T else {
            preconditionFailure("Elevate: an element at key path [\(keyPath)] is \(type(of: element)), not \(T.self)")
        }
        return typed
    }
}

/// The elements of an optional array property, or nil when it was missing or null.
/// - Parameters:
///   - entity: What ``Parser/parseEntity(json:closure:)`` returned.
///   - keyPath: The property's key path, as given to the schema.
/// - Returns: The elements, or nil when the array is missing or null or an element is not a `T`.
@inlinable
public func <--? <T>(entity: [String: Any], keyPath: String) -> [T]? {
    // An array cast converts element by element and fails if any element is not a `T`; an array
    // of decodables is already a `[T]`.
    guard let index = entityIndex(entity, at: keyPath) else { return nil }
    return castValue(entity.values[index], to: [T].self)
}

/// `nil` as a `T` when `T` is an optional type, as Elevate's `entity[keyPath] as! T` gives for an
/// absent key; nil otherwise.
@usableFromInline
func absentValue<T>(as type: T.Type) -> T? {
    let absent: Any? = nil
    return absent as? T
}
