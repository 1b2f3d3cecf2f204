import ElevateSampleData
import Foundation
import ElevateTestSupport
import Testing

@testable import Elevate

/// Whether the temporary directory has room for the generated file (with a margin).
private func temporaryDirectoryHasRoom(for bytes: Int) -> Bool {
    let path = FileManager.default.temporaryDirectory.path
    guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: path))?[.systemFreeSize] as? NSNumber
    else { return true }
    return free.int64Value > Int64(bytes) * 2
}

/// What `elevate bench --child TARGET FILE` printed: its own peak resident set (VmHWM) and what
/// the target returned.
private struct ChildPeak {
    var peakKiB: Int
    var result: Int

    /// Runs the child and reads its report.
    init(target: String, file: URL, in directory: URL) throws {
        let run = try ElevateBinary.run(["bench", "--child", target, file.path], in: directory)
        let fields = run.output.split(whereSeparator: \.isWhitespace)
        guard run.status == 0, fields.count == 2, let peak = Int(fields[0]), let returned = Int(fields[1]) else {
            throw ChildFailure(description: "child \(target) exited \(run.status): \(run.output) \(run.standardError)")
        }
        (peakKiB, result) = (peak, returned)
    }

    struct ChildFailure: Error, CustomStringConvertible {
        var description: String
    }
}

@Suite(.serialized) struct BoundedMemoryTests {
    /// A generated people document of a few hundred MB, streamed element by element in a child
    /// process (`elevate bench --child elevate-foreachelement`), whose peak resident memory may
    /// exceed an idle child's by one element plus the read buffer and the allocator's slack, never
    /// by the file's size. Measured in a child, so that other suites allocating in this process
    /// cannot move the number; a growth bound, not a timing.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc/self/status (Linux)"),
        .enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage),
        .enabled(if: temporaryDirectoryHasRoom(for: 256 << 20), "needs 512 MiB free in the temporary directory"),
        .enabled(
            if: ProcessInfo.processInfo.environment["ELEVATE_LONG_TESTS"] == "1",
            "writes and streams 256 MiB (two minutes on two cores): run with ELEVATE_LONG_TESTS=1, as CI does")
    )
    func forEachElementStaysBoundedOnAFileOfHundredsOfMegabytes() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.url.appendingPathComponent("people.json")
        let size = 256 << 20
        let summary = try SampleDocument.people.write(to: url, targetSize: size, seed: SampleDocument.defaultSeed)
        #expect(summary.byteCount >= size)

        let idle = try ChildPeak(target: "idle", file: url, in: scratch.url)
        let streamed = try ChildPeak(target: "elevate-foreachelement", file: url, in: scratch.url)
        #expect(streamed.result == summary.itemCount)
        let growth = (streamed.peakKiB - idle.peakKiB) << 10
        let message =
            "peak resident memory exceeded an idle child's by \(growth >> 20) MiB "
            + "over a \(summary.byteCount >> 20) MiB file"
        #expect(growth < 48 << 20, "\(message)")
    }

    /// A hundred failing `decodeArray`s of the README's `Person` (every date invalid, so every
    /// element fails with a path) leave nothing behind once their errors are dropped: the resident
    /// set after 100 failures is within allocator noise of the one after the warm-up. Measured
    /// in a child (`elevate bench --child repeated-failures`) so other suites cannot move it; a
    /// global registry of failure paths once kept 3.69 GB after 300 such failures.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc/self/status (Linux)"),
        .enabled(if: ElevateBinary.url != nil, ElevateBinary.missingMessage)
    )
    func failingDecodesLeaveNoMemoryBehind() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.url.appendingPathComponent("people-with-bad-dates.json")
        try SampleDocument.people.write(to: url, targetSize: 50 << 10, seed: SampleDocument.defaultSeed)
        let text = try String(contentsOf: url, encoding: .utf8)
        let broken = text.replacingOccurrences(of: #""birthDate":""#, with: #""birthDate":"born on "#)
        #expect(broken != text, "the generated document has no birthDate to break")
        try Data(broken.utf8).write(to: url)

        let failures = try ChildPeak(target: "repeated-failures", file: url, in: scratch.url)
        #expect(failures.result < 4 << 10, "100 failing decodes left \(failures.result) KiB resident behind")
    }
}

