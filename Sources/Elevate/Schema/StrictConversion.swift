import Foundation

/// Converts JSON values to the Swift type a schema property names, refusing every conversion
/// that would change the value: no wrapping, no truncation, no `1` for `true`.
///
/// Values built by this library are native Swift types and are recognised by their exact
/// dynamic type first, without any `as NSNumber` bridging (which converts whole containers to
/// Foundation objects on Linux). `NSNumber`s, from trees that `JSONSerialization` built, are
/// handled last.
enum StrictConversion {
    /// A number from any source, before range checks.
    enum Number {
        case int(Int)
        case uint(UInt)
        case double(Double)
        case large(JSONLargeNumber)

        /// A number on a document tape, in the same terms.
        init(_ number: JSONNumber) {
            switch number {
            case .int(let value): self = .int(value)
            case .uint(let value): self = .uint(value)
            case .double(let value): self = .double(value)
            case .large(let text): self = .large(JSONLargeNumber(text: text))
            }
        }
    }

    static func number(_ value: Any) -> Number? {
        let type = Swift.type(of: value)
        if type == Int.self { return .int(value as! Int) }
        if type == Double.self { return .double(value as! Double) }
        if type == UInt.self { return .uint(value as! UInt) }
        if type == JSONLargeNumber.self { return .large(value as! JSONLargeNumber) }
        if type == Bool.self || type == String.self { return nil }
        switch FoundationNumber(value) {
        case .bool: return nil
        case .decimal(let decimal): return .large(JSONLargeNumber(text: decimal.description))
        case .float(let float): return .double(FoundationNumber.double(float))
        case .double(let double): return .double(double)
        case .unsigned(let uint): return .uint(UInt(uint))
        case .signed(let int): return .int(Int(int))
        case nil: break
        }
        if let integer = value as? any BinaryInteger {
            if let exact = Int(exactly: integer) { return .int(exact) }
            if let exact = UInt(exactly: integer) { return .uint(exact) }
            return .large(JSONLargeNumber(text: "\(integer)"))
        }
        // A Float as the decimal it prints as, as everywhere else (see `FoundationNumber`).
        if let float = value as? Float { return .double(FoundationNumber.double(float)) }
        if let float = value as? any BinaryFloatingPoint {
            return .double(Double(float))
        }
        if let view = JSONValue.exactly(value), let number = view.number {
            // `Number(_:)`, not `number(_:)`: a `JSONNumber` boxed in `Any` is none of the types
            // above, so a view of a scalar number was refused (`Double(json: view)` of `1.5`).
            return Number(number)
        }
        return nil
    }


    static func int(_ value: Any) -> Int? { int(number: number(value)) }
    static func uint(_ value: Any) -> UInt? { uint(number: number(value)) }
    static func double(_ value: Any) -> Double? { double(number: number(value)) }
    static func float(_ value: Any) -> Float? {
        // A number on a tape: rounded once, from its text when the tape kept it.
        if let view = JSONValue.exactly(value), let rounded = view.tape.float(at: view.index) {
            return float(rounded: rounded, from: view.tape.number(at: view.index))
        }
        return float(number: number(value))
    }

    static func int(number: Number?) -> Int? {
        switch number {
        case .int(let value): return value
        case .uint(let value): return Int(exactly: value)
        case .double(let value): return exactInteger(value).flatMap { Int(exactly: $0) }
        case .large, nil: return nil
        }
    }

    static func uint(number: Number?) -> UInt? {
        switch number {
        case .int(let value): return UInt(exactly: value)
        case .uint(let value): return value
        case .double(let value): return exactInteger(value).flatMap { UInt(exactly: $0) }
        case .large, nil: return nil
        }
    }

    /// An integral `Double` that certainly spells the integer its text did: beyond 2^53 a
    /// `Double` is rounded (`9007199254740993.0` reads as `…992`), so the integer is not known.
    static func exactInteger(_ value: Double) -> Double? {
        JSONNumber.integral(value)
    }

    static func double(number: Number?) -> Double? {
        switch number {
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .double(let value): return value.isFinite ? value : nil
        case .large(let value): return value.doubleValue
        case nil: return nil
        }
    }

    /// `float`, rounded once from the number's text or exact value, unless it is out of `Float`'s
    /// range: infinite, or a false zero.
    static func float(rounded float: Float, from number: @autoclosure () -> JSONNumber?) -> Float? {
        guard float.isFinite else { return nil }
        // Zero: a real zero, or an underflow, which only the number itself tells apart.
        if float == 0, double(number: number().map(Number.init)) != 0 { return nil }
        return float
    }

    static func float(number: Number?) -> Float? {
        guard let double = double(number: number) else { return nil }
        let float = Float(double)
        // Out of Float's range: the value would become infinity or a false zero.
        guard float.isFinite, float != 0 || double == 0 else { return nil }
        return float
    }

    static func bool(_ value: Any) -> Bool? {
        if Swift.type(of: value) == Bool.self { return (value as! Bool) }
        if case .bool(let bool) = FoundationNumber(value) { return bool }
        if let view = JSONValue.exactly(value) { return view.bool }
        return nil
    }

    static func string(_ value: Any) -> String? {
        // One cast: a native string, or an NSString from a JSONSerialization tree.
        if let string = value as? String { return string }
        if let view = JSONValue.exactly(value) { return view.string }
        return nil
    }

    static func array(_ value: Any) -> [Any]? {
        if let array = value as? [Any] { return array }
        if let view = JSONValue.exactly(value), view.isArray {
            ViewHandOff.markRead(view)
            return view.foundationValue as? [Any]
        }
        return nil
    }

    static func dictionary(_ value: Any) -> [String: Any]? {
        if let dictionary = value as? [String: Any] { return dictionary }
        if let view = JSONValue.exactly(value), view.isObject {
            ViewHandOff.markRead(view)
            return view.foundationValue as? [String: Any]
        }
        return nil
    }

    /// A URL, only if the string is an RFC 3986 URI reference, so that the answer does not depend
    /// on the platform's `URL(string:)` (newer Apple releases percent-encode what Linux rejects).
    static func url(_ value: Any) -> URL? {
        guard let string = string(value) else { return nil }
        return url(string: string)
    }

    static func url(string: String) -> URL? {
        guard isURIReference(string) else { return nil }
        return URL(string: string)
    }

    private static func isURIReference(_ string: String) -> Bool {
        let bytes = Array(string.utf8)
        guard !bytes.isEmpty else { return false }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),  // unreserved
                UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"),  // gen-delims
                UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "@"),
                UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),  // sub-delims
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                break
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 2
            default:
                return false
            }
            index += 1
        }
        // A scheme, when present, must start with a letter and use only scheme characters.
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[..<colon].allSatisfy({ $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
            )
        {
            let scheme = bytes[..<colon]
            guard let first = scheme.first, isLetter(first),
                scheme.allSatisfy({ isLetter($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
            else { return false }
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
}
