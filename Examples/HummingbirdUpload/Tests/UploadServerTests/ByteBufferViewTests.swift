import Hummingbird
import Testing

/// The route hands the library each body buffer's `readableBytesView`; the library parses a chunk
/// in place when the chunk lends contiguous storage, and copies it otherwise.
@Test func aByteBufferViewLendsItsBytesInPlace() {
    func lendsContiguousStorage(_ chunk: some Sequence<UInt8>) -> Bool {
        chunk.withContiguousStorageIfAvailable { _ in true } ?? false
    }
    let buffer = ByteBuffer(string: #"{"items":[]}"#)
    #expect(lendsContiguousStorage(buffer.readableBytesView))
}
