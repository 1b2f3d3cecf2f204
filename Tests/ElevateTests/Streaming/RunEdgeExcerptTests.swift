import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// An error in the last byte of a run that ends where an input chunk ends: its excerpt ends with
/// that chunk, with workers as on one thread (found by review: the run's excerpt went on with the
/// first bytes of the next chunk, where the comma that begins the next run is).
@Suite struct RunEdgeExcerptTests {
    /// An array of one-digit elements, or an object of as many short members, in which the byte
    /// before the comma at 8 KiB (the first byte of the third 4 KiB chunk) is damaged.
    static func document(object: Bool) -> [UInt8] {
        var bytes: [UInt8]
        if object {
            // `{ "a":11, "a":11, …}`: a comma at every offset that is a multiple of 8.
            bytes = Array((#"{ "# + String(repeating: #""a":11, "#, count: 3000) + #""a":1}"#).utf8)
        } else {
            // `[1,1,…]`: a comma at every even offset.
            bytes = Array(("[" + String(repeating: "1,", count: 20_000) + "1]").utf8)
        }
        let comma = 2 * 4096
        precondition(bytes[comma] == UInt8(ascii: ","))
        bytes[comma - 1] = UInt8(ascii: "x")
        return bytes
    }

    static func outcome(object: Bool, workers: Int, runBytes: Int) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-edge-\(UUID().uuidString).json")
        try! Data(document(object: object)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var options = StreamingOptions(chunkSize: 4096, wrapsErrorsInParserError: false)
        options.concurrency = workers
        options.splitBatchByteCount = runBytes
        do {
            return "\(try countedValues(in: .file(url), options: options)) values"
        } catch {
            return SplitLinesReaderTests.describe(error)
        }
    }

    @Test(arguments: [false, true])
    func anExcerptAtARunsEndIsOneThreads(object: Bool) {
        let one = Self.outcome(object: object, workers: 1, runBytes: 1 << 20)
        #expect(one.contains("near"), "\(one)")
        for runBytes in [1, 2, 7, 64] {
            #expect(Self.outcome(object: object, workers: 2, runBytes: runBytes) == one, "runs of \(runBytes)")
        }
    }
}
