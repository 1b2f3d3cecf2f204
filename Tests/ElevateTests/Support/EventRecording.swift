import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

// Parsing helpers shared by the suites of every layer: events recorded as text, chunked feeds, the
// error a document gives, and the seed of the random tests.

/// The seed of the random tests: `ELEVATE_TEST_SEED` when set (to replay a failure), otherwise a
/// fresh one, printed so that any run can be repeated.
let randomTestSeed: UInt64 = {
    let seed =
        ProcessInfo.processInfo.environment["ELEVATE_TEST_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 0...UInt64.max)
    print("random tests use ELEVATE_TEST_SEED=\(seed)")
    return seed
}()

/// Records every event as a line of text, so that two parses can be compared.
final class EventRecorder: JSONEventHandler {
    var events: [String] = []
    func startObject() { events.append("{") }
    func key(_ key: JSONText) { events.append("key:" + key.string) }
    func endObject() { events.append("}") }
    func startArray() { events.append("[") }
    func endArray() { events.append("]") }
    func string(_ value: JSONText) { events.append("s:" + value.string) }
    func number(_ value: JSONNumberText) { events.append("n:" + value.text) }
    func bool(_ value: Bool) { events.append("b:\(value)") }
    func null() { events.append("null") }
}

/// Parses `bytes` split at the given chunk sizes (cycled) and returns the events.
func recordEvents(
    _ bytes: [UInt8], chunkSizes: [Int] = [], options: JSONParsingOptions = .default
) throws -> [String] {
    let recorder = EventRecorder()
    let parser = JSONEventParser(handler: recorder, options: options)
    try parseInChunks(parser, bytes, chunkSizes: chunkSizes.isEmpty ? [Int.max] : chunkSizes)
    return recorder.events
}

/// Feeds `bytes` to `parser` in chunks of `chunkSize` bytes, then finishes.
func parseInChunks(_ parser: JSONEventParser, _ bytes: [UInt8], chunkSize: Int) throws {
    try parseInChunks(parser, bytes, chunkSizes: [chunkSize])
}

/// Feeds `bytes` to `parser` in chunks of the given sizes, cycled, then finishes the parse.
func parseInChunks(_ parser: JSONEventParser, _ bytes: [UInt8], chunkSizes: [Int]) throws {
    var start = 0
    var turn = 0
    while start < bytes.count {
        let end = start + min(bytes.count - start, chunkSizes[turn % chunkSizes.count])
        try parser.parse(Array(bytes[start..<end]))
        start = end
        turn += 1
    }
    try parser.finish()
}

func syntaxError(_ text: String, options: JSONParsingOptions = .default) -> JSONSyntaxError? {
    syntaxError(Array(text.utf8), options: options)
}

func syntaxError(_ bytes: [UInt8], options: JSONParsingOptions = .default) -> JSONSyntaxError? {
    do {
        _ = try recordEvents(bytes, options: options)
        return nil
    } catch let error as JSONSyntaxError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

/// The error of parsing `bytes` in chunks of `chunkSize` bytes, or nil when it parses.
func syntaxError(_ bytes: [UInt8], chunkSize: Int) -> JSONSyntaxError? {
    final class Ignore: JSONEventHandler {}
    let parser = JSONEventParser(handler: Ignore())
    do {
        try parseInChunks(parser, bytes, chunkSize: chunkSize)
        return nil
    } catch {
        return error as? JSONSyntaxError
    }
}
