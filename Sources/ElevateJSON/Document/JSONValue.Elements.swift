extension JSONValue {
    /// The elements of an array in order, or nil when the value is not an array.
    ///
    /// Iterating costs O(1) per element (each is skipped in O(1)); `count` is O(1). The collection is
    /// forward-only: elements differ in size on the tape, so reaching the *n*th one walks *n*.
    ///
    /// ```swift
    /// if let items = document["items"]?.elements {
    ///     for item in items { print(item["name"]?.string ?? "?") }
    /// }
    /// ```
    public var elements: Elements? {
        isArray ? Elements(tape: tape, array: index) : nil
    }

    /// The elements of an array; see ``JSONValue/elements``.
    public struct Elements: Collection, Sendable {
        let tape: JSONTape
        let array: Int

        /// A position in the array.
        public struct Index: Comparable, Hashable, Sendable {
            /// The element's tape index.
            let position: Int

            /// Whether `lhs` comes before `rhs`.
            /// - Parameters:
            ///   - lhs: A position.
            ///   - rhs: Another position in the same array.
            /// - Returns: `true` when `lhs` is the earlier position.
            public static func < (lhs: Index, rhs: Index) -> Bool { lhs.position < rhs.position }
        }

        /// The first element's position.
        public var startIndex: Index { Index(position: array + 1) }

        /// The position past the last element.
        public var endIndex: Index { Index(position: tape.end(of: array)) }

        /// The position after `i`.
        /// - Parameter i: A valid position other than ``endIndex``; any other traps.
        /// - Returns: The next element's position, or ``endIndex``.
        public func index(after i: Index) -> Index {
            // As `Array`'s: a position outside the array would read entries that are not its elements.
            precondition(i.position > array && i.position < tape.end(of: array), "Elements index out of range")
            return Index(position: tape.end(of: i.position))
        }

        /// The element at `position`.
        /// - Parameter position: A valid position other than ``endIndex``; any other traps.
        /// - Returns: A view of the element.
        public subscript(position: Index) -> JSONValue {
            precondition(
                position.position > array && position.position < tape.end(of: array), "Elements index out of range")
            return JSONValue(tape: tape, index: position.position)
        }

        /// The number of elements, in O(1).
        public var count: Int { tape.count(ofContainer: array) }

        /// Whether the array is empty, in O(1).
        public var isEmpty: Bool { array + 1 == tape.end(of: array) }
    }
}
