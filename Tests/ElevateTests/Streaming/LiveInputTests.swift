import Foundation
import Testing

@testable import ElevateJSON

/// Input that waits (a pipe, standard input): what workers decoded is delivered before a read
/// that would wait, so that a live source's values reach the body as they arrive; while more
/// input is ready, the workers are not waited for.
@Suite struct LiveInputTests {
    /// Feeds `first` into a pipe, waits until the body has received `firstCount` values while the
    /// pipe stays open, then feeds `second` and closes it.
    /// - Returns: Whether the first values arrived while the input was open, and all values.
    static func deliverLive(
        first: String, firstCount: Int, second: String, workers: Int,
        read: (JSONInput, StreamingOptions, @escaping (JSON) -> Void) throws -> Void
    ) throws -> (arrivedLive: Bool, values: [JSON]) {
        let pipe = Pipe()
        let received = LockedBox([JSON]())
        let arrivedLive = LockedBox(false)
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(first.utf8))
            // Up to 20 s for the first values, with the pipe still open.
            for _ in 0..<400 where received.withLock({ $0.count }) < firstCount { Thread.sleep(forTimeInterval: 0.05) }
            arrivedLive.withLock { $0 = received.withLock { $0.count } >= firstCount }
            pipe.fileHandleForWriting.write(Data(second.utf8))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        var options = StreamingOptions()
        options.concurrency = workers
        try read(.fileHandle(pipe.fileHandleForReading), options) { value in received.withLock { $0.append(value) } }
        return (arrivedLive.withLock { $0 }, received.withLock { $0 })
    }

    @Test(arguments: [1, 2])
    func jsonLinesArriveAsTheyAreWritten(workers: Int) throws {
        let result = try Self.deliverLive(first: "{\"a\": 1}\n{\"a\": 2}\n", firstCount: 2, second: "{\"a\": 3}\n", workers: workers) {
            input, options, body in
            try forEachValue(from: input, framing: .jsonLines, as: JSON.self, options: options, body)
        }
        #expect(result.arrivedLive, "\(workers) workers: the first lines waited for the end of the input")
        #expect(result.values == [["a": 1], ["a": 2], ["a": 3]])
    }

    /// Concatenated values: a value whose closing brace has arrived is complete (a top-level
    /// number is not, until what follows it arrives), with one worker or several.
    @Test(arguments: [1, 2])
    func concatenatedValuesArriveAsTheyAreWritten(workers: Int) throws {
        let result = try Self.deliverLive(
            first: "{\"a\": 1}{\"a\":\n2}\n{\"a\"", firstCount: 2, second: ": 3} [4]", workers: workers
        ) { input, options, body in
            try forEachValue(from: input, framing: .concatenated, as: JSON.self, options: options, body)
        }
        #expect(result.arrivedLive, "\(workers) workers: the first values waited for the end of the input")
        #expect(result.values == [["a": 1], ["a": 2], ["a": 3], [4]])
    }

    @Test(arguments: [1, 2])
    func elementsArriveAsTheyAreWritten(workers: Int) throws {
        let result = try Self.deliverLive(
            first: "{\"items\": [{\"a\": 1}, {\"a\": 2}, ", firstCount: 2, second: "{\"a\": 3}]}", workers: workers
        ) { input, options, body in
            try forEachElement(from: input, atKeyPath: "items", as: JSON.self, options: options, body)
        }
        #expect(result.arrivedLive, "\(workers) workers: the first elements waited for the end of the input")
        #expect(result.values == [["a": 1], ["a": 2], ["a": 3]])
    }
}
