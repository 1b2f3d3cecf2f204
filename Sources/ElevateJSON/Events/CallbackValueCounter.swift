import CYAJL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Counts the values of JSON text in memory straight from YAJL's callbacks, with no events: what
/// `elevate validate` and `elevate count` need of a run of a split array or of JSON Lines, at
/// little more than YAJL's own cost. The event layer (``JSONEventParser``) records every event
/// with its position and hands it over in batches, which counting does not need.
///
/// It answers only when the text is surely valid, as the event layer would find it with the same
/// options: YAJL accepts it, and the checks the event layer adds all pass (strict UTF-8, no form
/// feed or vertical tab, no bad `\u` surrogate escape, the depth limit). When anything fails, or
/// could fail, it answers nil, and the caller parses the text with the event layer, which finds
/// the same error, at the same position, as every other parse does. Errors are rare, so the
/// second parse costs nothing in the common case.
enum CallbackValueCounter {
    /// What the text holds.
    struct Counts: Equatable {
        /// Values, nested ones included (keys are not values).
        var values = 0
        /// Values at depth 1: the elements of the top-level array.
        var elements = 0
    }

    /// Counts the values of the text made of `pieces` in order, fed to YAJL one after another.
    /// - Parameters:
    ///   - pieces: The text, in the pieces the event layer would be fed (a run's prefix, the run
    ///     and its closing bracket): a character of UTF-8 never straddles two pieces.
    ///   - nestedInside: The containers open around the text, for the depth limit (as
    ///     ``JSONEventParser/startNested(inside:)``).
    ///   - options: The parsing options. With comments, several values or duplicate keys rejected,
    ///     it answers nil at once (it does not implement those).
    /// - Returns: The counts, or nil when the text may not be valid, or is not one array or object
    ///   followed by nothing but whitespace (the event layer's check of what follows the value,
    ///   an unfinished token included, is not repeated here).
    static func count(
        _ pieces: [UnsafeRawBufferPointer], nestedInside: Int, options: JSONParsingOptions
    ) -> Counts? {
        guard !options.allowsComments, !options.allowsMultipleValues, !options.rejectsDuplicateKeys else { return nil }
        // The event layer refuses a token held across chunks past `maximumTokenSize`: text no
        // longer than that holds no such token.
        guard pieces.reduce(0, { $0 + $1.count }) <= options.maximumTokenSize else { return nil }
        for piece in pieces where piece.count > 0 {
            guard isPlainText(piece) else { return nil }
        }
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State(maximumDepth: options.maximumDepth - nestedInside))
        defer { state.deallocate() }
        // yajl_alloc fails only when malloc does.
        let handle = yajl_alloc(callbacks, nil, UnsafeMutableRawPointer(state))!
        defer { yajl_free(handle) }
        state.pointee.handle = handle
        // Every piece was checked whole above; YAJL's partial check would repeat part of that.
        _ = cyajl_config_flag(handle, yajl_dont_validate_strings, 1)
        for (index, piece) in pieces.enumerated() where piece.count > 0 {
            state.pointee.pieceIndex = index
            state.pointee.pieceAddress = Int(bitPattern: piece.baseAddress)
            state.pointee.pieceCount = piece.count
            let status = yajl_parse(handle, piece.baseAddress!.assumingMemoryBound(to: UInt8.self), piece.count)
            guard status == yajl_status_ok else { return nil }
        }
        state.pointee.pieceAddress = 0
        state.pointee.pieceCount = 0
        guard yajl_complete_parse(handle) == yajl_status_ok, let closed = state.pointee.closed else { return nil }
        // Only whitespace after the value's closing bracket.
        for (index, piece) in pieces.enumerated().dropFirst(closed.piece) {
            let rest = index == closed.piece ? piece[closed.end...] : piece[...]
            guard rest.allSatisfy(\.isJSONWhitespace) else { return nil }
        }
        return state.pointee.counts
    }

    /// Counts the values of a run of whole lines of JSON Lines in memory, as
    /// ``countLines(in:framing:options:)`` would: one YAJL handle reads every line (in its multiple-values
    /// mode), where the event layer restarts a parser at each line, and each value is checked to
    /// have a line of its own: a newline between it and the value before, none inside it.
    /// Everything else YAJL accepted between values is whitespace, so every line that is not blank
    /// holds exactly one value.
    ///
    /// Nil in the same cases as ``count(_:nestedInside:options:)``, and when the run holds no value
    /// or starts with a byte order mark (which only the input's first line may, and the event layer
    /// skips): the caller then parses the lines with the event layer.
    /// - Parameters:
    ///   - run: Whole lines: it starts at a line's start and ends past a newline, or at the end of
    ///     the input.
    ///   - options: The parsing options (``JSONParsingOptions/allowsMultipleValues`` is ignored, as
    ///     by ``JSONLinesParser``).
    /// - Returns: The lines that hold a value, and the values in all of them (nested ones
    ///   included, keys not).
    static func countLines(_ run: UnsafeRawBufferPointer, options: JSONParsingOptions) -> (lines: Int, values: Int)? {
        guard !options.allowsComments, !options.rejectsDuplicateKeys, run.count <= options.maximumTokenSize,
            let base = run.baseAddress, isPlainText(run)
        else { return nil }
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State(maximumDepth: options.maximumDepth))
        defer { state.deallocate() }
        let handle = yajl_alloc(callbacks, nil, UnsafeMutableRawPointer(state))!
        defer { yajl_free(handle) }
        state.pointee.handle = handle
        state.pointee.checksLines = true
        state.pointee.pieceAddress = Int(bitPattern: base)
        state.pointee.pieceCount = run.count
        _ = cyajl_config_flag(handle, yajl_dont_validate_strings, 1)
        _ = cyajl_config_flag(handle, yajl_allow_multiple_values, 1)
        guard yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), run.count) == yajl_status_ok else {
            return nil
        }
        state.pointee.isFinishing = true
        // Fails on a run that holds no value ("premature EOF"), which the event layer reads.
        guard yajl_complete_parse(handle) == yajl_status_ok, let end = state.pointee.previousTopLevelEnd else {
            return nil
        }
        // Only whitespace after the last value: between values, YAJL reports nothing of an
        // unfinished token at the end of its input (a string with no closing quote).
        guard run[end...].allSatisfy(\.isJSONWhitespace) else { return nil }
        return (state.pointee.topLevelValues, state.pointee.counts.values)
    }

    /// Whether `text` is strict UTF-8 with no form feed or vertical tab, as the event layer
    /// requires: in one AVX2 pass where the processor has it.
    /// - Parameter wide: False to use the portable checks (for tests of the AVX2 one).
    static func isPlainText(_ text: UnsafeRawBufferPointer, wide: Bool = true) -> Bool {
        guard let base = text.baseAddress else { return true }
        if wide, let isPlain = InputLayout.isPlainText(text) { return isPlain }
        return UTF8Validation.validPrefixLength(base, text.count) == text.count
            && !InputLayout.containsInvalidWhitespace(text)
    }

    fileprivate struct State {
        var counts = Counts()
        var depth = 0
        let maximumDepth: Int
        /// The piece YAJL is reading, as integers: text elsewhere was decoded from escapes.
        var pieceAddress = 0
        var pieceCount = 0
        var pieceIndex = 0
        var handle: OpaquePointer?
        /// Where the top-level container closed: its piece, and the offset just past its bracket.
        var closed: (piece: Int, end: Int)?
        /// JSON Lines (``countLines(_:options:)``): whether each value at depth 0 must have a line
        /// of its own.
        var checksLines = false
        /// The values at depth 0: in JSON Lines, the lines that hold a value.
        var topLevelValues = 0
        /// Where the current value at depth 0 started (just past its bracket, or its scalar).
        var topLevelStart = 0
        /// Where the last value at depth 0 ended, or nil before the first.
        var previousTopLevelEnd: Int?
        /// Whether `yajl_complete_parse` is running: it feeds YAJL a space of its own, so a value it
        /// completes (a number that ends the input) ends at the end of the piece.
        var isFinishing = false

        init(maximumDepth: Int) {
            self.maximumDepth = maximumDepth
        }

        @inline(__always)
        mutating func value() {
            counts.values &+= 1
            if depth == 1 { counts.elements &+= 1 }
        }

        /// At a value of depth 0 that starts (its opening bracket was just read) or is a scalar:
        /// in JSON Lines, a newline must come between it and the value before.
        /// - Returns: Whether the value may be on a line of its own.
        @inline(never)
        static func topLevelValueStarts(_ state: UnsafeMutablePointer<State>) -> Bool {
            state.pointee.topLevelValues &+= 1
            guard state.pointee.checksLines else { return true }
            let offset = state.pointee.consumed()
            state.pointee.topLevelStart = offset
            guard let previous = state.pointee.previousTopLevelEnd else { return true }
            return state.pointee.containsNewline(from: previous, to: offset)
        }

        /// At the end of a value of depth 0 (its closing bracket was just read, or it is a
        /// scalar): in JSON Lines, no newline may come inside it.
        /// - Returns: Whether the value is on one line.
        @inline(never)
        static func topLevelValueEnds(_ state: UnsafeMutablePointer<State>) -> Bool {
            guard state.pointee.checksLines else { return true }
            let offset = state.pointee.consumed()
            state.pointee.previousTopLevelEnd = offset
            return !state.pointee.containsNewline(from: state.pointee.topLevelStart, to: offset)
        }

        /// How far YAJL has read into the piece: just past the token it just read.
        private func consumed() -> Int {
            guard !isFinishing, let handle else { return pieceCount }
            return Int(yajl_get_bytes_consumed(handle))
        }

        /// Whether a newline is among the piece's bytes from `start` up to `end`.
        private func containsNewline(from start: Int, to end: Int) -> Bool {
            guard start < end, let base = UnsafeRawPointer(bitPattern: pieceAddress) else { return false }
            return memchr(base + start, 0x0A, end - start) != nil
        }

        /// Whether text YAJL hands over is surely what the event layer accepts. Text in the piece
        /// is (every piece is valid UTF-8, and an ASCII quote is a character of its own). Text
        /// YAJL decoded from escapes is checked as the event layer checks it: see
        /// ``acceptsDecodedText(_:_:)``.
        /// (Static, on the state's address: a method would copy the whole state to call out.)
        @inline(__always)
        static func acceptsText(_ state: UnsafeMutablePointer<State>, _ pointer: UnsafePointer<UInt8>?, _ length: Int)
            -> Bool
        {
            let offset = Int(bitPattern: pointer) &- state.pointee.pieceAddress
            if offset >= 0, offset &+ length <= state.pointee.pieceCount { return true }
            return acceptsDecodedText(state, pointer, length)
        }

        /// YAJL turns a bad surrogate escape into invalid UTF-8, a "?" or a bogus four-byte
        /// character: decoded text holding none of these is sound; one holding a "?" or a four-byte
        /// character is when the raw escapes pair up; invalid text never is.
        @inline(never)
        static func acceptsDecodedText(
            _ state: UnsafeMutablePointer<State>, _ pointer: UnsafePointer<UInt8>?, _ length: Int
        ) -> Bool {
            guard let pointer, length > 0 else { return true }
            let text = UnsafeRawBufferPointer(start: pointer, count: length)
            let validation = UTF8Validation.validate(text)
            guard validation.invalidOffset == nil else { return false }
            guard validation.hasFourByteSequence || text.contains(UInt8(ascii: "?")) else { return true }
            guard let raw = state.pointee.rawStringToken() else { return false }
            return UTF8Validation.firstUnpairedSurrogateEscape(in: raw) == nil
        }

        /// The raw text between the quotes of the string YAJL just read, from the piece: its
        /// closing quote is the last byte YAJL consumed, and its opening quote the first quote
        /// before that which no backslash escapes. Nil when not found in the piece.
        private func rawStringToken() -> UnsafeRawBufferPointer? {
            guard let handle, let base = UnsafeRawPointer(bitPattern: pieceAddress) else { return nil }
            let piece = UnsafeRawBufferPointer(start: base, count: pieceCount)
            let closing = Int(yajl_get_bytes_consumed(handle)) - 1
            guard closing > 0, closing < piece.count, piece[closing] == UInt8(ascii: "\"") else { return nil }
            var index = closing - 1
            while index >= 0 {
                if piece[index] == UInt8(ascii: "\"") {
                    var backslashes = 0
                    while index - backslashes - 1 >= 0, piece[index - backslashes - 1] == UInt8(ascii: "\\") {
                        backslashes += 1
                    }
                    // A quote whose backslashes reach the piece's start may be escaped by one at
                    // the end of the piece before: not known here (the first piece has none).
                    guard index - backslashes > 0 || pieceIndex == 0 else { return nil }
                    if backslashes % 2 == 0 { return UnsafeRawBufferPointer(rebasing: piece[(index + 1)..<closing]) }
                }
                index -= 1
            }
            return nil
        }
    }

    /// YAJL keeps a pointer to the callback table, so it lives for the whole process.
    /// Immutable after initialization, hence safe to share.
    nonisolated(unsafe) private static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: countNull,
                yajl_boolean: countBoolean,
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: countNumber,
                yajl_string: countString,
                yajl_start_map: countStart,
                yajl_map_key: checkMapKey,
                yajl_end_map: countEnd,
                yajl_start_array: countStart,
                yajl_end_array: countEnd
            ))
        return table
    }()
}

