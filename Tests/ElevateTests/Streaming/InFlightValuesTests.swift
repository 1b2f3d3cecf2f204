import Testing

@testable import ElevateJSON

/// The calling thread's record of the values on the workers gives back each value's place and
/// failure text in the order the values were handed over, however they were grouped.
@Suite struct InFlightValuesTests {
    @Test func valuesComeBackInOrderWithTheirPlacesAndFailures() {
        var values = InFlightValues()
        var expected: [(Int?, String?)] = []
        func add(_ place: Int?, _ missing: String?, _ count: Int) {
            values.add(place: place, missing: missing, count: count)
            expected += Array(repeating: (place, missing), count: count)
        }
        // Runs merge with the runs and plain values next to them; a place or a failure does not.
        add(nil, nil, 3)
        add(nil, nil, 0)
        add(nil, nil, 2)
        add(7, nil, 1)
        add(nil, "missing", 1)
        add(nil, nil, 4)
        add(8, nil, 2)
        for (index, value) in expected.enumerated() {
            let next = values.next()
            #expect(next.place == value.0 && next.missing == value.1, "value \(index)")
        }
        // Past what was handed over (an invalid run delivers more than its count): nothing known.
        let past = values.next()
        #expect(past.place == nil && past.missing == nil)
    }

    @Test func aLongQueueKeepsItsOrderAcrossCompaction() {
        var values = InFlightValues()
        var taken = 0
        for line in 0..<5_000 {
            values.add(place: line, missing: line % 10 == 0 ? "m\(line)" : nil, count: 1)
            // The workers lag behind by a window of values.
            if line >= 100 {
                let next = values.next()
                #expect(next.place == taken && next.missing == (taken % 10 == 0 ? "m\(taken)" : nil))
                taken += 1
            }
        }
        while taken < 5_000 {
            #expect(values.next().place == taken)
            taken += 1
        }
    }
}
