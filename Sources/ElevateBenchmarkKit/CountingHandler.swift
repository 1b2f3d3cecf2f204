import Elevate

/// Counts events and does nothing else: what the event layer costs on its own.
public final class CountingHandler: JSONEventHandler {
    /// The number of events received.
    public var events: Int { count }

    // Unchecked: a public stored property of a class gets a dynamic exclusivity check on every
    // `+= 1` (swift_beginAccess and a thread-local lookup), which cost more than the event
    // layer's own work per event. Nothing else can reach this private counter during an event.
    @exclusivity(unchecked) private var count = 0

    /// Creates a handler with a count of zero.
    public init() {}

    /// Counts the event.
    public func startObject() { count += 1 }
    /// Counts the event.
    public func key(_ key: JSONText) { count += 1 }
    /// Counts the event.
    public func endObject() { count += 1 }
    /// Counts the event.
    public func startArray() { count += 1 }
    /// Counts the event.
    public func endArray() { count += 1 }
    /// Counts the event.
    public func string(_ value: JSONText) { count += 1 }
    /// Counts the event.
    public func number(_ value: JSONNumberText) { count += 1 }
    /// Counts the event.
    public func bool(_ value: Bool) { count += 1 }
    /// Counts the event.
    public func null() { count += 1 }
}
