import Foundation

/// How the streaming decoders treat limits and elements that fail validation.
public struct StreamingOptions: Sendable {
    /// Parser settings: depth limit, token size limit, comments.
    public var parsing: JSONParsingOptions
    /// The largest single element, in input bytes (default 64 MiB; of gzip input, bytes of its
    /// inflated text); larger is an error, so memory stays bounded by one element plus the read
    /// buffer.
    ///
    /// An array or object is measured from its opening bracket to its closing one, whatever lies
    /// between; an element that is a string is measured by its text (escapes resolved, without its
    /// quotes), which is what it takes in memory. The same input gives the same answer however it
    /// is read. Zero or a negative size refuses every element, in every framing.
    public var maximumElementSize: Int
    /// When true, elements that fail validation are skipped and all their failures are thrown
    /// together at the end; when false (the default) the first one stops the stream.
    public var skipsInvalidElements: Bool
    /// With ``skipsInvalidElements``, and always for `decodeArray` and `decodeObject` (which
    /// report every failing element, Elevate's way), how many failures are reported in full
    /// (default 100); the rest are only counted, so memory stays bounded however many elements
    /// fail. The error's text then ends with a line such as `… and 12,345 more invalid elements`.
    public var maximumReportedFailures: Int
    /// The read size for files and standard input, and the size of each chunk of inflated gzip
    /// (default 1 MiB), within
    /// ``JSONInput/minimumChunkSize`` (4 KiB) ... ``JSONInput/chunkSizeCeiling`` (64 MiB): a value
    /// outside is taken as the nearest end, as ``JSONParsingOptions/maximumDepth`` is, so `.max`
    /// reads 64 MiB at a time (the read buffer is allocated at this size; for gzip input, the read
    /// buffer and the three buffers of inflated text) and `0` or a negative size 4 KiB.
    public var chunkSize: Int {
        get { storedChunkSize }
        set { storedChunkSize = JSONInput.clampedChunkSize(newValue) }
    }
    private var storedChunkSize: Int
    /// Called after each chunk of a file or standard input is parsed, with the total number of
    /// bytes read so far (for in-memory data, once, with its size; for gzip input, compressed
    /// bytes, after each chunk of its text, so that the count ends at a file's size); nil, the
    /// default, for none.
    ///
    /// It runs on the parsing thread once per chunk (1 MiB by default), so it costs nothing
    /// noticeable; a progress bar compares `bytesRead` with the file's size.
    ///
    /// ```swift
    /// var options = StreamingOptions()
    /// options.progress = { bytesRead in bar.update(bytesRead) }
    /// ```
    public var progress: (@Sendable (_ bytesRead: Int) -> Void)?
    /// Whether bad input and unreadable files are thrown as ``ParserError/deserialization(failureReason:)``
    /// (true, the default, as Elevate does), or as the underlying ``JSONSyntaxError`` and
    /// ``JSONInputError``, whose line, column and byte offset are numbers rather than text.
    ///
    /// Honored by every streaming call (`forEachElement(from:atKeyPath:as:options:_:)`,
    /// `forEachValue(from:framing:atKeyPath:as:options:_:)`, `decodeArray(from:atKeyPath:as:options:)`
    /// and `decodeObject` with a ``JSONInput``, the asynchronous `decodedElements` and
    /// `decodedValues`, ``summarizeValue(from:atKeyPath:options:)`` and
    /// ``forEachEvent(from:atKeyPath:to:options:)``), so that tools can report errors in their own
    /// format. Validation errors (a missing key path, an invalid element, a value over
    /// ``maximumElementSize``) are ``ParserError`` either way.
    public var wrapsErrorsInParserError: Bool
    /// How many threads parse and decode at once. 1, the default, parses and decodes each element
    /// on the calling thread as soon as it is read; `n` more share the work with `n - 1` threads
    /// the call starts and ends. The array at the key path, and every stream of values (JSON Lines,
    /// JSON text sequences, concatenated values), are then split: the calling thread cuts the
    /// input into runs of whole elements or values (with a structural pre-scan), lines or records,
    /// and the threads (the calling one among them, when it is ahead) parse and decode the runs.
    /// Results, errors, skipped elements and stops are exactly those of one thread, in document
    /// order. Where the input is not split (a stream that resumes or gives checkpoints or element
    /// positions, a lossy decode, comments allowed, several top-level values allowed in an array's
    /// document, concatenated values past one of more than 8 MiB or a stream of top-level
    /// scalars), the calling thread parses and the others decode. ``automaticConcurrency``
    /// is one per processor; more than four per processor are taken as four per processor. Every
    /// element and value reader honours it: the arrays of `decodeArray`, `decodeObject`,
    /// `forEachElement` and `decodedElements`, all three framings of `forEachValue` and
    /// `decodedValues`, and the counts of `summarizeValue`, for `Elevate.Decodable` and
    /// `Swift.Decodable` types alike.
    ///
    /// Decodable types and decoders then run on several threads at once: a `Decoder` instance
    /// passed to a `with:` call is shared by the workers and must be safe to share (`DateDecoder`
    /// and `StringToIntDecoder` are). A delivered value the body does not keep is destroyed on
    /// the worker that decoded it, a little later.
    public var concurrency: Int = 1

