import CYAJL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A YAJL generator that appends JSON text to ``output``, one complete top-level value per
/// ``write(_:)``; the only writer code that talks to C.
///
/// YAJL's generator is fragile, so every call is guarded here, before it reaches C: closing more
/// containers than were opened wraps YAJL's depth counter and crashes the next call, and opening a
/// 128th container fails after the separator was already printed. Deeper values are written by a
/// child generator whose text is spliced in (see `splice(_:depth:)`), so ``JSONWriter/Options/maximumDepth``
/// is not bound by YAJL's limit.
///
/// Output goes through YAJL's print callback rather than its internal buffer, which lets this
/// class rewrite it on the way: U+2028/U+2029 become escapes (YAJL passes them through), and
/// ``indentPrefix`` is added after each newline of pretty output so that a value can be nested in
/// text written elsewhere. Both rewrites are sound because YAJL's output has raw newlines only
/// between tokens (strings escape theirs), and prints a string in runs split only at ASCII escapes,
/// so a multi-byte UTF-8 sequence never straddles two callbacks. ``Style/foundation`` adds two more,
/// sound for the same reason: a control character's escape is one six-byte print, and the first
/// print after a key (``key(_:)``) is always the colon.
final class JSONGenerator {
    /// The most containers YAJL's generator holds open: measured, the 128th `yajl_gen_array_open`
    /// returns `yajl_max_depth_exceeded` (`YAJL_MAX_DEPTH` is 128 and counts from 1).
    static let yajlDepthLimit = 127

    /// The indent unit of pretty output. YAJL stores the pointer without copying it, so the
    /// C string lives for the whole process; it is never written to.
    nonisolated(unsafe) private static let indentUnit: UnsafeMutablePointer<CChar> = strdup("  ")!

    /// Text details in which writers differ while writing the same JSON.
    struct Style: Hashable {
        /// Pretty output puts a space before the colon after a key (`"a" : 1`) and control
        /// characters are escaped with lowercase hex (`\u001f`): Foundation's `JSONEncoder` text, so
        /// that `ElevateJSONEncoder` output can replace it byte for byte.
        var foundationCompatible = false

        static let elevate = Style()
        static let foundation = Style(foundationCompatible: true)
    }

    let options: JSONWriter.Options
    let style: Style
    /// The text written so far. Callers may take and clear it between values.
    // The print callback appends to it for every token: unchecked, as a dynamic exclusivity check
    // per print cost as much as the copy. Nothing holds an access to it across a YAJL call.
    @exclusivity(unchecked) var output: [UInt8] = []
    /// Added after every newline YAJL prints, so that pretty output nests inside outer text.
    var indentPrefix: [UInt8]
    /// The containers open in YAJL now, which is at most ``yajlDepthLimit``.
    @exclusivity(unchecked) private(set) var openContainers = 0

    private let handle: OpaquePointer
    /// Whether YAJL writes into its own buffer, copied into ``output`` by ``collectText()``, instead
    /// of calling back for every token: when no rewrite needs to see the text as it is printed, a
    /// print callback per token (several per member) is most of the cost of compact output.
    private let buffersInYAJL: Bool
    @exclusivity(unchecked) private var escapingLineSeparators = false
    /// Set by ``key(_:)``: the next print is the colon after that key (see ``Style``).
    @exclusivity(unchecked) private var colonPending = false
    /// Set by an open, cleared by every other token: a close that finds it set closes an empty
    /// container (see `close(object:)`).
    @exclusivity(unchecked) private var lastTokenOpened = false
    /// Whether `append` must look at what YAJL prints, rather than copy it.
    private var rewrites: Bool { escapingLineSeparators || !indentPrefix.isEmpty || colonPending }

