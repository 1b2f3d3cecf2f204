import ArgumentParser
import ElevateBenchmarkKit
import Foundation

/// `elevate bench`: times Elevate against C YAJL, JSONSerialization and JSONDecoder on generated
/// documents (or a given file), measures each contender's peak memory in a child process, and
/// prints markdown tables.
///
/// The measuring is `ElevateBenchmarkKit`'s, shared with the Benchmarks package. Peak memory
/// needs a fresh process per contender: this command starts itself as
/// `elevate bench --child <contender> <file>`, a hidden mode that runs one contender once and
/// prints its high-water mark.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Elevate's throughput and peak memory against C YAJL and Foundation.",
        discussion: """
            Generates a people document and a numbers document of --size bytes each (deterministic, the \
            same bytes on every machine) in a temporary directory, deleted at the end, or uses FILE. \
            Every contender parses the same bytes in the same run: one warm-up each, then --runs rounds \
            in which the contenders take turns, each keeping its best time (a burst of noise then slows \
            a round of all of them, not the runs of one); then once more in a child process, for its \
            peak resident memory (VmHWM). \
            People contenders (decodeArray, forEachElement, JSONDecoder, …) run only on people-shaped \
            documents ({"response":{"items":[…]}}); every one must decode the same number of people.
            """
    )

    @Option(help: "The size of each generated document: bytes, or KB, MB, GB, KiB, MiB, GiB.")
    var size = ByteSize(bytes: 8_000_000)

    @Option(help: "Timed runs per contender and document, after one warm-up.")
    var runs = 3

    @Flag(help: "Also measure the nativejson corpus (twitter.json, citm_catalog.json, canada.json) when present.")
    var corpus = false

    @Flag(help: "Skip the child processes that measure peak memory.")
    var noMemory = false

    @Option(
        name: .customLong("contender"),
        help: ArgumentHelp(
            "Measure only this contender (repeatable); people contenders run only on people-shaped documents.",
            valueName: Contender.allCases.map(\.rawValue).joined(separator: "|")))
    var contenders: [String] = []

    @Option(name: .customLong("child"), help: .hidden)
    var childTarget: String?

    @Argument(help: "A people-shaped JSON file to measure instead of generated documents.")
    var file: String?

    func validate() throws {
        if childTarget != nil {
            guard file != nil else { throw ValidationError("--child needs a FILE") }
            return
        }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        for name in contenders where Contender(rawValue: name) == nil {
            throw ValidationError(
                "unknown contender \(name); one of \(Contender.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        try reportingFailures { try measure() }
    }

    private func measure() throws {
        // The kit reads files with Foundation, whose errors are sentences about "the file"; a
        // missing or unreadable file is said here first, the way the other commands say it.
        if let file { _ = try InputFile(file) }
        if let childTarget, let file {
            print(try PeakMemory.runChild(target: childTarget, file: file))
            return
        }
        let targetSize = size.bytes
        let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }

        var documents: [BenchmarkDocument]
        if let file {
            documents = [.file(URL(fileURLWithPath: file))]
        } else {
            documents = BenchmarkDocument.generated(targetSize: targetSize)
        }
        if corpus { documents += BenchmarkDocument.corpus(reportMissing: log) }

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("elevate-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let runner = BenchmarkRunner(
            runs: runs,
            childCommand: noMemory ? nil : .currentExecutable(leadingArguments: ["bench", "--child"]),
            log: log)
        var results: [DocumentResult] = []
        for document in documents {
            log("\(document.name.escapedForTerminal): preparing")
            let input = try document.prepare(in: directory)
            if let reason = input.notPeopleReason {
                log(
                    "\(input.name.escapedForTerminal) is not people-shaped, so only the generic contenders run: \(reason)"
                )
            }
            let selected = contenders.isEmpty ? nil : input.contenders.filter { contenders.contains($0.rawValue) }
            results.append(try runner.measure(input, contenders: selected))
        }
        let command = (["elevate"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        print(BenchmarkReport.markdown(for: results, runs: runs, command: command))
    }
}
