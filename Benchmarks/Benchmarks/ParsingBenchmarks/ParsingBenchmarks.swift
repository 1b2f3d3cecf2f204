import Benchmark
import Foundation
import _ElevateBenchmarkSupport

/// Every document, parsed by every contender, in one run: C YAJL with null callbacks (the floor),
/// Elevate's event layer with a counting handler, Elevate's value builder, and JSONSerialization.
///
/// `throughput` counts parses per second; multiply by the document size (in the name) for bytes
/// per second, or see ThroughputTable. `mallocCountTotal` is the stable metric to gate on.
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
        for contender in Contender.allCases {
            Benchmark(
                "\(document.name): \(contender.displayName)",
                closure: { benchmark in
                    let data = try DocumentCache.shared.data(for: document)
                    benchmark.startMeasurement()
                    blackHole(try contender.parse(data))
                },
                setup: { _ = try DocumentCache.shared.data(for: document) }
            )
        }
    }
}
