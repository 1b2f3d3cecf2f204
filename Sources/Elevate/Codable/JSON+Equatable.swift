/// Equality and hashing, with explicit work lists so that nesting depth costs heap, not stack.
extension JSON: Hashable {
    /// Whether two values are the same JSON: objects with the same keys and equal values, arrays with
    /// equal elements in order, and numbers of the same exact value (`3` equals `3.0`, as for
    /// ``JSONValue``).
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value.
    /// - Returns: `true` when `lhs` and `rhs` are the same JSON.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        var pending: [(JSON, JSON)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.null, .null): continue
            case (.bool(let x), .bool(let y)): guard x == y else { return false }
            case (.string(let x), .string(let y)): guard x == y else { return false }
            case (.number(let x), .number(let y)): guard JSONValue.numbersEqual(x, y) else { return false }
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                pending.append(contentsOf: zip(x, y))
            case (.object(let x), .object(let y)):
                guard x.count == y.count else { return false }
                for (key, value) in x {
                    guard let other = y[key] else { return false }
                    pending.append((value, other))
                }
            default: return false
            }
        }
        return true
    }

    /// Hashes the value consistently with `==`: numbers by exact value, objects independently of
    /// member order.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        var pending: [JSON] = [self]
        while let value = pending.popLast() {
            switch value {
            case .null: hasher.combine(0)
            case .bool(let bool): hasher.combine(1); hasher.combine(bool)
            case .string(let string): hasher.combine(2); hasher.combine(string)
            case .number(let number):
                hasher.combine(3)
                switch number {
                case .int(let int): hasher.combine(int)
                // An unsigned number that `Int` holds equals that `Int`: hashed as one.
                case .uint(let uint):
                    if let int = Int(exactly: uint) { hasher.combine(int) } else { hasher.combine(uint) }
                case .double(let double):
                    if let int = Int(exactly: double) { hasher.combine(int) }
                    else if let uint = UInt(exactly: double) { hasher.combine(uint) }
                    else { hasher.combine(double) }
                case .large(let text): hasher.combine(text)
                }
            case .array(let array):
                hasher.combine(4)
                hasher.combine(array.count)
                pending.append(contentsOf: array.reversed())
            case .object(let object):
                // Keys only, combined order-independently: equal objects have equal key sets.
                hasher.combine(5)
                hasher.combine(object.count)
                var keys = 0
                for key in object.keys { keys ^= key.hashValue }
                hasher.combine(keys)
            }
        }
    }
}
