// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Elevate",
    platforms: [.macOS(.v13)],
    products: [
        // `import Elevate` for code written for Elevate; `import ElevateJSON` for Codable and JSON
        // code, which then keeps Swift's own `Decodable`, `Decoder` and `Encodable`.
        .library(name: "Elevate", targets: ["Elevate", "ElevateJSON"]),
        // Not for users: the Benchmarks package (a package of its own, so that users never resolve
        // ordo-one/benchmark) needs a product to reach the contenders that `elevate bench` runs, and
        // SwiftPM allows neither a dependency on another package's target nor a second target of
        // the same name in the graph.
        .library(name: "ElevateBenchmarkKit", targets: ["ElevateBenchmarkKit"]),
        .executable(name: "elevate", targets: ["ElevateCLI"]),
        // `@TapeDecodable`, a macro that writes a Codable struct's decoder against ElevateJSONDecoder's
        // own containers. A product of its own: only its users build swift-syntax.
        .library(name: "ElevateMacros", targets: ["ElevateMacros"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only for the ElevateMacros product. Any swift-syntax of Swift 6.0 or later: each major
        // version goes with a toolchain, and users resolve the one their other macros need.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"700.0.0"),
    ],
    targets: [
        // Debian's libyajl-dev (YAJL 2.1), found through pkg-config.
        .systemLibrary(
            name: "CYAJL",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        // zlib (Debian's zlib1g-dev), found through pkg-config: gzip input is inflated as it is read.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Everything but Elevate's API: the event parser, inputs, the tape and JSONValue, Codable,
        // the writer and encoder, streaming. It declares none of Elevate's protocol names.
        // The structural pre-scan's split mode with AVX2 where the processor has it: code that
        // Swift, compiled for baseline x86-64, cannot generate in one function.
        .target(name: "CWideScans"),
        .target(name: "ElevateJSON", dependencies: ["CYAJL", "CZlib", "CWideScans"]),
        // Elevate's API (Decodable, Decoder, Encodable, Schema, Parser, the operators, decodeArray)
        // on top of ElevateJSON, which it re-exports.
        .target(name: "Elevate", dependencies: ["ElevateJSON"]),
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
        // What `@TapeDecodable` writes: reads the struct's declaration, writes `init(fromTape:)`.
        // A library of its own so that its tests need no macro target: a test target that names one
        // makes SwiftPM build every test target for the compiler's host too.
        .target(
            name: "ElevateMacrosExpansion",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        // The compiler plugin that runs it. Runs in the compiler, never in users' programs.
        .macro(
            name: "ElevateMacrosPlugin",
            dependencies: [
                "ElevateMacrosExpansion",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        // The declaration of `@TapeDecodable`; re-exports ElevateJSON, whose `TapeDecodable` the
        // generated code conforms to.
        .target(name: "ElevateMacros", dependencies: ["ElevateJSON", "ElevateMacrosPlugin"]),
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
        // It writes gzip fixtures with zlib itself, so that no test needs a gzip binary.
        .target(name: "ElevateTestSupport", dependencies: ["CZlib"], path: "Tests/ElevateTestSupport"),
        .testTarget(
            name: "ElevateTests",
            dependencies: ["Elevate", "ElevateSampleData", "ElevateBenchmarkKit", "ElevateTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // The command-line tool's tests, in process and through the executable.
        .testTarget(
            name: "ElevateCLITests", dependencies: ["ElevateCLI", "Elevate", "ElevateSampleData", "ElevateTestSupport"]),
        // Codable and JSON code as users write it: imports ElevateJSON only, keeps Swift's names.
        .testTarget(name: "ElevateJSONTests", dependencies: ["ElevateJSON"]),
        // The macro: its expansions as text, and the generated decoders against `init(from:)`.
        .testTarget(
            name: "ElevateMacrosTests",
            dependencies: [
                "ElevateMacros", "ElevateMacrosExpansion",
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        .testTarget(name: "ElevateBenchmarkKitTests", dependencies: ["ElevateBenchmarkKit", "ElevateSampleData"]),
    ],
    swiftLanguageModes: [.v6]
)
