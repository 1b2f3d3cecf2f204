/// A JSON value you own and can change: Lift's `Jar`, with numbers kept exact.
///
/// ```swift
/// var json: JSON = ["name": "Lift", "tags": ["a", "b"], "version": 2]
/// json["items"][3]["name"] = "x"        // creates "items", pads it with nulls, creates the object
/// json["tags"].append("c")
/// let name = try json.string(at: "items", 3, "name")   // "x"
/// try json.int(at: "items", 0, "count")  // throws JSON.AccessError: items[0].count: missing
/// ```
///
/// - Reading with a subscript never fails: a missing key, an index out of range, or a step into a
///   value that is not a container gives `.null`, so reads chain. The typed reads (``string(at:)``,
///   ``int(at:)``, …) tell missing from null and throw an ``AccessError`` naming the full path.
/// - Writing with a subscript creates what is missing: a key set on `null` (or on a value that is not
///   an object) makes the value an object, an index set beyond the end of an array (or on a
///   non-array) pads it with `null`s — as Lift's `Jar`, whose value is never bound to one kind;
///   ``set(_:at:)`` is the checked write, which throws instead. Setting JSON's `nil` stores `null`;
///   setting a nil optional, or ``removeValue(forKey:)``, removes a member.
/// - Values of your own types go into literals and subscripts through ``JSONConvertible``
///   (`["payment": payment, "date": date]`); in an object literal a nil optional leaves the member
///   out, and `JSON.null` writes `null`.
/// - Numbers are ``JSONNumber``s, exactly as parsed: integers over the whole `Int`/`UInt` range,
///   doubles, and numbers beyond 64 bits as their text.
/// - Objects are dictionaries: member order is not kept, and equality ignores it.
/// - Conversions: ``init(_:)-(JSONValue)`` from a parsed ``JSONValue`` (iterative, any depth),
///   ``init(foundationValue:)`` and ``foundationValue`` for `JSONSerialization`-shaped trees (which
///   is also what `JSONWriter` writes: `JSONWriter.data(for: json.foundationValue)`), and `Codable`.
public enum JSON: Sendable {
    /// JSON `null`; also what a subscript read gives for a missing key or an index out of range.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exactly as parsed: an `Int`, a `UInt` above `Int.max`, a `Double`, or the text of
    /// a number no 64-bit type holds.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array, in document order.
    case array([JSON])
    /// An object: its members by key (the last of repeated keys wins; member order is not kept).
    case object([String: JSON])
}

extension JSON {
    /// A copy of a parsed value.
    ///
    /// Built in one pass over the tape with an explicit stack, so nesting depth costs heap, not call
    /// stack (the parser's depth limit is the only limit).
    /// - Parameter value: The parsed value.
    public init(_ value: JSONValue) {
        let tape = value.tape
        // Open containers; a finished child goes into its parent.
        var open: [(end: Int, key: String?, array: [JSON], object: [String: JSON], isObject: Bool)] = []
        var result = JSON.null
        var pendingKey: String?
        var position = value.index
        let end = value.endIndex

        func add(_ child: JSON, key: String?) {
            guard !open.isEmpty else {
                result = child
                return
            }
            if open[open.count - 1].isObject {
                open[open.count - 1].object[key!] = child
            } else {
                open[open.count - 1].array.append(child)
            }
        }

        while true {
            while let top = open.last, position >= top.end {
                let finished = open.removeLast()
                add(finished.isObject ? .object(finished.object) : .array(finished.array), key: finished.key)
            }
            if position >= end { break }
            if let top = open.last, top.isObject {
                if tape.isShadowed(position) {
                    position = tape.end(of: position + 1)
                    continue
                }
                pendingKey = tape.string(at: position)
                position += 1
            } else {
                pendingKey = nil
            }
            switch tape.kind(at: position) {
            case .object:
                open.append((tape.end(of: position), pendingKey, [], Dictionary(minimumCapacity: tape.count(ofContainer: position)), true))
                position += 1
                continue
            case .array:
                var array: [JSON] = []
                array.reserveCapacity(tape.count(ofContainer: position))
                open.append((tape.end(of: position), pendingKey, array, [:], false))
                position += 1
                continue
            case .string, .inlineString: add(.string(tape.string(at: position)), key: pendingKey)
            case .null: add(.null, key: pendingKey)
            case .true: add(.bool(true), key: pendingKey)
            case .false: add(.bool(false), key: pendingKey)
            default: add(.number(tape.number(at: position)!), key: pendingKey)
            }
            position = tape.end(of: position)
        }
        self = result
    }

    /// Creates a number.
    /// - Parameter number: The number, exactly.
    public init(_ number: JSONNumber) { self = .number(number) }
    /// Creates an integer.
    /// - Parameter value: The integer.
    public init(_ value: Int) { self = .number(.int(value)) }
    /// Creates a non-negative integer (stored as an `Int` when it fits).
    /// - Parameter value: The integer.
    public init(_ value: UInt) { self = .number(value <= UInt(Int.max) ? .int(Int(value)) : .uint(value)) }
    /// Creates a floating-point number.
    /// - Parameter value: The number; JSON has no NaN or infinity, and writers reject them.
    public init(_ value: Double) { self = .number(.double(value)) }
    /// Creates a string.
    /// - Parameter value: The string.
    public init(_ value: String) { self = .string(value) }
    /// Creates a Boolean.
    /// - Parameter value: The Boolean.
    public init(_ value: Bool) { self = .bool(value) }

    // MARK: Non-throwing reads

    /// Whether the value is `null` (which a subscript also returns for a missing member).
    public var isNull: Bool { if case .null = self { true } else { false } }
    /// The string, or nil for another kind.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The Boolean, or nil for another kind.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The number, exactly, or nil for another kind.
    public var number: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    /// The elements, or nil for another kind.
    public var array: [JSON]? { if case .array(let value) = self { value } else { nil } }
    /// The members, or nil for another kind.
    public var object: [String: JSON]? { if case .object(let value) = self { value } else { nil } }

    /// The number as an `Int` when it is exactly one (same rules as ``JSONValue/int``: `3.0` is 3,
    /// `3.5` and doubles of 2⁵³ or more are nil).
    public var int: Int? {
        switch number {
        case .int(let value): value
        case .uint(let value): Int(exactly: value)
        case .double(let value): JSONNumber.integral(value).flatMap { Int(exactly: $0) }
        default: nil
        }
    }

    /// The number as a `Double` when a `Double` holds it exactly (same rules as ``JSONValue/double``).
    public var double: Double? {
        number?.exactDouble
    }

    /// The number of elements or members; 0 for other values.
    public var count: Int {
        switch self {
        case .array(let array): array.count
        case .object(let object): object.count
        default: 0
        }
    }

    /// The kind's name, for messages: `"a string"`, `"an object"`, …
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
