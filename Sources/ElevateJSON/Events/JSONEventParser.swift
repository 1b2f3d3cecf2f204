import CYAJL

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
/// line and column of the offending byte (see ``JSONSyntaxError/byteOffset``), the same however
/// the input is split.
///
/// A parser is single-use and not thread-safe.
public final class JSONEventParser {
    /// Thrown by a handler to end the parse early, without an error.
    public struct Stop: Error, Sendable {
        /// Creates the stop signal.
        public init() {}
    }

    /// Thrown by ``parse(_:)-(UnsafeRawBufferPointer)`` (and the other `parse` calls) and by
    /// ``finish()`` when called from inside one of this parser's own handler calls, while it is
    /// delivering events: the parser is in the middle of a chunk, and handing the same input to
    /// it again would deliver earlier events a second time.
    ///
    /// The call that throws it does nothing: the parse under way continues. A handler that lets
    /// the error out ends that parse with it, as with any error a handler throws; one that catches
    /// it sees the rest of the events once each. To end a parse early from a handler, throw
    /// ``Stop`` instead.
    package struct ReentrantCallError: Error, Sendable, CustomStringConvertible {
        /// The call made from inside a handler: `"parse"` or `"finish"`.
        package let call: String

        /// Creates the error; the parser does this for you.
        /// - Parameter call: The call made from inside a handler: `"parse"` or `"finish"`.
        package init(call: String) {
            self.call = call
        }

        /// Says which call was made re-entrantly and what to do instead.
        package var description: String {
            "JSONEventParser.\(call)() was called from inside one of the parser's own handler calls; "
                + "feed input after parse(_:) returns, or throw JSONEventParser.Stop to end early"
        }
    }

    /// The options the parser was created with.
    public let options: JSONParsingOptions
    /// The handler receiving events.
    public let handler: any JSONEventHandler
    /// The handler again when it is one of this library's own, which take whole batches.
    private let batchReceiver: (any EventBatchReceiver)?
    /// For any other handler: hands it a batch, in a loop compiled for the handler's own type
    /// wherever the parser was created with that type known (see ``init(handler:options:)``).
    private let deliver: BatchDelivery?
    /// Whether a handler threw ``Stop``; further input is ignored.
    @exclusivity(unchecked) public private(set) var isStopped = false
    /// The number of input bytes accepted so far.
    public var bytesParsed: Int { chunkOffset }

    /// The absolute offset just past the token being delivered, when read inside a handler call;
    /// between calls, the number of bytes accepted so far.
    public var currentByteOffset: Int {
        guard chunkBase != nil else { return chunkOffset }
        return chunkOffset + state.pointee.deliveredEnd
    }

    private var handle: OpaquePointer
    /// What the C callbacks touch on every event, including the batch of events they record for
    /// the handler (see `PendingEvents`). It lives in manually allocated memory: class properties
    /// would cost a retain of the parser and a dynamic exclusivity check per access, which
    /// measured at a third of the event layer's time.
    private let state: UnsafeMutablePointer<CallbackState>
    /// YAJL's allocator for this parser's handles once it has been restarted, which keeps a
    /// freed handle's blocks for the next (see `restart`); nil before, when the handle comes from
    /// the system allocator (a parser that reads one document pays nothing for it). At a fixed
    /// address, as YAJL keeps it.
    @exclusivity(unchecked) private var handleMemory: UnsafeMutablePointer<HandleMemory>?

    fileprivate struct CallbackState {
        var parser: Unmanaged<JSONEventParser>?
        var handle: OpaquePointer?
        /// The address of the chunk YAJL is reading, 0 when none: callbacks tell chunk pointers
        /// from YAJL's own buffers by it, and errors give absolute positions. An integer, because
        /// the callbacks do arithmetic on it (an optional pointer would add a test of nil).
        var chunkAddress = 0
        var chunkCount = 0
        /// The chunk's bytes before this in-chunk offset are valid UTF-8, checked once when the
        /// chunk arrived (see `UTF8Validation.validPrefixLength`): text YAJL finds whole inside
        /// them needs no check of its own. 0 between chunks.
        var validTextEnd = 0
        /// `validTextEnd` for keys, but -1 (below any text's end) when keys go through the duplicate
        /// key tracker, and between chunks: the key callback's one range check then also sends every
        /// key to the checked path, with no test of the option of its own.
        var validKeyEnd = -1
        var pending = PendingEvents()
        /// The in-chunk end of the event being delivered (see `currentByteOffset`).
        var deliveredEnd = 0
        /// In-chunk offset after the last token that produced an event; -1 when none did yet.
        /// Only as of the last batch delivered: while events are pending, the last of them says
        /// (see `lastRecorded`), so that recording an event stores nothing here.
        var lastEventEnd = -1
        /// What the last event was (an `EventKind` raw value): it decides which separator may
        /// follow, which is how an error finds its offending token. As `lastEventEnd`.
        var lastEvent = EventKind.none
        var depth = 0
        var maximumDepth: Int
        let allowsMultipleValues: Bool
        /// Whether keys and objects go through the duplicate key tracker.
        let tracksKeys: Bool
    }

    /// The kinds of events that differ in what may follow them.
    enum EventKind {
        /// Nothing yet: a value must come, with no separator.
        static let none: UInt8 = 0
        /// A key: `:` must come.
        static let key: UInt8 = 1
        /// `[` or `{`: a value or the close must come, with no separator.
        static let open: UInt8 = 2
        /// A string, a close bracket: `,` or a close inside a container.
        static let value: UInt8 = 3
        /// A number or literal, which must not touch a following number or literal.
        static let bareScalar: UInt8 = 4

        /// The kind of a recorded event.
        static func of(_ code: PendingEvents.Code) -> UInt8 {
            switch code {
            case .startObject, .startArray: open
            case .key: key
            case .endObject, .endArray, .string: value
            case .number, .true, .false, .null: bareScalar
            }
        }
    }
    // The properties marked `@exclusivity(unchecked)` change once per chunk, or once per value in
    // JSON Lines, where a parser lives for one line: their dynamic exclusivity checks cost about
    // 2,000 instructions per line, a twentieth of reading such a file. Only the parser's own methods
    // touch them, and no access spans a call out to the handler.
    @exclusivity(unchecked) private var failure: (any Error)?
    @exclusivity(unchecked) private var isFinished = false
    /// Set while `parse` or `finish` runs, so that a handler calling either back is refused
    /// (an error saying so) instead of feeding YAJL the chunk it is in the middle of.
    private var isFeeding = false

