// swift-tools-version: 6.0
// libFuzzer targets for Elevate. Build and run them with `Scripts/fuzz.sh` (see README.md): each
// executable needs `-sanitize=fuzzer`, which links libFuzzer in; a plain `swift build` here fails to link.
import PackageDescription

let package = Package(
    name: "ElevateFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        // A clone's folder name is not the package's: name the path dependency.
        .package(name: "Elevate", path: "../")
    ],
    targets: [
        // What the targets share: the input splitter, the event recorder and the value comparison.
        .target(name: "_FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "Elevate", package: "Elevate")]),
        // Declares libFuzzer's driver entry point.
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "FuzzEventParser", dependencies: fuzzDependencies),
        .executableTarget(name: "FuzzParseEntity", dependencies: fuzzDependencies),
        .executableTarget(name: "FuzzJSONLines", dependencies: fuzzDependencies),
        .executableTarget(name: "FuzzValueBuilder", dependencies: fuzzDependencies),
        .executableTarget(name: "FuzzDocument", dependencies: fuzzDependencies),
        .executableTarget(name: "FuzzCodableDifferential", dependencies: fuzzDependencies),
        .executableTarget(name: "FuzzGzip", dependencies: fuzzDependencies),
        .executableTarget(name: "FuzzSplitParse", dependencies: fuzzDependencies),
    ],
    swiftLanguageModes: [.v6]
)

var fuzzDependencies: [Target.Dependency] {
    ["_FuzzSupport", .product(name: "Elevate", package: "Elevate")]
}
