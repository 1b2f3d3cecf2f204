/// Counts the values of a document as they stream past: every object, array, string, number,
/// Boolean and null, nested ones included. Keys are not values. What `elevate validate` counts.
package final class ValueCounter: JSONEventHandler {
    package init() {}

    package var count: Int { objects + arrays + strings + numbers + booleans + nulls }

    // Unchecked: nothing else reaches these private counters while an event is delivered, and the
    // dynamic exclusivity check would cost as much as the rest of the handler call.
    //
    // One counter per kind of value, so that no two methods have the same body: the optimizer
    // merges identical functions, and every event then reached the one merged `+= 1` through two
    // more thunks.
    @exclusivity(unchecked) private var objects = 0
    @exclusivity(unchecked) private var arrays = 0
    @exclusivity(unchecked) private var strings = 0
    @exclusivity(unchecked) private var numbers = 0
    @exclusivity(unchecked) private var booleans = 0
    @exclusivity(unchecked) private var nulls = 0

    package func startObject() { objects &+= 1 }
    package func startArray() { arrays &+= 1 }
    package func string(_ value: JSONText) { strings &+= 1 }
    package func number(_ value: JSONNumberText) { numbers &+= 1 }
    package func bool(_ value: Bool) { booleans &+= 1 }
    package func null() { nulls &+= 1 }
}
