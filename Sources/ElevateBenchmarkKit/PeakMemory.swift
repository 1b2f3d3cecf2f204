import Elevate
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Peak memory per contender, measured in child processes.
///
/// Within one process the peaks of successive parses cannot be told apart, so each contender
/// parses each document once more in a child process, which prints its own high-water mark.
/// The child is the host executable itself: the host forwards a hidden command line to
/// ``runChild(target:file:)``, as `elevate bench --child <target> <file>` does; a host says how to
/// reach its child mode with a ``ChildCommand``, so any executable can host the measurement.
///
/// ```swift
/// // In the host's argument handling:
/// if arguments.first == "--child" {
///     print(try PeakMemory.runChild(target: arguments[1], file: arguments[2]))
///     return
/// }
/// // In the parent:
/// let child = PeakMemory.ChildCommand.currentExecutable(leadingArguments: ["--child"])
/// let kib = try PeakMemory.measure(.contender(.elevateValues), file: input.file, using: child).peakKiB
/// ```
public enum PeakMemory {
    /// What a child process does before it reports its peak.
    public enum Target: Hashable, Sendable, CustomStringConvertible {
        /// Nothing: the runtime's own footprint.
        case idle
        /// Reads the file into memory and parses nothing: what every in-memory contender starts from.
        case loadOnly
        /// Runs a contender once (after reading the file, unless it ``Contender/readsFile``).
        case contender(Contender)
        /// Decodes the file, a people document whose every element fails, with
        /// ``BenchmarkPersonWithDate`` over and over, and reports the growth of its resident set
        /// (KiB) from the end of the warm-up to the end: what dropped errors leave behind.
        case repeatedFailures

        /// The command-line spelling: `idle`, `load-only`, or a contender's raw value.
        public var argument: String {
            switch self {
            case .idle: "idle"
            case .loadOnly: "load-only"
            case .repeatedFailures: "repeated-failures"
            case .contender(let contender): contender.rawValue
            }
        }

        /// Parses ``argument``.
        /// - Parameter argument: Its command-line name.
        public init?(argument: String) {
            switch argument {
            case "idle": self = .idle
            case "load-only": self = .loadOnly
            case "repeated-failures": self = .repeatedFailures
            default:
                guard let contender = Contender(rawValue: argument) else { return nil }
                self = .contender(contender)
            }
        }

        /// The same as ``argument``.
        public var description: String { argument }

        /// Every spelling, for usage texts.
        public static var allArguments: [String] { ["idle", "load-only", "repeated-failures"] + Contender.allCases.map(\.rawValue) }
    }

    /// What a child reported.
    public struct ChildReport: Sendable, Hashable {
        /// The child's peak resident set, in KiB.
        public var peakKiB: Int
        /// What the contender returned (0 for ``Target/idle`` and ``Target/loadOnly``).
        public var result: Int
    }

    /// How to start the host executable in child mode: `executable leadingArguments… target file`.
    public struct ChildCommand: Sendable {
        /// The executable.
        public var executable: URL
        /// The arguments before the target and the file, such as `["bench", "--child"]`.
        public var leadingArguments: [String]

        /// Creates a command.
        /// - Parameters:
        ///   - executable: The program to run.
        ///   - leadingArguments: The arguments before the target and the file.
        public init(executable: URL, leadingArguments: [String]) {
            self.executable = executable
            self.leadingArguments = leadingArguments
        }

