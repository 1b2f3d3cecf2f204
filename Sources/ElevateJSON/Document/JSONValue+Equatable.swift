/// Structural equality.
extension JSONValue: Equatable {
    /// Whether two values are the same JSON: objects with the same distinct keys and equal values
    /// (member order does not matter), arrays with equal elements in order, equal strings (by UTF-8
    /// bytes), and numbers of the same exact value (`3` equals `3.0`; `9007199254740993` does not
    /// equal `9007199254740992.0`). Numbers beyond every 64-bit type compare by the decimal value
    /// their text spells, however written (`1e400` equals `1E400`; `100000000000000000000` equals
    /// `1e20`), with no limit on the exponent (`1e999999999999` is compared by its digits).
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

    /// Whether two numbers have the same exact value: an integer its own, a `Double` the binary
    /// value it holds (`0.1` is the `Double` nearest 0.1), and a number kept as text the decimal
    /// value it spells, however written (`1e400`, `1E400` and `10e399` are one number, as are
    /// `100000000000000000000` and the `Double` `1e20`). Text that is no JSON number equals only
    /// the same text.
    static func numbersEqual(_ x: JSONNumber, _ y: JSONNumber) -> Bool {
        switch (x, y) {
        case (.int(let a), .int(let b)): return a == b
        case (.uint(let a), .uint(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Int(exactly: b) == a
        case (.uint(let a), .double(let b)), (.double(let b), .uint(let a)): return UInt(exactly: b) == a
        case (.int(let a), .uint(let b)), (.uint(let b), .int(let a)): return a >= 0 && UInt(a) == b
        case (.large(let a), .large(let b)):
            // The same text is the same value; other spellings are compared in canonical form.
            if a == b { return true }
            guard let a = ExactDecimalValue(text: a), let b = ExactDecimalValue(text: b) else { return false }
            return a == b
        case (.large(let text), let other), (let other, .large(let text)):
            // Text that spells a value an Int, UInt or Double holds compares as that value.
            guard let small = ExactDecimalValue(text: text)?.smallEquivalent else { return false }
            return numbersEqual(small, other)
        }
    }

    /// Hashes a number consistently with ``numbersEqual(_:_:)``: each value by one of its forms
    /// (an `Int` when one holds it, else a `UInt`, else a `Double`, else the canonical decimal),
    /// so that equal numbers hash alike whichever case holds them. Numbers that fit a 64-bit type
    /// take the first cases and never reach the canonical form.
    static func hashNumber(_ number: JSONNumber, into hasher: inout Hasher) {
        switch number {
        case .int(let int): hasher.combine(int)
        // An unsigned number that `Int` holds equals that `Int`: hashed as one.
        case .uint(let uint):
            if let int = Int(exactly: uint) { hasher.combine(int) } else { hasher.combine(uint) }
        case .double(let double):
            if let int = Int(exactly: double) { hasher.combine(int) }
            else if let uint = UInt(exactly: double) { hasher.combine(uint) }
            else { hasher.combine(double) }
        case .large(let text):
            guard let exact = ExactDecimalValue(text: text) else {
                hasher.combine(text)
                return
            }
            if let small = exact.smallEquivalent {
                hashNumber(small, into: &hasher)
            } else {
                hasher.combine(exact)
            }
        }
    }
}
