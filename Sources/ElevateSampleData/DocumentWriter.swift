/// A source of the items of one kind of document: its fixed text around the items, and the
/// items themselves, drawn from a seeded generator.
protocol SampleItemSource {
    /// The text before the first item, which may depend on how many items follow.
    func header(itemCount: Int) -> [UInt8]
    /// The text after the last item.
    var footer: [UInt8] { get }
    /// Appends the next item's JSON text, advancing the generator.
    mutating func appendItem(to buffer: inout [UInt8])
}

/// Writes a document from a ``SampleItemSource`` through a buffer of about 1 MiB.
///
/// Why two passes: the people document gives its item count *before* the items, and the count
/// depends on where the target size falls. The first pass generates the items only to measure
/// them (into a small scratch buffer that is reused); the second regenerates the same items from
/// the same seed and writes them. Generating is cheap next to writing, and nothing but one
/// buffer is ever held in memory.
enum DocumentWriter {
    /// The size of the pieces handed to the sink.
    static let bufferSize = 1 << 20

    static let separator: [UInt8] = Array(",\n".utf8)

    static func write<Source: SampleItemSource>(
        _ source: Source, targetSize: Int, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> SampleDocument.Summary {
        let itemCount = countItems(source, targetSize: targetSize)

        var source = source
        var buffer: [UInt8] = []
        buffer.reserveCapacity(bufferSize + (64 << 10))
        var byteCount = 0
        func flush() throws {
            byteCount += buffer.count
            try buffer.withUnsafeBytes { try sink($0) }
            buffer.removeAll(keepingCapacity: true)
        }

        buffer.append(contentsOf: source.header(itemCount: itemCount))
        for index in 0..<itemCount {
            if index > 0 { buffer.append(contentsOf: separator) }
            source.appendItem(to: &buffer)
            if buffer.count >= bufferSize { try flush() }
        }
        buffer.append(contentsOf: source.footer)
        try flush()
        return SampleDocument.Summary(itemCount: itemCount, byteCount: byteCount)
    }

    /// The number of items after which the document first reaches `targetSize` bytes; at least one.
    private static func countItems<Source: SampleItemSource>(_ source: Source, targetSize: Int) -> Int {
        var source = source
        var scratch: [UInt8] = []
        scratch.reserveCapacity(4096)
        var itemBytes = 0
        var itemCount = 0
        let footerSize = source.footer.count
        repeat {
            scratch.removeAll(keepingCapacity: true)
            source.appendItem(to: &scratch)
            itemBytes += scratch.count + (itemCount > 0 ? separator.count : 0)
            itemCount += 1
        } while source.header(itemCount: itemCount).count + itemBytes + footerSize < targetSize
        return itemCount
    }
}

extension Array where Element == UInt8 {
    /// Appends ASCII or UTF-8 text given as a literal.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value`, with a minus sign when negative.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// Appends the decimal digits of `value`, at least `minimumDigits` of them (zero-padded).
    mutating func appendDecimal(_ value: UInt, minimumDigits: Int = 1) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes hold UInt64.max's 20 digits
        var count = 0
        var rest = value
        Swift.withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            while count < minimumDigits {
                scratch[23 - count] = UInt8(ascii: "0")
                count += 1
            }
            append(contentsOf: scratch[(24 - count)...])
        }
    }
}