    private var chunkBase: UnsafeRawPointer? {
        get { UnsafeRawPointer(bitPattern: state.pointee.chunkAddress) }
        set { state.pointee.chunkAddress = Int(bitPattern: newValue) }
    }
    private var chunkCount: Int {
        get { state.pointee.chunkCount }
        set { state.pointee.chunkCount = newValue }
    }
    /// The whole chunk being parsed, of which YAJL reads the first `chunkCount` bytes (all but
    /// from a form feed or vertical tab on): an error's excerpt goes on into the rest, as it does
    /// wherever the input was cut.
    @exclusivity(unchecked) private var wholeChunkCount = 0
    private var wholeChunk: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: chunkBase, count: wholeChunkCount) }
    @exclusivity(unchecked) private var chunkOffset = 0
    @exclusivity(unchecked) private var linesBeforeChunk = 0
    @exclusivity(unchecked) private var lineStartBeforeChunk = 0
    /// The token YAJL is still buffering at the end of the last chunk, from its first byte (at
    /// absolute offset `carryStart`); empty when no token is open. Needed to re-read a split
    /// string's raw text, to bound token size and to point errors at a token's start. The
    /// whitespace and comments before it are not kept: they are no part of any token.
    @exclusivity(unchecked) private var carry: [UInt8] = []
    @exclusivity(unchecked) private var carryStart = 0
    /// What lies between the last event and the end of the last chunk, when no token is open.
    @exclusivity(unchecked) private var gap = Gap()
    /// The length of what YAJL re-lexes on every call while it stays open: the open token, or
    /// an open comment (YAJL lexes comments as tokens).
    @exclusivity(unchecked) private var openLexemeLength = 0
    /// The last 16 bytes of earlier chunks, for the excerpt of an error at a chunk's start.
    @exclusivity(unchecked) private var recentBytes = RecentBytes()
    /// The 16 bytes before `carry`, for the excerpt of an error at a long token.
    @exclusivity(unchecked) private var bytesBeforeCarry: [UInt8] = []
    /// Chunks held back while one long token is open (see `parse(_:)`).
    @exclusivity(unchecked) private var held: [UInt8] = []
    /// Where each held chunk ends in `held`, kept while they are parsed: an error's excerpt ends
    /// where its chunk ended, as when the chunks are parsed one by one.
    private var heldChunkEnds: [Int] = []
    /// Watches the held chunks for the end of the lexeme they are held for.
    private var heldLexemeEnd = LexemeEnd(token: [])
    @exclusivity(unchecked) private var byteOrderMarkProbe: [UInt8]?
    /// 3 once a byte order mark at the input's start was skipped, 0 otherwise: what the split
    /// parse leaves out of the input's bytes when it completes an excerpt, as this parser's
    /// excerpts leave it out.
    package private(set) var skippedByteOrderMarkLength = 0
    /// Where the excerpt of the last error made ended (an absolute offset, exclusive): the end of
    /// the chunk it looked in (see `excerpt(around:in:)`). The split parse, which moves a run's
    /// error to the input and makes its excerpt again from the input's bytes, ends it there too.
    package private(set) var lastExcerptEnd = 0
    /// Bytes held for a token that spans chunks: 0 between tokens, where the split parse may pass
    /// over bytes (see ``pass(over:newlines:lastLineStart:lastBytes:)``).
    var bufferedByteCount: Int { carry.count + held.count }
    /// How many bytes the arena of copied event text can hold now (for the tests).
    var arenaCapacity: Int { state.pointee.pending.arenaCapacity }
    /// Whether the next chunk is held back, unparsed, unless it ends the lexeme (see `parse(_:)`):
    /// a token or comment of 64 KiB or more is open, or chunks are held already.
    var holdsNextChunkBack: Bool { openLexemeLength >= 1 << 16 || !held.isEmpty }

    /// Creates a parser that sends events to `handler`.
    ///
    /// The parser calls the handler's methods directly, without going through the protocol, when
    /// the handler's type is known where the parser is created: pass the handler as its own type
    /// rather than as `any JSONEventHandler` where you can.
    ///
    /// - Parameters:
    ///   - handler: The handler receiving every event. The parser keeps it for its lifetime.
    ///   - options: Limits and extensions of the grammar; ``JSONParsingOptions/default`` by default.
    @inlinable
    public convenience init<Handler: JSONEventHandler>(handler: Handler, options: JSONParsingOptions = .default) {
        self.init(
            handler: handler, options: options, skipsByteOrderMark: true, delivery: Self.delivery(to: handler))
    }

    /// What hands a batch to a handler of type `Handler`. It is `@inlinable`, and so compiled where
    /// the parser is created: for a handler whose type is known there, the loop over the batch
    /// then calls (or inlines) the handler's methods directly, instead of one protocol witness
    /// call per event (for a handler that only counts, 3.3 M of the 103.5 M instructions of
    /// parsing canada.json).
    @inlinable
    static func delivery<Handler: JSONEventHandler>(to handler: Handler) -> BatchDelivery {
        { batch in try handler.receiveEach(batch) }
    }

    /// `skipsByteOrderMark: false` treats a leading byte order mark as the error it is in the
    /// middle of a stream (a JSON Lines line after the first).
    convenience init<Handler: JSONEventHandler>(
        handler: Handler, options: JSONParsingOptions, skipsByteOrderMark: Bool
    ) {
        self.init(
            handler: handler, options: options, skipsByteOrderMark: skipsByteOrderMark,
            delivery: Self.delivery(to: handler))
    }

    /// `delivery` is made only for a handler that is not one of this library's own: those have
    /// their own loop, even when known here only as an existential (nothing is specialized for
    /// the type an existential is opened to), and a parser per JSON Lines line then allocates no
    /// closure. Generic, so that the test for a handler of this library's own is decided where
    /// the handler's type is known, not looked up at run time for every line.
    @usableFromInline
    init<Handler: JSONEventHandler>(
        handler: Handler, options: JSONParsingOptions, skipsByteOrderMark: Bool,
        delivery: @autoclosure () -> BatchDelivery
    ) {
        self.byteOrderMarkProbe = skipsByteOrderMark ? [] : nil
        self.options = options
        self.duplicateKeys = options.rejectsDuplicateKeys ? DuplicateKeyTracker() : nil
        self.handler = handler
        let batchReceiver = handler as? any EventBatchReceiver
        self.batchReceiver = batchReceiver
        self.deliver = batchReceiver == nil ? delivery() : nil
        state = .allocate(capacity: 1)
        state.initialize(to: Self.callbackState(options: options, pending: PendingEvents()))
        handle = Self.makeHandle(state: state, memory: nil, options: options)
        state.pointee.parser = Unmanaged.passUnretained(self)
    }

    /// The callback state of a parser that has read nothing, with `pending` for its batch.
    private static func callbackState(options: JSONParsingOptions, pending: PendingEvents) -> CallbackState {
        CallbackState(
            pending: pending, maximumDepth: options.maximumDepth, allowsMultipleValues: options.allowsMultipleValues,
            tracksKeys: options.rejectsDuplicateKeys)
    }

    /// A YAJL handle that reports to the callbacks with `state`, which learns of it.
    private static func makeHandle(
        state: UnsafeMutablePointer<CallbackState>, memory: UnsafeMutablePointer<HandleMemory>?, options: JSONParsingOptions
    ) -> OpaquePointer {
        // yajl_alloc fails only when its allocator does (HandleMemory's ends the process instead).
        let handle: OpaquePointer
        if let memory {
            var functions = HandleMemory.functions(context: memory)
            handle = yajl_alloc(Self.callbacks, &functions, UnsafeMutableRawPointer(state))!
        } else {
            handle = yajl_alloc(Self.callbacks, nil, UnsafeMutableRawPointer(state))!
        }
        state.pointee.handle = handle
        // UTF8Validation checks every string completely after YAJL; YAJL's partial check
        // (byte patterns only) would only repeat part of that work.
        _ = cyajl_config_flag(handle, yajl_dont_validate_strings, 1)
        if options.allowsComments {
            _ = cyajl_config_flag(handle, yajl_allow_comments, 1)
        }
        if options.allowsMultipleValues {
            _ = cyajl_config_flag(handle, yajl_allow_multiple_values, 1)
        }
        return handle
    }

    /// Readies the parser for another document, exactly as a new one with the same handler and
    /// options would start, in whatever state the last one left it: what JSON Lines does at every
    /// line. A YAJL handle cannot be reset, so it is replaced; the parser, its callback state and
    /// its batch's memory are kept, which a parser made per line allocated and freed again
    /// (about 1,000 of the 18,000 instructions of reading a line of the people file), and so are
    /// the blocks of the handle, which the next one is made of (`HandleMemory`, 600 instructions
    /// a line).
    ///
    /// Every stored property that describes the document read so far is set here as `init` sets it.
    /// - Parameter skipsByteOrderMark: As for `init`.
    func restart(skipsByteOrderMark: Bool) {
        yajl_free(handle)
        var pending = state.pointee.pending
        pending.removeAll()
        state.pointee = Self.callbackState(options: options, pending: pending)
        if handleMemory == nil {
            handleMemory = .allocate(capacity: 1)
            handleMemory?.initialize(to: HandleMemory())
        }
        handle = Self.makeHandle(state: state, memory: handleMemory, options: options)
        state.pointee.parser = Unmanaged.passUnretained(self)
        duplicateKeys?.removeAll()
        isStopped = false
        failure = nil
        isFinished = false
        pendingError = nil
        chunkOffset = 0
        linesBeforeChunk = 0
        lineStartBeforeChunk = 0
        // Emptied only when not empty: even then, `removeAll(keepingCapacity:)` is a call that
        // replaces a range, at every line of JSON Lines.
        if !carry.isEmpty { carry.removeAll(keepingCapacity: carry.count <= 1 << 16) }
        carryStart = 0
        gap = Gap()
        openLexemeLength = 0
        recentBytes = RecentBytes()
        if !bytesBeforeCarry.isEmpty { bytesBeforeCarry.removeAll(keepingCapacity: true) }
        if !held.isEmpty { held.removeAll(keepingCapacity: held.count <= 1 << 16) }
        if !heldChunkEnds.isEmpty { heldChunkEnds.removeAll() }
        byteOrderMarkProbe = skipsByteOrderMark ? [] : nil
        skippedByteOrderMarkLength = 0
    }

    deinit {
        yajl_free(handle)
        if let handleMemory {
            handleMemory.pointee.deallocate()
            handleMemory.deinitialize(count: 1)
            handleMemory.deallocate()
        }
        state.pointee.pending.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private var lastEventEnd: Int {
        get { Self.lastRecorded(state).end }
        set {
            assert(state.pointee.pending.count == 0, "set between batches")
            state.pointee.lastEventEnd = newValue
        }
    }

    // MARK: Feeding input

    /// Parses the next chunk of input.
    /// - Parameter bytes: The chunk, of any size; cut anywhere, even inside a token or a
    ///   character. Read only during the call.
    /// - Throws: ``JSONSyntaxError`` for bad input, or whatever the handler threw;
    ///   an error naming the call when made from inside one of this parser's handler calls.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws {
        guard !isFeeding else { throw ReentrantCallError(call: "parse") }
        if let failure { throw failure }
        guard !isStopped, !isFinished, bytes.count > 0 else { return }
        isFeeding = true
        defer { isFeeding = false }
        var input = bytes
        do {
            if byteOrderMarkProbe != nil {
                guard let rest = try consumeByteOrderMark(input), !isStopped else { return }
                input = rest
            }
            // While one token spans chunks, YAJL re-lexes it from its start on every call: hold
            // chunks back until the new input is as large as what is buffered, so the cost stays
            // linear in the token size instead of quadratic.
            if holdsNextChunkBack {
                if held.isEmpty {
                    heldLexemeEnd = carry.isEmpty ? LexemeEnd(comment: gap.comment) : LexemeEnd(token: carry)
                }
                let lexemeEnds = heldLexemeEnd.ends(in: input)
                held.append(contentsOf: input)
                heldChunkEnds.append(held.count)
                // Parsed at once when the lexeme ends in the chunk, so that what follows it is
                // parsed as it arrives (see `LexemeEnd`); when the held chunks match what is
                // buffered; or when the token could pass the size limit: the check after the
                // parse then sees it, whereas a token that ended among the held chunks would
                // otherwise pass at twice the limit.
                guard
                    lexemeEnds || held.count >= openLexemeLength
                        || carry.count + held.count > options.maximumTokenSize
                else { return }
                try feedHeld()
            } else {
                try feed(input)
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Parses the next chunk of input.
    /// - Parameter data: The chunk, of any size.
    /// - Throws: As ``parse(_:)-(UnsafeRawBufferPointer)``.
    public func parse(_ data: Data) throws {
        try data.withUnsafeBytes { try parse($0) }
    }

    /// Parses the next chunk of input.
    /// - Parameter bytes: The chunk, of any size.
    /// - Throws: As ``parse(_:)-(UnsafeRawBufferPointer)``.
    public func parse(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    /// Parses a complete document in one call: `parse(_:)` then ``finish()``.
    /// - Parameter data: The whole input.
    /// - Throws: As ``parse(_:)-(UnsafeRawBufferPointer)`` and ``finish()``.
    public func parseAll(_ data: Data) throws {
        try parse(data)
        try finish()
    }

    /// Ends the input; reports a document that stops inside a value as
    /// ``JSONSyntaxError/Kind-swift.enum/truncated``.
    /// - Throws: ``JSONSyntaxError`` for bad or truncated input, or whatever the handler threw;
    ///   an error naming the call when made from inside one of this parser's handler calls.
    public func finish() throws {
        guard !isFeeding else { throw ReentrantCallError(call: "finish") }
        if let failure { throw failure }
        guard !isStopped, !isFinished else { return }
        isFeeding = true
        defer { isFeeding = false }
        do {
            if let probe = byteOrderMarkProbe, !probe.isEmpty {
                byteOrderMarkProbe = nil
                try probe.withUnsafeBytes { try feed($0) }
            }
            byteOrderMarkProbe = nil
            if !held.isEmpty, !isStopped { try feedHeld() }
            // A handler may stop the parse during the replays above: then there is nothing to end.
            isFinished = true
            if isStopped { return }
            chunkBase = nil
            chunkCount = 0
            wholeChunkCount = 0
            lastEventEnd = -1
            try rejectOpenLexemeAfterCompleteValue()
            let status = yajl_complete_parse(handle)
            if status == yajl_status_client_canceled {
                // A handler stopped or failed (or a check of ours did, at its own position).
                return try check(status, chunk: UnsafeRawBufferPointer(start: nil, count: 0))
            }
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
                // The input ends inside a value: the position is the end of the input.
                let end = makeError(.truncated, "", at: chunkOffset, in: UnsafeRawBufferPointer(start: nil, count: 0))
                error.kind = .truncated
                error.message = "unexpected end of input inside a token (\(error.message))"
                (error.byteOffset, error.line, error.column, error.excerpt) = (
                    end.byteOffset, end.line, end.column, end.excerpt
                )
                throw error
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// After a complete top-level value YAJL lexes what follows to reject it, but its lexer calls a
    /// string (or comment) it has not seen the end of "more input needed", not an error, and
    /// `yajl_complete_parse` only lexes one space more: `{}"abc` would end without an error and
    /// `1 "abc` with several values allowed would drop its last value. Such an open lexeme is
    /// trailing garbage after a document, or a value cut short in a stream of values.
    private func rejectOpenLexemeAfterCompleteValue() throws {
        let lastEvent = Self.lastRecorded(state).kind
        guard state.pointee.depth == 0, lastEvent == EventKind.value || lastEvent == EventKind.bareScalar else {
            return
        }
        let noChunk = UnsafeRawBufferPointer(start: nil, count: 0)
        let start: Int
        let what: String
        if carry.first == UInt8(ascii: "\"") {
            (start, what) = (carryStart, "a string")
        } else if carry.isEmpty, gap.comment == .block || gap.comment == .blockStar {
            (start, what) = (gap.commentStart, "a comment")
        } else {
            return
        }
        if options.allowsMultipleValues {
            throw makeError(.truncated, "unexpected end of input inside \(what)", at: chunkOffset, in: noChunk)
        }
        throw makeError(.syntax, "trailing garbage (\(what) after the document)", at: start, in: noChunk)
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
            skippedByteOrderMarkLength = 3
            chunkOffset += 3
            return UnsafeRawBufferPointer(rebasing: input[index...])
        }
        if index == input.count {
            byteOrderMarkProbe = probe
            return nil
        }
        // Not a byte order mark: what was held back is ordinary input, read in one chunk with
        // what follows it here, so that an error there (no JSON text starts with a mark's first
        // bytes) shows the bytes after it in its excerpt, as it would in the chunk they came in.
        // (Fed alone, the held bytes ended the excerpt: with workers, where the run's excerpt is
        // completed from the bytes after the run, the two were told apart; found by the fuzz
        // target.) Up to 16 bytes of them, all that an excerpt shows: no chunk is copied.
        byteOrderMarkProbe = nil
        let rest = UnsafeRawBufferPointer(rebasing: input[index...])
        guard !probe.isEmpty else { return rest }
        let joined = rest.prefix(16).count
        try (probe + rest.prefix(joined)).withUnsafeBytes { try feed($0) }
        return UnsafeRawBufferPointer(rebasing: rest[joined...])
    }

    private func feed(_ chunk: UnsafeRawBufferPointer) throws {
        // Plain text, the usual case, is known so in one pass; anything else is placed exactly.
        let plain = InputLayout(plainText: chunk)
        let layout = plain ?? InputLayout(scanning: chunk)
        let parsedCount = layout.firstInvalidWhitespace ?? chunk.count
        chunkBase = chunk.baseAddress
        chunkCount = parsedCount
        wholeChunkCount = chunk.count
        lastEventEnd = -1
        if parsedCount > 0 {
            let validTextEnd =
                plain != nil ? parsedCount : UTF8Validation.validPrefixLength(chunk.baseAddress!, parsedCount)
            state.pointee.validTextEnd = validTextEnd
            state.pointee.validKeyEnd = state.pointee.tracksKeys ? -1 : validTextEnd
            defer {
                state.pointee.validTextEnd = 0
                state.pointee.validKeyEnd = -1
            }
            let status = yajl_parse(
                handle, chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), parsedCount)
            try check(status, chunk: chunk)
        }
        if isStopped {
            // The handler has all it wanted: the rest of the chunk is neither checked nor kept.
            chunkOffset += state.pointee.deliveredEnd
            chunkBase = nil
            chunkCount = 0
            wholeChunkCount = 0
            return
        }
        if let invalid = layout.firstInvalidWhitespace {
            let name = chunk[invalid] == 0x0C ? "form feed" : "vertical tab"
            // Found before YAJL reads the chunk, so whether it stands between tokens or in a
            // string is not known here: the message covers both.
            let message =
                "\(name) (\\x0\(String(chunk[invalid], radix: 16))) is not allowed: it is not JSON whitespace, "
                + "and in a string it must be escaped"
            throw makeError(.invalidWhitespace, message, at: chunkOffset + invalid, in: chunk)
        }
        keepOpenToken(of: chunk)
        if carry.count > options.maximumTokenSize {
            throw makeError(
                .tokenTooLarge, "a token is larger than the maximum of \(options.maximumTokenSize) bytes",
                at: carryStart, in: chunk)
        }
        recentBytes.append(chunk)
        linesBeforeChunk += layout.newlines
        if let lineStart = layout.lastLineStart {
            lineStartBeforeChunk = chunkOffset + lineStart
        }
        chunkOffset += chunk.count
        chunkBase = nil
        chunkCount = 0
        wholeChunkCount = 0
    }

    /// The input byte at absolute offset `position`, if it is still at hand: in `chunk`, among
    /// the last bytes of earlier chunks, in the carried token, or just before it.
    private func byte(at position: Int, in chunk: UnsafeRawBufferPointer) -> UInt8? {
        if position >= chunkOffset {
            return position - chunkOffset < chunk.count ? chunk[position - chunkOffset] : nil
        }
        if position >= chunkOffset - recentBytes.count {
            return recentBytes[position - (chunkOffset - recentBytes.count)]
        }
        // The carried token ends where the chunk starts, or, once it has taken the chunk in
        // (a token over the size limit is reported then), where the chunk ends.
        let carryEnd = carryStart + carry.count
        guard !carry.isEmpty, carryEnd == chunkOffset || carryEnd == chunkOffset + chunk.count else { return nil }
        if position >= carryStart { return carry[position - carryStart] }
        if position >= carryStart - bytesBeforeCarry.count {
            return bytesBeforeCarry[position - (carryStart - bytesBeforeCarry.count)]
        }
        return nil
    }

    /// After YAJL accepted `chunk`: keeps the token it left open (if any) in `carry`, and what
    /// came before it in `gap`. Only the bytes after the last event are looked at, and only once.
    private func keepOpenToken(of chunk: UnsafeRawBufferPointer) {
        var from = 0
        if lastEventEnd >= 0 {
            if !carry.isEmpty { carry.removeAll(keepingCapacity: carry.count <= 1 << 16) }
            gap = Gap(after: Self.lastRecorded(state).kind, depth: state.pointee.depth)
            from = lastEventEnd
        }
        if !carry.isEmpty {
            // The open token goes on through the whole chunk.
            carry.append(contentsOf: chunk)
        } else if let start = gap.skip(chunk, from: from, base: chunkOffset, allowsComments: options.allowsComments) {
            carryStart = start
            bytesBeforeCarry = (max(start - 16, 0)..<start).compactMap { byte(at: $0, in: chunk) }
            if start < chunkOffset {
                // A "/" at the end of the previous chunk that began no comment: YAJL rejects
                // that before the chunk ends, so this is only for completeness.
                carry.append(UInt8(ascii: "/"))
            }
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[max(start - chunkOffset, 0)...]))
        }
        if !carry.isEmpty {
            openLexemeLength = carry.count
        } else if gap.comment != .none {
            openLexemeLength = chunkOffset + chunk.count - gap.commentStart
        } else {
            openLexemeLength = 0
        }
    }

    /// The absolute offset of the first byte of the token YAJL is reading (the one it rejects,
    /// or the one whose event is being delivered), and whether it touches the previous event's
    /// token. Nil when only whitespace, comments and separators were read since the last event.
    private func currentToken(in chunk: UnsafeRawBufferPointer) -> (start: Int, touchesPrevious: Bool)? {
        var scan: Gap
        var from = 0
        if lastEventEnd >= 0 {
            scan = Gap(after: Self.lastRecorded(state).kind, depth: state.pointee.depth)
            from = lastEventEnd
        } else if !carry.isEmpty {
            return (carryStart, gap.isEmpty)
        } else {
            scan = gap
        }
        guard let start = scan.skip(chunk, from: from, base: chunkOffset, allowsComments: options.allowsComments)
        else { return nil }
        return (start, scan.isEmpty)
    }

    /// The raw source bytes of the string token that just ended, from its opening quote, and the
    /// absolute offset of that quote.
    private func withCurrentStringToken<R>(_ body: (UnsafeRawBufferPointer, Int) -> R) -> R? {
        let chunk = UnsafeRawBufferPointer(start: chunkBase, count: chunkCount)
        guard let start = currentToken(in: chunk)?.start else { return nil }
        let end = min(Int(yajl_get_bytes_consumed(handle)), chunkCount)
        if start >= chunkOffset {
            let from = start - chunkOffset
            guard from <= end else { return nil }
            return body(UnsafeRawBufferPointer(rebasing: chunk[from..<end]), start)
        }
        // The token began in an earlier chunk: join the carried bytes to this chunk's part.
        return (carry + chunk[..<end]).withUnsafeBytes { body($0, start) }
    }

    private func check(_ status: yajl_status, chunk: UnsafeRawBufferPointer) throws {
        // The events before whatever ended the parse come first: a handler that throws at one of
        // them wins over a syntax error further on.
        let status = deliverPendingEvents() == 1 ? status : yajl_status_client_canceled
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
            if let tooLarge = error as? DocumentTooLarge {
                throw makeError(.documentTooLarge, tooLarge.message, at: currentByteOffset, in: chunk)
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
                throw makeError(kind, message, at: chunkOffset + min(consumed, chunk.count), in: chunk)
            }
            // YAJL's own offset is past the offending byte for lexical errors and a guess for
            // grammar errors (the bytes consumed in this chunk minus the token's decoded length,
            // so it depends on the chunking). The grammar says which token it rejects: the first
            // one after the last event, after the one separator that event allows.
            let offending = currentToken(in: chunk)?.start ?? chunkOffset + min(consumed, chunk.count)
            throw makeError(kind, message, at: offending, in: chunk)
        }
    }

    @exclusivity(unchecked) private var pendingError: (any Error)?
    /// The keys of the open objects, when repeated keys are rejected.
    private let duplicateKeys: DuplicateKeyTracker?

    private static func cleanedMessage(_ message: String) -> String {
        var text = Substring(message)
        while let last = text.last, last == "\n" || last == " " || last == "." { text = text.dropLast() }
        for prefix in ["lexical error: ", "parse error: "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        return String(text)
    }

    /// An error at the opening quote of the key whose event a handler is receiving: for a handler
    /// that refuses a key it was given (a streaming call's key path repeated after its first value
    /// was handed out), so that the error says where, as the parser's own errors do.
    ///
    /// Read inside the handler's call for the key; elsewhere the error is at the bytes accepted
    /// so far. The quote is found by reading back from the key's closing quote (the event's end)
    /// to a quote not escaped; a key that began before the bytes still at hand, which cannot
    /// happen for a key read whole or carried across chunks, is reported at its closing quote.
    func errorAtDeliveredKey(_ kind: JSONSyntaxError.Kind, _ message: String) -> JSONSyntaxError {
        let chunk = wholeChunk
        guard chunkBase != nil else { return makeError(kind, message, at: chunkOffset, in: chunk) }
        let closingQuote = currentByteOffset - 1
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var position = closingQuote - 1
        while let byte = byte(at: position, in: chunk) {
            if byte == quote {
                // Escaped when an odd number of backslashes stands before it.
                var backslashes = 0
                while self.byte(at: position - 1 - backslashes, in: chunk) == backslash { backslashes += 1 }
                if backslashes.isMultiple(of: 2) { return makeError(kind, message, at: position, in: chunk) }
            }
            position -= 1
        }
        return makeError(kind, message, at: closingQuote, in: chunk)
    }

    // MARK: The split parse

    /// How deep the parser is nested: the containers open after the events delivered so far.
    package var containerDepth: Int { state.pointee.depth }

    /// Makes the parser read what follows as if `count` containers were open around it, for the
    /// depth limit: a worker of the split parse reads runs of an array's elements from a depth of
    /// the document (see `SplitArrayReader`). The limit's message still names the options' limit.
    /// Called before any input.
    package func startNested(inside count: Int) {
        state.pointee.maximumDepth = options.maximumDepth - count
    }

    /// Passes over `count` bytes of input that other parsers read and checked (the content of an
    /// array parsed on several threads, see `SplitArrayReader`) without reading them, so that the
    /// offsets, lines, columns and excerpts of what follows are those of the input. Called
    /// between chunks, where no token is open (just after an array's `[`).
    /// - Parameters:
    ///   - count: How many bytes to pass over.
    ///   - newlines: The newlines among them.
    ///   - lastLineStart: The absolute offset just after the last of them, if any.
    ///   - lastBytes: Their last bytes (up to 16), for an excerpt that starts among them.
    package func pass(over count: Int, newlines: Int, lastLineStart: Int?, lastBytes: some Collection<UInt8>) {
        precondition(carry.isEmpty && held.isEmpty && !isFeeding, "passes over bytes only between tokens")
        chunkOffset += count
        linesBeforeChunk += newlines
        if let lastLineStart { lineStartBeforeChunk = lastLineStart }
        recentBytes.append(contentsOf: lastBytes)
    }

    /// Parses now the chunks held back while a long token was open (see `parse(_:)`), which are
    /// otherwise parsed once as much again has arrived, or at ``finish()``: a run of the split parse
    /// of concatenated values ends just after a value, with no token open, and gets no more input
    /// (see `ValuesRunParser`).
    /// - Throws: As ``parse(_:)-(UnsafeRawBufferPointer)``.
    package func parseHeld() throws {
        guard !isFeeding else { throw ReentrantCallError(call: "parseHeld") }
        if let failure { throw failure }
        guard !held.isEmpty, !isStopped, !isFinished else { return }
        isFeeding = true
        defer { isFeeding = false }
        do {
            try feedHeld()
        } catch {
            failure = error
            throw error
        }
    }

    /// Parses the chunks held back, in one call.
    private func feedHeld() throws {
        let pending = held
        held.removeAll(keepingCapacity: false)
        defer { heldChunkEnds.removeAll() }
        try pending.withUnsafeBytes { try feed($0) }
    }

    /// Makes the parser read on as it does after a complete top-level value with several values
    /// allowed: a run of the split parse of concatenated values starts just after the bracket or
    /// brace that ended one (see `SplitValuesReader`), where what may follow, and how an error
    /// after it is named, depend on that value. Called before any input.
    package func startAfterValue() {
        precondition(carry.isEmpty && held.isEmpty && !isFeeding, "starts after a value only before any input")
        state.pointee.lastEvent = EventKind.value
        gap = Gap(after: EventKind.value, depth: 0)
    }

    /// The line and column of absolute offset `absolute` when it lies in the chunk being parsed,
    /// read inside a handler call; nil otherwise (the lines of earlier chunks are only counted).
    func lineAndColumn(ofByteOffset absolute: Int) -> (line: Int, column: Int)? {
        guard chunkBase != nil, absolute >= chunkOffset, absolute <= chunkOffset + chunkCount else { return nil }
        return lineAndColumn(of: absolute, inChunk: UnsafeRawBufferPointer(start: chunkBase, count: chunkCount))
    }

    /// The line and column of absolute offset `absolute`, which lies in `chunk` (or just past it).
    private func lineAndColumn(of absolute: Int, inChunk chunk: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        let (newlines, start) = InputLayout.lines(in: chunk, upTo: absolute - chunkOffset)
        let lineStart = start.map { chunkOffset + $0 } ?? lineStartBeforeChunk
        return (linesBeforeChunk + newlines + 1, absolute - lineStart + 1)
    }

    /// An error at absolute offset `absolute`, which lies in `chunk` or in the open token
    /// carried from earlier chunks, with its line, column and an excerpt.
    private func makeError(
        _ kind: JSONSyntaxError.Kind, _ message: String, at absolute: Int, in chunk: UnsafeRawBufferPointer
    ) -> JSONSyntaxError {
        let (line, column) =
            absolute >= chunkOffset
            ? lineAndColumn(of: absolute, inChunk: chunk)
            // In the carried token, which holds no newline (YAJL rejects one in a token at once).
            : (linesBeforeChunk + 1, absolute - min(lineStartBeforeChunk, absolute) + 1)
        return JSONSyntaxError(
            kind: kind, message: message, byteOffset: absolute, line: line, column: column,
            excerpt: excerpt(around: absolute, in: chunk))
    }

    /// Up to 16 bytes either side of `absolute`, from the last bytes of earlier chunks, the
    /// carried token and `chunk`: the bytes before it are the same however the input was split,
    /// those after it end with the chunk they came in (held chunks parsed together included).
    private func excerpt(around absolute: Int, in chunk: UnsafeRawBufferPointer) -> String {
        let end = heldChunkEnds.first { $0 > absolute - chunkOffset } ?? chunk.count
        lastExcerptEnd = chunkOffset + end
        var window: [UInt8] = []
        for position in max(absolute - 16, 0)..<(absolute + 16) {
            if position >= chunkOffset, position - chunkOffset >= end { break }
            if let byte = byte(at: position, in: chunk) { window.append(byte) }
        }
        return JSONSyntaxError.excerptText(window)
    }

    // MARK: Events from YAJL
    //
    // The callbacks record events (see `PendingEvents`) and touch nothing but the callback state
    // on their common paths; anything unusual (errors, escaped or split text, duplicate key
    // checks) goes through the parser. The handler receives each batch from
    // `deliverPendingEvents()`, when the batch is full and before `yajl_parse` returns.

    fileprivate typealias State = UnsafeMutablePointer<CallbackState>

    /// Hands the recorded events to the handler in order. Returns 0 when the handler threw: its
    /// error (or ``Stop``) is then the pending error, and the rest of the batch is dropped.
    fileprivate func deliverPendingEvents() -> Int32 {
        let state = self.state
        let count = state.pointee.pending.count
        guard let last = state.pointee.pending.last else { return 1 }
        // What the batch says of the last event outlives it (see `lastRecorded`).
        state.pointee.lastEventEnd = last.end
        state.pointee.lastEvent = EventKind.of(last.code)
        defer { state.pointee.pending.removeAll() }
        // The field's address is found from the manually allocated state, which never moves.
        let deliveredEnd = (UnsafeMutableRawPointer(state) + MemoryLayout<CallbackState>.offset(of: \.deliveredEnd)!)
            .assumingMemoryBound(to: Int.self)
        let batch = EventBatch(
            entries: UnsafePointer(state.pointee.pending.entries), count: count, deliveredEnd: deliveredEnd)
        do {
            if let batchReceiver {
                try batchReceiver.receive(batch)
            } else {
                try deliver!(batch)
            }
        } catch {
            pendingError = error
            return 0
        }
        return 1
    }

    @inline(__always)
    fileprivate static func state(_ context: UnsafeMutableRawPointer?) -> State {
        // YAJL passes the context given to yajl_alloc, never nil: no check.
        context.unsafelyUnwrapped.assumingMemoryBound(to: CallbackState.self)
    }

    /// The parser behind the callback state, for the uncommon paths. It is alive for the whole
    /// `yajl_parse` call that invokes a callback. (Public API only: this costs a retain, which is
    /// why the common paths do without it.)
    @inline(__always)
    fileprivate static func parser(_ state: State) -> JSONEventParser {
        state.pointee.parser!.takeUnretainedValue()
    }

    /// After an event was recorded: delivers the batch when it is full.
    @inline(__always)
    fileprivate static func recorded(_ state: State) -> Int32 {
        state.pointee.pending.isFull ? deliverFullBatch(state) : 1
    }

    /// The uncommon paths of the callbacks, out of line and called last, so that the compiler can
    /// jump to them: the callbacks' common paths then call nothing and save no registers.
    @inline(never)
    fileprivate static func deliverFullBatch(_ state: State) -> Int32 {
        parser(state).deliverPendingEvents()
    }

    @inline(never)
    fileprivate static func onTextOutOfLine(
        _ state: State, _ pointer: UnsafePointer<UInt8>?, _ length: Int, isKey: Bool
    ) -> Int32 {
        // The common text off the inline path, escaped text YAJL decoded into its own buffer, is
        // recorded here without the parser, whose reference costs a retain and a release (as much
        // as the rest of this path): when it is valid, has no character a bad surrogate escape
        // could have become ("?" or a four-byte sequence), is no key to check for duplicates and
        // fits the arena. Anything else takes `onCheckedText`, which checks it all again.
        if let pointer, length > 0, !(isKey && state.pointee.tracksKeys) {
            let offset = Int(bitPattern: pointer) &- state.pointee.chunkAddress
            let isInChunk = offset >= 0 && offset < state.pointee.chunkCount
            let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
            if !isInChunk, let destination = state.pointee.pending.copyDestination(forLength: length) {
                let end = tokenEnd(state)
                // When an event before it ended in this chunk, the token began in this chunk too;
                // ending inside the part checked when the chunk arrived, all of its raw text is
                // valid UTF-8, and only a bad surrogate escape can have made the decoded text
                // invalid (see `copyFindingSurrogateArtifacts`). Otherwise (the chunk's first
                // token, which may have begun in an earlier chunk) the decoded text is checked whole.
                let rawTextIsValid = end <= state.pointee.validTextEnd && lastRecorded(state).end >= 0
                let isPlain: Bool
                if rawTextIsValid {
                    isPlain = !UTF8Validation.copyFindingSurrogateArtifacts(bytes, to: destination)
                } else {
                    let validation = UTF8Validation.validate(bytes)
                    isPlain =
                        validation.invalidOffset == nil && !validation.hasFourByteSequence
                        && memchr(pointer, 0x3F, length) == nil
                    if isPlain { destination.copyMemory(from: pointer, byteCount: length) }
                }
                if isPlain {
                    state.pointee.pending.append(
                        isKey ? .key : .string, end: end, copiedTo: destination, length: length)
                    return recorded(state)
                }
            }
        }
        return parser(state).onCheckedText(pointer, length, isKey: isKey)
    }

    /// The in-chunk end of the token YAJL is delivering: the count of bytes its handle has
    /// consumed. Asked through YAJL's API, the only promise YAJL makes about its handle.
    @inline(__always)
    fileprivate static func tokenEnd(_ state: State) -> Int {
        Int(yajl_get_bytes_consumed(state.pointee.handle))
    }

    /// The end and kind of the last event recorded: the last one pending, or else the last one
    /// of the batches delivered, which `deliverPendingEvents()` keeps in the state.
    @inline(__always)
    fileprivate static func lastRecorded(_ state: State) -> (end: Int, kind: UInt8) {
        if let last = state.pointee.pending.last { return (last.end, EventKind.of(last.code)) }
        return (state.pointee.lastEventEnd, state.pointee.lastEvent)
    }

    /// Records an error at absolute offset `offset` (by default, the current token's first byte).
    private func failInCallback(_ kind: JSONSyntaxError.Kind, _ message: String, at offset: Int? = nil) -> Int32 {
        let chunk = UnsafeRawBufferPointer(start: chunkBase, count: chunkCount)
        let position =
            offset ?? currentToken(in: chunk)?.start
            ?? chunkOffset + min(Int(yajl_get_bytes_consumed(handle)), chunkCount)
        pendingError = makeError(kind, message, at: position, in: wholeChunk)
        return 0
    }

    /// With ``JSONParsingOptions/allowsMultipleValues``, YAJL splits `1-2` into two numbers and
    /// `truefalse` into two literals: a top-level number or literal that touches a previous one
    /// is rejected at its first byte. This is whether the check is needed at all.
    @inline(__always)
    fileprivate static func mayTouchPreviousScalar(_ state: State) -> Bool {
        state.pointee.depth == 0 && state.pointee.allowsMultipleValues
            && lastRecorded(state).kind == EventKind.bareScalar
    }

    /// Out of line, so that the callbacks' common paths call nothing.
    @inline(never)
    fileprivate static func failureIfTouchingPreviousScalar(_ state: State) -> Int32? {
        parser(state).failureIfTouchingPreviousScalar()
    }

    /// The failure for a top-level number or literal that touches the previous one, if it does.
    @inline(never)
    fileprivate func failureIfTouchingPreviousScalar() -> Int32? {
        let chunk = UnsafeRawBufferPointer(start: chunkBase, count: chunkCount)
        guard let token = currentToken(in: chunk), token.touchesPrevious else { return nil }
        return failInCallback(
            .syntax, "a number or literal must be separated from the previous one by whitespace", at: token.start)
    }

    /// Containers and literals, like text, keep everything but recording the event out of line
    /// (and last, so that it is a jump): their common path then calls nothing and needs no frame.
    @inline(__always)
    fileprivate static func onStartContainer(_ state: State, object: Bool) -> Int32 {
        // Wrapping: the depth is bounded by the input's length.
        let depth = state.pointee.depth &+ 1
        state.pointee.depth = depth
        if depth > state.pointee.maximumDepth { return failTooDeep(state) }
        guard !(object && state.pointee.tracksKeys) else {
            return onContainerOutOfLine(state, object ? .startObject : .startArray)
        }
        state.pointee.pending.append(object ? .startObject : .startArray, end: tokenEnd(state))
        return recorded(state)
    }

    /// A bracket of an object whose keys are checked for duplicates.
    @inline(never)
    fileprivate static func onContainerOutOfLine(_ state: State, _ code: PendingEvents.Code) -> Int32 {
        if state.pointee.tracksKeys {
            if code == .startObject { startTrackingKeys(state) }
            if code == .endObject { endTrackingKeys(state) }
        }
        state.pointee.pending.append(code, end: tokenEnd(state))
        return recorded(state)
    }

    @inline(never)
    fileprivate static func failTooDeep(_ state: State) -> Int32 {
        parser(state).failTooDeep()
    }

    @inline(never)
    fileprivate static func startTrackingKeys(_ state: State) {
        parser(state).duplicateKeys?.startObject()
    }

    @inline(never)
    fileprivate static func endTrackingKeys(_ state: State) {
        parser(state).duplicateKeys?.endObject()
    }

    @inline(never)
    private func failTooDeep() -> Int32 {
        // Point at the bracket itself, just before what YAJL has consumed.
        let bracket = Int(yajl_get_bytes_consumed(handle)) - 1
        return failInCallback(
            .depthLimitExceeded, "nesting is deeper than the maximum depth of \(options.maximumDepth)",
            at: chunkOffset + max(bracket, 0))
    }

    @inline(__always)
    fileprivate static func onEndContainer(_ state: State, object: Bool) -> Int32 {
        state.pointee.depth &-= 1
        guard !(object && state.pointee.tracksKeys) else {
            return onContainerOutOfLine(state, object ? .endObject : .endArray)
        }
        state.pointee.pending.append(object ? .endObject : .endArray, end: tokenEnd(state))
        return recorded(state)
    }

    /// The common case inline: unescaped text inside the part of the chunk already known to be
    /// valid UTF-8. Its token ends at the closing quote just after the text, so no call into YAJL
    /// is needed to know where.
    @inline(__always)
    fileprivate static func onText(_ state: State, _ pointer: UnsafePointer<UInt8>?, _ length: Int, isKey: Bool)
        -> Int32
    {
        // Plain integers: a nil pointer gives a negative offset, and between chunks (address 0)
        // `validTextEnd` is 0, so both fail the range check without a test of their own; so do
        // keys when they are checked for duplicates (see `validKeyEnd`).
        // Text elsewhere (YAJL's buffers) or past the checked prefix takes the full path.
        let offset = Int(bitPattern: pointer) &- state.pointee.chunkAddress
        let validEnd = isKey ? state.pointee.validKeyEnd : state.pointee.validTextEnd
        if offset >= 0, offset &+ length <= validEnd {
            // (Empty text in the chunk is taken here too: YAJL points it at the closing quote.)
            let end = offset &+ length &+ 1
            assert(
                end == Int(yajl_get_bytes_consumed(state.pointee.handle)),
                "a string in the chunk ends at its closing quote")
            // In the chunk, hence not nil.
            state.pointee.pending.append(
                isKey ? .key : .string, end: end, text: UnsafeRawPointer(pointer.unsafelyUnwrapped), length: length)
            return recorded(state)
        }
        return onTextOutOfLine(state, pointer, length, isKey: isKey)
    }

    /// Text that was escaped, split across chunks, empty or invalid, or a key to check for
    /// duplicates: every check, at full length.
    @inline(never)
    private func onCheckedText(_ pointer: UnsafePointer<UInt8>?, _ length: Int, isKey: Bool) -> Int32 {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        // YAJL's own UTF-8 check is off (it checks byte patterns only): this one is complete.
        let validation = UTF8Validation.validate(bytes)
        if let invalidOffset = validation.invalidOffset {
            if length > 0, isInChunk(pointer) {
                // Unescaped text in this chunk: point at the offending byte itself.
                let offset = chunkOffset + (UnsafeRawPointer(pointer!) - chunkBase!) + invalidOffset
                return failInCallback(.invalidUTF8, "\(isKey ? "key" : "string") is not valid UTF-8", at: offset)
            }
            // A lone low surrogate escape comes out of YAJL as invalid UTF-8: name the real cause.
            if let escape = unpairedSurrogateEscape() {
                return failInCallback(.unpairedSurrogate, "\\u escape is an unpaired UTF-16 surrogate", at: escape)
            }
            // Decoded or joined text: find the byte in the raw token, so that the position does not
            // depend on where the chunks were cut.
            let offset = withCurrentStringToken { raw, start in
                raw.count >= 2
                    ? UTF8Validation.validate(UnsafeRawBufferPointer(rebasing: raw[1..<(raw.count - 1)]))
                        .invalidOffset.map { start + 1 + $0 } : nil
            }
            return failInCallback(
                .invalidUTF8, "\(isKey ? "key" : "string") is not valid UTF-8", at: offset.flatMap { $0 })
        }
        let inChunk = isInChunk(pointer)
        if length > 0, !inChunk, validation.hasFourByteSequence || memchr(pointer!, 0x3F, length) != nil {
            // The string had escapes. YAJL turns a lone high surrogate escape into "?" and a
            // high surrogate followed by a non-surrogate into a bogus character: re-read the raw text.
            if let escape = unpairedSurrogateEscape() {
                return failInCallback(.unpairedSurrogate, "\\u escape is an unpaired UTF-16 surrogate", at: escape)
            }
        }
        if isKey, let duplicateKeys, !duplicateKeys.insert(JSONText(bytes: bytes)) {
            return failDuplicateKey(JSONText(bytes: bytes))
        }
        let end = Self.tokenEnd(state)
        let code: PendingEvents.Code = isKey ? .key : .string
        if inChunk, let pointer {
            state.pointee.pending.append(code, end: end, text: UnsafeRawPointer(pointer), length: length)
        } else {
            guard recordCopy(code, end: end, bytes) else { return 0 }
        }
        return Self.recorded(state)
    }

    /// Records an event whose text must be copied, delivering the batch first when the copy would
    /// move the arena (see `PendingEvents`). A long text is not copied: it is delivered at once,
    /// after the events before it, from where YAJL keeps it during this callback (a copy held a
    /// huge string or key once more). False when the handler threw at that delivery.
    @inline(__always)
    private func recordCopy(_ code: PendingEvents.Code, end: Int, _ text: UnsafeRawBufferPointer) -> Bool {
        if text.count >= Self.longTextLength, let start = text.baseAddress {
            // The batch always has room for one more event: a full one is delivered at once.
            state.pointee.pending.append(code, end: end, text: start, length: text.count)
            return deliverPendingEvents() == 1
        }
        if !state.pointee.pending.hasRoom(forCopying: text.count), deliverPendingEvents() == 0 { return false }
        state.pointee.pending.append(code, end: end, copying: text)
        return true
    }

    /// The length from which a text YAJL hands over from its own buffers is delivered from there
    /// rather than copied (see `recordCopy`): long enough that the extra delivery is nothing next
    /// to the text.
    static let longTextLength = 1 << 16

    @inline(never)
    private func failDuplicateKey(_ key: JSONText) -> Int32 {
        failInCallback(.duplicateKey, "duplicate key \"\(key.string)\" in one object")
    }

    @inline(__always)
    fileprivate static func onNumber(_ state: State, _ pointer: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        // The common case, a number read whole from the chunk, calls nothing (see `recorded`).
        if !mayTouchPreviousScalar(state), let offset = chunkOffset(state, of: pointer) {
            recordNumberInChunk(state, pointer, at: offset, length)
            return recorded(state)
        }
        return onNumberOutOfLine(state, pointer, length)
    }

    /// The offset of `pointer` in the chunk YAJL is reading, or nil when it points elsewhere.
    @inline(__always)
    private static func chunkOffset(_ state: State, of pointer: UnsafePointer<CChar>?) -> Int? {
        // Plain integers, as in `onText`: a nil pointer is below the chunk, and with no chunk
        // `chunkCount` is 0.
        let offset = Int(bitPattern: pointer) &- state.pointee.chunkAddress
        return offset >= 0 && offset < state.pointee.chunkCount ? offset : nil
    }

    /// A number read whole from the chunk ends with its text (YAJL leaves the byte that ended it
    /// unread): no call into YAJL is needed to know where.
    @inline(__always)
    private static func recordNumberInChunk(
        _ state: State, _ pointer: UnsafePointer<CChar>?, at offset: Int, _ length: Int
    ) {
        let end = offset &+ length
        assert(end == Int(yajl_get_bytes_consumed(state.pointee.handle)), "a number in the chunk ends with its text")
        // In the chunk, hence not nil.
        state.pointee.pending.append(
            .number, end: end, text: UnsafeRawPointer(pointer.unsafelyUnwrapped), length: length)
    }

    /// A number that may touch the previous one, or that YAJL hands over from its own buffer.
    @inline(never)
    fileprivate static func onNumberOutOfLine(_ state: State, _ pointer: UnsafePointer<CChar>?, _ length: Int)
        -> Int32
    {
        if mayTouchPreviousScalar(state), let failure = failureIfTouchingPreviousScalar(state) {
            return failure
        }
        if let offset = chunkOffset(state, of: pointer) {
            recordNumberInChunk(state, pointer, at: offset, length)
        } else {
            // From YAJL's lexer buffer (a number split across chunks, or the last one at the end).
            let end = tokenEnd(state)
            guard parser(state).recordCopy(.number, end: end, UnsafeRawBufferPointer(start: pointer, count: length))
            else { return 0 }
        }
        return recorded(state)
    }

    @inline(__always)
    fileprivate static func onLiteral(_ state: State, _ code: PendingEvents.Code) -> Int32 {
        guard !mayTouchPreviousScalar(state) else {
            return onLiteralOutOfLine(state, code)
        }
        state.pointee.pending.append(code, end: tokenEnd(state))
        return recorded(state)
    }

    /// A literal that may touch the previous one.
    @inline(never)
    fileprivate static func onLiteralOutOfLine(_ state: State, _ code: PendingEvents.Code) -> Int32 {
        if mayTouchPreviousScalar(state), let failure = failureIfTouchingPreviousScalar(state) {
            return failure
        }
        state.pointee.pending.append(code, end: tokenEnd(state))
        return recorded(state)
    }

    private func isInChunk(_ pointer: UnsafePointer<UInt8>?) -> Bool {
        guard let pointer, let chunkBase else { return false }
        let raw = UnsafeRawPointer(pointer)
        return raw >= chunkBase && raw < chunkBase + chunkCount
    }

    /// Re-reads the raw text of the string token that just ended and checks its `\u` escapes;
    /// returns the absolute offset of the backslash of the first bad one.
    private func unpairedSurrogateEscape() -> Int? {
        let found = withCurrentStringToken { raw, start -> Int? in
            guard raw.count >= 2 else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: raw[1..<(raw.count - 1)])
            return UTF8Validation.firstUnpairedSurrogateEscape(in: body).map { start + 1 + $0 }
        }
        return found.flatMap { $0 }
    }

    // MARK: The C callback table

    /// YAJL keeps a pointer to the callback table, so it lives for the whole process.
    /// Immutable after initialization, hence safe to share.
    nonisolated(unsafe) private static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: onNullCallback,
                yajl_boolean: onBooleanCallback,
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: onNumberCallback,
                yajl_string: onStringCallback,
                yajl_start_map: onStartMapCallback,
                yajl_map_key: onMapKeyCallback,
                yajl_end_map: onEndMapCallback,
                yajl_start_array: onStartArrayCallback,
                yajl_end_array: onEndArrayCallback
            ))
        return table
    }()
}

