import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// Values decoded on workers are handed over to the caller, not copied (moved to an array being
/// gathered, lent to a body): each is destroyed exactly once, whether the body keeps it, drops it,
/// or never receives it because a value before it threw.
/// A value destroyed twice crashes these tests; one never destroyed leaves a live count above zero.
@Suite struct ParallelValueLifetimeTests {
    /// Counts the instances made and those still alive, from every thread.
    private final class Census: @unchecked Sendable {
        private let lock = NSLock()
        private var live = 0
        private var made = 0

        func born() { lock.withLock { (live, made) = (live + 1, made + 1) } }
        func died() { lock.withLock { live -= 1 } }
        var counts: (live: Int, made: Int) { lock.withLock { (live, made) } }
    }

    private final class Token {
        let census: Census
        init(_ census: Census) {
            self.census = census
            census.born()
        }
        deinit { census.died() }
    }

    /// A value with a reference a copy would retain and whose end the census sees.
    private struct Tracked {
        let id: Int
        let token: Token
    }

    private struct Stop: Error {}

    /// Over a few runs of the split parse (4 KiB each), so that several batches come back.
    private static let count = 3_000

    private static var document: Data {
        let items = (0..<count).map { #"{"id": \#($0), "text": "item \#($0)"}"# }
        return Data(#"{"items": [\#(items.joined(separator: ", "))]}"#.utf8)
    }

    private static func options(workers: Int) -> StreamingOptions {
        var options = StreamingOptions()
        options.concurrency = workers
        options.splitBatchByteCount = 4 << 10
        return options
    }

    private static func decoder(_ census: Census) -> (JSONValue) throws -> Tracked {
        { value in
            guard let id = value["id"]?.int else { throw Stop() }
            return Tracked(id: id, token: Token(census))
        }
    }

    @Test(arguments: [1, 2, 4]) func gatheredValuesAreEachAliveOnceAndFreedOnce(workers: Int) throws {
        let census = Census()
        do {
            let values = try ArrayDecoding.decode(
                .data(Self.document), atKeyPath: "items", methodName: "Tracked",
                options: Self.options(workers: workers),
                workers: workers, decode: Self.decoder(census))
            #expect(values.map(\.id) == Array(0..<Self.count))
            #expect(census.counts == (live: Self.count, made: Self.count))
        }
        #expect(census.counts == (live: 0, made: Self.count))
    }

    @Test(arguments: [1, 2, 4]) func deliveredValuesAreFreedOnce(workers: Int) throws {
        let census = Census()
        var kept: [Tracked] = []
        let delivered = try forEachElement(
            from: .data(Self.document), atKeyPath: "items", methodName: "Tracked",
            options: Self.options(workers: workers),
            decode: Self.decoder(census)
        ) { value in
            // Every other value is kept; the rest are dropped as soon as the body returns.
            if value.id % 2 == 0 { kept.append(value) }
        }
        #expect(delivered == Self.count)
        // Each value is lent to the body where its worker left it: what the body keeps is intact.
        #expect(kept.map(\.id) == Array(stride(from: 0, to: Self.count, by: 2)))
        #expect(census.counts == (live: Self.count / 2, made: Self.count))
        kept.removeAll()
        #expect(census.counts == (live: 0, made: Self.count))
    }

    /// The values of JSON Lines, parsed and decoded in runs of lines on the workers, are lent to
    /// the body as an array's elements are.
    @Test(arguments: [1, 2, 4]) func valuesOfJSONLinesAreFreedOnce(workers: Int) throws {
        let census = Census()
        let lines = (0..<Self.count).map { #"{"id": \#($0), "text": "line \#($0)"}"# }
        var options = Self.options(workers: workers)
        options.chunkSize = 4 << 10
        var kept: [Tracked] = []
        let delivered = try forEachValue(
            from: .data(Data(lines.joined(separator: "\n").utf8)), framing: .jsonLines, atKeyPath: "",
            methodName: "Tracked", options: options, decode: Self.decoder(census)
        ) { value in
            if value.id % 3 == 0 { kept.append(value) }
        }
        #expect(delivered == Self.count)
        #expect(kept.map(\.id) == Array(stride(from: 0, to: Self.count, by: 3)))
        #expect(census.counts == (live: kept.count, made: Self.count))
        kept.removeAll()
        #expect(census.counts == (live: 0, made: Self.count))
    }

    @Test(arguments: [1, 2, 4]) func valuesAfterABodyErrorAreFreedOnce(workers: Int) throws {
        let census = Census()
        #expect(throws: Stop.self) {
            try forEachElement(
                from: .data(Self.document), atKeyPath: "items", methodName: "Tracked",
                options: Self.options(workers: workers), decode: Self.decoder(census)
            ) { value in
                // Thrown in the middle of a batch: the values after it in the batch are never handed over.
                if value.id == 1_234 { throw Stop() }
            }
        }
        let counts = census.counts
        #expect(counts.live == 0)
        #expect(counts.made > 1_234)
    }

    /// A value of a kilobyte: room made for a run's elements before they are decoded is bounded in
    /// bytes, not only in elements.
    private struct Wide {
        var words: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
        var more: [(Int, Int, Int, Int, Int, Int, Int, Int)] = []
        var padding: (SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>) = (.zero, .zero, .zero, .zero)
        var tail: (SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>) = (.zero, .zero, .zero, .zero)
        var last: (SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>) = (.zero, .zero, .zero, .zero)
        var end: (SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>) = (.zero, .zero, .zero, .zero)
    }

    @Test func roomMadeAheadForARunIsAtMostAMebibyte() {
        #expect(MemoryLayout<Wide>.stride > 1_000)
        // A quarter of a mebibyte of commas counts 262,144 elements; none will be decoded.
        let capacity = ParallelElementDecoder<Wide>.Outcomes.upFrontCapacity(forExpected: 262_144)
        #expect(capacity * MemoryLayout<Wide>.stride <= 1 << 20)
        #expect(ParallelElementDecoder<Int>.Outcomes.upFrontCapacity(forExpected: 1_200) == 1_200)
        #expect(ParallelElementDecoder<Wide>.Outcomes.upFrontCapacity(forExpected: 3) == 3)
    }

    @Test(arguments: [2, 4]) func aRunOfCommasIsAnErrorWithWideValues(workers: Int) throws {
        // The first run is cut at 4 KiB; the next is all commas.
        let text =
            "[" + (0..<2_000).map { _ in "1" }.joined(separator: ",") + String(repeating: ",", count: 300_000) + "]"
        #expect(throws: (any Error).self) {
            try forEachElement(
                from: .data(Data(text.utf8)), atKeyPath: "", methodName: "Wide",
                options: Self.options(workers: workers), decode: { _ in Wide() }
            ) { _ in }
        }
    }
}
