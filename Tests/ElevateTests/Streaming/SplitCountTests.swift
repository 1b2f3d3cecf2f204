import ElevateSampleData
import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `summarizeValue` (`elevate count`) with workers splits the document as `validate` does, but
/// for the containers on its key path and the object there, whose keys it counts: the array at
/// the key path is cut into runs whose elements the workers count (and the arrays inside its huge
/// elements into runs they validate), and every other long array or map into runs they validate.
/// Counts and first errors are one thread's.
@Suite struct SplitCountTests {
    /// `text`'s summary at `keyPath` (or its error), and the runs handed to workers.
    static func summary(
        _ bytes: [UInt8], _ keyPath: String, workers: Int = 2, runBytes: Int = 64, chunkSize: Int = 4096,
        rejectsDuplicates: Bool = false
    ) -> (outcome: String, runs: Int) {
        var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        options.parsing.rejectsDuplicateKeys = rejectsDuplicates
        let pass = SummaryPass(keyPath: keyPath)
        do {
            let summary = try pass.run(.data(Data(bytes)), options: options)
            return (summary.map { "\($0.kind) of \($0.count)" } ?? "nothing", pass.runs?.runsTaken ?? 0)
        } catch {
            return (SplitLinesReaderTests.describe(error), pass.runs?.runsTaken ?? 0)
        }
    }

    static func summary(_ text: String, _ keyPath: String, runBytes: Int = 64) -> (outcome: String, runs: Int) {
        summary(Array(text.utf8), keyPath, runBytes: runBytes)
    }

