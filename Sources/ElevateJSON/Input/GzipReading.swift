#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Gzip input read synchronously: inflated on a thread of its own, parsed on the caller's.
///
/// Inflating and parsing take about the same time per byte of text, so on one thread gzip input
/// would be read at about half the speed of `zcat file | elevate …`, where `zcat` runs on another
/// core. Here an inflating thread, started by the call and joined before it returns, does what
/// `zcat` would: it reads the compressed bytes, inflates them into the free buffers of an
/// ``InflatedChunkRing`` (three of the chunk size), and publishes each; the calling thread parses
/// the published buffers in order, as it would parse reads of plain input. Handlers, decoders and
/// the body run on the calling thread only, as for plain input.
///
/// Either side can end both:
/// - the parser stops (its body returns false, a ``JSONEventParser/Stop``, an error): the ring
///   tells the inflater, which stops at its next buffer; if it is waiting for input from a pipe,
///   a byte written to a pipe of the call's own wakes its `poll` (see
///   ``InflatingChunkReader/wakeDescriptor``), so a stop never waits for a writer;
/// - the inflater fails (corrupt or truncated gzip, a read error): the parser gets the error after
///   the text inflated before it, so that what came first is judged first, as in plain input.
///
/// The inflating thread shares the reader (which it alone uses until it is joined) and the ring
/// (whose state is behind its lock) with the call; they are handed to it through
/// ``JoinableThread``'s opaque pointer rather than made `Sendable`, because neither is safe to share
/// in general, only in this hand-off.
enum GzipReading {
    /// Buffers in flight between the two threads: one being filled, one being parsed, and one
    /// ready, so that neither side waits for the other at the usual small differences in speed.
    static let bufferCount = 3

    /// Inflates what `reader` reads and hands the text to `body` in order, in chunks of at most
    /// `chunkSize` bytes, until the text ends or `body` returns false.
    /// - Parameters:
    ///   - reader: The gzip input.
    ///   - chunkSize: The size of each buffer of inflated text.
    ///   - concurrently: Whether to inflate on a thread of its own (it still runs on the calling
    ///     thread when no thread can be started).
    ///   - progress: Told the compressed bytes taken so far, after each chunk is handled.
    ///   - body: Given each chunk, valid only during the call; returns whether to read on.
    /// - Returns: nil, or the `errno` of a read that failed.
    /// - Throws: ``JSONInputError`` for gzip that is truncated, corrupt or followed by other bytes,
    ///   or what `body` throws.
    static func read(
        _ reader: InflatingChunkReader, chunkSize: Int, concurrently: Bool = true,
        progress: ((_ compressedBytesRead: Int) -> Void)?, _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws -> Int32? {
        do {
            if concurrently,
                try readConcurrently(reader, chunkSize: chunkSize, progress: progress, body)
            {
                return nil
            }
            try readOnCallingThread(reader, chunkSize: chunkSize, progress: progress, body)
        } catch let failure as InflatingChunkReader.ReadFailure {
            return failure.code
        }
        return nil
    }

    private static func readOnCallingThread(
        _ reader: InflatingChunkReader, chunkSize: Int, progress: ((Int) -> Void)?,
        _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while let count = try reader.next(into: buffer) {
            let readsOn = try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            progress?(reader.compressedOffset)
            if !readsOn { return }
        }
    }

    /// The two-thread reading; false when no thread could be started (nothing was read then).
    private static func readConcurrently(
        _ reader: InflatingChunkReader, chunkSize: Int, progress: ((Int) -> Void)?,
        _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws -> Bool {
        let ring = InflatedChunkRing(count: bufferCount, size: chunkSize)
        // The pipe that wakes an inflater waiting for input; without one, it is not woken (it
        // then waits for that input or its end, as a plain read of the descriptor would).
        var wake: [Int32] = [-1, -1]
        if pipe(&wake) == 0 {
            for descriptor in wake { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            reader.wakeDescriptor = wake[0]
        } else {
            wake = [-1, -1]
        }
        defer { for descriptor in wake where descriptor >= 0 { close(descriptor) } }
        guard
            let thread = JoinableThread.start(
                named: "Elevate.gunzip",
                {
                    while let slot = ring.takeFreeBuffer() {
                        do {
                            guard let count = try reader.next(into: ring.buffers[slot]) else {
                                ring.finishInflating(with: nil)
                                return
                            }
                            ring.publish(.init(slot: slot, count: count, compressedOffset: reader.compressedOffset))
                        } catch {
                            ring.finishInflating(with: error)
                            return
                        }
                    }
                })
        else {
            reader.wakeDescriptor = -1
            return false
        }
        defer {
            ring.stopParsing()
            if wake[1] >= 0 {
                var byte: UInt8 = 0
                _ = write(wake[1], &byte, 1)
            }
            thread.join()
        }
        while let filled = try ring.takePublishedBuffer() {
            let readsOn = try body(UnsafeRawBufferPointer(rebasing: ring.buffers[filled.slot][..<filled.count]))
            progress?(filled.compressedOffset)
            ring.giveBack(filled.slot)
            if !readsOn { break }
        }
        return true
    }
}
