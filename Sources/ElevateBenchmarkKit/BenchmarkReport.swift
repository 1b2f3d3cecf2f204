import Foundation

/// Formats ``DocumentResult``s as markdown: a table per document, then ratio lines.
///
/// ```swift
/// print(BenchmarkReport.markdown(for: results, runs: 3, command: "elevate bench --size 64MB"))
/// ```
public enum BenchmarkReport {
    /// The whole report: a heading and table per document, the machine and the command.
    /// - Parameters:
    ///   - results: What the runner measured, one per document.
    ///   - runs: The number of timed runs, for the legend.
    ///   - command: The command line that produced the results.
    public static func markdown(for results: [DocumentResult], runs: Int, command: String) -> String {
        var lines = [
            "MB/s: 1 MB = 10^6 bytes, best of \(runs) rounds in which the contenders take turns, after one warm-up, "
                + "higher is better. Peak MiB: VmHWM of a child "
                + "process that runs the contender once, lower is better. It includes the runtime (see *child doing "
                + "nothing*) and the document read into memory (see *child reading the file only*), except for "
                + "forEachElement, which streams the file.",
            "",
        ]
        for result in results {
            lines.append(markdown(for: result))
        }
        lines.append("Machine: \(machineDescription)")
        lines.append("Command: \(command)")
        return lines.joined(separator: "\n")
    }

