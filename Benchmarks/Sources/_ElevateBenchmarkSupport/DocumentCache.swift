import Foundation

/// Documents loaded once per process and then shared by every iteration that parses them.
///
/// Loading is lazy, per document, so a process that benchmarks one document (package-benchmark
/// runs each benchmark in its own process) only holds that one: its peak memory is not inflated
/// by documents it never parses.
public final class DocumentCache: @unchecked Sendable {
    // @unchecked: `loaded` is only touched while holding `lock`.
    private let lock = NSLock()
    private var loaded: [String: Data] = [:]

    /// The process-wide cache.
    public static let shared = DocumentCache()

    /// Returns the document's bytes, loading them on first use.
    /// - Throws: Errors reading a corpus file.
    public func data(for document: BenchmarkDocument) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        if let data = loaded[document.name] { return data }
        let data = try document.load()
        loaded[document.name] = data
        return data
    }
}
