import ElevateSampleData
import Testing

@testable import ElevateJSON

/// `RecentBytes`, the last sixteen bytes before a chunk (for excerpts), against an array that keeps
/// every byte: appends of every length, whole and byte by byte.
@Suite struct RecentBytesTests {
    @Test func theLastSixteenBytesAreKeptInOrder() {
        var generator = SplitMix64(seed: randomTestSeed)
        for _ in 0..<300 {
            var kept = RecentBytes()
            var all: [UInt8] = []
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let length = [0, 1, 2, 7, 8, 9, 15, 16, 17, 40].randomElement(using: &generator)!
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if Bool.random(using: &generator) {
                    bytes.withUnsafeBytes { kept.append($0) }
                } else {
                    kept.append(contentsOf: bytes)
                }
                all += bytes
                let expected = Array(all.suffix(16))
                #expect(kept.count == expected.count, "ELEVATE_TEST_SEED=\(randomTestSeed)")
                #expect((0..<kept.count).map { kept[$0] } == expected, "ELEVATE_TEST_SEED=\(randomTestSeed)")
            }
        }
    }
}
