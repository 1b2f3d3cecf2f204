import ElevateSampleData
import Foundation
import _ElevateBenchmarkSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prints MB/s and peak memory of every contender on every document, as markdown tables.
///
/// Throughput is timed in this process: one warm-up parse, then the best of `--runs` parses.
/// Peak memory cannot be told apart per contender within one process, so each contender parses
/// each document once more in a child process (`ThroughputTable --child <contender> <file>`),
/// which prints its peak resident set (see ``peakResidentKiB()``). The `load-only` child reads the file and parses nothing: the
/// memory every other child starts from.
@main
struct ThroughputTable {
    static let command = "swift run -c release --package-path Benchmarks ThroughputTable"
    static let usage = """
        usage: ThroughputTable [--runs N] [--documents DIR]
               ThroughputTable --child <load-only|\(Contender.allCases.map(\.rawValue).joined(separator: "|"))> FILE
          --runs N         timed parses per contender and document, after one warm-up (default 5)
          --documents DIR  write the generated documents to DIR and keep them (default: a temporary directory)
        """

    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--child" {
            guard arguments.count == 3 else { fail(usage) }
            try child(contender: arguments[1], file: URL(fileURLWithPath: arguments[2]))
            return
        }
        var runs = 5
        var documentsDirectory: URL?
        while let option = arguments.first {
            guard arguments.count >= 2 else { fail(usage) }
            switch option {
            case "--runs":
                guard let value = Int(arguments[1]), value > 0 else { fail(usage) }
                runs = value
            case "--documents":
                documentsDirectory = URL(fileURLWithPath: arguments[1])
            default:
                fail(usage)
            }
            arguments.removeFirst(2)
        }
        try parent(runs: runs, documentsDirectory: documentsDirectory)
    }

    // MARK: Child: one parse, then the peak resident set

    static func child(contender name: String, file: URL) throws {
        let data = try Data(contentsOf: file)
        if name != "load-only" {
            guard let contender = Contender(rawValue: name) else { fail("unknown contender \(name)") }
            _ = try contender.parse(data)
        }
        print(peakResidentKiB())
        withExtendedLifetime(data) {}
    }

    /// The peak resident set of this process, in KiB.
    ///
    /// On Linux this is `VmHWM` from `/proc/self/status`, not `getrusage`'s `ru_maxrss`: the kernel
    /// carries `ru_maxrss` across `execve`, and `Process` starts children with `posix_spawn`, whose
    /// child shares the parent's memory until it executes; so every child reported the *parent's*
    /// peak (771 MiB for all of them on the first try). `VmHWM` belongs to the child's own address
    /// space. `ru_maxrss` remains the fallback, and is what macOS uses (in bytes there).
    static func peakResidentKiB() -> Int {
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            {
                return kib
            }
        #endif
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss) / 1024
        #else
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Int(usage.ru_maxrss)
        #endif
    }

    // MARK: Parent: timing, and spawning children for memory

    struct Row {
        var document: String
        var size: Int
        var megabytesPerSecond: [Contender: Double] = [:]
        var peakKiB: [String: Int] = [:]
    }

    static func parent(runs: Int, documentsDirectory: URL?) throws {
        let temporary =
            documentsDirectory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("elevate-throughput-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { if documentsDirectory == nil { try? FileManager.default.removeItem(at: temporary) } }

        var rows: [Row] = []
        for document in BenchmarkDocument.all() {
            let file: URL
            switch document.source {
            case .file(let url):
                file = url
            case .generated(let kind, let targetSize):
                file = temporary.appendingPathComponent("\(document.name).json")
                try kind.write(to: file, targetSize: targetSize, seed: SampleDocument.defaultSeed)
            }
            let data = try Data(contentsOf: file)
            var row = Row(document: document.name, size: data.count)
            for contender in Contender.allCases {
                let seconds = try bestTime(of: runs) { try contender.parse(data) }
                row.megabytesPerSecond[contender] = Double(data.count) / 1e6 / seconds
                log("\(document.name): \(contender.displayName): \(format(row.megabytesPerSecond[contender]!)) MB/s")
            }
            for name in ["load-only"] + Contender.allCases.map(\.rawValue) {
                row.peakKiB[name] = try childPeak(contender: name, file: file)
            }
            rows.append(row)
        }
        printTables(rows, runs: runs)
    }

    static func bestTime(of runs: Int, _ body: () throws -> Int) throws -> Double {
        var checksum = try body()  // warm-up
        var best = Double.infinity
        for _ in 0..<max(runs, 1) {
            let start = ContinuousClock.now
            checksum &+= try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        if checksum == .min { print("") }  // keeps the parses observable
        return best
    }

    static func childPeak(contender: String, file: URL) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        process.arguments = ["--child", contender, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let kib = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { fail("child \(contender) on \(file.lastPathComponent) failed: \(text)") }
        return kib
    }

    static func executablePath() -> String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return CommandLine.arguments[0]
    }

    // MARK: Output

    static func printTables(_ rows: [Row], runs: Int) {
        let contenders = Contender.allCases
        print("")
        print("Throughput, MB/s (1 MB = 10^6 bytes; best of \(runs) after one warm-up; higher is better)")
        print("")
        print(
            "| document | size MB | " + contenders.map(\.displayName).joined(separator: " | ")
                + " | events / C yajl | values / JSONSerialization |")
        print("|---|---:|" + String(repeating: "---:|", count: contenders.count + 2))
        for row in rows {
            let speeds = contenders.map { format(row.megabytesPerSecond[$0] ?? 0) }
            let eventsRatio = (row.megabytesPerSecond[.elevateEvents] ?? 0) / (row.megabytesPerSecond[.cYAJL] ?? 1)
            let valuesRatio = (row.megabytesPerSecond[.elevateValues] ?? 0) / (row.megabytesPerSecond[.foundation] ?? 1)
            print(
                "| \(row.document) | \(format(Double(row.size) / 1e6)) | " + speeds.joined(separator: " | ")
                    + " | \(String(format: "%.2f×", eventsRatio)) | \(String(format: "%.2f×", valuesRatio)) |")
        }
        print("")
        print(
            "Peak resident memory, MiB (VmHWM of a child process that loads the file and parses it once; lower is better)"
        )
        print("")
        print("| document | load only | " + contenders.map(\.displayName).joined(separator: " | ") + " |")
        print("|---|---:|" + String(repeating: "---:|", count: contenders.count))
        for row in rows {
            let peaks = (["load-only"] + contenders.map(\.rawValue)).map { format(Double(row.peakKiB[$0] ?? 0) / 1024) }
            print("| \(row.document) | " + peaks.joined(separator: " | ") + " |")
        }
        print("")
        print(
            "Machine: \(cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + "\(ProcessInfo.processInfo.operatingSystemVersionString)")
        print("Command: \(command)")
    }

    static func format(_ value: Double) -> String {
        String(format: value >= 100 ? "%.0f" : "%.1f", value)
    }

    static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        else { return "unknown CPU" }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func fail(_ message: String) -> Never {
        log(message)
        exit(1)
    }
}
