import ElevateSampleData
import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `countValues` (`elevate validate`) with workers: an array whose first element is longer than a
/// run may hold has its cutting put off while the stream's parser reads that element, so that
/// the long containers inside it are split (a GeoJSON collection of one huge feature), and resumed
/// after it; counts and first errors are one thread's.
@Suite struct LongFirstElementTests {
    /// A GeoJSON collection whose first feature's polygon has `rings` rings of `points` points,
    /// followed by `more` small features.
    static func collection(points: Int, rings: Int = 1, more: Int = 0) -> String {
        let ring = "[" + (0..<points).map { "[\($0).5, -\($0).25]" }.joined(separator: ", ") + "]"
        let big =
            #"{"type": "Feature", "properties": {"name": "big"}, "geometry": {"type": "Polygon", "coordinates": ["#
            + Array(repeating: ring, count: rings).joined(separator: ", ") + "]}}"
        let small = (0..<more).map { #"{"type": "Feature", "properties": {"n": \#($0)}, "geometry": null}"# }
        return #"{"type": "FeatureCollection", "features": ["# + ([big] + small).joined(separator: ", ") + "]}"
    }

    /// The coordinates inside the first feature are cut into runs, as are the features after it;
    /// before, a tail read the first feature on the calling thread, and the runs were those of the
    /// features after it only.
    @Test func theArraysInsideAHugeFirstElementAreCut() throws {
        // Runs of 64 bytes: a first element past 2,112 bytes is huge.
        let one = try SplitObjectTests.runs(Self.collection(points: 3000), chunkSize: 4096, runBytes: 64)
        #expect(one.arrayRuns > 100, "\(one.arrayRuns) runs")
        let more = try SplitObjectTests.runs(Self.collection(points: 3000, more: 300), chunkSize: 4096, runBytes: 64)
        #expect(
            more.arrayRuns > one.arrayRuns + 100, "\(more.arrayRuns) runs, \(one.arrayRuns) without the features after")
        // A huge first element with no container inside: the features after it are still cut.
        let text = #"{"features": [{"blob": ""# + String(repeating: "x", count: 5000) + #""}, "#
            + (0..<300).map { #"{"n": \#($0)}"# }.joined(separator: ", ") + "]}"
        #expect(try SplitObjectTests.runs(text, chunkSize: 4096, runBytes: 64).arrayRuns > 20)
    }

    /// Damage before, inside and after the arrays inside the huge first element, and after it.
    @Test(arguments: [1, 3])
    func countsAndErrorsAreOneThreads(rings: Int) {
        let text = Self.collection(points: 3000, rings: rings, more: 50)
        let deep = String(repeating: "[", count: 20) + Self.collection(points: 3000) + String(repeating: "]", count: 20)
        let cases: [(String, String)] = [
            ("valid", text),
            ("byte order mark", "\u{FEFF}" + text),
            ("before the coordinates", text.replacingOccurrences(of: #""name": "big""#, with: #""name" "big""#)),
            ("early in a ring", text.replacingOccurrences(of: "[10.5, -10.25]", with: "[10.5 -10.25]")),
            ("late in a ring", text.replacingOccurrences(of: "[2990.5, -2990.25]", with: "[2990.5, -2990.25,]")),
            ("a bracket for a brace", text.replacingOccurrences(of: "]]]}}, ", with: "]]]}], ")),
            ("a number after the feature", text.replacingOccurrences(of: "]]]}}, ", with: "]]]}} 7, ")),
            ("a literal after the feature", text.replacingOccurrences(of: "]]]}}, ", with: "]]]}} tru, ")),
            ("no comma after the feature", text.replacingOccurrences(of: "]]]}}, ", with: "]]]}} ")),
            ("in a later feature", text.replacingOccurrences(of: #"{"n": 40}"#, with: #"{"n": 40,}"#)),
            ("the last feature only", Self.collection(points: 3000, rings: rings)),
            ("cut short in the coordinates", String(text.prefix(text.count / 3))),
            ("cut short after the feature", String(text.prefix(text.count - 500))),
            ("too deep", String(repeating: "[", count: 600) + text + String(repeating: "]", count: 600)),
            ("under 20 arrays", deep),
        ]
        for (label, damaged) in cases {
            SplitObjectTests.expectOneThreads(Array(damaged.utf8), "\(label), \(rings) rings")
        }
    }

    /// Seeded collections, damaged at random (a byte flipped, deleted or inserted, the text cut
    /// short), counted with workers as with one thread.
    @Test func randomlyDamagedCollectionsCountAsOnOneThread() {
        var generator = SplitMix64(seed: randomTestSeed)
        for round in 0..<40 {
            let text = Self.collection(
                points: Int.random(in: 200...2000, using: &generator), rings: 1 + round % 3, more: round % 2 * 30)
            var bytes = Array(text.utf8)
            SplitObjectTests.damage(&bytes, round: round, using: &generator)
            SplitObjectTests.expectOneThreads(bytes, "round \(round), ELEVATE_TEST_SEED=\(randomTestSeed)")
        }
    }
}
