import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Gzip input, from a descriptor or from memory, inflated into whatever buffer the caller hands
/// over next: the synchronous side of gzip reading, run on the calling thread or on the inflating
/// thread of ``GzipReading``.
///
/// Memory is fixed: the caller's read buffer for compressed bytes, the caller's output buffers,
/// zlib's window. However much a few compressed bytes inflate to (a gzip bomb), each call writes
/// at most one buffer, and the reader that consumes the buffers applies its limits as it does to
/// plain input.
final class InflatingChunkReader {
    /// A read of the descriptor failed with this `errno`.
    struct ReadFailure: Error {
        let code: Int32
    }

    /// The parsing side stopped while this reader waited for input.
    struct Stopped: Error {}

    /// Where compressed bytes come from.
    private enum Source {
        /// Read into `buffer`, which the caller owns and keeps for the reader's life.
        case descriptor(Int32, buffer: UnsafeMutableRawBufferPointer)
        /// All at hand.
        case memory
    }

    private let source: Source
    private let inflater: GzipInflater
    /// Compressed bytes at hand and not yet taken by the inflater.
    private var pending: UnsafeRawBufferPointer
    /// Whether the source has nothing more to give.
    private var sourceEnded: Bool
    /// Whether the last member ended with the input, as checked by ``GzipInflater/finish()``.
    private var isFinished = false
    /// The failure met after some text of a buffer was inflated: that text is returned first,
    /// and this is thrown by the next call.
    private var deferredFailure: (any Error)?
    /// With a descriptor, a second descriptor that the wait for input watches too: when it turns
    /// readable (the parsing side wrote to it because it stopped), the reader stops waiting and
    /// throws ``Stopped``, so that a stop never waits for a pipe's writer. -1 for none.
    var wakeDescriptor: Int32 = -1

    /// Compressed bytes taken so far: what progress reports, the size of the input at the end.
    var compressedOffset: Int { inflater.compressedOffset }

    /// A reader of `descriptor` whose first `count` bytes are already in `buffer`.
    /// - Parameters:
    ///   - descriptor: Open for reading, positioned after the bytes in `buffer`.
    ///   - buffer: The read buffer, owned by the caller and valid while the reader is used.
    ///   - count: How many bytes at its start were read already (gzip's magic bytes among them).
    ///   - name: The input's name, for errors.
    init(descriptor: Int32, buffer: UnsafeMutableRawBufferPointer, holding count: Int, name: String) throws {
        source = .descriptor(descriptor, buffer: buffer)
        inflater = try GzipInflater(name: name)
        pending = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        sourceEnded = false
    }

    /// A reader of compressed bytes in memory.
    /// - Parameters:
    ///   - bytes: The whole input, valid while the reader is used.
    ///   - name: The input's name, for errors.
    init(bytes: UnsafeRawBufferPointer, name: String) throws {
        source = .memory
        inflater = try GzipInflater(name: name)
        pending = bytes
        sourceEnded = true
    }

    /// Inflates into `output` from its start.
    ///
    /// It returns before `output` is full only at the end of the text, or when the compressed
    /// bytes at hand are used up and the descriptor has nothing to read yet (a pipe, a socket):
    /// then what was inflated goes to the parser before the reader waits, as plain input from
    /// such a descriptor would.
    /// - Parameter output: Room for inflated bytes.
    /// A failure (damaged gzip, a failed read) comes after the text inflated before it: the call
    /// that meets it returns that text, and the next one throws it, as plain input's read error
    /// comes after the bytes read before it.
    /// - Returns: How many bytes were written, at least 1; nil at the end of the text.
    /// - Throws: ``JSONInputError`` for gzip that is truncated, corrupt or followed by other bytes;
    ///   ``ReadFailure``; ``Stopped``.
    func next(into output: UnsafeMutableRawBufferPointer) throws -> Int? {
        if let failure = deferredFailure {
            deferredFailure = nil
            throw failure
        }
        var written = 0
        do {
            while written < output.count && !isFinished {
                let room = UnsafeMutableRawBufferPointer(rebasing: output[written...])
                if pending.isEmpty && !sourceEnded {
                    if written > 0 && !hasInputAtHand() { break }
                    try read()
                    continue
                }
                let (taken, inflated) = try inflater.inflate(pending, into: room)
                pending = UnsafeRawBufferPointer(rebasing: pending[taken...])
                written += inflated
                if pending.isEmpty && sourceEnded && inflated == 0 {
                    // zlib has written everything: the input must end between members.
                    try inflater.finish()
                    isFinished = true
                }
            }
        } catch let failure where written > 0 && !(failure is Stopped) {
            deferredFailure = failure
        }
        return written > 0 ? written : nil
    }

    /// Whether a read would return at once.
    private func hasInputAtHand() -> Bool {
        guard case .descriptor(let descriptor, _) = source else { return true }
        return JSONInput.hasInput(descriptor, within: 0)
    }

    /// Reads the next compressed bytes into the buffer, waiting for them when the descriptor has
    /// none yet (unless the parsing side stops).
    private func read() throws {
        guard case .descriptor(let descriptor, let buffer) = source else {
            sourceEnded = true
            return
        }
        if wakeDescriptor >= 0 { try waitForInput(descriptor) }
        let count = JSONInput.readOnce(descriptor, into: buffer)
        if count < 0 { throw ReadFailure(code: Int32(-count)) }
        if count == 0 { sourceEnded = true }
        pending = UnsafeRawBufferPointer(rebasing: buffer[..<count])
    }

    /// Waits until `descriptor` can be read (or is at its end, or failed: the read says which),
    /// or ``wakeDescriptor`` turns readable.
    private func waitForInput(_ descriptor: Int32) throws {
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&descriptors, 2, -1) < 0 {
            // Interrupted by a signal: wait again. Any other failure: let the read decide.
            guard errno == EINTR else { return }
        }
        if descriptors[1].revents != 0 { throw Stopped() }
    }
}
