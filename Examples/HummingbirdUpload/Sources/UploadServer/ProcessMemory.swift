import Foundation

/// The memory this process has used.
public enum ProcessMemory {
    /// The peak resident set size of this process since it started, in bytes; nil where the
    /// system does not tell.
    ///
    /// On Linux it is `VmHWM` from `/proc/self/status`, falling back to `getrusage`'s `ru_maxrss`
    /// (the same number, in KiB) where `/proc` is not mounted; elsewhere `ru_maxrss` (bytes on
    /// Darwin).
    public static var peakResidentBytes: Int? {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        {
            return kibibytes << 10
        }
        #endif
        var usage = rusage()
        #if canImport(Darwin)
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)
        #else
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss) << 10
        #endif
    }
}
