extension UInt8 {
    /// Whether the byte is JSON whitespace (RFC 8259: space, `\n`, `\r`, `\t`; not a form feed or
    /// a vertical tab, which YAJL also skips and the event layer refuses).
    @inline(__always)
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
