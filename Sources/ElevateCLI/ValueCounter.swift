import Elevate

/// Counts the values of a document as they stream past: every object, array, string, number,
/// Boolean and null, nested ones included. Keys are not values.
final class ValueCounter: JSONEventHandler {
    var count: Int { storedCount }

    // Unchecked: nothing else reaches this private counter while an event is delivered, and the
    // dynamic exclusivity check would cost as much as the rest of the handler call.
    @exclusivity(unchecked) private var storedCount = 0

    func startObject() throws { storedCount += 1 }
    func startArray() throws { storedCount += 1 }
    func string(_ value: JSONText) throws { storedCount += 1 }
    func number(_ value: JSONNumberText) throws { storedCount += 1 }
    func bool(_ value: Bool) throws { storedCount += 1 }
    func null() throws { storedCount += 1 }
}