        /// The running executable (`/proc/self/exe` on Linux, else `argv[0]`).
        /// - Parameter leadingArguments: The arguments before the target and the file.
        public static func currentExecutable(leadingArguments: [String]) -> ChildCommand {
            var path = CommandLine.arguments[0]
            #if os(Linux)
                if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                    path = resolved
                }
            #endif
            return ChildCommand(executable: URL(fileURLWithPath: path), leadingArguments: leadingArguments)
        }
    }

    /// The child side: does what `target` says with `file`, once, and returns the line to print on
    /// standard output, `<peak KiB> <result>`.
    /// - Throws: ``ChildFailure`` for an unknown target; the contender's errors.
    /// - Parameters:
    ///   - argument: The contender's or target's command-line name.
    ///   - path: The document to run it on.
    public static func runChild(target argument: String, file path: String) throws -> String {
        guard let target = Target(argument: argument) else {
            throw ChildFailure(
                message: "unknown target \(argument); expected one of \(Target.allArguments.joined(separator: ", "))")
        }
        let file = URL(fileURLWithPath: path)
        var result = 0
        switch target {
        case .idle:
            break
        case .loadOnly:
            let data = try Data(contentsOf: file)
            result = data.count
        case .repeatedFailures:
            result = try residentGrowthKiB(afterFailingDecodesOf: Data(contentsOf: file))
        case .contender(let contender):
            // A file-reading contender must not be charged for a copy of the file it never holds.
            let data = contender.readsFile ? Data() : try Data(contentsOf: file)
            var input = BenchmarkInput(
                name: file.lastPathComponent, file: file, data: data, expectedElementCount: nil,
                isPeopleShaped: contender.requiresPeopleDocument)
            // The JSON Lines copy that `BenchmarkDocument.prepare(in:)` wrote beside the document.
            let jsonLines = file.deletingPathExtension().appendingPathExtension("jsonl")
            if FileManager.default.fileExists(atPath: jsonLines.path) { input.jsonLinesFile = jsonLines }
            result = try contender.run(on: input)
            withExtendedLifetime(input) {}
        }
        return "\(currentPeakKiB()) \(result)"
    }

    /// The parent side: runs the child and reads its report.
    /// - Throws: ``ChildFailure`` when the child fails or prints something else.
    /// - Parameters:
    ///   - target: What to run.
    ///   - file: The document to run it on.
    ///   - command: How to start the child process.
    public static func measure(_ target: Target, file: URL, using command: ChildCommand) throws -> ChildReport {
        let process = Process()
        process.executableURL = command.executable
        process.arguments = command.leadingArguments + [target.argument, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 2, let peak = Int(fields[0]),
            let result = Int(fields[1])
        else {
            throw ChildFailure(
                message: "child \(target) on \(file.lastPathComponent) exited with \(process.terminationStatus), "
                    + "printing \(text.debugDescription)")
        }
        return ChildReport(peakKiB: peak, result: result)
    }

    /// Decodes `data` with ``BenchmarkPersonWithDate`` 10 times to warm up (caches, allocator
    /// pools), then 100 times more, every decode expected to fail, and returns how much the resident
    /// set grew over those 100, in KiB: nothing of a dropped error may stay behind.
    /// - Throws: ``ChildFailure`` when a decode succeeds.
    static func residentGrowthKiB(afterFailingDecodesOf data: Data) throws -> Int {
        func failOnce() throws {
            do {
                let people: [BenchmarkPersonWithDate] = try Elevate.decodeArray(
                    from: data, atKeyPath: Contender.peopleKeyPath)
                throw ChildFailure(message: "decoding \(people.count) people succeeded; every element must fail")
            } catch let error as ParserError {
                _ = error.failureReason
            }
        }
        for _ in 0..<10 { try failOnce() }
        let before = residentBytes()
        for _ in 0..<100 { try failOnce() }
        return (residentBytes() - before) / 1024
    }

    /// The resident set of this process now, in bytes (`VmRSS`); `0` where `/proc` is missing.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kib << 10
    }

    /// The peak resident set of this process, in KiB.
    ///
    /// On Linux this is `VmHWM` from `/proc/self/status`, not `getrusage`'s `ru_maxrss`: the
    /// kernel carries `ru_maxrss` across `execve`, and `Process` starts children with
    /// `posix_spawn`, whose child shares the parent's memory until it executes; so every child
    /// would report the *parent's* peak. `VmHWM` belongs to the child's own address space.
    /// `ru_maxrss` remains the fallback, and is what macOS uses (in bytes there).
    public static func currentPeakKiB() -> Int {
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

    /// A child process could not be run, or reported nonsense.
    public struct ChildFailure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var message: String
        /// The same as ``message``.
        public var description: String { message }
    }
}