    /// One document's heading, table and ratio lines.
    /// - Parameter result: One document's measurements.
    public static func markdown(for result: DocumentResult) -> String {
        var lines: [String] = []
        var heading = "### \(result.name): \(format(Double(result.byteCount) / 1e6)) MB"
        if let count = result.elementCount { heading += ", \(count) people" }
        lines += [heading, "", "| contender | MB/s | peak MiB |", "|---|---:|---:|"]
        if let idle = result.idlePeakKiB { lines.append("| (child doing nothing) | | \(mebibytes(idle)) |") }
        if let load = result.loadOnlyPeakKiB {
            lines.append("| (child reading the file only) | | \(mebibytes(load)) |")
        }
        for row in result.rows {
            let speed = format(row.megabytesPerSecond(byteCount: result.byteCount))
            let peak = row.peakKiB.map(mebibytes) ?? "–"
            lines.append("| \(row.contender.displayName) | \(speed) | \(peak) |")
        }
        lines.append("")
        let ratios = ratioLines(for: result)
        if !ratios.isEmpty {
            lines += ratios.map { "- " + $0 }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The comparisons that matter, for the contenders that ran: throughput ratios (higher is
    /// faster for the first) and peak-memory ratios.
    /// - Parameter result: One document's measurements.
    public static func ratioLines(for result: DocumentResult) -> [String] {
        func speed(_ contender: Contender) -> Double? {
            result[contender].map { $0.megabytesPerSecond(byteCount: result.byteCount) }
        }
        func peak(_ contender: Contender) -> Double? { result[contender]?.peakKiB.map(Double.init) }
        func ratio(_ a: Double?, _ b: Double?) -> String? {
            guard let a, let b, b > 0 else { return nil }
            return String(format: "%.2f×", a / b)
        }
        var lines: [String] = []
        /// `aboveLoad`: also the ratio of what each adds to a child that only reads the file, for
        /// documents small enough that the runtime's own 20 MiB hide the difference.
        func add(_ label: String, _ a: Contender, _ b: Contender, memory: Bool = false, aboveLoad: Bool = false) {
            guard let throughput = ratio(speed(a), speed(b)) else { return }
            var line = "\(label): \(throughput) throughput"
            if memory, let memoryRatio = ratio(peak(a), peak(b)) { line += ", \(memoryRatio) peak memory" }
            if aboveLoad, let load = result.loadOnlyPeakKiB.map(Double.init),
                let added = ratio(peak(a).map { max($0 - load, 0) }, peak(b).map { max($0 - load, 0) })
            {
                line += " (\(added) of what it adds to reading the file)"
            }
            lines.append(line)
        }
        add("events / C yajl", .elevateEvents, .cYAJL)
        add("count of the file / C yajl of the file (1 MiB chunks)", .countFile, .cYAJLFile)
        add("structural pre-scan / C yajl", .preScan, .cYAJL)
        add("values / JSONSerialization", .elevateValues, .jsonSerialization, memory: true, aboveLoad: true)
        add("JSONValue / JSONSerialization", .elevateDocument, .jsonSerialization, memory: true, aboveLoad: true)
        add("decodeArray / JSONDecoder (birthDate string)", .decodeArray, .jsonDecoder, memory: true)
        add("decodeArray / its [String: Any] design", .decodeArray, .decodeArrayFoundationValues, memory: true)
        add("decodeArray, one worker per core / one worker", .decodeArrayParallel, .decodeArray, memory: true)
        add("decodeArray, one worker per core / JSONDecoder", .decodeArrayParallel, .jsonDecoder)
        add(
            "decodeArray on every core at once / one worker (the machine's ceiling)", .decodeArrayOnEveryCore,
            .decodeArray)
        add(
            "decodeArray, one worker per core / on every core at once (of the ceiling)", .decodeArrayParallel,
            .decodeArrayOnEveryCore)
        add(
            "decodeArray / JSONDecoder (dates: DateDecoder vs .formatted)", .decodeArrayWithDates,
            .jsonDecoderWithDates, memory: true)
        add(
            "decodeArray / (JSONSerialization + parseEntity)", .decodeArray, .jsonSerializationParseEntity,
            memory: true)
        add("forEachElement / decodeArray", .forEachElement, .decodeArray, memory: true)
        add(
            "forEachElement, one worker per core / one worker", .forEachElementParallel, .forEachElement,
            memory: true)
        add("tape Codable / JSONDecoder (birthDate string)", .tapeCodable, .jsonDecoder, memory: true)
        add(
            "tape Codable, @TapeDecodable / JSONDecoder (birthDate string)", .tapeCodableMacro, .jsonDecoder,
            memory: true)
        add("tape Codable / JSONDecoder (.formatted dates)", .tapeCodableWithDates, .jsonDecoderWithDates, memory: true)
        add(
            "tape Codable forEachElement (file) / tape Codable (Data)", .tapeCodableForEachElement, .tapeCodable,
            memory: true)
        add(
            "tape Codable forEachElement, one worker per core / one worker", .tapeCodableForEachElementParallel,
            .tapeCodableForEachElement, memory: true)
        add(
            "tape Codable forEachElement, @TapeDecodable, one worker per core / JSONDecoder",
            .tapeCodableForEachElementParallelMacro, .jsonDecoder, memory: true)
        add("JSON Lines / forEachElement", .jsonLines, .forEachElement, memory: true)
        add("JSON Lines, one worker per core / one worker", .jsonLinesParallel, .jsonLines, memory: true)
        add("forEachMember, one worker per core / one worker", .membersFileParallel, .membersFile, memory: true)
        add(
            "tape Codable / JSONDecoder (TwitterDocument model)", .tapeCodableTwitter, .jsonDecoderTwitter, memory: true
        )
        add("tape Codable / JSONDecoder (CitmCatalog model)", .tapeCodableCitm, .jsonDecoderCitm, memory: true)
        add(
            "tape Codable, @TapeDecodable / JSONDecoder (TwitterDocument model)", .tapeCodableTwitterMacro,
            .jsonDecoderTwitter, memory: true)
        add(
            "tape Codable, @TapeDecodable / JSONDecoder (CitmCatalog model)", .tapeCodableCitmMacro, .jsonDecoderCitm,
            memory: true)
        add("ElevateJSONEncoder / JSONEncoder ([Person])", .elevateEncoder, .jsonEncoder, memory: true)
        if let peakKiB = result[.decodeArray]?.peakKiB, let idle = result.idlePeakKiB {
            // What decodeArray(from: Data) holds beyond the runtime: the document, its work and
            // the decoded people themselves.
            let documentMiB = Double(result.byteCount) / 1_048_576
            let aboveIdle = Double(max(peakKiB - idle, 0)) / 1024
            lines.append(
                "decodeArray (Data) peak memory vs document: \(format(aboveIdle)) MiB above a child doing nothing for a "
                    + "\(format(documentMiB)) MiB document (\(String(format: "%.2f×", aboveIdle / documentMiB)))")
        }
        if let peakKiB = result[.forEachElement]?.peakKiB {
            let fileMiB = Double(result.byteCount) / 1_048_576
            var line =
                "forEachElement peak memory vs file size: \(mebibytes(peakKiB)) MiB for a "
                + "\(format(fileMiB)) MiB file (\(String(format: "%.2f×", Double(peakKiB) / 1024 / fileMiB)))"
            if let idle = result.idlePeakKiB {
                line += "; \(mebibytes(max(peakKiB - idle, 0))) MiB above a child doing nothing"
            }
            lines.append(line)
        }
        return lines
    }

    /// Three significant figures at most: `525`, `65.1`, `0.6`.
    /// - Parameter value: The number to format.
    public static func format(_ value: Double) -> String {
        String(format: value >= 100 ? "%.0f" : "%.1f", value)
    }

    private static func mebibytes(_ kib: Int) -> String { format(Double(kib) / 1024) }

    /// The CPU model, core count and operating system.
    public static var machineDescription: String {
        var cpu = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + ProcessInfo.processInfo.operatingSystemVersionString
    }
}
