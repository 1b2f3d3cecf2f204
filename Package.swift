// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Elevate",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Elevate", targets: ["Elevate"]),
        .library(name: "ElevateSampleData", targets: ["ElevateSampleData"]),
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
        // The `elevate` command-line tool: validate, count, extract, generate.
        .executableTarget(
            name: "ElevateCLI",
            dependencies: [
                "Elevate", "ElevateSampleData", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ElevateTests",
            dependencies: ["Elevate", "ElevateSampleData", "ElevateCLI"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
