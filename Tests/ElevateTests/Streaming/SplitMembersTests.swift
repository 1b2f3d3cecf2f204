import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `forEachMember` and `decodedMembers` with workers cut the map at the key path (an object of
/// many short members) into runs of members, which the workers parse and decode, as
/// `forEachElement` cuts an array: same members, in order, with the same errors. An object of a
/// few members is read by the calling thread, its values decoded on the workers, as before.
@Suite struct SplitMembersTests {
    /// Streams the `"v"` of each member's value of the object at `keyPath` in `json`, fed in
    /// chunks of 1000 bytes, with runs of 64 bytes: the keys and values delivered, the count
    /// returned, and how many members were cut for the workers.
    static func streamed(_ json: String, keyPath: String, workers: Int, rejectsDuplicateKeys: Bool = false) throws
        -> (delivered: [String], count: Int, cut: Int)
    {
        var options = StreamingOptions()
        options.concurrency = workers
        options.splitBatchByteCount = 64
        options.parsing.rejectsDuplicateKeys = rejectsDuplicateKeys
        var delivered: [String] = []
        let stream = ElementStream<(key: String, value: Int)>(
            keyPath: keyPath, methodName: "forEachMember", options: options, members: true,
            decode: memberDecoding { $0["v"]?.int ?? -2 }, deliver: { delivered.append("\($0.key)=\($0.value)") })
        try Array(json.utf8).withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 1000) {
                try stream.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 1000, bytes.count)]))
            }
        }
        let count = try stream.finish()
        return (delivered, count, stream.splitElementCount)
    }

    static func map(_ range: Range<Int>) -> String {
        "{" + range.map { #""k\#($0)": {"v": \#($0)}"# }.joined(separator: ", ") + "}"
    }

    @Test(arguments: ["", "users"])
    func aMapsMembersAreCutIntoRunsForTheWorkers(keyPath: String) throws {
        let json = keyPath.isEmpty ? Self.map(0..<300) : #"{"meta": [1, {"k0": 0}], "users": \#(Self.map(0..<300))}"#
        for workers in [1, 2] {
            let streamed = try Self.streamed(json, keyPath: keyPath, workers: workers)
            #expect(streamed.delivered == (0..<300).map { "k\($0)=\($0)" })
            #expect(streamed.count == 300)
            if workers > 1 {
                #expect(streamed.cut > 290, "\(streamed.cut) members cut for the workers")
            } else {
                #expect(streamed.cut == 0)
            }
        }
    }

    /// An object of a few members, one a long array: not a map. The calling thread reads it; the
    /// array inside is not cut either (it is a member's value, decoded whole).
    @Test func anObjectOfAFewMembersIsReadByTheCallingThread() throws {
        let numbers = (0..<2_000).map(String.init).joined(separator: ", ")
        let json = #"{"a": {"v": 1, "list": [\#(numbers)]}, "b": {"v": 2}}"#
        let streamed = try Self.streamed(json, keyPath: "", workers: 2)
        #expect(streamed.delivered == ["a=1", "b=2"])
        #expect(streamed.cut == 0)
    }

    /// The object at the key path is short and read whole by the calling thread: a long object
    /// after it is not taken for it (its members are not delivered).
    @Test func aShortObjectAtTheKeyPathLendsNothingToALaterOne() throws {
        let json = #"{"users": {"a": {"v": 1}}, "other": \#(Self.map(0..<300))}"#
        let streamed = try Self.streamed(json, keyPath: "users", workers: 2)
        #expect(streamed.delivered == ["a=1"])
        #expect(streamed.count == 1)
        #expect(streamed.cut == 0)
    }

    /// A member longer than a run's 32 lengths, among short ones: read on by the calling thread,
    /// and the cutting resumes after it.
    @Test func theMembersAfterALongOneAreCutAgain() throws {
        let long = #""long": {"v": -1, "s": ""# + String(repeating: "y", count: 5_000) + #""}"#
        let first = Self.map(0..<200).dropLast()
        let json = first + ", " + long + ", " + Self.map(200..<400).dropFirst()
        let streamed = try Self.streamed(String(json), keyPath: "", workers: 2)
        #expect(streamed.delivered == (0..<200).map { "k\($0)=\($0)" } + ["long=-1"] + (200..<400).map { "k\($0)=\($0)" })
        #expect(streamed.cut > 380, "\(streamed.cut) members cut for the workers")
    }

    /// A repeated key is a member of its own, on one thread and on several; refused repeats keep
    /// the map whole on the calling thread (no worker sees another's keys), with one thread's error.
    @Test func repeatedKeysAreOneThreads() throws {
        let json = String(Self.map(0..<150).dropLast()) + #", "k3": {"v": -3}}"#
        let one = try Self.streamed(json, keyPath: "", workers: 1)
        let two = try Self.streamed(json, keyPath: "", workers: 2)
        #expect(two.delivered == one.delivered && two.count == 151)
        #expect(two.delivered.last == "k3=-3")
        func refused(workers: Int) -> String {
            do {
                _ = try Self.streamed(json, keyPath: "", workers: workers, rejectsDuplicateKeys: true)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(refused(workers: 1).contains("duplicate key"), "\(refused(workers: 1))")
        #expect(refused(workers: 2) == refused(workers: 1))
    }

    /// A member's value that counts its decodes in the decoder's `userInfo` watch.
    struct Watched: Swift.Decodable {
        static let watchKey = CodingUserInfoKey(rawValue: "watch")!
        let v: Int
        init(from decoder: any Swift.Decoder) throws {
            let watch = decoder.userInfo[Self.watchKey] as? DecodeWatch
            watch?.decodeStarted()
            defer { watch?.decodeEnded() }
            v = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .v)
        }
        enum CodingKeys: String, CodingKey { case v }
    }

    static func watchingDecoder(_ watch: DecodeWatch) -> ElevateJSONDecoder {
        let decoder = ElevateJSONDecoder()
        decoder.userInfo = [Watched.watchKey: watch]
        return decoder
    }

    /// A body that throws at member k, or stops the stream there, sees exactly the members before
    /// k, as with one thread; nothing is decoded once the call has returned, and no worker
    /// outlives it.
    @Test(arguments: [0, 63, 1_999]) func aBodyThatThrowsOrStopsAtKAsOneThread(k: Int) {
        struct Enough: Error {}
        let data = Data(Self.map(0..<2_000).utf8)
        for stops in [false, true] {
            var results: [String] = []
            for workers in [1, 2, 4] {
                let watch = DecodeWatch()
                var options = StreamingOptions()
                options.concurrency = workers
                options.splitBatchByteCount = 256
                var values: [Int] = []
                var result = "returned"
                do {
                    try forEachMember(
                        from: .data(data), as: Watched.self, decoder: Self.watchingDecoder(watch), options: options
                    ) { _, member in
                        values.append(member.v)
                        if member.v == k { throw stops ? JSONEventParser.Stop() as any Error : Enough() }
                    }
                } catch {
                    result = "\(error)"
                }
                watch.expectNothingDecodedAfterReturn("\(workers) workers, stops \(stops)")
                #expect(values == Array(0...k), "\(workers) workers, stops \(stops)")
                results.append(result)
            }
            #expect(Set(results).count == 1, "\(results)")
        }
    }

    /// Cancelling the task iterating `decodedMembers` with workers ends the iteration with
    /// `CancellationError`; nothing is decoded after the task ended.
    @Test(arguments: [2, 3]) func cancellingTheIteratingTaskStopsTheWorkers(workers: Int) async throws {
        let bytes = Array(Self.map(0..<20_000).utf8)
        let watch = DecodeWatch()
        var options = StreamingOptions()
        options.concurrency = workers
        options.splitBatchByteCount = 1_024
        let settings = options
        await watch.expectCancellationStops(after: 300, of: 20_000, {
            ByteChunks(bytes, size: 4_096).decodedMembers(
                as: Watched.self, decoder: Self.watchingDecoder(watch), options: settings)
        }, index: \.value.v)
    }

    /// A syntax error in a run of members: the members before it, then one thread's error.
    @Test(arguments: [#""k150" {"v": 1}"#, #""k150": {"v": 1}}"#, #""k150": {"v" 1}"#, #"k150: 1"#])
    func anErrorInARunIsOneThreads(_ damaged: String) throws {
        let json = String(Self.map(0..<150).dropLast()) + ", " + damaged + ", " + Self.map(151..<300).dropFirst()
        func read(workers: Int) -> String {
            var options = StreamingOptions(wrapsErrorsInParserError: false)
            options.concurrency = workers
            options.splitBatchByteCount = 64
            var keys: [String] = []
            do {
                _ = try forEachMember(from: .data(Data(json.utf8)), as: JSON.self, options: options) { key, _ in
                    keys.append(key)
                }
                return "\(keys.count) members"
            } catch let error as JSONSyntaxError {
                return "\(keys.count) members, then \(error.kind) at \(error.line):\(error.column) (\(error.byteOffset))"
            } catch {
                return "\(keys.count) members, then \(error)"
            }
        }
        let one = read(workers: 1)
        #expect(one.contains("then"), "\(one)")
        #expect(read(workers: 2) == one)
        #expect(read(workers: 4) == one)
    }
}