    /// Told, after each element `forEachElement` delivers (and its body returns), where the
    /// stream could be resumed from: the next element's index and the offset just past this one;
    /// for each value of JSON Lines `forEachValue` delivers, the next value's index and the offset
    /// where the next line starts. nil, the default, for none. See ``StreamCheckpoint``. It runs on
    /// the calling thread, in document order, also with several workers.
    public var checkpoints: (@Sendable (StreamCheckpoint) -> Void)?

    /// Told, just before each element `forEachElement` or `decodedElements` delivers (or each value
    /// of JSON Lines `forEachValue` or `decodedValues`), where it lies in the input: its index and
    /// byte range, and its line (see ``ElementPosition``). nil, the default, for none: offsets are
    /// then not even read. It runs on the calling thread (for an asynchronous sequence, the task
    /// that reads it), in document order, also with several workers, so a body that throws has had
    /// its element's position. Elements skipped as invalid are not reported; nor are an object's
    /// members, the elements of `decodeArray` and `decodeLossyArray`, or the values of
    /// concatenated JSON and JSON text sequences (the `.array` framing's are, as elements).
    ///
    /// As with ``checkpoints``, several workers then decode while the calling thread parses (the
    /// input is not split into runs), and every element's first byte is looked for between it and
    /// the one before it, and lines counted: a small cost next to the parse.
    public var elementPositions: (@Sendable (ElementPosition) -> Void)?

    /// Where `forEachElement` picks up an array stream (or `forEachValue` a JSON Lines stream) it
    /// delivered part of before: the input is read from the checkpoint's offset (a file, data, or
    /// a seekable file handle; standard input and compressed input cannot be resumed), values are
    /// numbered from its index, and an array's stream ends at its closing bracket. nil, the
    /// default, reads the whole input. See ``StreamCheckpoint`` for what is and is not validated
    /// then. An `AsyncSequence` given to `decodedElements` with a checkpoint must hold the bytes
    /// from the checkpoint's offset on (the answer to an HTTP range request, say). Other calls
    /// (`decodeArray`, the other framings) do not resume and read the whole input.
    public var resumingFrom: StreamCheckpoint?

    /// What runs around the decodes of a call (see ``DecodingScope``): set by the Elevate module's
    /// calls for Elevate types, nothing for Codable types.
    package var decodingScope = DecodingScope.none

    /// With more than one worker, the bytes of an array's elements (or of JSON Lines) handed to a
    /// worker at a time to parse and decode (see `SplitArrayReader` and `SplitLinesReader`): large enough that a hand-over costs little
    /// next to the parse, small enough that a window of them stays a few MiB. Tests make it tiny,
    /// so that small documents are cut in many places (the fuzz targets too, hence the SPI).
    @_spi(Testing) public var splitBatchByteCount = 256 << 10

    /// The length from which the split parse may cut its next run, after `count` runs: short at
    /// first, 4 KiB doubling up to ``splitBatchByteCount``, so that every worker has work at once
    /// and a body that stops early leaves little decoded for nothing. Arrays and JSON Lines alike.
    func splitRunLength(afterRuns count: Int) -> Int {
        min(splitBatchByteCount, 4096 << min(count, 16))
    }

    /// The most bytes of one element (or line) the split parse holds for a worker: 32 runs'
    /// length, 8 MiB by default. Past it, the calling thread reads the rest itself, so that an
    /// element or line of any length is never held whole.
    var splitLongestHeld: Int { 32 * splitBatchByteCount }

    /// One worker per active processor.
    public static var automaticConcurrency: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Creates options; every parameter has a safe default.
    /// - Parameters:
    ///   - parsing: See ``parsing``.
    ///   - maximumElementSize: See ``maximumElementSize``.
    ///   - skipsInvalidElements: See ``skipsInvalidElements``.
    ///   - maximumReportedFailures: See ``maximumReportedFailures``.
    ///   - chunkSize: See ``chunkSize``; within ``JSONInput/minimumChunkSize`` ... ``JSONInput/chunkSizeCeiling``.
    ///   - progress: See ``progress``.
    ///   - wrapsErrorsInParserError: See ``wrapsErrorsInParserError``.
    public init(
        parsing: JSONParsingOptions = .default,
        maximumElementSize: Int = 64 << 20,
        skipsInvalidElements: Bool = false,
        maximumReportedFailures: Int = 100,
        chunkSize: Int = JSONInput.defaultChunkSize,
        progress: (@Sendable (_ bytesRead: Int) -> Void)? = nil,
        wrapsErrorsInParserError: Bool = true
    ) {
        self.parsing = parsing
        self.maximumElementSize = maximumElementSize
        self.skipsInvalidElements = skipsInvalidElements
        self.maximumReportedFailures = maximumReportedFailures
        self.storedChunkSize = JSONInput.clampedChunkSize(chunkSize)
        self.progress = progress
        self.wrapsErrorsInParserError = wrapsErrorsInParserError
    }
}
