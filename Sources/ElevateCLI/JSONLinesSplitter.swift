import Elevate

/// Passes on the elements of one array as separate top-level values, so that a
/// `JSONTextEmitter` prints one element per line: `extract --json-lines`.
///
/// The array's own brackets are dropped; everything inside is forwarded unchanged. A value that is
/// not an array is refused at its first event, before anything is printed.
final class JSONLinesSplitter: JSONEventHandler {
    /// Thrown when the value at the key path is not an array.
    struct NotAnArray: Error {}

    private let next: any JSONEventHandler
    /// Nesting depth counted from outside the array: 1 inside it, 0 before and after.
    @exclusivity(unchecked) private var depth = 0

    /// Creates a splitter that forwards the elements to `next`.
    /// - Parameter next: Receives each element's events.
    init(forwardingTo next: any JSONEventHandler) {
        self.next = next
    }

    func startArray() throws {
        depth += 1
        if depth > 1 { try next.startArray() }
    }

    func endArray() throws {
        depth -= 1
        if depth > 0 { try next.endArray() }
    }

    func startObject() throws {
        guard depth > 0 else { throw NotAnArray() }
        depth += 1
        try next.startObject()
    }

    func endObject() throws {
        depth -= 1
        try next.endObject()
    }

    func key(_ key: JSONText) throws { try next.key(key) }

    func string(_ value: JSONText) throws {
        guard depth > 0 else { throw NotAnArray() }
        try next.string(value)
    }

    func number(_ value: JSONNumberText) throws {
        guard depth > 0 else { throw NotAnArray() }
        try next.number(value)
    }

    func bool(_ value: Bool) throws {
        guard depth > 0 else { throw NotAnArray() }
        try next.bool(value)
    }

    func null() throws {
        guard depth > 0 else { throw NotAnArray() }
        try next.null()
    }
}
