import Elevate
import Foundation

/// Documents prepared once per process and then shared by every iteration that parses them, for
/// the package-benchmark suite.
///
/// Preparing is lazy, per document, so a process that benchmarks one document (package-benchmark
/// runs each benchmark in its own process) only holds that one: its peak memory is not inflated
/// by documents it never parses. Generated documents are written to
/// `<temporary directory>/elevate-benchmark-documents/`, rewritten by each process (they are
/// deterministic, so every process writes the same bytes), for contenders that read files.
public final class DocumentCache: Sendable {
    private let prepared = LockedBox([String: BenchmarkInput]())

    /// The process-wide cache.
    public static let shared = DocumentCache()

    /// Where generated documents are written.
    public static var directory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("elevate-benchmark-documents")
    }

    /// Returns the prepared document, preparing it on first use.
    /// - Throws: Errors writing or reading the file.
    /// - Parameter document: The document to prepare.
    public func input(for document: BenchmarkDocument) throws -> BenchmarkInput {
        try prepared.withLock { prepared in
            if let input = prepared[document.name] { return input }
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            let input = try document.prepare(in: Self.directory)
            prepared[document.name] = input
            return input
        }
    }
}
