internal import CYAJL

import struct Foundation.Data

/// A push parser on YAJL: feed it chunks of any size, and it calls a ``JSONEventHandler`` for
/// every token, without building any value.
///
/// The events are the same however the input is split. Call ``finish()`` after the last chunk:
/// it reports input that ends inside a value.
///
/// ```swift
/// let parser = JSONEventParser(handler: counter)
/// try parser.parse(firstChunk)
/// try parser.parse(secondChunk)
/// try parser.finish()
/// ```
///
/// Beyond YAJL, the parser rejects form feeds and vertical tabs as whitespace, overlong UTF-8,
/// encoded surrogates, code points above U+10FFFF and unpaired `\u` surrogate escapes; it skips a
/// leading UTF-8 byte order mark and enforces ``JSONParsingOptions/maximumDepth`` and
/// ``JSONParsingOptions/maximumTokenSize``. Errors are ``JSONSyntaxError``s with the byte offset,
/// line and column.
///
/// A parser is single-use and not thread-safe.
public final class JSONEventParser {
    /// Thrown by a handler to end the parse early, without an error.
    public struct Stop: Error, Sendable {
        /// Creates the stop signal.
        public init() {}
    }

    /// The options the parser was created with.
    public let options: JSONParsingOptions
    /// The handler receiving events.
    public let handler: any JSONEventHandler
    /// Whether a handler threw ``Stop``; further input is ignored.
    public private(set) var isStopped = false
    /// The number of input bytes accepted so far.
    public var bytesParsed: Int { chunkOffset }

    /// The absolute offset just past the token being delivered, when read inside a handler call;
    /// between calls, the number of bytes accepted so far.
    public var currentByteOffset: Int {
        guard chunkBase != nil else { return chunkOffset }
        return chunkOffset + Int(yajl_get_bytes_consumed(handle))
    }

    private let handle: OpaquePointer
    /// What the C callbacks touch on every event. It lives in manually allocated memory: class
    /// properties would cost a retain of the parser and a dynamic exclusivity check per access,
    /// which measured at a third of the event layer's time.
    private let state: UnsafeMutablePointer<CallbackState>

    fileprivate struct CallbackState {
        var parser: Unmanaged<JSONEventParser>?
        /// In-chunk offset after the last token that produced an event; -1 when none did yet.
        var lastEventEnd = -1
        var depth = 0
        let maximumDepth: Int
    }
    private var failure: (any Error)?
    private var isFinished = false

    // Where the chunk YAJL is reading lives, so that callbacks can tell chunk pointers from
    // YAJL's decode buffer and errors can give absolute positions.
    private var chunkBase: UnsafeRawPointer?
    private var chunkCount = 0
    private var chunkOffset = 0
    private var linesBeforeChunk = 0
    private var lineStartBeforeChunk = 0
    /// Bytes after the last event of earlier chunks: the start of a token YAJL is still
    /// buffering. Needed to re-read a split string's raw escapes, and to bound token size.
    private var carry: [UInt8] = []
    /// Chunks held back while one long token is open (see `parse(_:)`).
    private var held: [UInt8] = []
    private var byteOrderMarkProbe: [UInt8]?

    /// Creates a parser that sends events to `handler`.
    public convenience init(handler: any JSONEventHandler, options: JSONParsingOptions = .default) {
        self.init(handler: handler, options: options, skipsByteOrderMark: true)
    }

    /// `skipsByteOrderMark: false` treats a leading byte order mark as the error it is in the
    /// middle of a stream (a JSON Lines line after the first).
    init(handler: any JSONEventHandler, options: JSONParsingOptions, skipsByteOrderMark: Bool) {
        self.byteOrderMarkProbe = skipsByteOrderMark ? [] : nil
        self.options = options
        self.handler = handler
        state = .allocate(capacity: 1)
        state.initialize(to: CallbackState(maximumDepth: options.maximumDepth))
        // yajl_alloc fails only when malloc does.
        handle = yajl_alloc(Self.callbacks, nil, UnsafeMutableRawPointer(state))!
        // UTF8Validation checks every string completely after YAJL; YAJL's partial check
        // (byte patterns only) would only repeat part of that work.
        _ = cyajl_config_flag(handle, yajl_dont_validate_strings, 1)
        if options.allowsComments {
            _ = cyajl_config_flag(handle, yajl_allow_comments, 1)
        }
        if options.allowsMultipleValues {
            _ = cyajl_config_flag(handle, yajl_allow_multiple_values, 1)
        }
        state.pointee.parser = Unmanaged.passUnretained(self)
    }

