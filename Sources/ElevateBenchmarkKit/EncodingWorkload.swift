import Elevate
import Foundation

/// The people the encoder contenders encode: the document's `response.items` as `[CodablePerson]`,
/// decoded once per document so that the encoders are timed alone.
///
/// Holds the last document's people only (a benchmark measures one document at a time), behind a
/// lock, as the Benchmarks package may run closures on other threads.
public final class EncodingWorkload: Sendable {
    /// The workload shared by the contenders.
    public static let shared = EncodingWorkload()

    /// The file and size of the document decoded last, and its people.
    private struct Last: Sendable {
        var file: URL
        var byteCount: Int
        var people: [CodablePerson]
    }

    private let last = LockedBox<Last?>(nil)

    /// The people of `input`, decoded on first use.
    /// - Parameter input: A people-shaped document.
    /// - Returns: Its people.
    /// - Throws: The decoder's error.
    public func people(of input: BenchmarkInput) throws -> [CodablePerson] {
        try last.withLock { last in
            if let last, last.file == input.file, last.byteCount == input.data.count { return last.people }
            // A child process measuring memory starts without the bytes of a file-reading contender.
            let data = input.data.isEmpty ? try Data(contentsOf: input.file) : input.data
            let people = try ElevateJSONDecoder().decode(
                [CodablePerson].self, from: data, atKeyPath: Contender.peopleKeyPath)
            last = Last(file: input.file, byteCount: input.data.count, people: people)
            return people
        }
    }
}
