import Elevate
import Foundation

/// The people the encoder contenders encode: the document's `response.items` as `[CodablePerson]`,
/// decoded once per document so that the encoders are timed alone.
///
/// Holds the last document's people only (a benchmark measures one document at a time), behind a
/// lock, as the Benchmarks package may run closures on other threads.
public final class EncodingWorkload: @unchecked Sendable {
    /// The workload shared by the contenders.
    public static let shared = EncodingWorkload()

    private let lock = NSLock()
    // Guarded by `lock`: the file and size of the document decoded last, and its people.
    private var key: (file: URL, byteCount: Int)?
    private var cached: [CodablePerson] = []

    /// The people of `input`, decoded on first use.
    /// - Parameter input: A people-shaped document.
    /// - Returns: Its people.
    /// - Throws: The decoder's error.
    public func people(of input: BenchmarkInput) throws -> [CodablePerson] {
        try lock.withLock {
            if let key, key.file == input.file, key.byteCount == input.data.count { return cached }
            // A child process measuring memory starts without the bytes of a file-reading contender.
            let data = input.data.isEmpty ? try Data(contentsOf: input.file) : input.data
            cached = try ElevateJSONDecoder().decode([CodablePerson].self, from: data, atKeyPath: Contender.peopleKeyPath)
            key = (input.file, input.data.count)
            return cached
        }
    }
}
