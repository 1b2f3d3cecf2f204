/// Hands decodable types and decoders a ``JSONValue`` view of each object or array, or, for code
/// that casts `json` itself, the Foundation-shaped value Elevate documented.
///
/// Elevate documents `json` as "typically a `[String: Any]`", and some `init(json:)` code casts it
/// (`json as? [String: Any]`). The rule: the first time a type's `init(json:)` (or a decoder's
/// `decode(_:)`) returns or throws without having read its view through
/// `Parser.parseEntity(json:)` (or another call of this library that reads views), that value is
/// decoded again from its materialized `[String: Any]`/`[Any]`, and from then on, for the rest of
/// the call (one `decodeObject`, `decodeArray`, `forEachElement`, … or one outermost decode; see
/// ``DecodingThread``), that type (that decoder's type) is handed materialized values. So such a
/// type's `init(json:)` runs twice for the first value of each call it is handed, once for the
/// others; a type that reads its view runs once for every value. Scalars are always handed as
/// `String`, `Int`, `Double`, `Bool`, … . ``withFoundationValues(_:)`` hands
/// materialized values everywhere, for code that both reads and casts.
enum ViewHandOff {
    private static let floatIdentity = ObjectIdentifier(Float.self)

    /// One thread's state. It is touched on every nested decode, by its own thread only: its
    /// properties opt out of dynamic exclusivity checks.
    final class Slot {
        /// The view the innermost running decode was handed: its tape's identity and index.
        @exclusivity(unchecked) var expectedTape: ObjectIdentifier?
        @exclusivity(unchecked) var expectedIndex = -1
        /// The type or decoder type it was handed to.
        @exclusivity(unchecked) var expectedIdentity: ObjectIdentifier?
        /// Whether that view has been read.
        @exclusivity(unchecked) var wasRead = false
        /// Types and decoder types that cast their value: they get Foundation values.
        @exclusivity(unchecked) var materializing: Set<ObjectIdentifier> = []
        /// Set inside ``withFoundationValues(_:)``.
        @exclusivity(unchecked) var forcesFoundationValues = false
    }

    /// Records that `view` was read by this library (called by `parseEntity(json:)` and the
    /// library's own conformances).
    @inline(__always)
    static func markRead(_ view: JSONValue) {
        _ = read(view, in: DecodingThread.current)
    }

    /// Records that `view` was read; returns the type or decoder type it was handed to, if it is
    /// the view the innermost decode was handed.
    @inline(__always)
    static func read(_ view: JSONValue, in thread: DecodingThread) -> ObjectIdentifier? {
        let slot = thread.views
        guard slot.expectedIndex == view.index, slot.expectedTape == ObjectIdentifier(view.tape) else { return nil }
        slot.wasRead = true
        return slot.expectedIdentity
    }

    /// Decodes `value` with `decode`, handing it a view or a materialized value by the rule above.
    /// - Parameters:
    ///   - value: The value on its tape.
    ///   - identity: The decodable type, or the decoder's type.
    ///   - decode: Calls `init(json:)` or `decode(_:)`.
    @inline(__always)
    static func decode<R>(_ value: JSONValue, by identity: ObjectIdentifier, _ decode: (Any) throws -> R) throws -> R {
        guard value.isObject || value.isArray else {
            // A number whose text the tape kept, for `Float`'s own conformance: the view, which it
            // rounds once from the text (a `Double` may sit on a tie between two `Float`s).
            if identity == floatIdentity, value.tape.numberText(at: value.index) != nil { return try decode(value) }
            return try decode(value.foundationValue)
        }
        let thread = DecodingThread.current
        let slot = thread.views
        if slot.forcesFoundationValues || slot.materializing.contains(identity) {
            return try decode(value.foundationValue)
        }
        let saved = (slot.expectedTape, slot.expectedIndex, slot.expectedIdentity, slot.wasRead)
        slot.expectedTape = ObjectIdentifier(value.tape)
        slot.expectedIndex = value.index
        slot.expectedIdentity = identity
        slot.wasRead = false
        defer {
            (slot.expectedTape, slot.expectedIndex, slot.expectedIdentity, slot.wasRead) = saved
            // The outermost decode is over, and with it the call (unless a pass of elements is
            // the call, which ends with the pass): what its entities held is the caller's now,
            // and nothing it learned stays on the thread.
            if saved.0 == nil, !thread.isInPass { thread.endCall() }
        }
        do {
            let result = try decode(value)
            if slot.wasRead { return result }
        } catch {
            if slot.wasRead { throw error }
        }
        // It never read its view: it casts `json` itself. Give it what it expects, now and for
        // the rest of the call.
        slot.materializing.insert(identity)
        NestedFailures.slot.clear()
        return try decode(value.foundationValue)
    }
}

/// Runs `body` handing every decodable type and decoder Foundation-shaped values
/// (`[String: Any]`, `[Any]`) instead of document views, for `init(json:)` code that both reads
/// through `Parser.parseEntity(json:)` and casts `json` itself.
///
/// ```swift
/// let people: [Person] = try withFoundationValues {
///     try Elevate.decodeArray(from: data, atKeyPath: "response.items")
/// }
/// ```
///
/// Decoding in this library is synchronous on the calling thread, so the scope covers every
/// decode `body` makes on its own thread (for an async sequence, iterate inside the scope's
/// thread: use the synchronous `forEachElement`/`forEachValue` forms).
/// - Parameter body: The decoding to run.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withFoundationValues<T>(_ body: () throws -> T) rethrows -> T {
    let slot = DecodingThread.current.views
    let saved = slot.forcesFoundationValues
    slot.forcesFoundationValues = true
    defer { slot.forcesFoundationValues = saved }
    return try body()
}

extension JSONValue {
    /// `value` if it is a view, found by comparing its dynamic type (a dynamic cast to a struct
    /// costs far more, and Foundation input never is one).
    @inline(__always)
    static func exactly(_ value: Any) -> JSONValue? {
        exactValue(value, as: JSONValue.self)
    }
}
