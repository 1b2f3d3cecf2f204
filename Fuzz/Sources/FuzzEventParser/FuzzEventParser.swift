import Elevate
import _FuzzSupport

/// The event parser gives the same events, at the same offsets, and the same error however the
/// input is split; a handler that stops after `k` events sees exactly the first `k`.
///
/// JSONSerialization is not compared: the README documents agreement on values for accepted
/// JSONTestSuite `y_` files only, and differences on purpose elsewhere (byte order mark, lone
/// surrogates, form feeds, large numbers, depth).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    // Options that must not change with chunking. A small maximumTokenSize is left out on purpose:
    // it is enforced only on a token split across chunks, so its errors depend on the split.
    let options = JSONParsingOptions(
        allowsComments: input.chance(4), allowsMultipleValues: input.chance(4),
        maximumDepth: input.chance(4) ? 1 + input.next(below: 8) : 512)
    let whole = run(input.bytes, chunks: [0..<input.bytes.count], options: options)
    let chunks = input.chunks(count: input.bytes.count)
    let split = run(input.bytes, chunks: chunks, options: options)
    fuzzCheck(
        whole.matches(split),
        """
        whole and split runs differ (options \(options), chunk sizes \(chunks.map(\.count)))
        whole: \(whole)
        split: \(split)
        """)

    // Stopping: the first k events of the whole run, then no error.
    if !whole.events.isEmpty {
        let limit = 1 + input.next(below: whole.events.count)
        let stopped = run(input.bytes, chunks: chunks, options: options, stopAfter: limit)
        fuzzCheck(
            stopped.events == Array(whole.events.prefix(limit)) && stopped.error == nil,
            """
            stopping after \(limit) events (options \(options), chunk sizes \(chunks.map(\.count)))
            whole:   \(whole)
            stopped: \(stopped)
            """)
    }
    return 0
}

struct Outcome: Equatable, CustomStringConvertible {
    var events: [RecordedEvent]
    var error: JSONSyntaxError?

    /// Equal, errors included: `JSONSyntaxError.byteOffset` is documented to be the same however
    /// the input is split. (It was not, for an unexpected complete token such as `""` after a
    /// member: `Tests/ElevateTests/Events/JSONSyntaxErrorTests.swift`.)
    func matches(_ split: Outcome) -> Bool { self == split }

    var description: String {
        "\(events.map(\.description).joined(separator: " ")) error: \(error.map { "\($0.kind) \($0)" } ?? "none")"
    }
}

func run(_ bytes: [UInt8], chunks: [Range<Int>], options: JSONParsingOptions, stopAfter: Int? = nil) -> Outcome {
    let recorder = EventRecorder(stopAfter: stopAfter)
    let parser = JSONEventParser(handler: recorder, options: options)
    recorder.parser = parser
    do {
        try bytes.withUnsafeBytes { buffer in
            for range in chunks { try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[range])) }
        }
        try parser.finish()
        return Outcome(events: recorder.events, error: nil)
    } catch let error as JSONSyntaxError {
        // The excerpt shows the input only "as far as it had arrived", so it depends on the split.
        var comparable = error
        comparable.excerpt = ""
        return Outcome(events: recorder.events, error: comparable)
    } catch {
        fuzzFailure("unexpected error type \(type(of: error)): \(error)")
    }
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
