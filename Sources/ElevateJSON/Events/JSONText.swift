/// A borrowed view of an unescaped, validated UTF-8 string or key, valid only during the
/// ``JSONEventHandler`` call that received it.
///
/// Its bytes are lent, never handed out: read them inside ``withUnsafeBytes(_:)``, or copy the
/// text with ``string``.
///
/// ```swift
/// func key(_ key: JSONText) throws {
///     if key.equals(Array("id".utf8)) { … }
///     let length = key.withUnsafeBytes { $0.count }
/// }
/// ```
public struct JSONText {
    /// The UTF-8 bytes, without quotes and with escapes resolved; valid only during the handler
    /// call. For the library's own readers, which copy them before returning.
    @usableFromInline
    package let bytes: UnsafeRawBufferPointer

    @inlinable
    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Calls `body` with the text's UTF-8 bytes: no quotes, escapes resolved.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid only inside it:
    ///   do not store or return it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(bytes)
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
    /// - Parameter utf8: The bytes to compare with (`Array("id".utf8)`).
    /// - Returns: Whether they are the same bytes.
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
