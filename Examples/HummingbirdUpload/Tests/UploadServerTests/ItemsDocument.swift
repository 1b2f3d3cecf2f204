/// A `{"items": [...]}` document of an exact size, written a chunk at a time and never held whole:
/// the upload a client streams from a file it does not read into memory.
///
/// Every item has the same width (ids from 10,000,000 up, eight digits each time), so the item
/// count and the size are known before anything is written, as a `Content-Length` header needs;
/// spaces before the closing `]` make up the rest of the size.
struct ItemsDocument: Sendable {
    /// The document's size in bytes.
    let byteCount: Int
    /// How many items the array holds.
    let itemCount: Int

    private static let prefix = Array(#"{"items":["#.utf8)
    private static let suffix = Array("]}".utf8)
    /// One item; the digits are overwritten for each item. About 200 bytes, as records often are
    /// (the people of the library's benchmarks average 207); the route's `Item` has no
    /// `description` and skips it. Fewer, larger elements also keep the test short in a debug build,
    /// whose decoding costs mostly per element: 256 MiB of 51-byte items took 2.5 times as long.
    private static let template = Array(#"{"id":10000000,"name":"item 10000000","quantity":0,"description":"A sample item of the upload test, whose text makes each element about two hundred bytes long, as records often are."}"#.utf8)
    private static let idDigits = 6..<14
    private static let nameDigits = 28..<36
    private static let quantityDigit = 49
    private static let firstID = 10_000_000

    /// A document of `byteCount` bytes, at least room for one item, with as many items as fit.
    init(byteCount: Int) {
        let frame = Self.prefix.count + Self.suffix.count
        precondition(byteCount >= frame + Self.template.count, "a document of \(byteCount) bytes holds no item")
        self.byteCount = byteCount
        // n items take n × width bytes and n - 1 commas.
        itemCount = min((byteCount - frame + 1) / (Self.template.count + 1), 89_999_999)
    }

    /// The quantity of the item at `index`: 0 through 9, in turn.
    static func quantity(ofItem index: Int) -> Int { index % 10 }

    /// The sum of every item's quantity, which the server must find.
    var quantityTotal: Int {
        45 * (itemCount / 10) + (0..<itemCount % 10).reduce(0, +)
    }

    /// Hands the document to `write` in chunks of about `chunkSize` bytes, reusing one buffer.
    func write(chunkSize: Int = 64 << 10, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var chunk = [UInt8]()
        chunk.reserveCapacity(chunkSize + Self.template.count + 1)
        func flushIfFull() throws {
            guard chunk.count >= chunkSize else { return }
            try chunk.withUnsafeBytes(write)
            chunk.removeAll(keepingCapacity: true)
        }
        var item = Self.template
        chunk += Self.prefix
        for index in 0..<itemCount {
            if index > 0 { chunk.append(UInt8(ascii: ",")) }
            Self.writeDigits(of: Self.firstID + index, into: &item, at: Self.idDigits)
            Self.writeDigits(of: Self.firstID + index, into: &item, at: Self.nameDigits)
            item[Self.quantityDigit] = UInt8(ascii: "0") + UInt8(Self.quantity(ofItem: index))
            chunk += item
            try flushIfFull()
        }
        let padding = byteCount - Self.prefix.count - Self.suffix.count - itemCount * (Self.template.count + 1) + 1
        for _ in 0..<padding {
            chunk.append(UInt8(ascii: " "))
            try flushIfFull()
        }
        chunk += Self.suffix
        try chunk.withUnsafeBytes(write)
    }

    private static func writeDigits(of number: Int, into bytes: inout [UInt8], at range: Range<Int>) {
        var rest = number
        for position in range.reversed() {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