    deinit {
        yajl_free(handle)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private var lastEventEnd: Int {
        get { state.pointee.lastEventEnd }
        set { state.pointee.lastEventEnd = newValue }
    }

    // MARK: Feeding input

    /// Parses the next chunk of input.
    /// - Throws: ``JSONSyntaxError`` for bad input, or whatever the handler threw.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw failure }
        guard !isStopped, !isFinished, bytes.count > 0 else { return }
        var input = bytes
        do {
            if byteOrderMarkProbe != nil {
                guard let rest = try consumeByteOrderMark(input), !isStopped else { return }
                input = rest
            }
            // While one token spans chunks, YAJL re-lexes it from its start on every call: hold
            // chunks back until the new input is as large as what is buffered, so the cost stays
            // linear in the token size instead of quadratic.
            if carry.count >= 1 << 16 || !held.isEmpty {
                held.append(contentsOf: input)
                guard held.count >= carry.count else { return }
                let pending = held
                held.removeAll(keepingCapacity: false)
                try pending.withUnsafeBytes { try feed($0) }
            } else {
                try feed(input)
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Parses the next chunk of input.
    public func parse(_ data: Data) throws {
        try data.withUnsafeBytes { try parse($0) }
    }

    /// Parses the next chunk of input.
    public func parse(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    /// Parses a complete document in one call: `parse(_:)` then ``finish()``.
    public func parseAll(_ data: Data) throws {
        try parse(data)
        try finish()
    }

    /// Ends the input; reports a document that stops inside a value as
    /// ``JSONSyntaxError/Kind-swift.enum/truncated``.
    public func finish() throws {
        if let failure { throw failure }
        guard !isStopped, !isFinished else { return }
        do {
            if let probe = byteOrderMarkProbe, !probe.isEmpty {
                byteOrderMarkProbe = nil
                try probe.withUnsafeBytes { try feed($0) }
            }
            byteOrderMarkProbe = nil
            if !held.isEmpty, !isStopped {
                let pending = held
                held = []
                try pending.withUnsafeBytes { try feed($0) }
            }
            // A handler may stop the parse during the replays above: then there is nothing to end.
            isFinished = true
            if isStopped { return }
            chunkBase = nil
            chunkCount = 0
            lastEventEnd = -1
            let status = yajl_complete_parse(handle)
            do {
                try check(status, chunk: UnsafeRawBufferPointer(start: nil, count: 0))
            } catch var error as JSONSyntaxError
                where (error.kind == .syntax && !error.message.contains("trailing garbage"))
                || error.kind == .invalidUTF8
            {
                // YAJL rejects a bad byte as soon as it meets one, so every byte fed so far was a
                // valid prefix; yajl_complete_parse then lexes a space after the last token, and an
                // error there means that token was cut short ("tr", "1.", a split UTF-8 sequence),
                // unless the token was complete but came after the document ("[1] 2").
                error.kind = .truncated
                error.message = "unexpected end of input inside a token (\(error.message))"
                throw error
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Skips a leading UTF-8 byte order mark, which may arrive split across chunks.
    /// Returns the input still to parse, or nil when it was all absorbed by the probe.
    private func consumeByteOrderMark(_ input: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var probe = byteOrderMarkProbe ?? []
        var index = 0
        while probe.count < 3, index < input.count, input[index] == mark[probe.count] {
            probe.append(input[index])
            index += 1
        }
        if probe.count == 3 {
            byteOrderMarkProbe = nil
            chunkOffset += 3
            return UnsafeRawBufferPointer(rebasing: input[index...])
        }
        if index == input.count {
            byteOrderMarkProbe = probe
            return nil
        }
        // Not a byte order mark: what was held back is ordinary input.
        byteOrderMarkProbe = nil
        if !probe.isEmpty {
            try probe.withUnsafeBytes { try feed($0) }
        }
        return UnsafeRawBufferPointer(rebasing: input[index...])
    }

    private func feed(_ chunk: UnsafeRawBufferPointer) throws {
        let layout = InputLayout(scanning: chunk)
        let parsedCount = layout.firstInvalidWhitespace ?? chunk.count
        chunkBase = chunk.baseAddress
        chunkCount = parsedCount
        lastEventEnd = -1
        if parsedCount > 0 {
            let status = yajl_parse(
                handle, chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), parsedCount)
            try check(status, chunk: chunk)
        }
        if isStopped {
            // The handler has all it wanted: the rest of the chunk is neither checked nor kept.
            chunkOffset += Int(yajl_get_bytes_consumed(handle))
            chunkBase = nil
            chunkCount = 0
            return
        }
        if let invalid = layout.firstInvalidWhitespace {
            let name = chunk[invalid] == 0x0C ? "form feed" : "vertical tab"
            throw makeError(
                .invalidWhitespace, "\(name) (\\x0\(String(chunk[invalid], radix: 16))) is not JSON whitespace",
                at: invalid, in: chunk)
        }
        if lastEventEnd >= 0 {
            carry.removeAll(keepingCapacity: true)
        }
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[max(lastEventEnd, 0)...]))
        if carry.count > options.maximumTokenSize {
            throw makeError(
                .tokenTooLarge, "a token is larger than the maximum of \(options.maximumTokenSize) bytes",
                at: chunk.count, in: chunk)
        }
        linesBeforeChunk += layout.newlines
        if let lineStart = layout.lastLineStart {
            lineStartBeforeChunk = chunkOffset + lineStart
        }
        chunkOffset += chunk.count
        chunkBase = nil
        chunkCount = 0
    }

    private func check(_ status: yajl_status, chunk: UnsafeRawBufferPointer) throws {
        switch status {
        case yajl_status_ok:
            return
        case yajl_status_client_canceled:
            guard let error = pendingError else { return }
            pendingError = nil
            if error is Stop {
                isStopped = true
                return
            }
            throw error
        default:
            let consumed = Int(yajl_get_bytes_consumed(handle))
            var message = "invalid JSON"
            let scratch: [UInt8] = [0]
            scratch.withUnsafeBufferPointer { fallback in
                // yajl_get_error reads the chunk it is given, even when not verbose: never pass NULL.
                let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? fallback.baseAddress!
                if let text = yajl_get_error(handle, 0, base, chunk.count) {
                    message = String(cString: text)
                    yajl_free_error(handle, text)
                }
            }
            message = Self.cleanedMessage(message)
            var kind: JSONSyntaxError.Kind = message.contains("premature EOF") ? .truncated : .syntax
            if message.contains("invalid bytes in UTF8 string") {
                // The bytes YAJL's own pattern check rejects are as much invalid UTF-8 as those ours does.
                kind = .invalidUTF8
            }
            if kind == .truncated {
                message = "unexpected end of input (premature EOF)"
            }
            throw makeError(kind, message, at: min(consumed, chunk.count), in: chunk)
        }
    }

    private var pendingError: (any Error)?

    private static func cleanedMessage(_ message: String) -> String {
        var text = Substring(message)
        while let last = text.last, last == "\n" || last == " " || last == "." { text = text.dropLast() }
        for prefix in ["lexical error: ", "parse error: "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        return String(text)
    }

    /// An error at in-chunk offset `offset`, with absolute position and an excerpt.
    private func makeError(
        _ kind: JSONSyntaxError.Kind, _ message: String, at offset: Int, in chunk: UnsafeRawBufferPointer
    ) -> JSONSyntaxError {
        let (newlines, lineStart) = InputLayout.lines(in: chunk, upTo: offset)
        let absolute = chunkOffset + offset
        let line = linesBeforeChunk + newlines + 1
        let start = lineStart.map { chunkOffset + $0 } ?? lineStartBeforeChunk
        return JSONSyntaxError(
            kind: kind, message: message, byteOffset: absolute, line: line, column: absolute - start + 1,
            excerpt: Self.excerpt(of: chunk, around: offset))
    }

    private static func excerpt(of chunk: UnsafeRawBufferPointer, around offset: Int) -> String {
        guard chunk.count > 0 else { return "" }
        let lower = max(0, min(offset, chunk.count) - 16)
        let upper = min(chunk.count, offset + 16)
        var text = ""
        for byte in chunk[lower..<upper] {
            switch byte {
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x0A: text += "\\n"
            case 0x09: text += "\\t"
            case 0x0D: text += "\\r"
            default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return text
    }

    // MARK: Events from YAJL

    @inline(__always)
    private func markEvent() {
        lastEventEnd = Int(yajl_get_bytes_consumed(handle))
    }

    /// Runs a handler call; a thrown error is kept to rethrow once YAJL has returned
    /// (Swift errors cannot cross C frames).
    @inline(__always)
    private func deliver(_ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return 1
        } catch {
            pendingError = error
            return 0
        }
    }

    /// Records an error at `offset` in the chunk (by default, just past the current token).
    private func failInCallback(_ kind: JSONSyntaxError.Kind, _ message: String, at offset: Int? = nil) -> Int32 {
        let consumed = offset ?? Int(yajl_get_bytes_consumed(handle))
        let chunk = UnsafeRawBufferPointer(start: chunkBase, count: chunkCount)
        pendingError = makeError(kind, message, at: consumed, in: chunk)
        return 0
    }

    fileprivate func onStartContainer(object: Bool) -> Int32 {
        markEvent()
        state.pointee.depth += 1
        if state.pointee.depth > state.pointee.maximumDepth {
            // Point at the bracket itself, just before what YAJL has consumed.
            let bracket = Int(yajl_get_bytes_consumed(handle)) - 1
            return failInCallback(
                .depthLimitExceeded, "nesting is deeper than the maximum depth of \(options.maximumDepth)",
                at: max(bracket, 0))
        }
        return deliver { object ? try handler.startObject() : try handler.startArray() }
    }

    fileprivate func onEndContainer(object: Bool) -> Int32 {
        markEvent()
        state.pointee.depth -= 1
        return deliver { object ? try handler.endObject() : try handler.endArray() }
    }

    fileprivate func onText(_ pointer: UnsafePointer<UInt8>?, _ length: Int, isKey: Bool) -> Int32 {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        // YAJL's own UTF-8 check is off (it checks byte patterns only): this one is complete.
        let validation = UTF8Validation.validate(bytes)
        if let invalidOffset = validation.invalidOffset {
            let inChunk = length > 0 && isInChunk(pointer)
            // A lone low surrogate escape comes out of YAJL as invalid UTF-8: name the real cause.
            if !inChunk, length > 0, hasUnpairedSurrogateEscape() {
                markEvent()
                return failInCallback(.unpairedSurrogate, "\\u escape is an unpaired UTF-16 surrogate")
            }
            markEvent()
            // Unescaped text in this chunk: point at the offending byte itself.
            let offset = inChunk ? UnsafeRawPointer(pointer!) - chunkBase! + invalidOffset : nil
            return failInCallback(.invalidUTF8, "\(isKey ? "key" : "string") is not valid UTF-8", at: offset)
        }
        if length > 0, !isInChunk(pointer), validation.hasFourByteSequence || memchr(pointer!, 0x3F, length) != nil {
            // The string had escapes. YAJL turns a lone high surrogate escape into "?" and a
            // high surrogate followed by a non-surrogate into a bogus character: re-read the raw text.
            if hasUnpairedSurrogateEscape() {
                markEvent()
                return failInCallback(.unpairedSurrogate, "\\u escape is an unpaired UTF-16 surrogate")
            }
        }
        markEvent()
        let text = JSONText(bytes: bytes)
        return deliver { isKey ? try handler.key(text) : try handler.string(text) }
    }

    fileprivate func onNumber(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        markEvent()
        let text = JSONNumberText(bytes: UnsafeRawBufferPointer(start: pointer, count: length))
        return deliver { try handler.number(text) }
    }

    fileprivate func onBool(_ value: Bool) -> Int32 {
        markEvent()
        return deliver { try handler.bool(value) }
    }

    fileprivate func onNull() -> Int32 {
        markEvent()
        return deliver { try handler.null() }
    }

    private func isInChunk(_ pointer: UnsafePointer<UInt8>?) -> Bool {
        guard let pointer, let chunkBase else { return false }
        let raw = UnsafeRawPointer(pointer)
        return raw >= chunkBase && raw < chunkBase + chunkCount
    }

    /// Re-reads the raw text of the string token that just ended and checks its `\u` escapes.
    private func hasUnpairedSurrogateEscape() -> Bool {
        guard let chunkBase else { return false }
        let end = Int(yajl_get_bytes_consumed(handle))
        let tokenStart = max(lastEventEnd, 0)
        let inChunk = UnsafeRawBufferPointer(start: chunkBase + tokenStart, count: end - tokenStart)
        if lastEventEnd >= 0 {
            // The whole token is in this chunk: read it in place.
            return Self.hasUnpairedSurrogateEscape(token: inChunk)
        }
        // The token began in an earlier chunk: join the carried bytes to this chunk's part.
        return (carry + inChunk).withUnsafeBytes { Self.hasUnpairedSurrogateEscape(token: $0) }
    }

    private static func hasUnpairedSurrogateEscape(token: UnsafeRawBufferPointer) -> Bool {
        // The closing quote is the last byte; the opening quote is the nearest earlier quote
        // not preceded by an odd run of backslashes.
        guard token.count >= 2 else { return false }
        var open = token.count - 2
        while open >= 0 {
            if token[open] == UInt8(ascii: "\"") {
                var backslashes = 0
                while open - backslashes - 1 >= 0, token[open - backslashes - 1] == UInt8(ascii: "\\") {
                    backslashes += 1
                }
                if backslashes % 2 == 0 { break }
            }
            open -= 1
        }
        guard open >= 0 else { return false }
        let body = UnsafeRawBufferPointer(rebasing: token[(open + 1)..<(token.count - 1)])
        return UTF8Validation.firstUnpairedSurrogateEscape(in: body) != nil
    }

    // MARK: The C callback table

    /// YAJL keeps a pointer to the callback table, so it lives for the whole process.
    /// Immutable after initialization, hence safe to share.
    nonisolated(unsafe) private static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: { context in JSONEventParser.withParser(context) { $0.onNull() } },
                yajl_boolean: { context, value in JSONEventParser.withParser(context) { $0.onBool(value != 0) } },
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: { context, text, length in
                    JSONEventParser.withParser(context) { $0.onNumber(text, length) }
                },
                yajl_string: { context, text, length in
                    JSONEventParser.withParser(context) { $0.onText(text, length, isKey: false) }
                },
                yajl_start_map: { context in JSONEventParser.withParser(context) { $0.onStartContainer(object: true) }
                },
                yajl_map_key: { context, text, length in
                    JSONEventParser.withParser(context) { $0.onText(text, length, isKey: true) }
                },
                yajl_end_map: { context in JSONEventParser.withParser(context) { $0.onEndContainer(object: true) } },
                yajl_start_array: { context in
                    JSONEventParser.withParser(context) { $0.onStartContainer(object: false) }
                },
                yajl_end_array: { context in JSONEventParser.withParser(context) { $0.onEndContainer(object: false) } }
            ))
        return table
    }()
}

extension JSONEventParser {
    /// Runs `body` on the parser behind a callback context without retaining it: the parser is
    /// alive for the whole `yajl_parse` call that invokes the callback.
    @inline(__always)
    fileprivate static func withParser(_ context: UnsafeMutableRawPointer?, _ body: (JSONEventParser) -> Int32) -> Int32
    {
        context!.assumingMemoryBound(to: CallbackState.self).pointee.parser!._withUnsafeGuaranteedRef(body)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
