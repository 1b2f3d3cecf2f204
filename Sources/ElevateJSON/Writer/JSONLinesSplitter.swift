/// Passes on the elements of one array as separate top-level values, so that a
/// ``JSONTextEmitter`` prints one element per line: `extract --json-lines`, and the workers of its
/// split parse.
///
/// The array's own brackets are dropped; everything inside is forwarded unchanged. A value that is
/// not an array is refused at its first event, before anything is printed.
package final class JSONLinesSplitter: JSONEventHandler {
    /// Thrown when the value at the key path is not an array.
    package struct NotAnArray: Error {}

    private let next: any JSONEventHandler
    /// Nesting depth counted from outside the array: 1 inside it, 0 before and after.
    @exclusivity(unchecked) private var depth = 0
    /// Whether the array's first element is dropped: the placeholder a split run of elements
    /// starts with (`[null` before the run's comma).
    @exclusivity(unchecked) private var skipsNextElement: Bool
    /// Told when the array starts, before its first element: where the split parse takes over.
    package var arrayStarted: (() throws -> Void)?

    /// Creates a splitter that forwards the elements to `next`.
    /// - Parameters:
    ///   - next: Receives each element's events.
    ///   - skipsFirstElement: Whether the array's first element, a `null` placeholder, is dropped.
    package init(forwardingTo next: any JSONEventHandler, skipsFirstElement: Bool = false) {
        self.next = next
        skipsNextElement = skipsFirstElement
    }

    package func startArray() throws {
        depth += 1
        if depth > 1 { return try next.startArray() }
        try arrayStarted?()
    }

    package func endArray() throws {
        depth -= 1
        if depth > 0 { try next.endArray() }
    }

    package func startObject() throws {
        guard depth > 0 else { throw NotAnArray() }
        depth += 1
        try next.startObject()
    }

    package func endObject() throws {
        depth -= 1
        try next.endObject()
    }

    package func key(_ key: JSONText) throws { try next.key(key) }

    package func string(_ value: JSONText) throws {
        guard depth > 0 else { throw NotAnArray() }
        try next.string(value)
    }

    package func number(_ value: JSONNumberText) throws {
        guard depth > 0 else { throw NotAnArray() }
        try next.number(value)
    }

    package func bool(_ value: Bool) throws {
        guard depth > 0 else { throw NotAnArray() }
        try next.bool(value)
    }

    package func null() throws {
        guard depth > 0 else { throw NotAnArray() }
        if depth == 1, skipsNextElement {
            skipsNextElement = false
            return
        }
        try next.null()
    }
}
