import ElevateSampleData
import Foundation
import Testing

@testable import Elevate

/// The resident set size now (not the peak), from /proc/self/statm; nil where that is absent.
private func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The smallest decodable that still validates each element through a schema.
private struct Identified: Elevate.Decodable {
    let identifier: Int
    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "identifier", type: .int)
            schema.addProperty(keyPath: "name", type: .string)
        }
        identifier = entity <-! "identifier"
    }
}

/// Whether the temporary directory has room for the generated file (with a margin).
private func temporaryDirectoryHasRoom(for bytes: Int) -> Bool {
    let path = FileManager.default.temporaryDirectory.path
    guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: path))?[.systemFreeSize] as? NSNumber
    else { return true }
    return free.int64Value > Int64(bytes) * 2
}

@Suite(.serialized) struct BoundedMemoryTests {
    /// A generated people document of a few hundred MB, streamed element by element: resident
    /// memory may grow by one element plus the read buffer and the allocator's slack, never
    /// with the file's size. A growth bound, not a timing.
    @Test(
        .enabled(if: residentBytes() != nil, "needs /proc/self/statm (Linux)"),
        .enabled(if: temporaryDirectoryHasRoom(for: 256 << 20), "needs 512 MiB free in the temporary directory")
    )
    func forEachElementStaysBoundedOnAFileOfHundredsOfMegabytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("elevate-bounded-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let size = 256 << 20
        let summary = try SampleDocument.people.write(to: url, targetSize: size, seed: SampleDocument.defaultSeed)
        #expect(summary.byteCount >= size)

        let baseline = try #require(residentBytes())
        var peak = baseline
        var count = 0
        let delivered = try Elevate.forEachElement(ofArrayAt: "response.items", contentsOf: url, as: Identified.self) {
            _ in
            count += 1
            if count % 4096 == 0, let now = residentBytes() { peak = max(peak, now) }
        }
        #expect(delivered == summary.itemCount)
        let growth = peak - baseline
        #expect(
            growth < 48 << 20, "resident memory grew by \(growth >> 20) MiB over a \(summary.byteCount >> 20) MiB file")
    }
}