    /// Creates a generator; `indentLevels` shifts pretty output right by that many indent units.
    init(options: JSONWriter.Options, indentLevels: Int = 0, style: Style = .elevate) {
        self.options = options
        self.style = style
        self.indentPrefix = options.prettyPrinted ? Array(repeating: UInt8(ascii: " "), count: 2 * indentLevels) : []
        // yajl_gen_alloc fails only when malloc does.
        handle = yajl_gen_alloc(nil)!
        buffersInYAJL =
            style.foundationCompatible && !options.prettyPrinted && !options.escapesLineSeparators
        if !buffersInYAJL {
            let context = Unmanaged.passUnretained(self).toOpaque()
            _ = cyajl_gen_config_print_callback(
                handle,
                { context, text, length in
                    // The handle's owner keeps the generator alive for every call YAJL makes.
                    Unmanaged<JSONGenerator>.fromOpaque(context!).takeUnretainedValue().append(text, length)
                }, context)
        }
        if options.prettyPrinted {
            _ = cyajl_gen_config_flag(handle, yajl_gen_beautify, 1)
            _ = cyajl_gen_config_indent(handle, Self.indentUnit)
        }
        if options.escapesSlashes {
            _ = cyajl_gen_config_flag(handle, yajl_gen_escape_solidus, 1)
        }
    }

    deinit {
        yajl_gen_free(handle)
    }

    /// Appends one complete top-level value at nesting `depth` (non-zero for a spliced child).
    ///
    /// On error, ``output`` is left as it was before the call.
    func write(_ value: Any, depth: Int = 0) throws {
        yajl_gen_reset(handle, nil)
        openContainers = 0
        lastTokenOpened = false
        let mark = output.count
        do {
            try emit(value, depth: depth)
            dropFinalNewline(after: mark)
        } catch {
            output.removeSubrange(mark...)
            yajl_gen_reset(handle, nil)
            openContainers = 0
            throw error
        }
    }

    /// Appends one complete top-level value written by `body` with the token methods.
    ///
    /// On error, ``output`` is left as it was before the call.
    func writeValue(_ body: () throws -> Void) throws {
        yajl_gen_reset(handle, nil)
        openContainers = 0
        lastTokenOpened = false
        let mark = output.count
        do {
            try body()
            collectText()
            dropFinalNewline(after: mark)
        } catch {
            if buffersInYAJL { yajl_gen_clear(handle) }
            output.removeSubrange(mark...)
            yajl_gen_reset(handle, nil)
            openContainers = 0
            throw error
        }
    }

    /// Moves what YAJL buffered into ``output`` (nothing to do for a generator that calls back),
    /// lowercasing the hex of control-character escapes for ``Style/foundation`` as the callback
    /// does.
    func collectText() {
        guard buffersInYAJL else { return }
        var buffer: UnsafePointer<UInt8>?
        var length = 0
        _ = yajl_gen_get_buf(handle, &buffer, &length)
        guard let buffer, length > 0 else { return }
        let start = output.count
        output.append(contentsOf: UnsafeBufferPointer(start: buffer, count: length))
        yajl_gen_clear(handle)
        // Outside strings there is no backslash; inside, YAJL writes `\\` for a backslash and
        // `\u00XX` for a control character, so stepping over each escape finds every `\u`.
        output.withUnsafeMutableBufferPointer { text in
            var index = start
            while index < text.count {
                guard let found = memchr(text.baseAddress! + index, Int32(UInt8(ascii: "\\")), text.count - index) else {
                    break
                }
                index = text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if index + 5 < text.count, text[index + 1] == UInt8(ascii: "u") {
                    text[index + 4] = Self.lowercased(text[index + 4])
                    text[index + 5] = Self.lowercased(text[index + 5])
                    index += 6
                } else {
                    index += 2
                }
            }
        }
    }

    /// YAJL ends a finished top-level value with a newline in beautify mode; dropping it makes
    /// pretty and compact output frame the same way.
    func dropFinalNewline(after mark: Int) {
        guard options.prettyPrinted else { return }
        let trailer = 1 + indentPrefix.count
        if output.count - mark >= trailer, output[output.count - trailer] == UInt8(ascii: "\n") {
            output.removeLast(trailer)
        }
    }

    /// Makes the generator ready for a new top-level value, keeping ``output``.
    func reset() {
        yajl_gen_reset(handle, nil)
        openContainers = 0
        lastTokenOpened = false
    }

