import Elevate

/// Counts events and does nothing else: what the event layer costs on its own.
public final class CountingHandler: JSONEventHandler {
    /// The number of events received.
    public var events: Int { containers + keys + strings + numbers + literals }

    // Unchecked: a public stored property of a class gets a dynamic exclusivity check on every
    // `+= 1` (swift_beginAccess and a thread-local lookup), which cost more than the event
    // layer's own work per event. Nothing else can reach these private counters during an event.
    //
    // One counter per kind of event, so that no two methods have the same body: the optimizer
    // merges identical functions, and each event then went through two more thunks (twelve
    // instructions) to reach the one merged `count += 1` — a cost of this benchmark's handler,
    // not of the event layer or of a handler that does anything.
    @exclusivity(unchecked) private var containers = 0
    @exclusivity(unchecked) private var keys = 0
    @exclusivity(unchecked) private var strings = 0
    @exclusivity(unchecked) private var numbers = 0
    @exclusivity(unchecked) private var literals = 0

    /// Creates a handler with a count of zero.
    public init() {}

    /// Counts the event.
    public func startObject() { containers &+= 1 }
    /// Counts the event.
    /// - Parameter key: Unused: only the event is counted.
    public func key(_ key: JSONText) { keys &+= 1 }
    /// Counts the event.
    public func endObject() { containers &+= 1 }
    /// Counts the event.
    public func startArray() { containers &+= 1 }
    /// Counts the event.
    public func endArray() { containers &+= 1 }
    /// Counts the event.
    /// - Parameter value: Unused: only the event is counted.
    public func string(_ value: JSONText) { strings &+= 1 }
    /// Counts the event.
    /// - Parameter value: Unused: only the event is counted.
    public func number(_ value: JSONNumberText) { numbers &+= 1 }
    /// Counts the event.
    /// - Parameter value: Unused: only the event is counted.
    public func bool(_ value: Bool) { literals &+= 1 }
    /// Counts the event.
    public func null() { literals &+= 1 }
}
