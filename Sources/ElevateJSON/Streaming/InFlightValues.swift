/// What the calling thread knows of the values it handed to the workers, in the order it handed
/// them over (their outcomes come back in that order): each value's place (its line in JSON
/// Lines), and the failure text of one that had nothing to decode (the workers get a placeholder
/// for it). Runs of values that share both, a run of the split parse above all, are one entry.
struct InFlightValues {
    /// What one value, or each of `count` values in a row, is known by.
    private struct Entry {
        var place: Int?
        var missing: String?
        var count: Int
    }

    /// The entries before `start` are delivered; those from `start` on have a count above 0.
    private var entries: [Entry] = []
    private var start = 0

    /// Records `count` values handed over, all with `place` and `missing`: added to the last entry
    /// when both are nil there too.
    mutating func add(place: Int?, missing: String?, count: Int) {
        guard count > 0 else { return }
        if place == nil, missing == nil, entries.count > start, entries[entries.count - 1].place == nil,
            entries[entries.count - 1].missing == nil
        {
            entries[entries.count - 1].count += count
        } else {
            entries.append(Entry(place: place, missing: missing, count: count))
        }
    }

    /// The place and failure text of the next value whose outcome came back. A run of the split
    /// parse whose input is invalid can hold more values than the scanner counted before its
    /// parse fails: those are delivered too (one thread delivers them), with nothing known of them.
    mutating func next() -> (place: Int?, missing: String?) {
        guard start < entries.count else { return (nil, nil) }
        let value = (entries[start].place, entries[start].missing)
        entries[start].count -= 1
        if entries[start].count == 0 { start += 1 }
        // Delivered entries go in bulk, so that the queue stays as short as the workers' window.
        if start >= 1024, start * 2 >= entries.count {
            entries.removeFirst(start)
            start = 0
        }
        return value
    }
}
