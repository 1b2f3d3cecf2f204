#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// JSON Lines as chunks arrive: splits the input at newlines and parses each line that is not
/// blank as exactly one JSON value, sending its events to one handler. The one implementation of
/// the format, shared by ``forEachValue(from:framing:atKeyPath:as:options:_:)-5w6t2``, the asynchronous
/// `AsyncSequence.decodedValues(framing:atKeyPath:as:options:)` and `elevate validate --json-lines`.
///
/// Lines are never buffered: each gets a ``JSONEventParser`` of its own (the last line's,
/// restarted), fed the line's pieces as the chunks bring them and finished at the newline, so a
/// line of any length costs the parser's memory only (``maximumLineLength`` bounds it anyway for
/// the decoders). A syntax error's column
/// counts from the start of its line (leading whitespace included), and its line is the file's.
///
/// The rules: a line ends at `\n`; a `\r` before it is whitespace, as are spaces and tabs, and a
/// line holding nothing else is blank and skipped. A UTF-8 byte order mark is accepted at the start
/// of the input only, never at the start of a later line. A stop (``JSONEventParser/Stop``) thrown
/// by the handler or by ``lineEnded`` ends the input: everything after it is ignored.
///
/// ```swift
/// let lines = JSONLinesParser(handler: counter, options: .default) { line in print("line \(line) is valid") }
/// try JSONInput.file(url).forEachChunk { try lines.feed($0) }
/// try lines.finish()
/// ```
///
/// With ``Separator/recordSeparator`` it reads JSON text sequences (RFC 7464) by the same rules,
/// records split at `0x1E` instead of lines at `\n`, except that: a record may span lines (a newline
/// is whitespace in it), nothing may come before the first separator, no byte order mark is
/// accepted, a record whose value is a number must end with whitespace (else it may have been cut
/// short), and an error's line and column are the input's, not the record's.
package final class JSONLinesParser {
    /// What ends a value's line or record.
    package enum Separator: UInt8 {
        /// JSON Lines: `\n`.
        case newline = 0x0A
        /// JSON text sequences: the record separator `0x1E`, which starts each record.
        case recordSeparator = 0x1E
    }

    /// A syntax error, and the line (or record) of the input it is on (counted from 1).
    package struct LineError: Error {
        /// The error; its line is the input's, and its column counts from the start of that line;
        /// its byte offset counts from the start of the line or record.
        package var error: JSONSyntaxError
        /// The line of the input (JSON Lines), or the record (JSON text sequences).
        package var line: Int
        /// How many bytes of the input come before the line: the error's byte offset within the
        /// input is this plus its own.
        package var lineStartOffset: Int
    }

    /// A line longer than ``JSONLinesParser/maximumLineLength``.
    package struct LineTooLong: Error {
        /// The line of the input.
        package var line: Int
        /// The limit it broke, in bytes.
        package var limit: Int
    }

    /// Makes the parser of a line (the argument: whether it may start with a byte order mark).
    /// Made where the handler's type is known, so that the parser's choice of how to deliver
    /// events to it is made then, not looked up again for every line.
    private let makeParser: (_ skipsByteOrderMark: Bool) -> JSONEventParser
    /// The longest line accepted, in bytes, its carriage return included and its newline not.
    package let maximumLineLength: Int
    /// Told the line number after each line that held a valid value, once its events are all sent.
    private let lineEnded: (_ line: Int) throws -> Void
    /// The byte that ends a line: `\n`, or `0x1E` for JSON text sequences.
    private let separator: UInt8
    private var readsRecords: Bool { separator == Separator.recordSeparator.rawValue }

    // Touched a few times per line, by this parser's own methods only, never across a call
    // out: no dynamic exclusivity checks (a few hundred instructions per line).
    /// The parser of the current line, made (or restarted) when the line's first bytes arrive.
    @exclusivity(unchecked) private var parser: JSONEventParser?
    /// The parser of an earlier line, to restart for the next one (see `JSONEventParser.restart`).
    @exclusivity(unchecked) private var spareParser: JSONEventParser?
    /// Whether the current line holds anything but spaces, tabs and carriage returns.
    @exclusivity(unchecked) private var lineHasContent = false
    /// How many bytes of a byte order mark the first line starts with: only the whole mark is
    /// not content, so that its first bytes alone are reported as the invalid text they are.
    @exclusivity(unchecked) private var leadingMarkBytes = 0
    /// The bytes of the current line fed so far.
    @exclusivity(unchecked) private var lineLength = 0
    /// How many bytes of the input come before the current line.
    @exclusivity(unchecked) private var lineStartOffset = 0
    /// The one-based number of the line being read.
    @exclusivity(unchecked) package private(set) var lineNumber = 1
    /// The number of lines that held a value.
    @exclusivity(unchecked) package private(set) var valueCount = 0
    /// Where the line after the last one ended starts (a checkpoint's offset): past its newline,
    /// or at the end of the input.
    @exclusivity(unchecked) package private(set) var nextLineOffset = 0
    /// Whether a stop ended the input.
    @exclusivity(unchecked) package private(set) var isStopped = false
    /// JSON text sequences: what the current record holds and where the reading stands.
    @exclusivity(unchecked) private var record = RecordPosition()
    /// Whether ``valueStart`` is looked for (element positions, JSON Lines): off, no byte is
    /// looked at for it.
    package var findsValueStarts = false
    /// With ``findsValueStarts``: the offset in the input of the current line's first token (past
    /// its leading whitespace, and a byte order mark at the input's start), once it has arrived.
    @exclusivity(unchecked) package private(set) var valueStart: Int?
    /// The gap before the current line's first token, read as the line's pieces arrive.
    @exclusivity(unchecked) private var leadingGap = JSONEventParser.Gap()
    private let allowsComments: Bool
    /// How many bytes of the input come before the current line.
    package var currentLineStart: Int { lineStartOffset }

    /// An error at the key the handler was just given, on the current line (see
    /// ``JSONEventParser/errorAtDeliveredKey(_:_:)``); thrown from the handler, it is reported as
    /// any syntax error of the line, with its line number.
    package func errorAtDeliveredKey(_ kind: JSONSyntaxError.Kind, _ message: String) -> any Error {
        guard let parser else { return KeyPathSelector.RefusedKey(message: message) }
        return parser.errorAtDeliveredKey(kind, message)
    }

    /// The current line parser's byte offset within its line (see ``JSONEventParser/currentByteOffset``).
    package var currentByteOffset: Int { parser?.currentByteOffset ?? 0 }

    /// - Parameters:
    ///   - handler: Receives the events of every line's value, one value after another.
    ///   - options: The parser settings; ``JSONParsingOptions/allowsMultipleValues`` is ignored, as
    ///     a line holds exactly one value.
    ///   - maximumLineLength: The longest line accepted, in bytes.
    ///   - separator: What ends a line: `\n` for JSON Lines, `0x1E` for JSON text sequences.
    ///   - lineEnded: Told the line (or record) number after each value line.
    package init<Handler: JSONEventHandler>(
        handler: Handler, options: JSONParsingOptions, maximumLineLength: Int = .max, separator: Separator = .newline,
        lineEnded: @escaping (_ line: Int) throws -> Void = { _ in }
    ) {
        self.separator = separator.rawValue
        // Records count from 1 after the first separator; what comes before it is record 0,
        // which must be empty.
        if separator == .recordSeparator { lineNumber = 0 }
        allowsComments = options.allowsComments
        var options = options
        options.allowsMultipleValues = false
        makeParser = { skipsByteOrderMark in
            JSONEventParser(handler: handler, options: options, skipsByteOrderMark: skipsByteOrderMark)
        }
        self.maximumLineLength = maximumLineLength
        self.lineEnded = lineEnded
    }

    /// Parses the next chunk of input.
    /// - Throws: ``LineError`` for a syntax error, ``LineTooLong``, or what the handler or
    ///   `lineEnded` threw (but a stop).
    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        var start = 0
        while start < chunk.count, !isStopped {
            let newline = memchr(chunk.baseAddress! + start, Int32(separator), chunk.count - start).map {
                UnsafeRawPointer($0) - chunk.baseAddress!
            }
            let line = UnsafeRawBufferPointer(rebasing: chunk[start..<(newline ?? chunk.count)])
            try feedLine(line)
            if readsRecords { advanceInputPosition(over: line) }
            guard let newline else { return }
            try endLine()
            start = newline + 1
            if readsRecords {
                record.inputColumnOffset += 1
                record.recordStartLine = record.inputLine
                record.recordStartColumnOffset = record.inputColumnOffset
            }
        }
    }

    /// Ends the input, parsing a last line that has no newline.
    /// - Throws: As ``feed(_:)``.
    package func finish() throws {
        guard !isStopped else { return }
        try endLine(atNewline: false)
    }

    /// Starts at a line of the input other than the first (a resumed stream): `line` is its
    /// number, `offset` where it starts; no byte order mark is accepted there.
    package func resume(atLine line: Int, offset: Int) {
        lineNumber = line
        lineStartOffset = offset
    }

    /// Records: starts just after a record separator, at the start of record `record`, `offset`
    /// bytes into the input, on the input's line `inputLine` after `inputColumnOffset` bytes of it.
    package func resume(atRecord record: Int, offset: Int, inputLine: Int, inputColumnOffset: Int) {
        resume(atLine: record, offset: offset)
        self.record.inputLine = inputLine
        self.record.inputColumnOffset = inputColumnOffset
        self.record.recordStartLine = inputLine
        self.record.recordStartColumnOffset = inputColumnOffset
    }

    /// Records: moves the input's line and column past `bytes`.
    private func advanceInputPosition(over bytes: UnsafeRawBufferPointer) {
        var lastNewline = -1
        for index in bytes.indices where bytes[index] == 0x0A {
            record.inputLine += 1
            lastNewline = index
        }
        record.inputColumnOffset = lastNewline < 0 ? record.inputColumnOffset + bytes.count : bytes.count - lastNewline - 1
    }

    private func feedLine(_ whole: UnsafeRawBufferPointer) throws {
        guard !whole.isEmpty else { return }
        if readsRecords {
            if lineNumber == 0 { throw recordError(.syntax, "a JSON text sequence must start with a record separator (0x1E)", at: lineLength, in: whole) }
            let last = whole[whole.count - 1]
            record.endsWithWhitespace = last.isJSONWhitespace
        }
        // A piece that takes the line past the limit is parsed up to the limit before the line is
        // refused: a syntax error before that point comes first, as in a stream read byte by byte.
        // Refused whole, the error depended on where the chunks were cut (parsed in pieces, the
        // line's first bytes were checked; in one piece, not).
        // What the line may still take: none once it is at or past the limit, which a negative
        // limit (`StreamingOptions.maximumElementSize = -1`, or `Int.min`) always is; the plain
        // difference was negative there (a trap slicing `..<-1`) or overflowed.
        let room = maximumLineLength <= lineLength ? 0 : maximumLineLength - lineLength
        let isTooLong = whole.count > room
        let piece = isTooLong ? UnsafeRawBufferPointer(rebasing: whole[..<room]) : whole
        lineLength += piece.count
        if !lineHasContent {
            let lineOffset = lineLength - piece.count
            lineHasContent = piece.indices.contains { index in
                let byte = piece[index]
                if byte.isJSONWhitespace { return false }
                if readsRecords {
                    record.firstContentByte = byte
                    return true
                }
                // Nor is a byte order mark at the start of the input: a first line of only a mark
                // (and whitespace) is blank, as the same input is with the other framings.
                let offset = lineOffset + index
                guard lineNumber == 1, offset < 3, byte == Self.byteOrderMark[offset] else { return true }
                leadingMarkBytes = offset + 1
                return false
            }
        }
        if findsValueStarts, valueStart == nil { findValueStart(in: piece) }
        let parser = self.parser ?? parserForLine()
        self.parser = parser
        do {
            try parser.parse(piece)
        } catch let error as JSONSyntaxError {
            throw lineError(error)
        }
        if parser.isStopped {
            isStopped = true
            return
        }
        if isTooLong { throw LineTooLong(line: lineNumber, limit: maximumLineLength) }
    }

    /// Looks for the line's first token in `piece`, the line's bytes just fed.
    private func findValueStart(in piece: UnsafeRawBufferPointer) {
        let pieceOffset = lineLength - piece.count
        // The byte order mark at the input's start is no part of the value.
        let from = lineNumber == 1 && !readsRecords ? max(leadingMarkBytes - pieceOffset, 0) : 0
        valueStart = leadingGap.skip(
            piece, from: from, base: lineStartOffset + pieceOffset, allowsComments: allowsComments)
    }

    /// A parser for the line beginning: the spare one restarted, or a new one.
    private func parserForLine() -> JSONEventParser {
        // A byte order mark is allowed at the start of the input only, and never before a record.
        let skipsByteOrderMark = lineNumber == 1 && !readsRecords
        guard let spare = spareParser else { return makeParser(skipsByteOrderMark) }
        spareParser = nil
        spare.restart(skipsByteOrderMark: skipsByteOrderMark)
        return spare
    }

    private func endLine(atNewline: Bool = true) throws {
        defer {
            if let parser { spareParser = parser }
            parser = nil
            lineStartOffset += lineLength + 1
            lineHasContent = false
            lineLength = 0
            lineNumber += 1
            record.endsWithWhitespace = true
            valueStart = nil
            leadingGap = JSONEventParser.Gap()
        }
        let hasPartialMark = lineNumber == 1 && leadingMarkBytes > 0 && leadingMarkBytes < Self.byteOrderMark.count
        guard lineHasContent || hasPartialMark, let parser, !isStopped else { return }
        do {
            // The newline ends the last token, as it does in one document: a space stands in for
            // it, so that `[1] 2` is trailing garbage at the `2`, and not a number cut short.
            try parser.parse(Self.space)
            try parser.finish()
        } catch var error as JSONSyntaxError {
            // The space is not in the input: an error found at the end is reported just past the
            // line's last byte (the newline, or the end of the input), not past the space, which
            // would name a byte that does not exist (one past the end of the input on a last line).
            if readsRecords, error.byteOffset >= lineLength {
                // A record may span lines: its end is where the input's position is now.
                error.line = record.inputLine - record.recordStartLine + 1
                error.column = (error.line == 1 ? record.inputColumnOffset - record.recordStartColumnOffset : record.inputColumnOffset) + 1
            }
            error.column = min(error.column, lineLength + 1)
            error.byteOffset = min(error.byteOffset, lineLength)
            // Nor is the space part of the excerpt, which shows up to 15 bytes after the error's
            // byte, the space last among them when it is that close. Whether the error is found
            // here or while the line was fed depends on the chunking (a token over 64 KiB is held
            // back until the line ends), so leaving it in made the excerpt depend on the chunking.
            if lineLength - error.byteOffset < 16, error.excerpt.hasSuffix(" ") {
                error.excerpt.removeLast()
            }
            throw lineError(error)
        }
        // RFC 7464, 2.4: a number that ends its record without whitespace may be one cut short.
        if readsRecords, !record.endsWithWhitespace, record.firstContentByte == UInt8(ascii: "-") || (0x30...0x39).contains(record.firstContentByte) {
            let line = record.inputLine - record.recordStartLine + 1
            let column = (line == 1 ? record.inputColumnOffset - record.recordStartColumnOffset : record.inputColumnOffset) + 1
            throw lineError(
                JSONSyntaxError(
                    kind: .truncated, message: "a number that ends a record without whitespace may have been cut short",
                    byteOffset: lineLength, line: line, column: column, excerpt: ""))
        }
        if parser.isStopped {
            isStopped = true
            return
        }
        valueCount += 1
        nextLineOffset = lineStartOffset + lineLength + (atNewline ? 1 : 0)
        do {
            try lineEnded(lineNumber)
        } catch is JSONEventParser.Stop {
            isStopped = true
        }
    }

    /// The error of the current line, its line and column made the input's for a record (a record
    /// may span lines, and starts mid-line).
    private func lineError(_ error: JSONSyntaxError) -> LineError {
        var error = error
        if readsRecords {
            if error.line == 1 { error.column += record.recordStartColumnOffset }
            error.line += record.recordStartLine - 1
        } else {
            error.line = lineNumber
        }
        return LineError(error: error, line: lineNumber, lineStartOffset: lineStartOffset)
    }

    /// An error of the parser's own at `offset` of the current record, whose bytes fed so far
    /// end with `bytes`.
    private func recordError(_ kind: JSONSyntaxError.Kind, _ message: String, at offset: Int, in bytes: UnsafeRawBufferPointer) -> LineError {
        let excerpt = JSONSyntaxError.excerptText(bytes.prefix(16))
        return lineError(JSONSyntaxError(kind: kind, message: message, byteOffset: offset, line: 1, column: offset + 1, excerpt: excerpt))
    }

    private static let space: [UInt8] = [0x20]
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}

/// Where a JSON text sequence's reading stands (see ``JSONLinesParser/Separator/recordSeparator``):
/// a record may span lines and start mid-line, so its errors are placed from here.
private struct RecordPosition {
    /// The first byte of the record's content, and whether its last byte so far is whitespace (a
    /// number must be followed by some).
    var firstContentByte: UInt8 = 0
    var endsWithWhitespace = true
    /// The input's line at the current position, and the bytes since that line's start.
    var inputLine = 1
    var inputColumnOffset = 0
    /// Where the current record starts in the input (line, bytes since that line's start).
    var recordStartLine = 1
    var recordStartColumnOffset = 0
}

extension JSONFraming {
    /// What ends a value's line or record: the record separator for JSON text sequences, else `\n`.
    var separator: JSONLinesParser.Separator { self == .jsonTextSequence ? .recordSeparator : .newline }
}
