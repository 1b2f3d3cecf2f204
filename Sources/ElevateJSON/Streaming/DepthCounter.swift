/// Counts values as a ``ValueCounter`` does, and those at one depth: 1, the elements of a run's
/// array, or 0, the top-level values of concatenated JSON.
final class DepthCounter: JSONEventHandler {
    private let counter = ValueCounter()
    var values: Int { counter.count }
    @exclusivity(unchecked) private(set) var elements = 0
    @exclusivity(unchecked) private var depth = 0
    private let countedDepth: Int

    init(countedDepth: Int = 1) {
        self.countedDepth = countedDepth
    }

    @inline(__always) private func element() {
        if depth == countedDepth { elements &+= 1 }
    }
    func startObject() {
        element()
        counter.startObject()
        depth &+= 1
    }
    func startArray() {
        element()
        counter.startArray()
        depth &+= 1
    }
    func endObject() { depth &-= 1 }
    func endArray() { depth &-= 1 }
    func string(_ value: JSONText) {
        element()
        counter.string(value)
    }
    func number(_ value: JSONNumberText) {
        element()
        counter.number(value)
    }
    func bool(_ value: Bool) {
        element()
        counter.bool(value)
    }
    func null() {
        element()
        counter.null()
    }
}
