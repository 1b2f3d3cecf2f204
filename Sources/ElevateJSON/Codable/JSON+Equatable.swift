/// Equality and hashing, with explicit work lists so that nesting depth costs heap, not stack.
extension JSON: Hashable {
    /// Whether two values are the same JSON: objects with the same keys and equal values, arrays with
    /// equal elements in order, and numbers of the same exact value, as for ``JSONValue``: `3`
    /// equals `3.0`, and a number kept as text equals every spelling of its value (`1e400` and
    /// `1E400`; `100000000000000000000` and the `Double` `1e20`).
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

    /// Hashes the value consistently with `==`: numbers by exact value (a number kept as text by its
    /// canonical decimal form, or as the `Int`, `UInt` or `Double` that holds its value), objects
    /// independently of member order.
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
                JSONValue.hashNumber(number, into: &hasher)
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
