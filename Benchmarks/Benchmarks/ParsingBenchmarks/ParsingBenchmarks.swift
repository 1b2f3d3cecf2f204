import Benchmark
import ElevateBenchmarkKit
import Foundation

/// Every document, parsed by every contender that applies to it, in one run: C YAJL with null
/// callbacks (the floor), Elevate's event layer with a counting handler, Elevate's value builder
/// and JSONSerialization on every document; on `people` also Elevate's `decodeArray` (with and
/// without a `DateDecoder`), `forEachElement` over the file, JSONSerialization + `parseEntity`,
/// JSONDecoder (with and without a date strategy), ElevateJSONDecoder, and ElevateJSONEncoder against
/// JSONEncoder encoding the people as `[CodablePerson]` (decoded in setup); on twitter.json and
/// citm_catalog.json, both Codable decoders with full models. The contenders and documents are
/// ElevateBenchmarkKit's, the same as `elevate bench` measures.
///
/// `throughput` counts parses per second; multiply by the document size for bytes per second, or
/// run `elevate bench`. `mallocCountTotal` is the stable metric to gate on.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 20
    )

    for document in BenchmarkDocument.all() {
        let isPeopleShaped = document.shape == .people
        for contender in Contender.applicable(toPeopleDocument: isPeopleShaped, named: document.name) {
            Benchmark(
                "\(document.name): \(contender.displayName)",
                closure: { benchmark in
                    let input = try DocumentCache.shared.input(for: document)
                    benchmark.startMeasurement()
                    blackHole(try contender.run(on: input))
                },
                setup: {
                    let input = try DocumentCache.shared.input(for: document)
                    // The encoders encode people decoded once, outside the measurement.
                    if contender == .elevateEncoder || contender == .jsonEncoder {
                        _ = try EncodingWorkload.shared.people(of: input)
                    }
                }
            )
        }
    }
}
