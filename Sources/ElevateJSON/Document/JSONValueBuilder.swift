import struct Foundation.Data
import class Foundation.NSNull

/// Builds the values that `JSONSerialization.jsonObject(with:)` would return from a stream of
/// events, with native Swift types: `[String: Any]`, `[Any]`, `String`, `Int`, `UInt`, `Double`,
/// `Bool` and `NSNull`.
///
/// Differences from `JSONSerialization`, all on purpose: integers above `Int.max` are `UInt`
/// (exact up to `UInt.max`); numbers no 64-bit type holds are ``JSONLargeNumber``s instead of
/// rounded or wrapped values; `-0` is the `Double` `-0.0`; a duplicate key keeps its last value.
///
/// ```swift
/// let value = try JSONValueBuilder.value(from: data)
/// let name = (value as? [String: Any])?["name"] as? String
/// ```
///
/// How events become values: open containers live on two parallel stacks (objects with the key
/// awaiting its value, and arrays), so a finished child is inserted into its parent in place,
/// without copying the parent (an enum stack would copy-on-write each container per insertion).
package final class JSONValueBuilder: JSONEventHandler {
    private enum Open {
        case object
        case array
    }

    // Touched on every event. The accesses never overlap (nothing here calls out while mutating),
    // so the per-access dynamic exclusivity checks are pure cost: opt out of them.
    @exclusivity(unchecked) private var kinds: [Open] = []
    @exclusivity(unchecked) private var objects: [[String: Any]] = []
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var arrays: [[Any]] = []
    @exclusivity(unchecked) private var result: Any?
    /// The member count of the last object finished at each depth: the next object at that
    /// depth (usually the next element of the same array) starts with that capacity, sparing
    /// the dictionary's regrowth.
    @exclusivity(unchecked) private var capacityHints: [Int] = []

    /// A shared `NSNull`, so that nulls do not allocate.
    static let null = NSNull()

    /// Creates an empty builder.
    package init() {}

    /// Whether a complete top-level value has been built and not yet taken.
    package var hasValue: Bool { result != nil }

    /// Whether the builder is inside an unfinished container.
    package var isBuilding: Bool { !kinds.isEmpty }

    /// Returns the finished top-level value and clears it, ready for the next one.
    /// - Returns: The value, or nil when none is complete (`NSNull` stands for a JSON `null`).
    package func takeValue() -> Any? {
        defer { result = nil }
        return result
    }

    /// Parses a whole document into values.
    ///
    /// ```swift
    /// let tree = try JSONValueBuilder.value(from: data) as? [String: Any]
    /// ```
    /// - Parameters:
    ///   - data: The document's bytes.
    ///   - options: Parser settings: comments, depth and token-size limits.
    /// - Returns: What `JSONSerialization.jsonObject(with:options: .fragmentsAllowed)` would give:
    ///   `[String: Any]`, `[Any]`, `String`, `Int`, `UInt`, `Double`, ``JSONLargeNumber``, `Bool`
    ///   or `NSNull`.
    /// - Throws: ``JSONSyntaxError`` when the data is not JSON.
    package static func value(from data: Data, options: JSONParsingOptions = .default) throws -> Any {
        let builder = JSONValueBuilder()
        let parser = JSONEventParser(handler: builder, options: options)
        try parser.parse(data)
        try parser.finish()
        return builder.takeValue() ?? JSONValueBuilder.null
    }

    @inline(__always)
    private func add(_ value: Any) {
        guard let kind = kinds.last else {
            result = value
            return
        }
        switch kind {
        case .object:
            objects[objects.count - 1][keys[keys.count - 1]] = value
        case .array:
            arrays[arrays.count - 1].append(value)
        }
    }

    /// Begins an object.
    package func startObject() {
        let depth = objects.count
        let hint = depth < capacityHints.count ? capacityHints[depth] : 0
        kinds.append(.object)
        objects.append(Dictionary(minimumCapacity: hint))
        keys.append("")
    }

    /// Records the key whose value comes next.
    /// - Parameter key: The member's name.
    package func key(_ key: JSONText) {
        keys[keys.count - 1] = key.string
    }

    /// Ends the current object and adds it to its parent.
    package func endObject() {
        kinds.removeLast()
        keys.removeLast()
        let object = objects.removeLast()
        let depth = objects.count
        if depth < capacityHints.count {
            capacityHints[depth] = object.count
        } else if depth == capacityHints.count {
            capacityHints.append(object.count)
        }
        add(object)
    }

    /// Begins an array.
    package func startArray() {
        kinds.append(.array)
        arrays.append([])
    }

    /// Ends the current array and adds it to its parent.
    package func endArray() {
        kinds.removeLast()
        add(arrays.removeLast())
    }

    /// Adds a string.
    /// - Parameter value: The unescaped string.
    package func string(_ value: JSONText) {
        add(value.string)
    }

    /// Adds a number; see the type's documentation for how numbers are represented.
    /// - Parameter value: The number's text.
    package func number(_ value: JSONNumberText) {
        add(Self.value(of: value.value))
    }

    /// Adds a Boolean.
    /// - Parameter value: The Boolean.
    package func bool(_ value: Bool) {
        add(value)
    }

    /// Adds `NSNull`.
    package func null() {
        add(Self.null)
    }

    /// The tree representation of a number.
    static func value(of number: JSONNumber) -> Any {
        switch number {
        case .int(let value): return value
        case .uint(let value): return value
        case .double(let value): return value
        case .large(let text): return JSONLargeNumber(text: text)
        }
    }
}

extension JSONValueBuilder: EventBatchReceiver {
    /// Takes the parser's events a batch at a time, each by a direct call.
    func receive(_ batch: EventBatch) throws { try receiveEach(batch) }
}
