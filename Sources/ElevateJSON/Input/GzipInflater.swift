internal import CZlib

import struct Foundation.Data

/// zlib's inflate over gzip input, pushed: each call takes what it can of the compressed bytes it
/// is given and writes at most the room it is given, so that memory is the caller's two buffers
/// (and zlib's 32 KiB window) whatever the compression ratio. The one Swift type that talks to zlib.
///
/// Members follow each other as `cat a.gz b.gz` leaves them, and are read as one text, as `zcat`
/// does: after a member's trailer, bytes that start with gzip's magic bytes start the next member;
/// any other byte is ``JSONInputError/GzipProblem/trailingData``. Every error carries the offset in
/// the compressed bytes at which it was found.
final class GzipInflater {
    /// The first two bytes of every gzip member (RFC 1952). No JSON text can start with 0x1F, a
    /// control character, so these bytes tell gzip from JSON without any doubt.
    static let magicBytes: (UInt8, UInt8) = (0x1F, 0x8B)

    /// Whether `bytes` start with gzip's magic bytes (false for fewer than two bytes).
    static func startsGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == magicBytes.0 && bytes[1] == magicBytes.1
    }

    /// Where the compressed bytes stand.
    private enum Position {
        /// Inside a member, from its header to its trailer.
        case inMember
        /// After a member's trailer: the end of the input, or another member.
        case betweenMembers
        /// After a member and the first magic byte of what may be the next, which ended the bytes
        /// given: the next bytes say whether it is a member.
        case afterFirstMagicByte
    }

    /// zlib keeps a pointer back to its stream and checks it on every call, so the stream must
    /// never move: it lives in memory of its own, not in a Swift property.
    private let stream: UnsafeMutablePointer<z_stream>
    private var position = Position.inMember
    /// Compressed bytes taken so far, members before the current one included (zlib's own count
    /// restarts with each member).
    private(set) var compressedOffset = 0
    /// What errors name: the path, `standard input`, ….
    private let name: String

    /// An inflater for input that starts with a gzip member (the caller has seen its magic bytes).
    /// - Parameter name: The input's name, for errors.
    /// - Throws: ``JSONInputError`` when zlib cannot get its memory.
    init(name: String) throws {
        self.name = name
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_inflate_init_gzip(stream)
        guard status == Z_OK else {
            stream.deallocate()
            throw JSONInputError(path: name, reason: "cannot inflate gzip input: zlib could not start (\(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Inflates from the start of `input` into the start of `output`, until `input` is all taken
    /// and zlib has written all it can of it, or `output` is full.
    ///
    /// With an empty `input`, writes what zlib still holds of the input taken before (the rest
    /// of a long match, when `output` filled before it was all written): at the end of the input,
    /// call this until it writes nothing, then ``finish()``.
    /// - Parameters:
    ///   - input: Compressed bytes that follow those of the previous call.
    ///   - output: Room for inflated bytes.
    /// A failure met after some text was written comes after that text: the call returns it,
    /// and the next call throws the failure.
    /// - Returns: How many bytes of `input` were taken and of `output` written. Bytes of `input`
    ///   not taken (when `output` filled) must be given again, first, to the next call.
    /// - Throws: ``JSONInputError`` with ``JSONInputError/GzipProblem/corrupt`` or
    ///   ``JSONInputError/GzipProblem/trailingData``.
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws
        -> (taken: Int, written: Int)
    {
        if let failure = deferredFailure {
            deferredFailure = nil
            throw failure
        }
        var taken = 0
        var written = 0
        do {
            try inflate(input, into: output, taken: &taken, written: &written)
        } catch where written > 0 {
            deferredFailure = error
        }
        return (taken, written)
    }

    /// The failure met after the text a call returned, for the next call to throw.
    private var deferredFailure: (any Error)?

    /// ``inflate(_:into:)``, counting as it goes: `taken` and `written` hold what was done when
    /// it throws.
    private func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, taken: inout Int,
        written: inout Int
    ) throws {
        while written < output.count {
            switch position {
            case .inMember:
                let (memberTaken, memberWritten, ended, failure) = inflateMember(
                    UnsafeRawBufferPointer(rebasing: input[taken...]),
                    into: UnsafeMutableRawBufferPointer(rebasing: output[written...]))
                taken += memberTaken
                written += memberWritten
                if let failure { throw failure }
                if ended {
                    position = .betweenMembers
                } else if memberTaken == 0 && memberWritten == 0 {
                    // zlib wants more input than there is.
                    return
                }
            case .betweenMembers:
                guard taken < input.count else { return }
                guard input[taken] == Self.magicBytes.0 else { throw trailingData(at: compressedOffset) }
                guard taken + 1 < input.count else {
                    // The second byte is in the next input: keep the first in mind.
                    taken += 1
                    compressedOffset += 1
                    position = .afterFirstMagicByte
                    return
                }
                guard input[taken + 1] == Self.magicBytes.1 else { throw trailingData(at: compressedOffset) }
                // Left in the input: zlib reads the next member's header from its first byte.
                startNextMember()
            case .afterFirstMagicByte:
                guard taken < input.count else { return }
                guard input[taken] == Self.magicBytes.1 else { throw trailingData(at: compressedOffset - 1) }
                startNextMember()
                // The first magic byte, taken with the previous input, goes to zlib now (which
                // reads a header without writing anything or ending the member).
                var firstByte = Self.magicBytes.0
                let failure = withUnsafeBytes(of: &firstByte) { byte in
                    inflateMember(byte, into: UnsafeMutableRawBufferPointer(rebasing: output[written...])).failure
                }
                if let failure { throw failure }
                // Counted when it was first taken.
                compressedOffset -= 1
            }
        }
    }

    /// Checks that the input ended where it may: between members.
    /// - Throws: ``JSONInputError`` with ``JSONInputError/GzipProblem/truncated`` when it ended
    ///   inside a member (or after the first byte of another).
    func finish() throws {
        if let failure = deferredFailure {
            deferredFailure = nil
            throw failure
        }
        switch position {
        case .betweenMembers:
            return
        case .inMember, .afterFirstMagicByte:
            throw JSONInputError(
                path: name,
                reason: "gzip input is truncated: it ends inside a member, at compressed byte \(compressedOffset)",
                gzipProblem: .truncated, compressedByteOffset: compressedOffset)
        }
    }

    private func startNextMember() {
        // Keeps the window's memory and the gzip-only header setting; clears the member's state.
        inflateReset(stream)
        position = .inMember
    }

    /// One member's inflate, over bytes that all belong to the member until zlib says it ended.
    private func inflateMember(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        -> (taken: Int, written: Int, ended: Bool, failure: JSONInputError?)
    {
        // zlib counts in 32 bits: larger buffers are taken in slices, by the loop of the caller.
        let inputCount = min(input.count, Int(UInt32.max))
        let outputCount = min(output.count, Int(UInt32.max))
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(inputCount)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(outputCount)
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        let taken = inputCount - Int(stream.pointee.avail_in)
        let written = outputCount - Int(stream.pointee.avail_out)
        compressedOffset += taken
        // Nothing left pointing at the caller's buffers.
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        switch status {
        case Z_OK, Z_BUF_ERROR:
            // Z_BUF_ERROR: no progress possible until there is more input or room, not an error.
            return (taken, written, false, nil)
        case Z_STREAM_END:
            return (taken, written, true, nil)
        case Z_MEM_ERROR:
            return (taken, written, false, JSONInputError(path: name, reason: "cannot inflate gzip input: out of memory"))
        default:
            // Z_DATA_ERROR (bad header, deflate data, CRC or length), Z_NEED_DICT (a zlib
            // dictionary, which gzip never uses), Z_STREAM_ERROR. What zlib wrote before it met
            // the error is returned with it, and comes first.
            let detail = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data (zlib status \(status))"
            let failure = JSONInputError(
                path: name, reason: "gzip input is corrupt at compressed byte \(compressedOffset): \(detail)",
                gzipProblem: .corrupt, compressedByteOffset: compressedOffset)
            return (taken, written, false, failure)
        }
    }

    private func trailingData(at offset: Int) -> JSONInputError {
        JSONInputError(
            path: name,
            reason: "gzip input has trailing data: compressed byte \(offset), after the last member, starts no member",
            gzipProblem: .trailingData, compressedByteOffset: offset)
    }
}

extension Data {
    /// Whether the data starts with gzip's magic bytes: it is gzip, not JSON text.
    var startsWithGzipMagicBytes: Bool {
        count >= 2 && self[startIndex] == GzipInflater.magicBytes.0
            && self[startIndex + 1] == GzipInflater.magicBytes.1
    }
}
