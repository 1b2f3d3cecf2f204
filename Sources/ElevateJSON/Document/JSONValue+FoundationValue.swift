import class Foundation.NSNull

extension JSONValue {
    /// The value as the tree `JSONValueBuilder` builds: `[String: Any]`, `[Any]`, `String`, `Int`,
    /// `UInt`, `Double`, `Bool`, `NSNull` or ``JSONLargeNumber`` — what Elevate's `init(json: Any)`
    /// and `JSONSerialization`-style code expect. A duplicate key holds its last value.
    ///
    /// ```swift
    /// let tree = try JSONValue(parsing: data).foundationValue as? [String: Any]
    /// ```
    ///
    /// Built in one pass over the tape with explicit stacks (no recursion), each container created
    /// at its final size.
    public var foundationValue: Any {
        // Open containers on parallel stacks, as in JSONValueBuilder: a finished child goes into its
        // parent in place, without copying the parent.
        var open: [(end: Int, isObject: Bool)] = []
        var objects: [[String: Any]] = []
        var keys: [String] = []
        var arrays: [[Any]] = []
        var result: Any = JSONValueBuilder.null

        func add(_ value: Any) {
            guard let top = open.last else {
                result = value
                return
            }
            if top.isObject {
                objects[objects.count - 1][keys[keys.count - 1]] = value
            } else {
                arrays[arrays.count - 1].append(value)
            }
        }

        var position = index
        let end = endIndex
        while true {
            while let top = open.last, position >= top.end {
                open.removeLast()
                if top.isObject {
                    keys.removeLast()
                    add(objects.removeLast())
                } else {
                    add(arrays.removeLast())
                }
            }
            if position >= end { return result }
            if let top = open.last, top.isObject {
                if tape.isShadowed(position) {
                    position = tape.end(of: position + 1)
                    continue
                }
                keys[keys.count - 1] = tape.string(at: position)
                position += 1
            }
            switch tape.kind(at: position) {
            case .object:
                open.append((tape.end(of: position), true))
                objects.append(Dictionary(minimumCapacity: tape.count(ofContainer: position)))
                keys.append("")
                position += 1
                continue
            case .array:
                open.append((tape.end(of: position), false))
                var array: [Any] = []
                array.reserveCapacity(tape.count(ofContainer: position))
                arrays.append(array)
                position += 1
                continue
            case .string, .inlineString: add(tape.string(at: position))
            case .null: add(JSONValueBuilder.null)
            case .true: add(true)
            case .false: add(false)
            default: add(JSONValueBuilder.value(of: tape.number(at: position)!))
            }
            position = tape.end(of: position)
        }
    }
}
