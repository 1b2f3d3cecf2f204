import Elevate

/// One event as a value, with the parser's ``JSONEventParser/currentByteOffset`` when it arrived.
public enum RecordedEvent: Hashable, CustomStringConvertible {
    case startObject(at: Int)
    case key([UInt8], at: Int)
    case endObject(at: Int)
    case startArray(at: Int)
    case endArray(at: Int)
    case string([UInt8], at: Int)
    case number(String, JSONNumber, at: Int)
    case bool(Bool, at: Int)
    case null(at: Int)

    public var description: String {
        switch self {
        case .startObject(let at): "{@\(at)"
        case .key(let bytes, let at): "key(\(String(decoding: bytes, as: UTF8.self).debugDescription))@\(at)"
        case .endObject(let at): "}@\(at)"
        case .startArray(let at): "[@\(at)"
        case .endArray(let at): "]@\(at)"
        case .string(let bytes, let at): "string(\(String(decoding: bytes, as: UTF8.self).debugDescription))@\(at)"
        case .number(let text, let value, let at): "number(\(text) = \(value))@\(at)"
        case .bool(let value, let at): "\(value)@\(at)"
        case .null(let at): "null@\(at)"
        }
    }
}

/// Records every event, copying the borrowed texts; throws ``JSONEventParser/Stop`` after
/// `stopAfter` events when given.
public final class EventRecorder: JSONEventHandler {
    public private(set) var events: [RecordedEvent] = []
    /// Set after creating the parser, which needs the handler first.
    public weak var parser: JSONEventParser?
    private let stopAfter: Int?

    public init(stopAfter: Int? = nil) {
        self.stopAfter = stopAfter
    }

    private var offset: Int { parser?.currentByteOffset ?? -1 }

    private func record(_ event: RecordedEvent) throws {
        events.append(event)
        if let stopAfter, events.count >= stopAfter { throw JSONEventParser.Stop() }
    }

    public func startObject() throws { try record(.startObject(at: offset)) }
    public func key(_ key: JSONText) throws { try record(.key(key.withUnsafeBytes { Array($0) }, at: offset)) }
    public func endObject() throws { try record(.endObject(at: offset)) }
    public func startArray() throws { try record(.startArray(at: offset)) }
    public func endArray() throws { try record(.endArray(at: offset)) }
    public func string(_ value: JSONText) throws {
        try record(.string(value.withUnsafeBytes { Array($0) }, at: offset))
    }
    public func number(_ value: JSONNumberText) throws { try record(.number(value.text, value.value, at: offset)) }
    public func bool(_ value: Bool) throws { try record(.bool(value, at: offset)) }
    public func null() throws { try record(.null(at: offset)) }
}
