import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// The test bundle's `Fixtures/` resource (declared in Package.swift as `.copy("Fixtures")`): the
/// small conformance set `FixtureTests` reads, and the inputs of the fuzz regressions (`fuzz/`).
enum Fixtures {
    static let directory: URL? = Bundle.module.url(forResource: "Fixtures", withExtension: nil)

    /// The `.json` files in `valid` or `invalid`, sorted.
    static func names(in folder: String) -> [String] {
        guard let directory,
            let names = try? FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent(folder).path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func data(_ folder: String, _ name: String) throws -> Data {
        let directory = try #require(directory, "the Fixtures resource is missing")
        return try Data(contentsOf: directory.appendingPathComponent(folder).appendingPathComponent(name))
    }

    static let kinds: [JSONSyntaxError.Kind] = [
        .syntax, .truncated, .invalidUTF8, .unpairedSurrogate, .invalidWhitespace, .depthLimitExceeded,
        .tokenTooLarge,
    ]

    /// The kind named before the first `-` of an invalid fixture's name.
    static func expectedKind(of name: String) -> JSONSyntaxError.Kind? {
        let prefix = name.prefix { $0 != "-" }
        return kinds.first { "\($0)" == prefix }
    }
}