    static func expectOneThreads(_ bytes: [UInt8], _ keyPath: String, _ label: String, rejectsDuplicates: Bool = false) {
        let one = summary(
            bytes, keyPath, workers: 1, runBytes: 1 << 20, chunkSize: 1 << 16, rejectsDuplicates: rejectsDuplicates
        ).outcome
        for (runBytes, chunkSize) in [(1, 1 << 16), (7, 4096), (64, 1 << 16), (1024, 4096), (1024, 997)] {
            let two = summary(
                bytes, keyPath, workers: 2, runBytes: runBytes, chunkSize: chunkSize, rejectsDuplicates: rejectsDuplicates)
            #expect(
                two.outcome == one, "\(label), key path '\(keyPath)', runs of \(runBytes), chunks of \(chunkSize)")
        }
    }

    static let items = (0..<300).map { #"{"id": \#($0), "tags": ["a", "b"]}"# }.joined(separator: ", ")

    /// A count of the root object, of an object on the way to a long array, or of a key beside it:
    /// before, the stream's parser read the whole document on the calling thread (no run), as
    /// `elevate count` of a `{"response": {"items": […]}}` file did.
    @Test(arguments: [
        ("", "object of 2"),
        ("data", "object of 2"),
        ("meta", "object of 1"),
        ("data.page", "scalar of 0"),
    ])
    func theArraysOffTheKeyPathAreCut(keyPath: String, expected: String) {
        let text = #"{"meta": {"page": 1}, "data": {"page": 1, "items": ["# + Self.items + "]}}"
        let counted = Self.summary(text, keyPath)
        #expect(counted.outcome == expected)
        #expect(counted.runs > 50, "\(counted.runs) runs")
    }

    /// The array at the key path is cut, and its elements counted, as before; an array on the way
    /// to it (`data.items.5.tags`) is not: the stream's parser reads it, to find the element.
    @Test func theArrayAtTheKeyPathIsCountedAndTheArraysOnTheWayAreNot() {
        let text = #"{"data": {"items": ["# + Self.items + "]}}"
        let items = Self.summary(text, "data.items")
        #expect(items.outcome == "array of 300")
        #expect(items.runs > 50, "\(items.runs) runs")
        let tags = Self.summary(text, "data.items.5.tags")
        #expect(tags.outcome == "array of 2")
        #expect(tags.runs == 0, "\(tags.runs) runs")
        #expect(Self.summary(text, "data.items.300").outcome == "nothing")
    }

    /// The array at the key path with huge elements: the arrays inside them are cut, and the
    /// stand-ins the stream's parser reads to stand after an element are not counted.
    @Test(arguments: [(0, 1), (40, 1), (40, 3), (1, 2)])
    func theArraysInsideTheHugeElementsAtTheKeyPathAreCut(before: Int, huge: Int) {
        let text = LongElementTests.collection(points: 3000, more: 20, before: before, huge: huge, lines: before == 1)
        let counted = Self.summary(text, "features")
        #expect(counted.outcome == "array of \(before + huge + 20)")
        #expect(counted.runs > 100 * huge, "\(counted.runs) runs")
        // The root object, and the first feature's geometry.
        #expect(Self.summary(text, "").outcome == "object of 2")
        #expect(Self.summary(text, "features.\(before).geometry").outcome == "object of 2")
    }

    /// A map at the key path is cut into runs of members too, whose keys the workers keep: the
    /// calling thread counts them in one set, a repeated key once, however the runs fall (before,
    /// the stream's parser read the map and counted its keys on the calling thread). A map above
    /// the key path is on the way, read by the stream's parser; one beside it is cut.
    @Test func aMapAtTheKeyPathIsCountedFromRunsOfKeys() {
        let members = (0..<300).map { #""m\#($0)": {"n": \#($0)}"# }
        // Repeated keys: one spelled with an escape, in a later run than its first occurrence;
        // the empty key twice; the first member's key last.
        let map = "{" + members.joined(separator: ", ") + #", "m\u0037": 1, "": 2, "m299": 3, "": 4, "m0": 5}"#
        let counted = Self.summary(map, "")
        #expect(counted.outcome == "object of 301")
        #expect(counted.runs > 10, "\(counted.runs) runs")
        // A key inside it: the map is on the way, read by the stream's parser.
        let inside = Self.summary(map, "m5")
        #expect(inside.outcome == "object of 1")
        #expect(inside.runs == 0, "\(inside.runs) runs")
        // Under a key beside it, the map is cut.
        let beside = Self.summary(#"{"all": "# + map + #", "n": [1, 2, 3]}"#, "n")
        #expect(beside.outcome == "array of 3")
        #expect(beside.runs > 10, "\(beside.runs) runs")
        // Below the root object counted.
        let below = Self.summary(#"{"a": 1, "all": "# + map + #", "a": 2}"#, "")
        #expect(below.outcome == "object of 2")
        #expect(below.runs > 10, "\(below.runs) runs")
        // A huge member (longer than 32 runs) is read by a tail, whose keys are kept too.
        let huge = "{" + members.prefix(150).joined(separator: ", ") + #", "big": ["#
            + (0..<2000).map { "\($0)" }.joined(separator: ", ") + "], "
            + members.suffix(150).joined(separator: ", ") + #", "big": 1, "m3": 2}"#
        #expect(Self.summary(huge, "").outcome == "object of 301")
        // With repeated keys refused, a map is not cut: no worker sees another's keys.
        let refused = Self.summary(Array(map.utf8), "", rejectsDuplicates: true)
        #expect(refused.runs == 0, "\(refused.runs) runs")
        #expect(refused.outcome == Self.summary(Array(map.utf8), "", workers: 1, rejectsDuplicates: true).outcome)
    }

    /// A repeated key on the way: the later occurrence's value is the one counted, whichever of
    /// the two is long enough to cut.
    @Test func aRepeatedKeyCountsItsLastValue() {
        let long = "[" + Self.items + "]"
        #expect(Self.summary(#"{"items": \#(long), "items": [1, 2]}"#, "items").outcome == "array of 2")
        #expect(Self.summary(#"{"items": [1, 2], "items": \#(long)}"#, "items").outcome == "array of 300")
        #expect(Self.summary(#"{"items": \#(long), "items": \#(long)}"#, "items").outcome == "array of 300")
        #expect(Self.summary(#"{"a": {"items": \#(long)}, "a": 7}"#, "a.items").outcome == "nothing")
        // The literal dotted key beside the path.
        #expect(Self.summary(#"{"a.b": [1], "a": {"b": \#(long)}}"#, "a.b").outcome == "array of 1")
        #expect(Self.summary(#"{"a": {"b": \#(long)}, "a.b": [1]}"#, "a.b").outcome == "array of 300")
    }

    /// Counts and errors at workers against one thread's: key paths on, at and off the huge
    /// features, on damaged collections.
    @Test(arguments: ["", "features", "type", "features.0", "features.40.geometry.coordinates", "nothing"])
    func countsAndErrorsAreOneThreads(keyPath: String) {
        let text = LongElementTests.collection(points: 2000, rings: 2, more: 30, before: 40, huge: 2, lines: true)
        let cases: [(String, String)] = [
            ("valid", text),
            ("in a ring", text.replacingOccurrences(of: "[1500.5, -1500.25]", with: "[1500.5 -1500.25]")),
            ("after a feature", text.replacingOccurrences(of: "]]]}},\n ", with: "]]]}} 7,\n ")),
            ("in an earlier feature", text.replacingOccurrences(of: #"{"n": 1020}"#, with: #"{"n": 1020,}"#)),
            ("in a later feature", text.replacingOccurrences(of: #"{"n": 20}"#, with: #"{"n": 20,}"#)),
            ("a repeated key", text.replacingOccurrences(of: #"{"type": "FeatureCollection""#, with: #"{"features": 1"#)),
            ("cut short", String(text.prefix(text.count / 3))),
            ("text after", text + " x"),
        ]
        for (label, damaged) in cases {
            Self.expectOneThreads(Array(damaged.utf8), keyPath, label)
        }
    }

    /// Damage in and around a map at the key path (and its huge member), against one thread.
    @Test(arguments: ["", "users", "users.big", "users.k7", "meta"])
    func aMapsCountsAndErrorsAreOneThreads(keyPath: String) {
        let text = LongElementTests.mapWithHugeMember(before: 200, after: 200)
        let cases: [(String, String)] = [
            ("valid", text),
            ("a repeated key", text.replacingOccurrences(of: #""k40": "#, with: #""k7": "#)),
            ("a repeated key after the huge member", text.replacingOccurrences(of: #""m140": "#, with: #""k7": "#)),
            ("an escaped repeated key", text.replacingOccurrences(of: #""m140": "#, with: #""k\u0037": "#)),
            ("no colon", text.replacingOccurrences(of: #""m40": "#, with: #""m40" "#)),
            ("a key that is no string", text.replacingOccurrences(of: #""m40": "#, with: "40: ")),
            ("in a member", text.replacingOccurrences(of: #""m40": {"n": 40}"#, with: #""m40": {"n": 40,}"#)),
            ("in the huge member", text.replacingOccurrences(of: "[1500.5, -1500.25]", with: "[1500.5 -1500.25]")),
            ("cut short", String(text.prefix(text.count / 3))),
            ("cut short after the huge member", String(text.prefix(text.count - 500))),
        ]
        for (label, damaged) in cases {
            Self.expectOneThreads(Array(damaged.utf8), keyPath, label)
            Self.expectOneThreads(Array(damaged.utf8), keyPath, label + ", repeated keys refused", rejectsDuplicates: true)
        }
    }

    /// The asynchronous twin (a download, a socket) splits as the synchronous one does: the same
    /// counts and first errors, chunk by chunk, with workers as with one thread.
    @Test(arguments: [997, 4096])
    func aChunkSequenceCountsAsOnOneThread(chunkSize: Int) async {
        let map = LongElementTests.mapWithHugeMember(before: 200, after: 200)
        let collection = LongElementTests.collection(points: 2000, more: 30, before: 40, huge: 2)
        let cases: [(String, String)] = [
            (map, ""), (map, "users"), (map, "users.big.features"),
            (map.replacingOccurrences(of: #""m140": "#, with: #""k7": "#), "users"),
            (map.replacingOccurrences(of: #""m40": {"n": 40}"#, with: #""m40": {"n": 40,}"#), "users"),
            (collection, "features"), (collection, ""),
            (String(collection.prefix(collection.count / 2)), "features"),
        ]
        for (text, keyPath) in cases {
            let bytes = Array(text.utf8)
            let chunks = AsyncStream<[UInt8]> { continuation in
                for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                    continuation.yield(Array(bytes[start..<min(start + chunkSize, bytes.count)]))
                }
                continuation.finish()
            }
            var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
            options.concurrency = 2
            options.splitBatchByteCount = 64
            let got: String
            do {
                got = try await chunks.summarizeValue(atKeyPath: keyPath, options: options)
                    .map { "\($0.kind) of \($0.count)" } ?? "nothing"
            } catch {
                got = SplitLinesReaderTests.describe(error)
            }
            let one = Self.summary(bytes, keyPath, workers: 1, runBytes: 1 << 20, chunkSize: chunkSize).outcome
            #expect(got == one, "key path '\(keyPath)', \(bytes.count) bytes in chunks of \(chunkSize)")
        }
    }

    /// Seeded documents with maps and arrays at any depth, damaged at random, counted at key paths
    /// into them with workers as with one thread.
    @Test func randomlyDamagedDocumentsCountAsOnOneThread() {
        var generator = SplitMix64(seed: randomTestSeed)
        let map = "{" + (0..<200).map { #""k\#($0)": [\#($0), {"x": "y"}]"# }.joined(separator: ", ") + "}"
        for round in 0..<30 {
            let text =
                #"{"meta": {"n": 1}, "map": "# + map + #", "data": {"items": ["# + Self.items + "]}, "
                + #""geo": "# + LongElementTests.collection(points: Int.random(in: 200...900, using: &generator))
                + "}"
            var bytes = Array(text.utf8)
            SplitObjectTests.damage(&bytes, round: round, using: &generator)
            let keyPath = ["", "map", "map.k7", "data.items", "data.items.3.tags", "geo.features", "meta"][round % 7]
            Self.expectOneThreads(bytes, keyPath, "round \(round), ELEVATE_TEST_SEED=\(randomTestSeed)")
        }
    }
}
