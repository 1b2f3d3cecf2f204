import ElevateSampleData
import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `countValues` (`elevate validate`) with workers cuts an object of many short members (at the
/// root or below it) into runs of members, as it cuts an array into runs of elements; counts and
/// first errors are one thread's, and an object of few members is left to the containers inside it.
@Suite struct SplitObjectTests {
    /// Records the runs a `SplitArrayReader` hands over, and counts them as `countValues` does.
    final class RecordingCounter: SplitRunConsumer {
        let counter = SplitRunCounter(workers: 2)
        var objectRuns = 0
        var arrayRuns = 0

        func take(_ run: SplitRun) throws {
            if run.isObject { objectRuns += 1 } else { arrayRuns += 1 }
            try counter.take(run)
        }
        func startTail(from run: SplitRun) -> SplitTail { counter.startTail(from: run) }
        func endTail(_ tail: SplitTail, of run: SplitRun) { counter.endTail(tail, of: run) }
        var countsOnly: Bool { true }
        func noteStandIn() { counter.noteStandIn() }
    }

    /// Counts `text`'s values through a reader that may split a root object, in chunks of
    /// `chunkSize`: the count, the runs of members and of elements handed over, and the input
    /// bytes the reader read a second time.
    static func runs(_ text: String, chunkSize: Int = 1 << 16, runBytes: Int = 64) throws
        -> (values: Int, objectRuns: Int, arrayRuns: Int, readAgain: Int)
    {
        var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
        options.concurrency = 2
        options.splitBatchByteCount = runBytes
        let counter = ValueCounter()
        let parser = JSONEventParser(handler: counter, options: options.parsing)
        let recorder = RecordingCounter()
        defer { recorder.counter.cancel() }
        let split = SplitArrayReader(parser: parser, options: options, everyArray: recorder, splitsObjects: true)
        try Array(text.utf8).withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                try split.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + chunkSize, bytes.count)]))
            }
        }
        try split.finish()
        try parser.finish()
        try recorder.counter.settle()
        return (
            counter.count + recorder.counter.totals.values, recorder.objectRuns,
            recorder.arrayRuns, split.bytesReadAgain)
    }

    static func map(members: Int, from first: Int = 0) -> String {
        (first..<(first + members)).map { #""id\#($0)": {"n": \#($0), "tags": ["a", "b"], "ok": true}"# }
            .joined(separator: ", ")
    }

    /// Members of a few bytes: a window of 128 bytes (runs of up to 128) holds more than 8.
    static func shortMap(members: Int, from first: Int = 0) -> String {
        (first..<(first + members)).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    }

    @Test func aRootObjectOfManyShortMembersIsCut() throws {
        let text = " \n {" + Self.map(members: 400) + "}\n"
        let runs = try Self.runs(text, runBytes: 1024)
        #expect(runs.values == 1 + 400 * 6)
        #expect(runs.objectRuns > 10, "\(runs.objectRuns) runs of members")
        // With less of the window than 16 KiB in the first two chunks: not cut (one more chunk is
        // waited for, no more).
        #expect(try Self.runs(text, chunkSize: 512, runBytes: 1024).objectRuns == 0)
        // With 16 KiB of it or more (a pipe's first read): cut.
        #expect(try Self.runs(text, chunkSize: 20_000, runBytes: 1 << 18).objectRuns > 0)
        // Members of a few bytes, in a window of 128 bytes.
        #expect(try Self.runs("{" + Self.shortMap(members: 2000) + "}", runBytes: 1).objectRuns > 100)
    }

    /// Few members, or short ones and then a long array starting early in the window: the
    /// object is not cut, and the array inside it is, as before.
    @Test(arguments: [
        #"{"meta": {"page": 1}, "items": [ITEMS]}"#,
        #"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "items": [ITEMS]}"#,
        // A map inside a long array is inside an element: the array is cut.
        "[{MAP}]", #"{"items": [1, 2, {"inner": {MAP}}]}"#,
        // Short members for half of the window (256 bytes, runs of 64), then the array (found by
        // review: a window of 128 bytes took it for a map, and one thread read the array).
        "{SHORT, \"items\": [ITEMS]}",
    ])
    func anObjectOfFewMembersIsNotCut(_ shape: String) throws {
        let items = (0..<400).map { #"{"n": \#($0), "tags": ["a", "b"]}"# }.joined(separator: ", ")
        let text = shape.replacingOccurrences(of: "ITEMS", with: items)
            .replacingOccurrences(of: "MAP", with: Self.map(members: 400))
            .replacingOccurrences(of: "SHORT", with: Self.shortMap(members: 15))
        let runs = try Self.runs(text)
        #expect(runs.objectRuns == 0)
        if shape.contains("ITEMS") { #expect(runs.arrayRuns > 50, "\(runs.arrayRuns) runs of elements") }
    }

    /// A map below the root (`{"users": {…}}`), after other members, after another map, or
    /// under objects of few members: its members are cut into runs, and counted as one thread
    /// counts them.
    @Test(arguments: [
        #"{"x": {MAP}}"#,
        #"{"meta": {"page": 1, "tags": [1, 2]}, "users": {MAP}, "after": [1, 2, 3]}"#,
        #"{"a": {"b": {"c": {MAP}}}, "z": null}"#,
        #"{"first": {MAP}, "second": {MAP}}"#,
    ])
    func aMapBelowTheRootIsCut(_ shape: String) throws {
        let text = shape.replacingOccurrences(of: "MAP", with: Self.map(members: 400))
        let runs = try Self.runs(text, runBytes: 1024)
        #expect(runs.objectRuns > 10, "\(runs.objectRuns) runs of members")
        Self.expectOneThreads(Array(text.utf8), shape)
    }

    /// A map whose `{` comes too near its chunk's end for the window (a file's read, or a pipe's)
    /// is probed over the next chunk too, and cut; the rest of the chunk is read after the probe,
    /// in order (the root object before it is a long object too near its chunk's end as well).
    @Test(arguments: [(3000, 4096, 1024), (15_000, 20_000, 1 << 18)])
    func aMapNearAChunksEndIsProbedOverTheNextChunk(pad: Int, chunkSize: Int, runBytes: Int) throws {
        let text = #"{"pad": ""# + String(repeating: "p", count: pad) + #"", "users": {"# + Self.map(members: 2000)
            + #"}, "n": [1, 2]}"#
        #expect(try Self.runs(text, chunkSize: chunkSize, runBytes: runBytes).objectRuns > 0)
        Self.expectOneThreads(Array(text.utf8), "a map near a chunk's end")
    }

    /// Long objects nested in each other are probed for short members 16 times at most: a map
    /// under 10 of them is cut, one under 20 is read by one thread (each probe reads up to a
    /// window, and the probes of nested objects read the same bytes), with the same count.
    @Test func longObjectsAreProbedSixteenTimesAtMost() throws {
        func nested(_ levels: Int) -> String {
            String(repeating: #"{"a": 1, "b": "#, count: levels) + "{" + Self.map(members: 400) + "}"
                + String(repeating: "}", count: levels)
        }
        #expect(try Self.runs(nested(10), runBytes: 1024).objectRuns > 10)
        #expect(try Self.runs(nested(20), runBytes: 1024).objectRuns == 0)
        Self.expectOneThreads(Array(nested(20).utf8), "under 20 objects")
    }

    /// What `elevate validate` reports with two workers, runs of `runBytes` and chunks of
    /// `chunkSize`, and with one.
    static func counted(_ bytes: [UInt8], workers: Int, runBytes: Int, chunkSize: Int, rejectsDuplicates: Bool = false)
        -> String
    {
        var options = StreamingOptions(chunkSize: chunkSize, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        options.parsing.rejectsDuplicateKeys = rejectsDuplicates
        do {
            return "\(try countValues(in: .data(Data(bytes)), options: options)) values"
        } catch {
            return SplitLinesReaderTests.describe(error)
        }
    }

    static func expectOneThreads(_ bytes: [UInt8], _ label: String, rejectsDuplicates: Bool = false) {
        let one = counted(bytes, workers: 1, runBytes: 1 << 20, chunkSize: 1 << 16, rejectsDuplicates: rejectsDuplicates)
        for (runBytes, chunkSize) in [(1, 1 << 16), (7, 4096), (64, 1 << 16), (1024, 4096), (1024, 997)] {
            let two = counted(
                bytes, workers: 2, runBytes: runBytes, chunkSize: chunkSize, rejectsDuplicates: rejectsDuplicates)
            #expect(two == one, "\(label), runs of \(runBytes), chunks of \(chunkSize)")
        }
    }

    /// Damage at a run's edge or inside one: a missing colon, a comma where a key or value must
    /// be, a trailing comma, the wrong closing bracket, a repeated key, a long member read by a
    /// tail, text after the object, a byte order mark.
    @Test(arguments: [false, true], [false, true])
    func countsAndErrorsAreOneThreads(short: Bool, nested: Bool) {
        let map = short ? Self.shortMap(members: 3000) : Self.map(members: 300)
        let more = short ? Self.shortMap(members: 3000, from: 3000) : Self.map(members: 300, from: 300)
        let (key, seventh) = short ? (#""k1500":"#, #""k7""#) : (#""id150": "#, #""id7""#)
        let long = String(repeating: "y", count: 40_000)
        for (label, text) in [
            ("valid", "{" + map + "}"),
            ("byte order mark", "\u{FEFF}{" + map + "}"),
            ("lines before", "\n\n  {" + map.replacingOccurrences(of: key, with: key.dropLast() + " ") + "}"),
            ("missing colon", "{" + map.replacingOccurrences(of: key, with: key.dropLast() + " ") + "}"),
            ("comma after a key", "{" + map.replacingOccurrences(of: key, with: key.dropLast() + ",") + "}"),
            ("comma for a value", "{" + map.replacingOccurrences(of: key, with: key + ",") + "}"),
            ("double comma", "{" + map.replacingOccurrences(of: key, with: "," + key) + "}"),
            ("key not a string", "{" + map.replacingOccurrences(of: key, with: "1500:") + "}"),
            ("trailing comma", "{" + map + ",}"),
            ("closed by a bracket", "{" + map + "]"),
            ("cut short", "{" + map),
            ("cut after a comma", "{" + map + ","),
            ("garbage after", "{" + map + "} x"),
            ("repeated key", "{" + map + ", " + seventh + ": 1}"),
            ("a long member", "{" + map + #", "long": ""# + long + #"", "# + more + "}"),
            ("a long member cut short", "{" + map + #", "long": ""# + long),
            ("an error after a long member", "{" + map + #", "long": [""# + long + #"", x], "# + more + "}"),
            ("too deep", "{" + map + #", "deep": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
                + ", " + more + "}"),
            ("a bad escape in a key", "{" + map.replacingOccurrences(of: key, with: #""k\x":"#) + "}"),
            ("a control character in a key", "{" + map.replacingOccurrences(of: key, with: "\"k\u{01}\":") + "}"),
        ] {
            // The same damage in a map below the root, between other members.
            let wrapped = nested ? #"{"meta": {"page": 1}, "users": "# + text + #", "n": [1, 2]}"# : text
            Self.expectOneThreads(Array(wrapped.utf8), nested ? "\(label), nested" : label)
        }
        var invalidUTF8 = Array(("{" + map + "}").utf8)
        invalidUTF8[invalidUTF8.count / 2] = 0xFF
        Self.expectOneThreads(invalidUTF8, "invalid UTF-8")
        Self.expectOneThreads(Array(("{" + map + ", " + seventh + ": 1}").utf8), "repeated key, rejected", rejectsDuplicates: true)
    }

    /// Seeded maps, at the root and below it, damaged at random (a byte flipped, deleted or inserted, the text cut
    /// short), counted with workers as with one thread.
    @Test func randomlyDamagedObjectsCountAsOnOneThread() {
        var generator = SplitMix64(seed: randomTestSeed)
        for round in 0..<60 {
            let members = Int.random(in: 60...200, using: &generator)
            let map = round % 8 < 4 ? Self.map(members: members) : Self.shortMap(members: members * 8)
            // A third of them below the root.
            var bytes = Array((round % 3 == 2 ? #"{"m": {"p": 1}, "users": {"# + map + "}}" : "{" + map + "}").utf8)
            Self.damage(&bytes, round: round, using: &generator)
            Self.expectOneThreads(bytes, "round \(round), ELEVATE_TEST_SEED=\(randomTestSeed)")
        }
    }

    /// Damages `bytes` at a random place, by `round`: a byte replaced by punctuation, a byte
    /// deleted, a bracket, comma or quote inserted, or the text cut short there.
    static func damage(_ bytes: inout [UInt8], round: Int, using generator: inout SplitMix64) {
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        switch round % 4 {
        case 0: bytes[at] = Array(#",:}]" "#.utf8).randomElement(using: &generator)!
        case 1: bytes.remove(at: at)
        case 2: bytes.insert(Array(#",{[""#.utf8).randomElement(using: &generator)!, at: at)
        default: bytes.removeSubrange(at...)
        }
    }
}
