internal import CZlib
import Foundation

/// Gzip written with zlib itself, so that the tests of gzip input need no `gzip` binary.
public enum GzipFixture {
    /// One gzip member holding `text`.
    /// - Parameters:
    ///   - text: What the member inflates to.
    ///   - level: zlib's compression level, 0 (stored blocks) to 9.
    public static func member(_ text: some Sequence<UInt8>, level: Int32 = 6) -> Data {
        let bytes = Array(text)
        return member(level: level) { write in write(bytes) }
    }

    /// One gzip member holding `prefix`, then `repeated` `times` times, then `suffix`, compressed
    /// as it is written: a text of gigabytes (a gzip bomb) costs its compressed size only.
    /// - Parameters:
    ///   - prefix: The text's start.
    ///   - repeated: What fills its middle.
    ///   - times: How many times.
    ///   - suffix: The text's end.
    ///   - level: zlib's compression level.
    public static func member(
        prefix: some Sequence<UInt8>, repeating repeated: some Sequence<UInt8>, times: Int, suffix: some Sequence<UInt8>,
        level: Int32 = 9
    ) -> Data {
        let (prefix, repeated, suffix) = (Array(prefix), Array(repeated), Array(suffix))
        return member(level: level) { write in
            write(prefix)
            for _ in 0..<times { write(repeated) }
            write(suffix)
        }
    }

    /// A member of what `produce` writes through the function it is given.
    private static func member(level: Int32, _ produce: (_ write: ([UInt8]) -> Void) -> Void) -> Data {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deallocate()
        }
        precondition(czlib_deflate_init_gzip(stream, level) == Z_OK, "zlib could not start")
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        func deflate(_ input: [UInt8], flush: Int32) {
            var input = input
            input.withUnsafeMutableBufferPointer { input in
                stream.pointee.next_in = input.baseAddress
                stream.pointee.avail_in = uInt(input.count)
                repeat {
                    let produced = buffer.withUnsafeMutableBufferPointer { out in
                        stream.pointee.next_out = out.baseAddress
                        stream.pointee.avail_out = uInt(out.count)
                        let status = CZlib.deflate(stream, flush)
                        precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR)
                        return out.count - Int(stream.pointee.avail_out)
                    }
                    output.append(contentsOf: buffer[..<produced])
                } while stream.pointee.avail_out == 0 || (flush == Z_FINISH && stream.pointee.avail_in > 0)
            }
        }
        produce { deflate($0, flush: Z_NO_FLUSH) }
        deflate([], flush: Z_FINISH)
        return output
    }
}
