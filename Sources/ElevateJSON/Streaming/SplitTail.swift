/// A long element read on the calling thread: when a run grows past what may be held for a worker
/// without finding the end of an element (one element of many megabytes), the reader stops
/// cutting the array and this parser, started with the run, reads on as one thread reads, up to
/// the next comma that a short element follows, where the cutting resumes (or to the array's
/// end), elements decoded on the workers as ever. Its errors are moved to the input as a run's are.
final class SplitTail {
    private let run: SplitRun
    let parser: JSONEventParser
    /// The error to report for a handler's error (an element over the size limit), or nil.
    private let translated: (any Error) -> (any Error)?

    init(run: SplitRun, parser: JSONEventParser, translated: @escaping (any Error) -> (any Error)?) {
        self.run = run
        self.parser = parser
        self.translated = translated
    }

    /// How many bytes the parser was given: the run's prefix, the run, then `feed`'s bytes.
    private var fedCount = 0

    /// Feeds the parser the run, then `feed`'s bytes, or ends it.
    func start() throws {
        fedCount = run.prefixedCount
        try moving { try run.start(parser) }
    }

    /// - Parameter after: The input's bytes after `bytes` when they end the array (up to 16, within
    ///   their chunk), which the tail's parser never reads: an error's excerpt goes on with them,
    ///   as the sequential parse's does.
    func feed(_ bytes: UnsafeRawBufferPointer, after: some Collection<UInt8> = EmptyCollection()) throws {
        fedCount += bytes.count
        try moving(after: after) { try parser.parse(bytes) }
    }

    func finish(after: some Collection<UInt8> = EmptyCollection()) throws {
        try moving(after: after) { try parser.finish() }
    }

    /// Ends the tail just after a comma between elements, the last byte fed: what the parser held
    /// back for a long token is parsed (see ``JSONEventParser/parseHeld()``), so that every element
    /// before the comma is delivered, and the parser is left there; a run of the split parse
    /// starts at the comma.
    func endBeforeElement(after: some Collection<UInt8>) throws {
        try moving(after: after) { try parser.parseHeld() }
    }

    /// An error of a run before the tail (in the input's terms already), thrown from a handler
    /// of the tail's parser that delivers what the runs before it gave: carried through the
    /// parser, and not moved again as an error of the tail's own text.
    struct EarlierRunFailed: Error {
        var error: any Error
    }

    private func moving(after: some Collection<UInt8> = EmptyCollection(), _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let earlier as EarlierRunFailed {
            throw earlier.error
        } catch var error as JSONSyntaxError {
            // Its excerpt stops where the parser's input does; the input's goes on to 16 bytes
            // past the error.
            let more = error.byteOffset + 16 - fedCount
            if more > 0 { error.excerpt += JSONSyntaxError.excerptText(after.prefix(more)) }
            throw run.moved(error, excerptEnd: parser.lastExcerptEnd)
        } catch {
            throw translated(error) ?? error
        }
    }
}
