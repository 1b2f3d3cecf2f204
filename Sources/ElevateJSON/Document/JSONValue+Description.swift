/// JSON text from a view.
extension JSONValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as compact JSON text: no whitespace, strings escaped (`"`, `\`, control characters),
    /// non-ASCII characters as UTF-8, shadowed duplicate keys left out, numbers exactly as parsed
    /// (a `Double` in Swift's shortest round-trip form, like `1.0` or `1e-05`).
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        write(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// ``description`` with a `JSONValue` prefix.
    public var debugDescription: String { "JSONValue(" + description + ")" }

    /// Appends the compact JSON text. One loop over the tape with an explicit stack of open
    /// containers: nesting depth costs heap, never call stack.
    func write(to text: inout [UInt8]) {
        var open: [(end: Int, isObject: Bool)] = []
        var position = index
        let end = endIndex
        var needsComma = false
        while true {
            while let top = open.last, position >= top.end {
                text.append(top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                open.removeLast()
                needsComma = true
            }
            if position >= end { return }
            if let top = open.last, top.isObject {
                if tape.isShadowed(position) {
                    position = tape.end(of: position + 1)
                    continue
                }
                if needsComma { text.append(UInt8(ascii: ",")) }
                tape.withText(at: position) { Self.writeString($0, to: &text) }
                text.append(UInt8(ascii: ":"))
                position += 1
            } else if needsComma {
                text.append(UInt8(ascii: ","))
            }
            switch tape.kind(at: position) {
            case .object, .array:
                let isObject = tape.kind(at: position) == .object
                text.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
                open.append((tape.end(of: position), isObject))
                position += 1
                needsComma = false
                continue
            case .string, .inlineString:
                tape.withText(at: position) { Self.writeString($0, to: &text) }
            case .null: text.append(contentsOf: "null".utf8)
            case .true: text.append(contentsOf: "true".utf8)
            case .false: text.append(contentsOf: "false".utf8)
            case .large:
                tape.withText(at: position) { text.append(contentsOf: $0) }
            default:
                switch tape.number(at: position) {
                case .int(let value): text.append(contentsOf: String(value).utf8)
                case .uint(let value): text.append(contentsOf: String(value).utf8)
                case .double(let value): text.append(contentsOf: value.description.utf8)
                case .large(let value): text.append(contentsOf: value.utf8)
                case nil: break
                }
            }
            position = tape.end(of: position)
            needsComma = true
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes `bytes` as a JSON string literal.
    static func writeString(_ bytes: UnsafeRawBufferPointer, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        var runStart = 0
        for (offset, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<offset]))
            runStart = offset + 1
            text.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: text.append(UInt8(ascii: "\""))
            case 0x5C: text.append(UInt8(ascii: "\\"))
            case 0x0A: text.append(UInt8(ascii: "n"))
            case 0x0D: text.append(UInt8(ascii: "r"))
            case 0x09: text.append(UInt8(ascii: "t"))
            case 0x08: text.append(UInt8(ascii: "b"))
            case 0x0C: text.append(UInt8(ascii: "f"))
            default:
                text.append(contentsOf: "u00".utf8)
                text.append(hexDigits[Int(byte >> 4)])
                text.append(hexDigits[Int(byte & 0xF)])
            }
        }
        text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
        text.append(UInt8(ascii: "\""))
    }
}
