/// `text` as one gzip member of stored (uncompressed) deflate blocks of at most `blockSize` bytes:
/// valid gzip built in Swift, which a target can then cut, damage or join to others, since a fuzz
/// target reaches only the library's products, not its zlib module.
public func storedGzip(_ text: [UInt8], blockSize: Int = 65535) -> [UInt8] {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in text {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    var gzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
    let blockSize = max(1, min(blockSize, 65535))
    var start = 0
    repeat {
        let end = min(start + blockSize, text.count)
        let length = UInt16(end - start)
        gzip += [end == text.count ? 1 : 0] + littleEndian(length) + littleEndian(~length) + text[start..<end]
        start = end
    } while start < text.count
    return gzip + littleEndian(~crc) + littleEndian(UInt32(truncatingIfNeeded: text.count))
}
