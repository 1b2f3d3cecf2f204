/// Structural equality.
extension JSONValue: Equatable {
    /// Whether two values are the same JSON: objects with the same distinct keys and equal values
    /// (member order does not matter), arrays with equal elements in order, equal strings (by UTF-8
    /// bytes), and numbers of the same exact value (`3` equals `3.0`; `9007199254740993` does not
    /// equal `9007199254740992.0`). Numbers beyond every 64-bit type equal only the same text.
    ///
    /// Compared with an explicit work list: nesting depth costs heap, never call stack.
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value, on the same document or another.
    /// - Returns: `true` when `lhs` and `rhs` are the same JSON.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(Int, Int)] = [(lhs.index, rhs.index)]
        let left = lhs.tape
        let right = rhs.tape
        while let (i, j) = pending.popLast() {
            if left === right, i == j { continue }
            let a = JSONValue(tape: left, index: i)
            let b = JSONValue(tape: right, index: j)
            let kind = a.kind
            guard kind == b.kind else { return false }
            switch kind {
            case .object:
                guard a.count == b.count else { return false }
                var hint: Int?
                var position = i + 1
                let end = a.endIndex
                while position < end {
                    let key = position
                    position = left.end(of: key + 1)
                    if left.isShadowed(key) { continue }
                    let match = left.withText(at: key) { b.member(utf8Key: $0, hint: &hint) }
                    guard let match else { return false }
                    pending.append((key + 1, match.index))
                }
            case .array:
                guard a.count == b.count else { return false }
                var x = i + 1
                var y = j + 1
                let end = a.endIndex
                while x < end {
                    pending.append((x, y))
                    x = left.end(of: x)
                    y = right.end(of: y)
                }
            case .string:
                let equal = left.withText(at: i) { x in
                    right.withText(at: j) { y in x.elementsEqual(y) }
                }
                if !equal { return false }
            case .number:
                guard Self.numbersEqual(a.number!, b.number!) else { return false }
            case .bool:
                guard a.bool == b.bool else { return false }
            case .null:
                break
            }
        }
        return true
    }

    /// Whether two numbers have the same exact value.
    static func numbersEqual(_ x: JSONNumber, _ y: JSONNumber) -> Bool {
        switch (x, y) {
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Int(exactly: b) == a
        case (.uint(let a), .double(let b)), (.double(let b), .uint(let a)): UInt(exactly: b) == a
        case (.large(let a), .large(let b)): a == b
        default: false
        }
    }
}
