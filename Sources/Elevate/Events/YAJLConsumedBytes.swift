internal import CYAJL

/// Where a YAJL handle keeps the count of bytes it has consumed, read without a call.
///
/// The callbacks of containers, literals and escaped text learn where their token ends from that
/// count. `yajl_get_bytes_consumed` returns one field of the handle, but as a call into the
/// shared library (through the procedure linkage table) it made each of those callbacks save
/// registers and set up a frame: about seventeen of the thirty instructions of `{`, which, with
/// `}`, `[`, `]` and the literals, is a fifth of all events. In YAJL 2.x the count is the fifth
/// pointer-sized field of `struct yajl_handle_t` (after the callbacks, the context, the lexer and
/// the parse error). That struct is private to YAJL, so the layout is not assumed: it is checked
/// once per process against `yajl_get_bytes_consumed` on a probe handle, and a library that does
/// not match is read through the call as before.
enum YAJLConsumedBytes {
    /// The byte offset of the count in a handle, or nil when this YAJL's handle does not have the
    /// expected layout (see ``verifiedOffset(_:)``).
    static let fieldOffset: Int? = verifiedOffset(4 * MemoryLayout<Int>.stride)

    /// The address of `handle`'s count, when it can be read directly.
    static func fieldAddress(in handle: OpaquePointer) -> UnsafeRawPointer? {
        fieldOffset.map { UnsafeRawPointer(handle) + $0 }
    }

    /// `offset` if a probe handle keeps its context at the second field and the value of
    /// `yajl_get_bytes_consumed` at `offset` after each of several chunks of different lengths.
    static func verifiedOffset(_ offset: Int) -> Int? {
        // The context pointer also shows that the struct begins as expected.
        let context = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer { context.deallocate() }
        guard let handle = yajl_alloc(nil, nil, context) else { return nil }
        defer { yajl_free(handle) }
        let base = UnsafeRawPointer(handle)
        guard base.load(fromByteOffset: MemoryLayout<Int>.stride, as: UnsafeRawPointer?.self) == UnsafeRawPointer(context)
        else { return nil }
        // Three chunks of three different lengths: after each, the count is the chunk's length.
        for chunk in ["[1,", " 22, 333", "]"] {
            let text = Array(chunk.utf8)
            let status = text.withUnsafeBufferPointer { yajl_parse(handle, $0.baseAddress, $0.count) }
            let consumed = Int(yajl_get_bytes_consumed(handle))
            guard status == yajl_status_ok, consumed == text.count,
                base.load(fromByteOffset: offset, as: Int.self) == consumed
            else { return nil }
        }
        return offset
    }
}
