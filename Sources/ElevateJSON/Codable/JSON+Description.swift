/// JSON text from a value.
extension JSON: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as compact JSON text, object keys sorted so that equal values print alike:
    /// strings escaped (`"`, `\`, control characters), non-ASCII characters as UTF-8, numbers as
    /// held (a `Double` in Swift's shortest round-trip form, a number kept as text exactly).
    ///
    /// Written by one loop with an explicit stack of open containers, so that printing a deeply
    /// nested value costs heap, not call stack (Swift's default description of an enum recurses
    /// once per level, and ran a 512 KiB thread out of stack near 330 levels).
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        write(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// ``description`` with a `JSON` prefix.
    public var debugDescription: String { "JSON(" + description + ")" }

    /// An open container while a value is walked without recursion (written as text, or put on a
    /// tape): the elements, or the members in key order, and the next one to visit.
    enum OpenContainer {
        case array([JSON], next: Int)
        case object([(key: String, value: JSON)], next: Int)
    }

    /// Appends the compact JSON text of the value.
    private func write(to text: inout [UInt8]) {
        var open: [OpenContainer] = []
        var pending: JSON? = self
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: text.append(contentsOf: "null".utf8)
                case .bool(let flag): text.append(contentsOf: (flag ? "true" : "false").utf8)
                case .string(let string): Self.writeString(string, to: &text)
                case .number(let number): Self.writeNumber(number, to: &text)
                case .array(let elements):
                    text.append(UInt8(ascii: "["))
                    open.append(.array(elements, next: 0))
                case .object(let members):
                    text.append(UInt8(ascii: "{"))
                    open.append(.object(members.sorted { $0.key < $1.key }, next: 0))
                }
            }
            guard let top = open.popLast() else { return }
            switch top {
            case .array(let elements, let next):
                guard next < elements.count else {
                    text.append(UInt8(ascii: "]"))
                    continue
                }
                if next > 0 { text.append(UInt8(ascii: ",")) }
                open.append(.array(elements, next: next + 1))
                pending = elements[next]
            case .object(let members, let next):
                guard next < members.count else {
                    text.append(UInt8(ascii: "}"))
                    continue
                }
                if next > 0 { text.append(UInt8(ascii: ",")) }
                Self.writeString(members[next].key, to: &text)
                text.append(UInt8(ascii: ":"))
                open.append(.object(members, next: next + 1))
                pending = members[next].value
            }
        }
    }

    private static func writeString(_ string: String, to text: inout [UInt8]) {
        var string = string
        string.withUTF8 { JSONValue.writeString(UnsafeRawBufferPointer($0), to: &text) }
    }

    private static func writeNumber(_ number: JSONNumber, to text: inout [UInt8]) {
        switch number {
        case .int(let value): text.append(contentsOf: String(value).utf8)
        case .uint(let value): text.append(contentsOf: String(value).utf8)
        case .double(let value): text.append(contentsOf: value.description.utf8)
        case .large(let value): text.append(contentsOf: value.utf8)
        }
    }
}
