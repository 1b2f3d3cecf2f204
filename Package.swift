// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Elevate",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Elevate", targets: ["Elevate"]),
        .library(name: "ElevateSampleData", targets: ["ElevateSampleData"]),
        .library(name: "ElevateBenchmarkKit", targets: ["ElevateBenchmarkKit"]),
        .executable(name: "elevate", targets: ["ElevateCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // Debian's libyajl-dev (YAJL 2.1), found through pkg-config.
        .systemLibrary(
            name: "CYAJL",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        .target(name: "Elevate", dependencies: ["CYAJL"]),
        // Deterministic JSON documents for tests, benchmarks and the command-line tool.
        .target(name: "ElevateSampleData"),
        // YAJL with callbacks that do nothing: the floor every benchmark contender is measured
        // against. Only the benchmark kit links it; the Elevate library never does.
        .target(
            name: "CYAJLBaseline",
            linkerSettings: [.linkedLibrary("yajl")]
        ),
        // The contenders, documents, timing, child-process memory measurement and report shared by
        // `elevate bench` and the Benchmarks package.
        .target(
            name: "ElevateBenchmarkKit",
            dependencies: ["Elevate", "ElevateSampleData", "CYAJLBaseline"]
        ),
        // The `elevate` command-line tool: validate, count, extract, generate, bench.
        .executableTarget(
            name: "ElevateCLI",
            dependencies: [
                "Elevate", "ElevateSampleData", "ElevateBenchmarkKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The library's tests. They run the built `elevate` executable as a child process in a few
        // places (`elevate bench --child`), but never import it.
        // What both test targets use to run the `elevate` executable as a child process.
        .target(name: "ElevateTestSupport", path: "Tests/ElevateTestSupport"),
        .testTarget(
            name: "ElevateTests",
            dependencies: ["Elevate", "ElevateSampleData", "ElevateBenchmarkKit", "ElevateTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // The command-line tool's tests, in process and through the executable.
        .testTarget(
            name: "ElevateCLITests", dependencies: ["ElevateCLI", "Elevate", "ElevateSampleData", "ElevateTestSupport"]),
        .testTarget(name: "ElevateBenchmarkKitTests", dependencies: ["ElevateBenchmarkKit", "ElevateSampleData"]),
    ],
    swiftLanguageModes: [.v6]
)