    // MARK: Tokens

    func openObject() throws {
        try checkCanOpen()
        try check(yajl_gen_map_open(handle))
        openContainers += 1
        lastTokenOpened = true
    }

    func closeObject() throws {
        try close(object: true)
    }

    func openArray() throws {
        try checkCanOpen()
        try check(yajl_gen_array_open(handle))
        openContainers += 1
        lastTokenOpened = true
    }

    func closeArray() throws {
        try close(object: false)
    }

    private func close(object: Bool) throws {
        try checkCanClose()
        let closesEmpty = lastTokenOpened
        lastTokenOpened = false
        // YAJL's beautify mode writes an empty container over two lines, `[` newline, then newline,
        // indentation and `]`; the print callback adds ``indentPrefix`` after each newline, so in a
        // nested generator (a splice past YAJL's depth, a pretty stream's array) the line between
        // held only that prefix. Output written so far ends with the opening's newline and prefix.
        let prefixStart = output.count - indentPrefix.count
        guard closesEmpty, options.prettyPrinted, !buffersInYAJL, prefixStart > 0,
            output[prefixStart - 1] == UInt8(ascii: "\n")
        else {
            try check(object ? yajl_gen_map_close(handle) : yajl_gen_array_close(handle))
            openContainers -= 1
            return
        }
        if style.foundationCompatible {
            // JSONEncoder's text, `[\n\n<indent>]`: the middle line stays empty.
            output.removeSubrange(prefixStart...)
            try check(object ? yajl_gen_map_close(handle) : yajl_gen_array_close(handle))
        } else {
            // The writer's text, `[]`, as JSONWriter writes any empty container: the newlines and
            // indentation YAJL prints between the brackets are dropped.
            output.removeSubrange((prefixStart - 1)...)
            let mark = output.count
            try check(object ? yajl_gen_map_close(handle) : yajl_gen_array_close(handle))
            let bracket = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if let closing = output[mark...].firstIndex(of: bracket) { output.removeSubrange(mark..<closing) }
        }
        openContainers -= 1
    }

    /// Writes a string, or an object key when one is expected.
    func string(_ value: String) throws {
        var value = value
        try value.withUTF8 { bytes in try string(UnsafeRawBufferPointer(bytes)) }
    }

    /// Writes an object key; unlike ``string(_:)-(String)``, it lets ``Style`` change the colon
    /// that follows.
    func key(_ key: String) throws {
        try string(key)
        colonPending = options.prettyPrinted && style.foundationCompatible
    }

    /// Writes a string given as valid UTF-8 bytes, or an object key when one is expected.
    func string(_ bytes: UnsafeRawBufferPointer) throws {
        let utf8 = UnsafeBufferPointer(
            start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        escapingLineSeparators = options.escapesLineSeparators && Self.containsLineSeparator(utf8)
        defer { escapingLineSeparators = false }
        lastTokenOpened = false
        // An empty buffer may have no base address; YAJL reads nothing when the length is 0.
        let base = utf8.baseAddress ?? UnsafeRawPointer(Self.indentUnit).assumingMemoryBound(to: UInt8.self)
        try check(yajl_gen_string(handle, base, utf8.count))
    }

    /// Writes number text as it is: callers pass only text that passed the JSON grammar, or
    /// complete JSON text spliced in as a value (YAJL's number call prints any text).
    func rawValue(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in try rawValue(UnsafeRawBufferPointer(bytes)) }
    }

    /// Writes JSON text as one value; see ``rawValue(_:)-(String)``.
    func rawValue(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(bytes.count > 0, "a value is never empty text")
        lastTokenOpened = false
        try check(yajl_gen_number(handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count))
    }

    /// Writes a signed integer with YAJL's `%lld`, which no locale changes.
    func integer(_ value: Int64) throws {
        lastTokenOpened = false
        try check(yajl_gen_integer(handle, value))
    }

    func bool(_ value: Bool) throws {
        lastTokenOpened = false
        try check(yajl_gen_bool(handle, value ? 1 : 0))
    }

