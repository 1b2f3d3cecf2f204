import Elevate

/// Counts the values of a document as they stream past: every object, array, string, number,
/// Boolean and null, nested ones included. Keys are not values.
final class ValueCounter: JSONEventHandler {
    private(set) var count = 0

    func startObject() throws { count += 1 }
    func startArray() throws { count += 1 }
    func string(_ value: JSONText) throws { count += 1 }
    func number(_ value: JSONNumberText) throws { count += 1 }
    func bool(_ value: Bool) throws { count += 1 }
    func null() throws { count += 1 }
}
