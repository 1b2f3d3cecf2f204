/// Typed reads. Each is strict: it answers only for a value of its own kind that it can represent
/// exactly, and nil otherwise — never a converted or rounded value.
extension JSONValue {
    /// The string, or nil when the value is not a string.
    public var string: String? {
        isString ? tape.string(at: index) : nil
    }

    /// The Boolean, or nil when the value is not `true` or `false` (a number is not a Boolean).
    public var bool: Bool? {
        switch tape.kind(at: index) {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// The number, exactly as parsed, or nil when the value is not a number.
    public var number: JSONNumber? { tape.number(at: index) }

    /// The number as an `Int`, when it is exactly an integer in `Int`'s range: `3` and `3.0` are
    /// `3`; `3.5`, `1e300`, `18446744073709551615` and a `Double` of magnitude 2⁵³ or more (which may
    /// already have been rounded, like `9007199254740993.0`) are nil.
    public var int: Int? {
        switch number {
        case .int(let value): return value
        case .double(let value): return Self.exactInteger(value).flatMap { Int(exactly: $0) }
        default: return nil
        }
    }

    /// The number as a `UInt`, when it is exactly a non-negative integer in `UInt`'s range (same rules
    /// as ``int``; `-1` is nil).
    public var uint: UInt? {
        switch number {
        case .int(let value): return value >= 0 ? UInt(value) : nil
        case .uint(let value): return value
        case .double(let value): return Self.exactInteger(value).flatMap { UInt(exactly: $0) }
        default: return nil
        }
    }

    /// The number as a `Double`, when a `Double` holds it: every number written with a fraction or
    /// exponent (already the nearest `Double`), and integers a `Double` holds exactly; nil for
    /// integers it would round (`9007199254740993`) and for numbers beyond any 64-bit type.
    public var double: Double? {
        number?.exactDouble
    }

    /// The integral `Double`s below 2⁵³ in magnitude: the ones that cannot have been rounded.
    private static func exactInteger(_ value: Double) -> Double? {
        JSONNumber.integral(value)
    }

    /// Calls `body` with the string's UTF-8 bytes, without creating a `String`; nil when the value is
    /// not a string.
    /// - Parameter body: Receives the bytes, which are valid only during the call.
    /// - Returns: What `body` returned, or nil when the value is not a string.
    func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard isString else { return nil }
        return try tape.withText(at: index, body)
    }
}