// The C entry points of the callback table. With `@c` (Swift 6.3), each function is its own C
// entry point, with the event's code inlined into it; otherwise (and for a closure) the compiler
// adds a C thunk that calls the Swift function and that it never inlines: four instructions more
// per event. The names stay local to this file's object (the functions are private).

#if compiler(>=6.3)
    @c(elevate_events_on_null)
#endif
private func onNullCallback(_ context: UnsafeMutableRawPointer?) -> Int32 {
    JSONEventParser.onLiteral(JSONEventParser.state(context), .null)
}

#if compiler(>=6.3)
    @c(elevate_events_on_boolean)
#endif
private func onBooleanCallback(_ context: UnsafeMutableRawPointer?, _ value: Int32) -> Int32 {
    JSONEventParser.onLiteral(JSONEventParser.state(context), value != 0 ? .true : .false)
}

#if compiler(>=6.3)
    @c(elevate_events_on_number)
#endif
private func onNumberCallback(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?, _ length: Int)
    -> Int32
{
    JSONEventParser.onNumber(JSONEventParser.state(context), text, length)
}

#if compiler(>=6.3)
    @c(elevate_events_on_string)
#endif
private func onStringCallback(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<UInt8>?, _ length: Int)
    -> Int32
{
    JSONEventParser.onText(JSONEventParser.state(context), text, length, isKey: false)
}

