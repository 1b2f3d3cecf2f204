import Elevate

/// Counts events and does nothing else: what the event layer costs on its own.
public final class CountingHandler: JSONEventHandler {
    /// The number of events received.
    public private(set) var events = 0

    /// Creates a handler with a count of zero.
    public init() {}

    /// Counts the event.
    public func startObject() { events += 1 }
    /// Counts the event.
    public func key(_ key: JSONText) { events += 1 }
    /// Counts the event.
    public func endObject() { events += 1 }
    /// Counts the event.
    public func startArray() { events += 1 }
    /// Counts the event.
    public func endArray() { events += 1 }
    /// Counts the event.
    public func string(_ value: JSONText) { events += 1 }
    /// Counts the event.
    public func number(_ value: JSONNumberText) { events += 1 }
    /// Counts the event.
    public func bool(_ value: Bool) { events += 1 }
    /// Counts the event.
    public func null() { events += 1 }
}
