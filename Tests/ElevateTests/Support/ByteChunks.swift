/// The given byte chunks, in order, as an asynchronous sequence (deterministic, unlike a pipe).
struct ByteChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let pieces: [[UInt8]]

    struct AsyncIterator: AsyncIteratorProtocol {
        var pieces: ArraySlice<[UInt8]>
        mutating func next() async -> [UInt8]? { pieces.popFirst() }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pieces: pieces[...]) }

    /// `bytes` cut at each of `points` (out-of-range and repeated points are ignored).
    init(_ bytes: [UInt8], cutAt points: [Int]) {
        var pieces: [[UInt8]] = []
        var start = 0
        for point in points.sorted() where point > start && point < bytes.count {
            pieces.append(Array(bytes[start..<point]))
            start = point
        }
        pieces.append(Array(bytes[start...]))
        self.pieces = pieces
    }

    /// `bytes` in chunks of `size`.
    init(_ bytes: [UInt8], size: Int) {
        self.init(bytes, cutAt: Array(stride(from: size, to: bytes.count, by: size)))
    }
}
