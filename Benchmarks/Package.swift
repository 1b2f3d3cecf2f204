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
        // YAJL with callbacks that do nothing: the floor every other contender is measured against.
        .target(
            name: "CYAJLBaseline",
            linkerSettings: [.linkedLibrary("yajl")]
        ),
        // Shared by both executables: the contenders and the documents they parse.
        .target(
            name: "_ElevateBenchmarkSupport",
            dependencies: [
                "CYAJLBaseline",
                .product(name: "Elevate", package: "Elevate"),
                .product(name: "ElevateSampleData", package: "Elevate"),
            ]
        ),
        .executableTarget(
            name: "ParsingBenchmarks",
            dependencies: [
                "_ElevateBenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ParsingBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "ThroughputTable",
            dependencies: ["_ElevateBenchmarkSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
