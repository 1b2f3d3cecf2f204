/// Counts values as a ``ValueCounter`` does, and those at one depth: 1, the elements of a run's
/// array, or 0, the top-level values of concatenated JSON; and, when asked, keeps the keys at
/// that depth (the members of a run of the object whose keys `count` counts).
final class DepthCounter: JSONEventHandler {
    private let counter = ValueCounter()
    var values: Int { counter.count }
    @exclusivity(unchecked) private(set) var elements = 0
    @exclusivity(unchecked) private var depth = 0
    private let countedDepth: Int
    /// The keys at the counted depth, when kept.
    @exclusivity(unchecked) private(set) var keys: KeyBytesSet?
    /// Keys at the counted depth still to pass over before keeping them: a run's placeholder
    /// member (see `SplitRun`).
    @exclusivity(unchecked) private var keysToPassOver: Int

    /// - Parameters:
    ///   - countedDepth: The depth whose values are counted as elements.
    ///   - keepsKeys: Whether the keys at that depth are kept (in ``keys``).
    ///   - passingOver: How many of those keys are not kept, from the first.
    init(countedDepth: Int = 1, keepsKeys: Bool = false, passingOver: Int = 0) {
        self.countedDepth = countedDepth
        keys = keepsKeys ? KeyBytesSet() : nil
        keysToPassOver = passingOver
    }

    func key(_ key: JSONText) {
        guard depth == countedDepth, keys != nil else { return }
        guard keysToPassOver == 0 else { return keysToPassOver -= 1 }
        _ = keys!.insert(key.bytes)
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
