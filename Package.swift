// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Elevate",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Elevate", targets: ["Elevate"]),
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
        .testTarget(
            name: "ElevateTests",
            dependencies: ["Elevate"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
