import ElevateJSON
import Foundation
import Testing
import UploadServer

/// `POST /items/count` through a real socket, against the server running in this process.
///
/// Serialized, so that the peak memory the large upload reports is that upload's alone.
@Suite(.serialized)
struct ItemCountRouteTests {
    /// The large upload's size: 256 MiB, or `UPLOAD_TEST_MIB` from the environment for a quicker run.
    static let largeUploadBytes = (ProcessInfo.processInfo.environment["UPLOAD_TEST_MIB"].flatMap { Int($0) } ?? 256) << 20

    /// The bound on the process's peak resident memory after the large upload. The process (test
    /// runner, server and client) stays near 40 MiB however large the body; a collected 256 MiB body
    /// could not fit.
    static let peakResidentBytesLimit = 128 << 20

    @Test func countsEveryItemOfASmallUpload() async throws {
        let document = ItemsDocument(byteCount: 10_000)
        let answer = try await upload(document)
        #expect(answer.count == document.itemCount)
        #expect(answer.quantityTotal == document.quantityTotal)
    }

    @Test func decodesALargeUploadInBoundedMemory() async throws {
        let document = ItemsDocument(byteCount: Self.largeUploadBytes)
        let peakBefore = try #require(ProcessMemory.peakResidentBytes)
        let clock = ContinuousClock()
        let start = clock.now
        let answer = try await upload(document)
        let elapsed = clock.now - start
        let peak = try #require(answer.peakResidentBytes)
        print(
            "Uploaded \(document.byteCount >> 20) MiB, \(document.itemCount) items, in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))): "
                + "peak resident memory \(peak >> 20) MiB (\(peakBefore >> 20) MiB before the upload)")
        #expect(answer.count == document.itemCount)
        #expect(answer.quantityTotal == document.quantityTotal)
        #expect(peak < Self.peakResidentBytesLimit)
    }

    @Test func answersBadRequestWithTheOffsetOfASyntaxError() async throws {
        let body = #"{"items":[{"id":1,"name":"a","quantity":1},]}"#
        let response = try await withUploadServer { port in
            try await LoopbackHTTPClient.post(port: port, path: "/items/count", body: Array(body.utf8))
        }
        #expect(response.status == 400)
        let message = try errorMessage(of: response)
        // The trailing comma is accepted; the `]` after it is not.
        let offset = body.utf8.firstIndex(of: UInt8(ascii: "]")).map { body.utf8.distance(from: body.startIndex, to: $0) }
        #expect(message.contains("byte offset \(try #require(offset))"), "\(message)")
    }

    @Test func answersBadRequestForAnElementThatIsNotAnItem() async throws {
        let body = #"{"items":[{"id":1,"name":"a","quantity":1},{"id":2,"name":"b"}]}"#
        let response = try await withUploadServer { port in
            try await LoopbackHTTPClient.post(port: port, path: "/items/count", body: Array(body.utf8))
        }
        #expect(response.status == 400)
        let message = try errorMessage(of: response)
        #expect(message.contains("quantity"), "\(message)")
        #expect(message.contains("items[1]"), "\(message)")  // the coding path
    }

    @Test func answersBadRequestWithoutAnItemsArray() async throws {
        let response = try await withUploadServer { port in
            try await LoopbackHTTPClient.post(port: port, path: "/items/count", body: Array(#"{"things":[]}"#.utf8))
        }
        #expect(response.status == 400)
        #expect(try errorMessage(of: response).contains("items"))
    }

    /// Uploads the document through a socket, chunk by chunk, and decodes the answer.
    private func upload(_ document: ItemsDocument) async throws -> ItemCount {
        let response = try await withUploadServer { port in
            try await LoopbackHTTPClient.post(port: port, path: "/items/count", contentLength: document.byteCount) { send in
                try document.write(to: send)
            }
        }
        try #require(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try ElevateJSONDecoder().decode(ItemCount.self, from: Data(response.body))
    }

    /// The message of Hummingbird's error body, `{"error": {"message": "…"}}`.
    private func errorMessage(of response: LoopbackHTTPClient.Response) throws -> String {
        struct ErrorBody: Decodable {
            struct Error: Decodable { var message: String }
            var error: Error
        }
        return try ElevateJSONDecoder().decode(ErrorBody.self, from: Data(response.body)).error.message
    }
}
