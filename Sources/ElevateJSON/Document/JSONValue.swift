/// A read-only view of one JSON value in a parsed document.
///
/// A `JSONValue` is a reference to the document's tape plus a position, so copying one, reading a
/// member or iterating an array builds nothing: strings become `String`s only when asked for, and
/// numbers were classified once, exactly, when the document was parsed. The view keeps its document
/// alive, so it can outlive the parse and cross threads.
///
/// ```swift
/// let document = try JSONValue(parsing: #"{"user":{"name":"alice","tags":["a","b"]}}"#)
/// let name = document["user"]?["name"]?.string          // "alice"
/// let firstTag = document[keyPath: "user.tags.0"]?.string  // "a"
/// for (key, value) in document["user"]?.members ?? JSONValue.Members() {
///     print(key, value)
/// }
/// ```
///
/// Duplicate keys: the last occurrence of a key replaces the earlier ones whole; lookups, ``members``
/// and ``count`` never see the earlier ones (or parse with
/// ``JSONParsingOptions/rejectsDuplicateKeys`` to make them an error).
///
/// Looking up a key scans the object's members (objects are not hashed); see
/// `member(_:hint:)` for reading many keys in document order in linear time.
public struct JSONValue: Sendable {
    /// The document.
    package let tape: JSONTape
    /// The value's first entry on the tape.
    package let index: Int

    package init(tape: JSONTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    /// What kind of JSON value this is.
    public var kind: Kind {
        switch tape.kind(at: index) {
        case .object: .object
        case .array: .array
        case .inlineString, .string: .string
        case .int56, .int64, .uint64, .double56, .double64, .large: .number
        case .true, .false: .bool
        case .null: .null
        case .key, .inlineKey: preconditionFailure("a view never points at a key")
        }
    }

    /// The number of members of an object (distinct keys) or elements of an array; 0 for other values.
    public var count: Int {
        isObject || isArray ? tape.count(ofContainer: index) : 0
    }

    /// Whether the value is `null`.
    public var isNull: Bool { tape.kind(at: index) == .null }

    /// Whether the value is an object.
    package var isObject: Bool { tape.kind(at: index) == .object }

    /// Whether the value is an array.
    package var isArray: Bool { tape.kind(at: index) == .array }

    /// Whether the value is a string.
    var isString: Bool {
        let kind = tape.kind(at: index)
        return kind == .string || kind == .inlineString
    }

    /// Whether the value is a number.
    var isNumber: Bool { kind == .number }

    /// Whether the value is `true` or `false`.
    var isBool: Bool {
        let kind = tape.kind(at: index)
        return kind == .true || kind == .false
    }

    /// The tape index just past this value: the next sibling's index.
    var endIndex: Int { tape.end(of: index) }
}
