import ElevateJSON
import Foundation
import Testing

/// `AsyncFileChunks`: a file read as it is asked for, for the `AsyncSequence` calls.
@Suite struct AsyncFileChunksTests {
    struct Person: Codable, Equatable {
        var id: Int
        var name: String
    }

    /// A scratch file with `people` people under `items`, removed by the caller.
    static func file(people: Int) throws -> (url: URL, data: Data) {
        let items = (0..<people).map { #"{"id": \#($0), "name": "person \#($0)"}"# }.joined(separator: ",\n")
        let data = Data(#"{"items": [\#(items)]}"#.utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID().uuidString).json")
        try data.write(to: url)
        return (url, data)
    }

    @Test func chunksAreTheFilesBytesInOrder() async throws {
        let (url, data) = try Self.file(people: 3000)
        defer { try? FileManager.default.removeItem(at: url) }
        var bytes: [UInt8] = []
        var sizes: [Int] = []
        for try await chunk in AsyncFileChunks(url: url, chunkSize: 4096) {
            bytes += chunk
            sizes.append(chunk.count)
        }
        #expect(Data(bytes) == data)
        #expect(sizes.allSatisfy { $0 <= 4096 } && sizes.count == (data.count + 4095) / 4096)
    }

    @Test func theStreamingCallsReadIt() async throws {
        let (url, _) = try Self.file(people: 2000)
        defer { try? FileManager.default.removeItem(at: url) }
        var count = 0
        for try await person in AsyncFileChunks(url: url, chunkSize: 4096).decodedElements(atKeyPath: "items", as: Person.self) {
            #expect(person.id == count)
            count += 1
        }
        #expect(count == 2000)
        let document = try await JSONValue(parsing: AsyncFileChunks(url: url))
        #expect(document["items"]?.count == 2000)
    }

    /// A file that cannot be opened fails at the first `next()`, naming the path.
    @Test func aMissingFileIsAnInputError() async {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).json")
        await #expect {
            for try await _ in AsyncFileChunks(url: url) {}
        } throws: { error in
            (error as? JSONInputError)?.path == url.path
        }
    }
}
