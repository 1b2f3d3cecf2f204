extension JSONValue {
    /// The members of an object in document order, without the occurrences of a duplicate key that a
    /// later one replaced; empty for any other value.
    ///
    /// ```swift
    /// for (key, value) in document.members { print(key, value.kind) }
    /// ```
    public var members: Members {
        isObject ? Members(tape: tape, start: index + 1, end: endIndex) : Members()
    }

    /// The keys of an object in document order (each once); empty for any other value.
    public var keys: LazyMapSequence<Members, String> {
        members.lazy.map(\.key)
    }

    /// The members of an object, in document order; see ``JSONValue/members``.
    public struct Members: Sequence, Sendable {
        let tape: JSONTape?
        let start: Int
        let end: Int

        package init(tape: JSONTape, start: Int, end: Int) {
            self.tape = tape
            self.start = start
            self.end = end
        }

        /// No members.
        public init() {
            tape = nil
            start = 0
            end = 0
        }

        /// Starts iterating.
        /// - Returns: An iterator over the members, in document order.
        public func makeIterator() -> Iterator {
            Iterator(tape: tape, position: start, end: end)
        }

        /// At most the number of members (duplicates are only found while iterating).
        public var underestimatedCount: Int { 0 }

        /// Walks the members, skipping shadowed keys.
        public struct Iterator: IteratorProtocol {
            let tape: JSONTape?
            var position: Int
            let end: Int

            /// The next member, or nil after the last.
            /// - Returns: The next distinct key and its value, or nil.
            public mutating func next() -> (key: String, value: JSONValue)? {
                guard let tape else { return nil }
                while position < end {
                    let key = position
                    position = tape.end(of: key + 1)
                    if !tape.isShadowed(key) {
                        return (tape.string(at: key), JSONValue(tape: tape, index: key + 1))
                    }
                }
                return nil
            }
        }
    }
}
