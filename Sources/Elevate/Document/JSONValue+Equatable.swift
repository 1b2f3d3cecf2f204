/// Structural equality.
extension JSONValue: Equatable {
    /// Whether two values are the same JSON: objects with the same distinct keys and equal values
    /// (member order does not matter), arrays with equal elements in order, equal strings (by UTF-8
    /// bytes), and numbers of the same exact value (`3` equals `3.0`; `9007199254740993` does not
    /// equal `9007199254740992.0`). Numbers beyond every 64-bit type equal only the same text.
    ///
    /// A key finds its member as a subscript does, the same text in another Unicode spelling
    /// included, and it must do so both ways round, so that `==` stays symmetric.
    ///
    /// Compared with an explicit work list: nesting depth costs heap, never call stack. Members
    /// pair up in linear time whatever their order in either object.
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value, on the same document or another.
    /// - Returns: `true` when `lhs` and `rhs` are the same JSON.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var steps = 0
        return isEqual(lhs, rhs, steps: &steps)
    }

    /// `==`, counting in `steps` the member keys it looks at, so that tests can check the work is
    /// linear in the size of the values.
    static func isEqual(_ lhs: JSONValue, _ rhs: JSONValue, steps: inout Int) -> Bool {
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
                guard a.count == b.count, pairMembers(of: a, with: b, into: &pending, steps: &steps) else { return false }
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

    /// Objects above this many members are compared through an ``ObjectKeyIndex`` when their
    /// members are in different orders; below it, a scan per key costs less than the index.
    static let indexedComparisonThreshold = 16

    /// Pairs the values of two objects with as many distinct keys, member by member, into
    /// `pending`; false when a key of one has no member in the other.
    ///
    /// Members in the same order (the usual case) pair up in one walk. The rest are looked up by
    /// key, through an index for large objects, so that any order costs linear time. Every key of
    /// `a` must find a member of `b`; when one found it only under another spelling of the same
    /// text (see ``member(utf8Key:hint:)``), each key of `b` must also find one of `a`, which
    /// keeps `==` symmetric (`{"é","é"}` in two spellings is not `{"é","other"}`).
    private static func pairMembers(
        of a: JSONValue, with b: JSONValue, into pending: inout [(Int, Int)], steps: inout Int
    ) -> Bool {
        let left = a.tape
        let right = b.tape
        var x = a.index + 1
        var y = b.index + 1
        let endA = a.endIndex
        let endB = b.endIndex
        while true {
            while x < endA, left.isShadowed(x) { x = left.end(of: x + 1) }
            while y < endB, right.isShadowed(y) { y = right.end(of: y + 1) }
            guard x < endA, y < endB else { break }
            steps += 1
            let same = left.withText(at: x) { key in right.withText(at: y) { $0.elementsEqual(key) } }
            guard same else { break }
            pending.append((x + 1, y + 1))
            x = left.end(of: x + 1)
            y = right.end(of: y + 1)
        }
        // Distinct keys pairing up in order, as many on both sides: the same keys.
        if x >= endA { return true }
        var indexOfB: ObjectKeyIndex?
        var otherSpelling = false
        var hint: Int?
        while x < endA {
            if !left.isShadowed(x) {
                let found = left.withText(at: x) { lookUp($0, in: b, index: &indexOfB, hint: &hint, steps: &steps) }
                guard let found else { return false }
                if !found.sameBytes { otherSpelling = true }
                pending.append((x + 1, found.index + 1))
            }
            x = left.end(of: x + 1)
        }
        guard otherSpelling else { return true }
        var indexOfA: ObjectKeyIndex?
        hint = nil
        y = b.index + 1
        while y < endB {
            if !right.isShadowed(y) {
                let found = right.withText(at: y) { lookUp($0, in: a, index: &indexOfA, hint: &hint, steps: &steps) }
                guard let found else { return false }
                pending.append((found.index + 1, y + 1))
            }
            y = right.end(of: y + 1)
        }
        return true
    }

    /// The key entry of `object` that `key` finds, and whether it has `key`'s bytes: by a scan for
    /// small objects, through `index` (made at the first lookup) for large ones.
    private static func lookUp(
        _ key: UnsafeRawBufferPointer, in object: JSONValue, index: inout ObjectKeyIndex?, hint: inout Int?,
        steps: inout Int
    ) -> (index: Int, sameBytes: Bool)? {
        let count = object.count
        if count <= indexedComparisonThreshold {
            steps += count
            guard let value = object.memberIndex(utf8Key: key, hint: &hint) else { return nil }
            let sameBytes = object.tape.withText(at: value - 1) { $0.elementsEqual(key) }
            return (value - 1, sameBytes)
        }
        if index == nil {
            steps += count
            index = ObjectKeyIndex(tape: object.tape, object: object.index)
        }
        return index!.keyIndex(of: key, steps: &steps)
    }

    /// Whether two numbers have the same exact value.
    static func numbersEqual(_ x: JSONNumber, _ y: JSONNumber) -> Bool {
        switch (x, y) {
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Int(exactly: b) == a
        case (.uint(let a), .double(let b)), (.double(let b), .uint(let a)): UInt(exactly: b) == a
        case (.int(let a), .uint(let b)), (.uint(let b), .int(let a)): a >= 0 && UInt(a) == b
        case (.large(let a), .large(let b)): a == b
        default: false
        }
    }
}
