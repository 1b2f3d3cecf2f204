/// A borrowed view of an unescaped, validated UTF-8 string or key, valid only during the
/// ``JSONEventHandler`` call that received it.
public struct JSONText {
    /// The UTF-8 bytes, without quotes and with escapes resolved.
    public let bytes: UnsafeRawBufferPointer

    @inlinable
    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// A copy of the text as a `String`.
    @inlinable
    public var string: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The number of UTF-8 bytes.
    @inlinable
    public var count: Int { bytes.count }

    /// Whether the text equals the given UTF-8 bytes, without creating a `String`.
    @inlinable
    public func equals(_ utf8: [UInt8]) -> Bool {
        guard utf8.count == bytes.count else { return false }
        return utf8.withUnsafeBytes { other in
            other.count == 0 || memcmp(other.baseAddress!, bytes.baseAddress!, other.count) == 0
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
