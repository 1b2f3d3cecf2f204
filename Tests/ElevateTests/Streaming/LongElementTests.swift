import ElevateSampleData
import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `countValues` (`elevate validate`) with workers: an array whose element (or a map whose member)
/// is longer than a run may hold has its cutting put off while the stream's parser reads that
/// element, so that the long containers inside it are split (a GeoJSON collection of huge
/// features), and resumed after it; counts and first errors are one thread's.
@Suite struct LongElementTests {
    /// A GeoJSON collection of `before` small features, then `huge` features whose polygon has
    /// `rings` rings of `points` points, then `more` small features; with `lines`, a newline
    /// before each feature.
    static func collection(
        points: Int, rings: Int = 1, more: Int = 0, before: Int = 0, huge: Int = 1, lines: Bool = false
    ) -> String {
        let ring = "[" + (0..<points).map { "[\($0).5, -\($0).25]" }.joined(separator: ", ") + "]"
        let big =
            #"{"type": "Feature", "properties": {"name": "big"}, "geometry": {"type": "Polygon", "coordinates": ["#
            + Array(repeating: ring, count: rings).joined(separator: ", ") + "]}}"
        let small = { (n: Int) in #"{"type": "Feature", "properties": {"n": \#(n)}, "geometry": null}"# }
        let features = (0..<before).map { small(1000 + $0) } + Array(repeating: big, count: huge) + (0..<more).map(small)
        return #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: lines ? ",\n " : ", ")
            + "]}"
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

    /// The same for a huge element after others: the elements before it go to the workers, the
    /// stream's parser is brought to the comma before it and reads it, and the cutting resumes
    /// after it; before, a tail read it on the calling thread, and with it its coordinates.
    @Test func theArraysInsideALaterHugeElementAreCut() throws {
        let after = try SplitObjectTests.runs(Self.collection(points: 3000, before: 40), chunkSize: 4096, runBytes: 64)
        #expect(after.arrayRuns > 100, "\(after.arrayRuns) runs")
        // Three in a row: the second and third come after one the stream's parser read.
        let three = try SplitObjectTests.runs(
            Self.collection(points: 3000, more: 5, before: 3, huge: 3, lines: true), chunkSize: 4096, runBytes: 64)
        #expect(three.arrayRuns > 300, "\(three.arrayRuns) runs")
        // One short element before it, one byte long: its comma is the second byte of the content.
        let nested = "[1," + String(repeating: "[1, 2], ", count: 2000) + "[3]]"
        let text = #"{"a": [1,["# + nested + "], 2]}"
        let runs = try SplitObjectTests.runs(text, chunkSize: 4096, runBytes: 64)
        #expect(runs.arrayRuns > 100, "\(runs.arrayRuns) runs")
        let oneThreads = SplitObjectTests.counted(Array(text.utf8), workers: 1, runBytes: 1 << 20, chunkSize: 1 << 16)
        #expect("\(runs.values) values" == oneThreads)
    }

    /// An array whose first element is itself long (the collection of a huge first feature, its
    /// polygon of one huge ring, `[[…]]`, a multipolygon's `[[[…]]]`) has its cutting put off at
    /// once, the stream's parser reading that element: before, a run of 32 runs' length was cut
    /// that held the element alone, and read again to find the containers inside it, once for
    /// each level of such nesting (four polygons of one 9 MB ring were no faster to validate with
    /// two jobs than with one). A huge element after others is still found by its run, read again
    /// once: the levels inside it are not.
    @Test func aLongFirstElementIsReachedWithoutReadingItAgain() throws {
        // One chunk: no element starts near a chunk's end, where too little of it is seen.
        let whole = 1 << 20
        for rings in [1, 3] {
            let first = try SplitObjectTests.runs(
                Self.collection(points: 3000, rings: rings, more: 50), chunkSize: whole, runBytes: 64)
            // The rings after the first are elements after others, each found by its run.
            #expect(
                first.readAgain <= (rings - 1) * (33 * 64 + 1), "\(rings) rings: \(first.readAgain) bytes read again")
            #expect(first.arrayRuns > 100 * rings, "\(rings) rings: \(first.arrayRuns) runs")
        }
        let ring = "[" + (0..<3000).map { "[\($0).5, -\($0).25]" }.joined(separator: ", ") + "]"
        // Its first polygon of a huge ring and a short one, then a polygon of a huge ring.
        let multipolygon =
            #"{"type": "MultiPolygon", "coordinates": [["# + ring + ", [[1, 2], [3, 4]]], [" + ring + "]]}"
        let nested = try SplitObjectTests.runs("[[[" + ring + "]]]", chunkSize: whole, runBytes: 64)
        #expect(nested.readAgain == 0, "\(nested.readAgain) bytes read again")
        #expect(nested.arrayRuns > 100, "\(nested.arrayRuns) runs")
        let multi = try SplitObjectTests.runs(multipolygon, chunkSize: whole, runBytes: 64)
        #expect(multi.readAgain <= 33 * 64 + 1, "\(multi.readAgain) bytes read again")
        #expect(multi.arrayRuns > 200, "\(multi.arrayRuns) runs")
        let later = try SplitObjectTests.runs(
            Self.collection(points: 3000, more: 5, before: 40, huge: 3), chunkSize: whole, runBytes: 64)
        // Each huge feature's run: at most 32 runs' length and a byte.
        #expect(later.readAgain > 0 && later.readAgain <= 3 * (33 * 64 + 1), "\(later.readAgain) bytes read again")
        #expect(later.arrayRuns > 300, "\(later.arrayRuns) runs")
        for text in [Self.collection(points: 3000, rings: 3, more: 50), multipolygon, "[[[" + ring + "]]]"] {
            SplitObjectTests.expectOneThreads(Array(text.utf8), "a long first element")
            for cut in [text.count / 3, text.count - 3] {
                SplitObjectTests.expectOneThreads(Array(text.prefix(cut).utf8), "a long first element, cut short")
            }
            let damaged = text.replacingOccurrences(of: "[1500.5, -1500.25]", with: "[1500.5, -1500.25,]")
            SplitObjectTests.expectOneThreads(Array(damaged.utf8), "a long first element, damaged")
        }
    }

    /// A map (an object of many short members) whose member is huge: the members before it go to
    /// the workers, the stream's parser is brought to the comma before it (with a stand-in member
    /// when it has read none) and reads it, and the arrays inside it are cut; before, a tail read
    /// the member on the calling thread, and with it its coordinates.
    static func mapWithHugeMember(before: Int = 300, after: Int = 300, rings: Int = 1, key: String = "big")
        -> String
    {
        let value = collection(points: 3000, rings: rings)
        let members =
            (0..<before).map { #""k\#($0)": {"n": \#($0)}"# } + [#""\#(key)": "# + value]
            + (0..<after).map { #""m\#($0)": {"n": \#($0)}"# }
        return #"{"meta": {"v": 1}, "users": {"# + members.joined(separator: ", ") + "}}"
    }

    @Test func theArraysInsideAHugeMemberOfAMapAreCut() throws {
        let texts = [Self.mapWithHugeMember(), Self.mapWithHugeMember(after: 0), Self.mapWithHugeMember(key: #"b\"ig"#)]
        for text in texts {
            let runs = try SplitObjectTests.runs(text, chunkSize: 4096, runBytes: 64)
            #expect(runs.objectRuns > 20 && runs.arrayRuns > 100, "\(runs.objectRuns), \(runs.arrayRuns) runs")
            let oneThreads = SplitObjectTests.counted(
                Array(text.utf8), workers: 1, runBytes: 1 << 20, chunkSize: 1 << 16)
            #expect("\(runs.values) values" == oneThreads)
        }
    }

    /// Damage around and inside a map's huge member, against one thread.
    @Test(arguments: [1, 3])
    func aHugeMembersCountsAndErrorsAreOneThreads(rings: Int) {
        let text = Self.mapWithHugeMember(rings: rings)
        let cases: [(String, String)] = [
            ("valid", text),
            ("last", Self.mapWithHugeMember(after: 0, rings: rings)),
            ("an escaped key", Self.mapWithHugeMember(rings: rings, key: #"b\"i\\g"#)),
            ("no colon", text.replacingOccurrences(of: #""big": "#, with: #""big" "#)),
            ("a comma for the colon", text.replacingOccurrences(of: #""big": "#, with: #""big", "#)),
            ("no key", text.replacingOccurrences(of: #""big": "#, with: "")),
            (
                "at the value's start",
                text.replacingOccurrences(
                    of: #"{"type": "FeatureCollection""#, with: #"{"type" "FeatureCollection""#)
            ),
            ("in a ring", text.replacingOccurrences(of: "[1500.5, -1500.25]", with: "[1500.5 -1500.25]")),
            ("after the value", text.replacingOccurrences(of: "]]}}]}, ", with: "]]}}]} 7, ")),
            ("a bracket for a brace", text.replacingOccurrences(of: "]]}}]}, ", with: "]]}}]], ")),
            ("in a later member", text.replacingOccurrences(of: #""m40": {"n": 40}"#, with: #""m40": {"n": 40,}"#)),
            ("a repeated key", text.replacingOccurrences(of: #""m40": "#, with: #""big": "#)),
            ("cut short in the value", String(text.prefix(text.count / 2))),
            ("cut short after it", String(text.prefix(text.count - 500))),
        ]
        for (label, damaged) in cases {
            SplitObjectTests.expectOneThreads(Array(damaged.utf8), "\(label), \(rings) rings")
        }
    }

    /// Damage before, inside and after the arrays inside the huge element, and after it; the huge
    /// element first or after others, alone or followed by two more, on one line or on lines of
    /// their own.
    @Test(arguments: [1, 3], [(0, 1, false), (40, 1, false), (40, 1, true), (1, 3, true)])
    func countsAndErrorsAreOneThreads(rings: Int, shape: (before: Int, huge: Int, lines: Bool)) {
        let text = Self.collection(
            points: 3000, rings: rings, more: 50, before: shape.before, huge: shape.huge, lines: shape.lines)
        let after = shape.lines ? "]]]}},\n " : "]]]}}, "
        let deep =
            String(repeating: "[", count: 20)
            + Self.collection(points: 3000, before: shape.before, huge: shape.huge, lines: shape.lines)
            + String(repeating: "]", count: 20)
        let cases: [(String, String)] = [
            ("valid", text),
            ("byte order mark", "\u{FEFF}" + text),
            ("before the coordinates", text.replacingOccurrences(of: #""name": "big""#, with: #""name" "big""#)),
            // Within an excerpt's length of the comma before the feature (or of the `[`).
            (
                "at the feature's start",
                text.replacingOccurrences(
                    of: #"{"type": "Feature", "properties": {"name""#, with: #"{"type" "Feature", "properties": {"name""#)
            ),
            ("early in a ring", text.replacingOccurrences(of: "[10.5, -10.25]", with: "[10.5 -10.25]")),
            ("late in a ring", text.replacingOccurrences(of: "[2990.5, -2990.25]", with: "[2990.5, -2990.25,]")),
            ("a bracket for a brace", text.replacingOccurrences(of: after, with: "]]]}], ")),
            ("a number after the feature", text.replacingOccurrences(of: after, with: "]]]}} 7, ")),
            ("a literal after the feature", text.replacingOccurrences(of: after, with: "]]]}} tru, ")),
            ("no comma after the feature", text.replacingOccurrences(of: after, with: "]]]}} ")),
            ("in an earlier feature", text.replacingOccurrences(of: #"{"n": 1020}"#, with: #"{"n": 1020,}"#)),
            ("in a later feature", text.replacingOccurrences(of: #"{"n": 40}"#, with: #"{"n": 40,}"#)),
            ("the last feature only", Self.collection(points: 3000, rings: rings, before: shape.before)),
            ("cut short in the coordinates", String(text.prefix(text.count / 3))),
            ("cut short after the feature", String(text.prefix(text.count - 500))),
            ("too deep", String(repeating: "[", count: 600) + text + String(repeating: "]", count: 600)),
            ("under 20 arrays", deep),
        ]
        for (label, damaged) in cases {
            SplitObjectTests.expectOneThreads(
                Array(damaged.utf8), "\(label), \(rings) rings, \(shape.before) before, \(shape.huge) huge")
        }
    }

    /// Seeded collections (huge features first or later, one or two), damaged at random (a byte
    /// flipped, deleted or inserted, the text cut short), counted with workers as with one thread.
    @Test func randomlyDamagedCollectionsCountAsOnOneThread() {
        var generator = SplitMix64(seed: randomTestSeed)
        for round in 0..<40 {
            let text = Self.collection(
                points: Int.random(in: 200...2000, using: &generator), rings: 1 + round % 3, more: round % 2 * 30,
                before: round % 4 < 2 ? 0 : 20, huge: 1 + round % 5 / 3, lines: round % 3 == 0)
            var bytes = Array(text.utf8)
            SplitObjectTests.damage(&bytes, round: round, using: &generator)
            SplitObjectTests.expectOneThreads(bytes, "round \(round), ELEVATE_TEST_SEED=\(randomTestSeed)")
        }
    }
}
