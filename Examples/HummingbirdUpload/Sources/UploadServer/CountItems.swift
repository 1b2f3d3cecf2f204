import ElevateJSON
import Hummingbird

/// Decodes the `{"items": [...]}` document of a request body element by element, as its bytes
/// arrive, and counts the items.
///
/// Memory holds the element being decoded and the buffers in flight, whatever the body's size:
/// the body is never collected (`request.decode(as:context:)` would refuse one over 2 MiB anyway,
/// the context's default `maxUploadSize`).
///
/// - Parameter body: A request body, streamed as Hummingbird hands it to a route by default.
/// - Returns: How many items the array held, and the sum of their quantities.
/// - Throws: `HTTPError(.badRequest)` with the library's message when the body is not JSON (the
///   message gives the byte offset, line and column), has no array at `items`, or holds an element
///   that is not an ``Item`` (the message gives its coding path); what the body throws otherwise
///   (the client went away).
func countItems(in body: RequestBody) async throws -> ItemCount {
    // The body is a sequence of NIO ByteBuffers as they were read from the socket, with
    // back-pressure: NIO stops reading while the buffers already read wait. `readableBytesView`
    // lends a buffer's bytes in place, and the library parses them through
    // `withContiguousStorageIfAvailable`, so nothing is copied on the way.
    let chunks = body.map(\.readableBytesView)
    var count = 0
    var quantityTotal = 0
    do {
        for try await item in chunks.decodedElements(atKeyPath: "items", as: Item.self) {
            count += 1
            quantityTotal += item.quantity
        }
    } catch let error as ParserError {
        // "Parser Deserialization Error - … (byte offset 41) …" for a body that is not JSON;
        // "Parser Validation Error - …" for a missing array or a limit of StreamingOptions.
        throw HTTPError(.badRequest, message: error.description)
    } catch let error as DecodingError {
        throw HTTPError(.badRequest, message: String(describing: error))
    }
    return ItemCount(count: count, quantityTotal: quantityTotal, peakResidentBytes: ProcessMemory.peakResidentBytes)
}
