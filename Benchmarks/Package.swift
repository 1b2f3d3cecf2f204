// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ElevateBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Only the malloc interposer trait: the ARC runtime interposer is not needed (and not mirrored here).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // Named, because a clone's folder name is not the package's name.
        .package(name: "Elevate", path: "../"),
    ],
    targets: [
        // The contenders and documents come from ElevateBenchmarkKit, which `elevate bench` uses too.
        .executableTarget(
            name: "ParsingBenchmarks",
            dependencies: [
                .product(name: "ElevateBenchmarkKit", package: "Elevate"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ParsingBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