/// `decodeArray` of a document whose size is known (data, a regular file) allocates its result
/// once, at about its final size, instead of doubling it: the last doubling holds the old storage
/// and the new at once, up to twice the elements' own size at the peak.
@Suite struct ResultSizingTests {
    private struct Point: Elevate.Decodable {
        let x: Int
        let label: String

        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "x", type: .int)
                schema.addProperty(keyPath: "label", type: .string)
            }
            x = entity <-! "x"
            label = entity <-! "label"
        }
    }

    /// `{"points":[…count points…]` followed by `trailing` bytes of another member.
    private static func document(count: Int, trailing: Int = 0) -> Data {
        var text = #"{"points":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"x":\#(index),"label":"point \#(index % 97)"}"#
        }
        text += "]"
        if trailing > 0 { text += #","padding":""# + String(repeating: "p", count: trailing) + #"""# }
        return Data((text + "}").utf8)
    }

    /// 5,000 elements: doubling would leave a capacity of 8,192.
    @Test func dataOfKnownSizeGetsItsResultSizedOnce() throws {
        let points: [Point] = try Elevate.decodeArray(from: Self.document(count: 5000), atKeyPath: "points")
        #expect(points.count == 5000)
        #expect(points.map(\.x) == Array(0..<5000))
        #expect(points.capacity < 5000 * 5 / 4, "capacity \(points.capacity)")
    }

    @Test func aFileOfKnownSizeGetsItsResultSizedOnce() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sizing-\(UUID()).json")
        try Self.document(count: 5000).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let points: [Point] = try Elevate.decodeArray(from: .file(url), atKeyPath: "points")
        #expect(points.map(\.x) == Array(0..<5000))
        #expect(points.capacity < 5000 * 5 / 4, "capacity \(points.capacity)")
    }

    /// An array followed by much more data is guessed too long: the result is still exact, and
    /// the reservation stays within twice the input's size.
    @Test func aGuessTooHighChangesNothingButCapacity() throws {
        let data = Self.document(count: 2000, trailing: 2_000_000)
        let points: [Point] = try Elevate.decodeArray(from: data, atKeyPath: "points")
        #expect(points.map(\.x) == Array(0..<2000))
        #expect(points.capacity * MemoryLayout<Point>.stride <= data.count * 2)
    }

    /// The guess is made at the first batch past 1,024 elements, which for 1,024 to 1,087 elements
    /// comes only once the parse is over and its parser is gone (this crashed reading the parser's
    /// position through an unowned reference), with one worker and with several.
    @Test(arguments: [1, 2]) func arraysThatReachTheSampleOnlyAtTheEndDecode(workers: Int) throws {
        var options = StreamingOptions()
        options.concurrency = workers
        for count in [1024, 1050, 1087, 1088] {
            let points = try Elevate.decodeArray(
                from: .data(Self.document(count: count)), atKeyPath: "points", as: Point.self, options: options)
            #expect(points.map(\.x) == Array(0..<count))
        }
    }

    /// Too few elements to guess from, or no size known: plain growth.
    @Test func theGuessNeedsASampleAndASize() {
        var offset = 1000
        let estimate = ArrayDecoding.ElementCountEstimate(arrayStart: 0, inputEnd: 10_000, position: { offset })
        // 100 elements in 1,000 bytes, 9,000 bytes to go: 900 more, and a sixteenth of those.
        #expect(estimate.expectedCount(after: 100, stride: 16) == 100 + 956)
        #expect(estimate.expectedCount(after: 100, stride: 32) == 20_000 / 32, "bounded by twice the input")
        offset = 10_000
        #expect(estimate.expectedCount(after: 100, stride: 16) == nil, "nothing left to read")
        offset = 0
        #expect(estimate.expectedCount(after: 100, stride: 16) == nil, "nothing read yet")
        #expect(estimate.expectedCount(after: 0, stride: 16) == nil)
    }
}
