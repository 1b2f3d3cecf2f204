import Foundation
import Testing

/// The `elevate` executable that `swift build` put next to the test bundle: the tool's tests run it,
/// and so do the library's few tests that measure a child process (`elevate bench --child`).
public enum ElevateBinary {
    /// The executable, or nil when it was not built (then the tests that run it are skipped).
    /// `ELEVATE_EXECUTABLE` names another, such as a release build for the long checks (CI).
    public static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["ELEVATE_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let fileManager = FileManager.default
        var directories = [
            // The products directory holds both the test bundle (which links this module) and the
            // executable; the bundle is found through one of this module's classes.
            Bundle(for: ScratchDirectory.self).bundleURL.deletingLastPathComponent(),
            // On Linux the test bundle is itself an executable in the products directory.
            Bundle.main.bundleURL,
        ]
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        // The repository's root: this file is `<root>/Tests/ElevateTestSupport/ElevateBinary.swift`.
        let repositoryRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        directories.append(repositoryRoot.appendingPathComponent(".build/debug"))
        return directories.map { $0.appendingPathComponent("elevate") }
            .first { fileManager.isExecutableFile(atPath: $0.path) }
    }()

    public static let missingMessage: Comment = "skipping: the elevate executable was not found next to the test bundle"

    /// What one run printed and how it ended.
    public struct Result {
        public var status: Int32
        public var standardOutput: Data
        public var standardError: String
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// Runs `elevate` (or `executable`, such as a shell that runs it) with `arguments`, feeding it
    /// `input` on standard input.
    public static func run(
        _ arguments: [String], input: Data = Data(), executable: URL? = nil, in directory: URL
    ) throws -> Result {
        // Files rather than pipes, so that a large output cannot fill a pipe and block the child.
        let outURL = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        let inURL = directory.appendingPathComponent("stdin-\(UUID().uuidString)")
        for url in [outURL, errURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        try input.write(to: inURL)
        defer { for url in [outURL, errURL, inURL] { try? FileManager.default.removeItem(at: url) } }

        let process = Process()
        process.executableURL = executable ?? url!
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inHandle
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        try inHandle.close()
        return Result(
            status: process.terminationStatus, standardOutput: try Data(contentsOf: outURL),
            standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A temporary directory holding the test's files, removed at the end.
public final class ScratchDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to a file called `name` and returns its path.
    @discardableResult
    public func file(_ name: String, _ text: String) throws -> String {
        let fileURL = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: fileURL)
        return fileURL.path
    }

    public func run(_ arguments: String..., input: String = "") throws -> ElevateBinary.Result {
        try ElevateBinary.run(arguments, input: Data(input.utf8), in: url)
    }
}