#if compiler(>=6.3)
    @c(elevate_events_on_map_key)
#endif
private func onMapKeyCallback(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<UInt8>?, _ length: Int)
    -> Int32
{
    JSONEventParser.onText(JSONEventParser.state(context), text, length, isKey: true)
}

#if compiler(>=6.3)
    @c(elevate_events_on_start_map)
#endif
private func onStartMapCallback(_ context: UnsafeMutableRawPointer?) -> Int32 {
    JSONEventParser.onStartContainer(JSONEventParser.state(context), object: true)
}

#if compiler(>=6.3)
    @c(elevate_events_on_end_map)
#endif
private func onEndMapCallback(_ context: UnsafeMutableRawPointer?) -> Int32 {
    JSONEventParser.onEndContainer(JSONEventParser.state(context), object: true)
}

#if compiler(>=6.3)
    @c(elevate_events_on_start_array)
#endif
private func onStartArrayCallback(_ context: UnsafeMutableRawPointer?) -> Int32 {
    JSONEventParser.onStartContainer(JSONEventParser.state(context), object: false)
}

#if compiler(>=6.3)
    @c(elevate_events_on_end_array)
#endif
private func onEndArrayCallback(_ context: UnsafeMutableRawPointer?) -> Int32 {
    JSONEventParser.onEndContainer(JSONEventParser.state(context), object: false)
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