// The C entry points of the table (see the event layer's for why `@c`). Returning 0 stops YAJL:
// the text is then left to the event layer.

@inline(__always)
private func state(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<CallbackValueCounter.State> {
    // YAJL passes the context given to yajl_alloc, never nil.
    context.unsafelyUnwrapped.assumingMemoryBound(to: CallbackValueCounter.State.self)
}

#if compiler(>=6.3)
    @c(elevate_count_null)
#endif
private func countNull(_ context: UnsafeMutableRawPointer?) -> Int32 {
    countScalar(state(context))
}

#if compiler(>=6.3)
    @c(elevate_count_boolean)
#endif
private func countBoolean(_ context: UnsafeMutableRawPointer?, _ value: Int32) -> Int32 {
    countScalar(state(context))
}

#if compiler(>=6.3)
    @c(elevate_count_number)
#endif
private func countNumber(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
    countScalar(state(context))
}

#if compiler(>=6.3)
    @c(elevate_count_string)
#endif
private func countString(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
    let state = state(context)
    guard countScalar(state) != 0 else { return 0 }
    return CallbackValueCounter.State.acceptsText(state, text, length) ? 1 : 0
}

#if compiler(>=6.3)
    @c(elevate_count_map_key)
#endif
private func checkMapKey(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<UInt8>?, _ length: Int) -> Int32 {
    CallbackValueCounter.State.acceptsText(state(context), text, length) ? 1 : 0
}

#if compiler(>=6.3)
    @c(elevate_count_start)
#endif
private func countStart(_ context: UnsafeMutableRawPointer?) -> Int32 {
    let state = state(context)
    state.pointee.value()
    if state.pointee.depth == 0, !CallbackValueCounter.State.topLevelValueStarts(state) { return 0 }
    state.pointee.depth &+= 1
    return state.pointee.depth > state.pointee.maximumDepth ? 0 : 1
}

#if compiler(>=6.3)
    @c(elevate_count_end)
#endif
private func countEnd(_ context: UnsafeMutableRawPointer?) -> Int32 {
    let state = state(context)
    state.pointee.depth &-= 1
    if state.pointee.depth == 0, let handle = state.pointee.handle {
        state.pointee.closed = (state.pointee.pieceIndex, Int(yajl_get_bytes_consumed(handle)))
        return CallbackValueCounter.State.topLevelValueEnds(state) ? 1 : 0
    }
    return 1
}

/// Counts a null, boolean, number or string; one at depth 0 (JSON Lines) starts and ends there.
@inline(__always)
private func countScalar(_ state: UnsafeMutablePointer<CallbackValueCounter.State>) -> Int32 {
    state.pointee.value()
    guard state.pointee.depth == 0 else { return 1 }
    typealias State = CallbackValueCounter.State
    return State.topLevelValueStarts(state) && State.topLevelValueEnds(state) ? 1 : 0
}
