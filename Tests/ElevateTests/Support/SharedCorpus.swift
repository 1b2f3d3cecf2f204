import Foundation

/// Finds the corpora shared between the project's worktrees (`../shared` next to the repository,
/// or `$ELEVATE_SHARED_DIR`), which are too large to commit.
///
/// Every accessor returns nil or an empty list when the corpus is absent, so that the tests that
/// need it are disabled (`.enabled(if: SharedCorpus.isAvailable, …)`) instead of failing.
enum SharedCorpus {
    /// The repository's root directory (this file is `<root>/Tests/ElevateTests/Support/SharedCorpus.swift`).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shared directory, or nil when neither `$ELEVATE_SHARED_DIR` nor `../shared` exists.
    static let directory: URL? = {
        if let path = ProcessInfo.processInfo.environment["ELEVATE_SHARED_DIR"], !path.isEmpty {
            return existingDirectory(URL(fileURLWithPath: path))
        }
        return existingDirectory(repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared"))
    }()

    /// JSONTestSuite's `test_parsing` directory.
    static let testParsing: URL? = directory.flatMap {
        existingDirectory($0.appendingPathComponent("corpus/JSONTestSuite/test_parsing"))
    }

    /// The nativejson-benchmark documents (`twitter.json`, `citm_catalog.json`, `canada.json`).
    static let nativeJSON: URL? = directory.flatMap {
        existingDirectory($0.appendingPathComponent("corpus/nativejson"))
    }

    /// Whether JSONTestSuite is present.
    static var isAvailable: Bool { testParsing != nil }

    /// Whether the nativejson documents are present.
    static var hasNativeJSON: Bool { nativeJSON != nil }

    static let missingMessage = "skipping: ../shared/corpus not found (set ELEVATE_SHARED_DIR to run these tests)"

    /// The names of the `test_parsing` files that start with `prefix` (`y_`, `n_`, `i_`), sorted.
    static func testParsingFiles(prefix: String) -> [String] {
        guard let testParsing,
            let names = try? FileManager.default.contentsOfDirectory(atPath: testParsing.path)
        else { return [] }
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    /// The bytes of one `test_parsing` file.
    static func testParsingBytes(_ name: String) throws -> [UInt8] {
        guard let testParsing else { throw CocoaError(.fileNoSuchFile) }
        return Array(try Data(contentsOf: testParsing.appendingPathComponent(name)))
    }

    /// The bytes of one nativejson document.
    static func nativeJSONData(_ name: String) throws -> Data {
        guard let nativeJSON else { throw CocoaError(.fileNoSuchFile) }
        return try Data(contentsOf: nativeJSON.appendingPathComponent(name))
    }

    private static func existingDirectory(_ url: URL) -> URL? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return nil }
        return url.standardizedFileURL
    }
}
