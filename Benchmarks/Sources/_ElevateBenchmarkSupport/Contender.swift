import CYAJLBaseline
import Elevate
import Foundation

/// One way of parsing a whole document, timed against the others.
public enum Contender: String, CaseIterable, Sendable {
    /// YAJL with callbacks that only return 1: the floor.
    case cYAJL = "c-yajl"
    /// ``JSONEventParser`` with a handler that counts events.
    case elevateEvents = "elevate-events"
    /// `JSONValueBuilder.value(from:)`: Foundation-compatible values.
    case elevateValues = "elevate-values"
    /// `JSONSerialization.jsonObject(with:)`.
    case foundation = "jsonserialization"

    /// The name shown in reports.
    public var displayName: String {
        switch self {
        case .cYAJL: "C yajl (null callbacks)"
        case .elevateEvents: "Elevate events (counting handler)"
        case .elevateValues: "Elevate values"
        case .foundation: "JSONSerialization.jsonObject"
        }
    }

    /// Parses `data` completely.
    /// - Returns: Something derived from the result, to keep the work from being optimized away.
    /// - Throws: The parser's error; a contender never fails on the benchmark documents.
    @inline(never)
    public func parse(_ data: Data) throws -> Int {
        switch self {
        case .cYAJL:
            let ok = data.withUnsafeBytes { bytes in
                cyajl_baseline_parse(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
            }
            guard ok == 1 else { throw ContenderFailure(contender: self) }
            return Int(ok)
        case .elevateEvents:
            let handler = CountingHandler()
            let parser = JSONEventParser(handler: handler)
            try parser.parse(data)
            try parser.finish()
            return handler.events
        case .elevateValues:
            let value = try JSONValueBuilder.value(from: data)
            return (value as? [String: Any])?.count ?? 1
        case .foundation:
            let value = try JSONSerialization.jsonObject(with: data)
            return (value as? [String: Any])?.count ?? 1
        }
    }
}

/// A contender rejected a document it should accept.
public struct ContenderFailure: Error, Sendable, CustomStringConvertible {
    /// The contender that failed.
    public var contender: Contender
    public var description: String { "\(contender.displayName) rejected the document" }
}
