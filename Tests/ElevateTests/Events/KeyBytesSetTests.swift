import Testing

@testable import Elevate
@testable import ElevateJSON

/// The compact key set behind counting an object's members agrees with a `Set<[UInt8]>`.
@Suite struct KeyBytesSetTests {
    @Test func agreesWithASetOfArrays() {
        // Seeded, so that a failure names keys that fail again.
        var generator = SeededGenerator(state: 11)
        var compact = KeyBytesSet()
        for round in 0..<3 {
            var oracle = Set<[UInt8]>()
            // Short keys from a small alphabet repeat often; the empty key is among them.
            for _ in 0..<5_000 {
                let length = Int.random(in: 0...(round == 2 ? 40 : 3), using: &generator)
                let key = (0..<length).map { _ in UInt8.random(in: 0x61...0x63, using: &generator) }
                let inserted = key.withUnsafeBytes { compact.insert($0) }
                #expect(inserted == oracle.insert(key).inserted, "\(key)")
            }
            #expect(compact.count == oracle.count)
            compact.removeAll()
            #expect(compact.count == 0)
        }
    }
}
