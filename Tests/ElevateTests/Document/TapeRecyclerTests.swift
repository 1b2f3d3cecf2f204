import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// What parallel decoding hands back for reuse.
@Suite struct TapeRecyclerTests {
    @Test func keepsOnlyUnsharedTapesOfModestSizeUpToItsCapacity() {
        let recycler = TapeRecycler(capacity: 3)
        let shared = JSONTape(wordCapacity: 16, byteCapacity: 64)
        var handed = [shared, JSONTape(wordCapacity: 16, byteCapacity: TapeRecycler.largestKeptBytes)]
        handed += (0..<4).map { _ in JSONTape(wordCapacity: 16, byteCapacity: 64) }
        recycler.giveBack(&handed)
        #expect(handed.isEmpty)
        var taken: [JSONTape] = []
        recycler.takeAll(into: &taken)
        // The shared one is still read elsewhere and the huge one is freed; of the four others,
        // the capacity's three are kept.
        #expect(taken.count == 3)
        #expect(!taken.contains { $0 === shared || $0.byteCapacity > 64 })
        var again: [JSONTape] = []
        recycler.takeAll(into: &again)
        #expect(again.isEmpty)
        withExtendedLifetime(shared) {}
    }
}
