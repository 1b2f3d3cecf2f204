import Elevate
import Foundation
import _FuzzSupport

/// Gzip input: the synchronous reader (`JSONInput.data(…).forEachChunk`, which inflates on a
/// thread of its own into small chunks) and the asynchronous adapter (`decompressingGzip()`, on
/// the calling task, over the input cut into chunks) give the same text or the same error (its
/// problem and compressed byte offset); and for gzip built from the input (members of stored
/// blocks, then cut, damaged or followed by other bytes as the input draws) they give the text
/// itself, `truncated` at the cut, or `trailingData` where the other bytes start.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let text = input.bytes
    let built = input.chance(4) == false
    var gzip: [UInt8]
    var expected: Outcome?
    if built {
        // Members of stored blocks, the text cut among them.
        let members = 1 + input.next(below: 3)
        var cuts = (0..<members - 1).map { _ in input.next(below: text.count + 1) }.sorted()
        cuts = [0] + cuts + [text.count]
        gzip = zip(cuts, cuts.dropFirst()).flatMap { storedGzip(Array(text[$0..<$1]), blockSize: 1 + input.next(below: 300)) }
        expected = Outcome(text: text)
        switch input.next(below: 4) {
        case 0 where gzip.count > 2:
            let cut = 2 + input.next(below: gzip.count - 2)
            gzip = Array(gzip[..<cut])
            // A cut exactly between members leaves whole members: their text, no error.
            expected = nil
        case 1:
            let tail = [UInt8(input.next(below: 256)), input.chance(2) ? 0x8B : UInt8(input.next(below: 256))]
            // Two bytes that start a member are one cut short; any others are trailing data.
            expected =
                tail == [0x1F, 0x8B]
                ? Outcome(problem: .truncated, offset: gzip.count + 2) : Outcome(problem: .trailingData, offset: gzip.count)
            gzip += tail
        case 2 where !gzip.isEmpty:
            gzip[input.next(below: gzip.count)] ^= UInt8(1 + input.next(below: 255))
            expected = nil
        default:
            break
        }
    } else {
        // The input as deflate data after a gzip header: zlib's own paths, and whatever follows.
        gzip = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255] + text
    }

    var synchronous = Outcome()
    do {
        try JSONInput.data(Data(gzip)).forEachChunk(chunkSize: 4096) { synchronous.text += $0 }
    } catch {
        synchronous.error(error)
    }
    let chunks = input.chunks(count: gzip.count).map { Array(gzip[$0]) }
    let asynchronous = runBlocking {
        var outcome = Outcome()
        do {
            for try await chunk in Chunks(chunks: chunks).decompressingGzip(chunkSize: 4096) { outcome.text += chunk }
        } catch {
            outcome.error(error)
        }
        return outcome
    }
    fuzzCheck(
        synchronous == asynchronous,
        "the reader and the adapter differ (chunks \(chunks.map(\.count)))\nreader:  \(synchronous)\nadapter: \(asynchronous)")
    if let expected {
        fuzzCheck(synchronous == expected, "not the gzip built\ngot:      \(synchronous)\nexpected: \(expected)")
    }
    return 0
}

/// The text inflated, and the error that ended it.
struct Outcome: Equatable, CustomStringConvertible {
    var text: [UInt8] = []
    var problem: JSONInputError.GzipProblem?
    var offset: Int?
    var other: String?

    init(text: [UInt8] = []) { self.text = text }

    init(problem: JSONInputError.GzipProblem, offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    mutating func error(_ error: any Error) {
        guard let error = error as? JSONInputError, let problem = error.gzipProblem else {
            other = "\(error)"
            return
        }
        self.problem = problem
        offset = error.compressedByteOffset
    }

    /// Texts compare when there is no error: after one, how much text came before it depends on
    /// where each reader's chunks ended.
    static func == (a: Outcome, b: Outcome) -> Bool {
        a.problem == b.problem && a.offset == b.offset && a.other == b.other && (a.problem != nil || a.text == b.text)
    }

    var description: String {
        "\(text.count) bytes, \(problem.map { "\($0) at \(offset ?? -1)" } ?? other ?? "no error")"
    }
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
