import ElevateBenchmarkKit
import ElevateSampleData
import Foundation
import Testing

@Suite struct BenchmarkKitTests {
    /// A small generated people document, prepared in a fresh directory.
    static func preparedPeople() throws -> (input: BenchmarkInput, directory: URL) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("elevate-benchkit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try BenchmarkDocument.generated(.people, targetSize: 64 << 10).prepare(in: directory), directory)
    }

    @Test func everyPeopleContenderDecodesEveryPerson() throws {
        let (input, directory) = try Self.preparedPeople()
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected = try #require(input.expectedElementCount)
        #expect(input.isPeopleShaped)
        // Every contender but the models of other documents (twitter.json, citm_catalog.json).
        let peopleContenders = Contender.allCases.filter { $0.requiredDocumentName == nil }
        #expect(input.contenders == peopleContenders)
        #expect(Contender.applicable(toPeopleDocument: false, named: "twitter.json").contains(.tapeCodableTwitter))
        for contender in peopleContenders where contender.countsElements {
            #expect(try contender.run(on: input) == expected, "\(contender.displayName)")
        }
        for contender in peopleContenders where !contender.countsElements {
            _ = try contender.run(on: input)
        }
    }

    @Test func runnerChecksCountsAndReportsRatios() throws {
        let (input, directory) = try Self.preparedPeople()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try BenchmarkRunner(runs: 1, childCommand: nil, log: { _ in }).measure(input)
        #expect(result.rows.map(\.contender) == Contender.allCases.filter { $0.requiredDocumentName == nil })
        let ratios = BenchmarkReport.ratioLines(for: result)
        #expect(ratios.contains { $0.hasPrefix("events / C yajl:") })
        #expect(ratios.contains { $0.hasPrefix("count of the file / C yajl of the file (1 MiB chunks):") })
        #expect(ratios.contains { $0.hasPrefix("forEachElement / decodeArray:") })
        #expect(BenchmarkReport.markdown(for: [result], runs: 1, command: "test").contains("| Elevate values |"))

        // A people count that differs from the generated one is a failure, not a row.
        var wrong = input
        wrong.expectedElementCount = (input.expectedElementCount ?? 0) + 1
        #expect(throws: ContenderFailure.self) {
            try BenchmarkRunner(runs: 1, childCommand: nil, log: { _ in }).measure(wrong, contenders: [.decodeArray])
        }
    }

    /// Memory ratios: what each contender adds to a child that only reads the file, and
    /// decodeArray's peak above an idle child against the document's size.
    @Test func memoryRatiosAboveTheBaselines() {
        var result = DocumentResult(name: "doc", byteCount: 4 << 20, elementCount: nil, rows: [
            ContenderResult(contender: .elevateDocument, seconds: 1, result: 0, peakKiB: 26 << 10),
            ContenderResult(contender: .jsonSerialization, seconds: 4, result: 0, peakKiB: 40 << 10),
            ContenderResult(contender: .decodeArray, seconds: 1, result: 0, peakKiB: 30 << 10),
        ])
        result.idlePeakKiB = 20 << 10
        result.loadOnlyPeakKiB = 24 << 10
        let lines = BenchmarkReport.ratioLines(for: result)
        #expect(lines.contains("JSONValue / JSONSerialization: 4.00× throughput, 0.65× peak memory (0.12× of what it adds to reading the file)"))
        #expect(lines.contains("decodeArray (Data) peak memory vs document: 10.0 MiB above a child doing nothing for a 4.0 MiB document (2.50×)"))
    }

    /// Contenders take turns: every warm-up first, then rounds of one run each, each round starting
    /// one contender further on; a contender whose result changes between runs is an error.
    @Test func contendersTakeTurns() throws {
        final class Log: @unchecked Sendable { var calls: [Int] = [] }
        let log = Log()
        let bodies: [() throws -> Int] = (0..<3).map { index in { log.calls.append(index); return index * 10 } }
        let timings = try Stopwatch.bestTakingTurns(of: 2, bodies)
        #expect(log.calls == [0, 1, 2, 0, 1, 2, 1, 2, 0])
        #expect(timings.map(\.result) == [0, 10, 20])
        #expect(timings.allSatisfy { $0.seconds.isFinite && $0.seconds >= 0 })

        var runs = 0
        #expect(throws: Stopwatch.InconsistentResult.self) {
            _ = try Stopwatch.bestTakingTurns(of: 3, [{ 1 }, { runs += 1; return runs }])
        }
    }

    @Test func peopleShapedFileIsDetected() throws {
        let (generated, directory) = try Self.preparedPeople()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try BenchmarkDocument.file(generated.file).prepare(in: directory)
        #expect(input.isPeopleShaped)
        #expect(input.expectedElementCount == generated.expectedElementCount)
        #expect(input.contenders == Contender.allCases.filter { $0.requiredDocumentName == nil })
    }

    @Test func fileThatIsNotPeopleShapedGetsGenericContenders() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-benchkit-\(UUID()).json")
        try Data(#"{"response":{"items":[{"name":"no identifier"}]}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let input = try BenchmarkDocument.file(file).prepare(in: FileManager.default.temporaryDirectory)
        #expect(!input.isPeopleShaped)
        #expect(input.notPeopleReason != nil)
        #expect(
            input.contenders == [
                .cYAJL, .elevateEvents, .preScan, .cYAJLFile, .countFile, .elevateValues, .elevateDocument, .jsonSerialization,
            ])
    }

    /// The pre-scan contender does what the split parse's calling thread does: it finds the first
    /// array that does not close within a run (not a short one before it) and cuts that array's
    /// content into runs of 256 KiB at the commas between its elements, from inside the array.
    @Test func thePreScanCutsTheFirstLongArrayIntoRuns() throws {
        let element = #"{"name":"\#(String(repeating: "x", count: 90))","n":[1,{"a":[2]}]}"#
        let elements = Array(repeating: element, count: 12_000)
        let prefix = #"{"tags":[1,2,3],"items":["#
        let document = prefix + elements.joined(separator: ",") + "]}"
        // Where a thread cutting runs of 256 KiB stops: at the first comma between elements at or
        // past 256 KiB after the run's start, and at the closing bracket.
        var stops = 0
        var runStart = prefix.utf8.count
        let arrayEnd = document.utf8.count - 2
        while true {
            stops += 1
            let stride = element.utf8.count + 1
            let elementsToCut = ((256 << 10) + 1 + stride - 1) / stride
            let comma = runStart + elementsToCut * stride - 1
            guard comma < arrayEnd else { break }
            runStart = comma + 1
        }
        #expect(stops > 4)
        let input = BenchmarkInput(
            name: "scan", file: URL(fileURLWithPath: "/nonexistent"), data: Data(document.utf8),
            expectedElementCount: nil)
        #expect(try Contender.preScan.run(on: input) == stops)
        // No long array: only the lines are counted.
        let short = BenchmarkInput(
            name: "short", file: URL(fileURLWithPath: "/nonexistent"), data: Data("[1,\n2]\n".utf8),
            expectedElementCount: nil)
        #expect(try Contender.preScan.run(on: short) == 2)
    }

    /// The event layer's ratio to C YAJL compares two contenders timed under the same conditions:
    /// next to each other, and after a contender in memory in every round (parsing in memory ran
    /// 7–10% slower just after a contender had read the file; see `Contender`).
    @Test(arguments: [(true, ""), (false, ""), (false, "twitter.json"), (false, "canada.json")])
    func theEventLayerIsTimedNextToItsFloorAfterAContenderInMemory(isPeopleShaped: Bool, name: String) throws {
        let contenders = Contender.applicable(toPeopleDocument: isPeopleShaped, named: name)
        let floor = try #require(contenders.firstIndex(of: .cYAJL))
        let events = try #require(contenders.firstIndex(of: .elevateEvents))
        #expect(floor == 0 && events == 1)
        // Each round starts one further on and ends just before where it started (see
        // `Stopwatch.bestTakingTurns`): C YAJL always follows the last contender, and the events
        // follow C YAJL or, in the round they start, the last contender again.
        let last = try #require(contenders.last)
        #expect(!last.readsFile, "\(last) reads the file just before C YAJL")
    }

    @Test func fileContendersReadTheFile() throws {
        let (input, directory) = try Self.preparedPeople()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(Contender.cYAJLFile.readsFile && Contender.countFile.readsFile)
        #expect(try Contender.cYAJLFile.run(on: input) == 1)
        // The root of a people document is an object with one member.
        #expect(try Contender.countFile.run(on: input) == 1)

        // Both read the file, not the data: a file that is not JSON fails them.
        var broken = input
        broken.file = directory.appendingPathComponent("broken.json")
        try Data("[1,".utf8).write(to: broken.file)
        #expect(throws: (any Error).self) { try Contender.cYAJLFile.run(on: broken) }
        #expect(throws: (any Error).self) { try Contender.countFile.run(on: broken) }
    }

    @Test func childTargetsRoundTrip() {
        for argument in PeakMemory.Target.allArguments {
            #expect(PeakMemory.Target(argument: argument)?.argument == argument)
        }
        #expect(PeakMemory.Target(argument: "nope") == nil)
        #expect(PeakMemory.currentPeakKiB() > 0)
    }

    @Test(arguments: [
        ("64MB", 64_000_000), ("16 MiB", 16 << 20), ("1.5gb", 1_500_000_000), ("4096", 4096), ("2KiB", 2048),
    ])
    func documentSizes(text: String, bytes: Int) {
        #expect(DocumentSize(text)?.bytes == bytes)
    }

    @Test func invalidDocumentSizes() {
        for text in ["", "MB", "12XB", "-1MB", "0"] { #expect(DocumentSize(text) == nil, "\(text)") }
    }
}