    func null() throws {
        lastTokenOpened = false
        try check(yajl_gen_null(handle))
    }

    // MARK: Guards

    private func checkCanOpen() throws {
        guard openContainers < Self.yajlDepthLimit else {
            // The value writer splices before this happens; reaching it is a bug, not a crash.
            throw JSONWriterError(
                kind: .generatorFailure,
                message: "YAJL's generator holds at most \(Self.yajlDepthLimit) open containers")
        }
    }

    private func checkCanClose() throws {
        guard openContainers > 0 else {
            throw JSONWriterError(kind: .generatorFailure, message: "closing a container that is not open")
        }
    }

    private func check(_ status: yajl_gen_status) throws {
        guard status != yajl_gen_status_ok else { return }
        let reason: String
        switch status {
        case yajl_gen_keys_must_be_strings: reason = "an object key must be a string"
        case yajl_max_depth_exceeded: reason = "YAJL's maximum generator depth was exceeded"
        case yajl_gen_in_error_state: reason = "the generator is in an error state"
        case yajl_gen_generation_complete: reason = "a complete value was already written"
        case yajl_gen_invalid_number: reason = "invalid number"
        case yajl_gen_invalid_string: reason = "invalid UTF-8 in a string"
        default: reason = "status \(status.rawValue)"
        }
        throw JSONWriterError(kind: .generatorFailure, message: "YAJL's generator refused a call: \(reason)")
    }

    private static func containsLineSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; E2 is rare enough to scan for first.
        guard var start = bytes.baseAddress else { return false }
        let end = start + bytes.count
        while let found = memchr(start, 0xE2, end - start) {
            let lead = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if end - lead >= 3, lead[1] == 0x80, lead[2] == 0xA8 || lead[2] == 0xA9 { return true }
            start = lead + 1
        }
        return false
    }

    // MARK: Output

    fileprivate func append(_ text: UnsafePointer<CChar>?, _ length: Int) {
        guard let text, length > 0 else { return }
        let bytes = UnsafeRawBufferPointer(start: text, count: length)
        // YAJL prints a control character's escape in one call of six bytes, in uppercase hex; an
        // escape holds no newline, and is never the colon after a key, so no other rewrite applies.
        if length == 6, style.foundationCompatible, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "u") {
            output.append(contentsOf: bytes[0..<4])
            output.append(Self.lowercased(bytes[4]))
            output.append(Self.lowercased(bytes[5]))
            return
        }
        if !rewrites {
            output.append(contentsOf: bytes)
            return
        }
        if colonPending {
            // The first print after a key is always YAJL's ":" (then " " in a call of its own).
            colonPending = false
            if length == 1, bytes[0] == UInt8(ascii: ":") {
                output.append(UInt8(ascii: " "))
                output.append(UInt8(ascii: ":"))
                return
            }
        }
        var runStart = 0
        var index = 0
        while index < length {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n"), !indentPrefix.isEmpty {
                output.append(contentsOf: bytes[runStart...index])
                // A blank line (the middle of an empty container in JSONEncoder's text, from a
                // spliced child) stays empty; see `close(object:)`.
                if index + 1 == length || bytes[index + 1] != UInt8(ascii: "\n") {
                    output.append(contentsOf: indentPrefix)
                }
                index += 1
                runStart = index
            } else if byte == 0xE2, escapingLineSeparators, index + 2 < length, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
            {
                output.append(contentsOf: bytes[runStart..<index])
                output.append(
                    contentsOf: bytes[index + 2] == 0xA8 ? Self.escapedLineSeparator : Self.escapedParagraphSeparator)
                index += 3
                runStart = index
            } else {
                index += 1
            }
        }
        output.append(contentsOf: bytes[runStart..<length])
    }

    private static func lowercased(_ hexDigit: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(hexDigit) ? hexDigit | 0x20 : hexDigit
    }

    private static let escapedLineSeparator = Array(#"\u2028"#.utf8)
    private static let escapedParagraphSeparator = Array(#"\u2029"#.utf8)
}
