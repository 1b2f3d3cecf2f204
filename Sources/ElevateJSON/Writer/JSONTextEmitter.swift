#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Where a ``JSONTextEmitter`` sends its text: a file, a pipe, a closure.
package protocol JSONTextOutput: AnyObject {
    /// Whether bytes once written can be taken back (a regular file): then a value cut short by a
    /// failure is truncated away instead of being held in memory until it completes.
    var isTruncatable: Bool { get }
    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Where the next write lands (only asked of a truncatable output).
    func nextWriteOffset() throws -> Int64
    /// Drops everything from `offset` on (only asked of a truncatable output).
    func truncate(to offset: Int64) throws
}

/// The JSON text of the events it receives: the one writer of event text, behind the public
/// ``JSONEventWriter`` (which adds its checks of the event order) and `elevate extract`.
///
/// Numbers are written as their source text; `"`, `\`, control characters, and (by default)
/// U+2028 and U+2029 are escaped as ``JSONWriter`` escapes them, `/` too when asked; pretty output
/// is indented by two spaces, with `{}` and `[]` for empty containers; top-level values after the
/// first go on a new line each. Each token is copied once into a fixed buffer, strings checked
/// eight bytes at a time, and the buffer goes to the output in large writes: handing each token to
/// YAJL's generator instead, which prints it in several callbacks that each append a few bytes to
/// a Swift array, spent three quarters of `extract`'s time on a 200 MB array in those appends.
///
/// Each top-level value is written whole or not at all, as far as the output allows, so that when
/// the input fails inside a value the output can end with the values completed before it
/// (``finishCompleteValues()``):
/// - Into a truncatable output, the text is written through as it comes; the emitter notes the
///   offset where a value began once part of it is written, and on a failure truncates back to it.
/// - Into anything else, a value's text stays in memory until its last event, the buffer growing
///   up to `memoryLimit`; a value larger than that is written through from then on, and a failure
///   later in it leaves it cut off where the input failed (``leftCutValue``).
///
/// The events are assumed to make JSON (a parser has checked them, or ``JSONEventWriter`` has): the
/// emitter does not check their order. It is not thread-safe.
package final class JSONTextEmitter: JSONEventHandler {
    /// Bytes gathered before a write to the output, by default.
    package static let bufferSize = 256 << 10
    /// The most of one incomplete value held in memory by default, when the output cannot be
    /// truncated; past it, the value is written through.
    package static let defaultMemoryLimit = 16 << 20
    /// The smallest buffer, whatever the limit: room for any indentation (two bytes per level of
    /// the parser's depth limit) and escape.
    private static let minimumCapacity = 4096

    private let output: any JSONTextOutput
    /// Whether values are indented, one member or element per line.
    package let prettyPrinted: Bool
    /// `/` when slashes are escaped; otherwise `"`, which is escaped anyway, so that the word test
    /// needs no branch.
    private let slash: UInt8
    private let escapesLineSeparators: Bool
    /// The most the buffer grows to while one value is incomplete (only when the output cannot be
    /// truncated: into a regular file, it stays at its first size).
    package let memoryLimit: Int
    /// Whether the output is a regular file, which a failure truncates back to the start of the
    /// value it cut short.
    private let truncatable: Bool
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// The bytes of `buffer` in use.
    @exclusivity(unchecked) private var count = 0
    /// The bytes at the start of `buffer` that hold complete values, ready for the output; the
    /// rest belongs to the value being written.
    @exclusivity(unchecked) private var committed = 0
    /// Whether part of the value being written has reached the output (it outgrew the buffer).
    private var partlyWritten = false
    /// Where the value being written begins in the output file, once part of it is written there.
    private var valueStart: Int64 = 0
    /// How many top-level values have been completed.
    package private(set) var completedValueCount = 0
    /// For each open container, outermost first: whether it has a member or element yet.
    @exclusivity(unchecked) private var hasChildren: [Bool] = []
    /// Whether an object key was just written, so that its value comes next without a separator.
    @exclusivity(unchecked) private var afterKey = false
    /// Whether a complete top-level value was written (a further one goes on a new line).
    @exclusivity(unchecked) private var wroteValue = false

    /// Whether any top-level value has been begun.
    package var wroteAnyValue: Bool { wroteValue }
    /// The open containers.
    package var depth: Int { hasChildren.count }

    /// Creates an emitter that appends to `output`.
    /// - Parameters:
    ///   - output: Where the text goes.
    ///   - prettyPrinted: Whether to indent, one member or element per line.
    ///   - escapesSlashes: Whether `/` is written `\/`.
    ///   - escapesLineSeparators: Whether U+2028 and U+2029 are written `\u2028` and `\u2029`.
    ///   - bufferSize: The bytes gathered before a write.
    ///   - memoryLimit: The most bytes of one incomplete value held in memory when `output` is not
    ///     truncatable (at least 4 KiB are); the buffer never exceeds it. At most `bufferSize`, the
    ///     buffer never grows and values are written through as they come.
    package init(
        output: any JSONTextOutput, prettyPrinted: Bool = false, escapesSlashes: Bool = false,
        escapesLineSeparators: Bool = true, bufferSize: Int = JSONTextEmitter.bufferSize,
        memoryLimit: Int = JSONTextEmitter.defaultMemoryLimit, rawTopLevelStrings: Bool = false
    ) {
        self.output = output
        self.rawTopLevelStrings = rawTopLevelStrings
        self.prettyPrinted = prettyPrinted
        slash = escapesSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        self.escapesLineSeparators = escapesLineSeparators
        self.memoryLimit = max(memoryLimit, Self.minimumCapacity)
        truncatable = output.isTruncatable
        capacity = max(min(bufferSize, memoryLimit), Self.minimumCapacity)
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// How an emitter writes its text, apart from where and in what memory: what a worker of a
    /// split parse needs to write its run's values as the stream's emitter would.
    package struct Style: Sendable {
        var prettyPrinted: Bool
        var escapesSlashes: Bool
        var escapesLineSeparators: Bool
        var rawTopLevelStrings: Bool
    }

    /// This emitter's style.
    package var style: Style {
        Style(
            prettyPrinted: prettyPrinted, escapesSlashes: slash == UInt8(ascii: "/"),
            escapesLineSeparators: escapesLineSeparators, rawTopLevelStrings: rawTopLevelStrings)
    }

    /// Creates an emitter that writes in `style` to `output`, holding each value whole in memory
    /// until it completes (no memory limit): a worker's, whose text goes to the stream's emitter
    /// through ``writeCompleteValues(_:count:)``.
    package convenience init(output: any JSONTextOutput, style: Style) {
        self.init(
            output: output, prettyPrinted: style.prettyPrinted, escapesSlashes: style.escapesSlashes,
            escapesLineSeparators: style.escapesLineSeparators, memoryLimit: .max,
            rawTopLevelStrings: style.rawTopLevelStrings)
    }

    /// Creates an emitter that writes, in `style`, elements of an array that another emitter has
    /// open: a worker's of a split parse, whose text for a run of the array's elements goes into
    /// that emitter as it is (``writeElements(_:)``), separators and indentation included.
    /// - Parameters:
    ///   - output: Where the text goes.
    ///   - style: How the other emitter writes.
    ///   - depth: The other emitter's open containers, the array the last.
    ///   - afterElements: Whether elements come before the run's: its first then follows a comma.
    package convenience init(output: any JSONTextOutput, style: Style, insideArrayAt depth: Int, afterElements: Bool) {
        precondition(depth > 0, "inside an array")
        self.init(output: output, style: style)
        hasChildren = Array(repeating: true, count: depth)
        hasChildren[depth - 1] = afterElements
    }

    // MARK: Events

    package func startObject() throws { try open(UInt8(ascii: "{")) }
    package func startArray() throws { try open(UInt8(ascii: "[")) }
    package func endObject() throws { try close(UInt8(ascii: "}")) }
    package func endArray() throws { try close(UInt8(ascii: "]")) }

    package func key(_ key: JSONText) throws {
        try separate()
        try appendString(key.bytes)
        if prettyPrinted {
            try append(UInt8(ascii: ":"), UInt8(ascii: " "))
        } else {
            try append(UInt8(ascii: ":"))
        }
        afterKey = true
    }

    package func string(_ value: JSONText) throws {
        try separate()
        if rawTopLevelStrings && hasChildren.isEmpty {
            try append(value.bytes)
        } else {
            try appendString(value.bytes)
        }
        if hasChildren.isEmpty { try valueEnded() }
    }

    /// Whether a top-level string is written as its text, without quotes or escapes (`jq -r`);
    /// strings inside containers stay JSON.
    private let rawTopLevelStrings: Bool

    package func number(_ value: JSONNumberText) throws {
        try separate()
        try append(value.bytes)
        if hasChildren.isEmpty { try valueEnded() }
    }

    package func bool(_ value: Bool) throws {
        try separate()
        try append(value ? Self.trueText : Self.falseText)
        if hasChildren.isEmpty { try valueEnded() }
    }

    package func null() throws {
        try separate()
        try append(Self.nullText)
        if hasChildren.isEmpty { try valueEnded() }
    }

    /// Whether ``finishCompleteValues()`` left part of a value in the output: one longer than the
    /// memory limit, cut short by the input, into an output that cannot be truncated.
    package private(set) var leftCutValue = false

    /// Writes the complete values still buffered to the output. A value whose last event has not
    /// come (the input failed inside it) is dropped, with the separator before it: from the
    /// buffer, and from a regular file by truncating it back to where the value began. Into an
    /// output that cannot be truncated, a value already partly written is written on to where the
    /// input failed (see ``leftCutValue``).
    /// - Throws: The output's error.
    package func finishCompleteValues() throws {
        if partlyWritten && !truncatable {
            leftCutValue = true
        } else {
            count = committed
            if partlyWritten { try output.truncate(to: valueStart) }
        }
        partlyWritten = false
        try flush()
    }

    // MARK: Structure

    private func open(_ bracket: UInt8) throws {
        try separate()
        try append(bracket)
        hasChildren.append(false)
    }

    private func close(_ bracket: UInt8) throws {
        let hadChildren = hasChildren.removeLast()
        if prettyPrinted && hadChildren { try newline() }
        try append(bracket)
        if hasChildren.isEmpty { try valueEnded() }
    }

    /// What comes before a value or key: nothing after a key; a comma between siblings, and in
    /// pretty output a new line, indented; a new line between top-level values.
    @inline(__always)
    private func separate() throws {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = hasChildren.indices.last else {
            if wroteValue { try append(UInt8(ascii: "\n")) }
            wroteValue = true
            return
        }
        if hasChildren[last] {
            try append(UInt8(ascii: ","))
        } else {
            hasChildren[last] = true
        }
        if prettyPrinted { try newline() }
    }

    /// A new line, indented two spaces per open container.
    private func newline() throws {
        let indent = 2 * hasChildren.count
        try reserve(1 + indent)
        buffer[count] = UInt8(ascii: "\n")
        (buffer + count + 1).initialize(repeating: UInt8(ascii: " "), count: indent)
        count += 1 + indent
    }

    // MARK: Strings

    /// A quoted string, escaped as YAJL's generator escapes it (with `JSONWriter`'s escapes of
    /// U+2028 and U+2029).
    ///
    /// Nearly every string needs no escape: it is checked and copied a word at a time, with its
    /// quotes, in one step. Byte by byte, with a copy per run, this was a sixth of `extract`'s
    /// instructions, most of them the fixed cost of a call for strings of a few bytes.
    private func appendString(_ text: UnsafeRawBufferPointer) throws {
        if let source = text.baseAddress, text.count + 2 <= capacity - count,
            appendPlain(source, text.count, slash)
        {
            return
        }
        try appendEscaping(text)
    }

    /// Copies a string of `length` bytes at `source` that needs no escape into the buffer, which
    /// has room for it and its quotes, and returns true; returns false, having counted nothing,
    /// when some byte needs care.
    ///
    /// Only bytes of the string are read: a string of eight bytes or more as words, the last one
    /// overlapping the one before; a shorter one as two overlapping halves or, under four bytes,
    /// its first, middle and last bytes. A byte read twice is checked and written twice, which
    /// changes nothing.
    @inline(__always)
    private func appendPlain(_ source: UnsafeRawPointer, _ length: Int, _ slash: UInt8) -> Bool {
        let destination = UnsafeMutableRawPointer(buffer + count)
        if length >= 8 {
            var offset = 0
            while offset &+ 8 < length {
                let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if Self.mayNeedCare(word, slash) { return false }
                destination.storeBytes(of: word, toByteOffset: 1 &+ offset, as: UInt64.self)
                offset &+= 8
            }
            let last = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            if Self.mayNeedCare(last, slash) { return false }
            destination.storeBytes(of: last, toByteOffset: length &- 7, as: UInt64.self)
        } else if length >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            if Self.mayNeedCare(UInt64(first) | UInt64(last) << 32, slash) { return false }
            destination.storeBytes(of: first, toByteOffset: 1, as: UInt32.self)
            destination.storeBytes(of: last, toByteOffset: length &- 3, as: UInt32.self)
        } else if length > 0 {
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: length &>> 1, as: UInt8.self)
            let last = source.load(fromByteOffset: length &- 1, as: UInt8.self)
            // The other five bytes of the word are a letter, which needs nothing.
            let word = UInt64(first) | UInt64(middle) << 8 | UInt64(last) << 16 | 0x4141_4141_4100_0000
            if Self.mayNeedCare(word, slash) { return false }
            destination.storeBytes(of: first, toByteOffset: 1, as: UInt8.self)
            destination.storeBytes(of: middle, toByteOffset: 1 &+ length &>> 1, as: UInt8.self)
            destination.storeBytes(of: last, toByteOffset: length, as: UInt8.self)
        }
        destination.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        destination.storeBytes(of: UInt8(ascii: "\""), toByteOffset: length &+ 1, as: UInt8.self)
        count &+= length &+ 2
        return true
    }

    /// A quoted string that may need escapes: runs of bytes that need nothing are copied whole,
    /// found eight bytes at a time.
    private func appendEscaping(_ text: UnsafeRawBufferPointer) throws {
        let slash = self.slash
        try append(UInt8(ascii: "\""))
        if let base = text.baseAddress {
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            var runStart = 0
            var index = 0
            while index < text.count {
                if index &+ 8 <= text.count, !Self.mayNeedCare(base.loadUnaligned(fromByteOffset: index, as: UInt64.self), slash) {
                    index &+= 8
                    continue
                }
                // The bytes of a word that may need care (or of the last few) one at a time: a
                // word test at each of them would fail again on the same byte.
                let wordEnd = min(index &+ 8, text.count)
                while index < wordEnd {
                    let byte = bytes[index]
                    guard Self.needsCare(byte, slash) else {
                        index &+= 1
                        continue
                    }
                    if byte == 0xE2 {
                        // Only U+2028 and U+2029 (E2 80 A8, E2 80 A9) are escaped; the UTF-8 is
                        // valid, so a lead byte E2 has its two continuation bytes.
                        guard escapesLineSeparators, index + 2 < text.count, bytes[index + 1] == 0x80,
                            bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                        else {
                            index &+= 1
                            continue
                        }
                        try append(UnsafeRawBufferPointer(start: bytes + runStart, count: index - runStart))
                        try append(bytes[index + 2] == 0xA8 ? Self.lineSeparator : Self.paragraphSeparator)
                        index &+= 3
                    } else {
                        try append(UnsafeRawBufferPointer(start: bytes + runStart, count: index - runStart))
                        try appendEscape(byte)
                        index &+= 1
                    }
                    runStart = index
                }
            }
            try append(UnsafeRawBufferPointer(start: bytes + runStart, count: text.count - runStart))
        }
        try append(UInt8(ascii: "\""))
    }

    private func appendEscape(_ byte: UInt8) throws {
        switch byte {
        case UInt8(ascii: "\""): try append(UInt8(ascii: "\\"), UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): try append(UInt8(ascii: "\\"), UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): try append(UInt8(ascii: "\\"), UInt8(ascii: "/"))
        case 0x0A: try append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
        case 0x0D: try append(UInt8(ascii: "\\"), UInt8(ascii: "r"))
        case 0x09: try append(UInt8(ascii: "\\"), UInt8(ascii: "t"))
        case 0x0C: try append(UInt8(ascii: "\\"), UInt8(ascii: "f"))
        case 0x08: try append(UInt8(ascii: "\\"), UInt8(ascii: "b"))
        default:
            // YAJL's form for the other control characters: \u00 and two upper-case hex digits.
            try reserve(6)
            let digits = Self.hexDigits
            for (offset, character) in [
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                digits[Int(byte >> 4)], digits[Int(byte & 0x0F)],
            ].enumerated() {
                buffer[count + offset] = character
            }
            count += 6
        }
    }

    /// Whether `byte` is escaped (`"`, `\`, a control character, `slash`), or is E2, which may
    /// begin U+2028 or U+2029.
    @inline(__always)
    private static func needsCare(_ byte: UInt8, _ slash: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 || byte == slash
    }

    /// Whether one of the eight bytes of `word` needs care (see `needsCare`): a control character,
    /// a quote, a backslash, 0xE2 or `slash`. Exact, as a whole: a borrow between the bytes in the
    /// tests below can mark the wrong byte, only ever above one that really matches.
    @inline(__always)
    private static func mayNeedCare(_ word: UInt64, _ slash: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x20: it alone wraps past 0x80 when 0x20 is taken from it.
        let control = (word &- ones &* 0x20) & ~word & high
        // A byte equal to the quote, the backslash or 0xE2: a zero byte after the exclusive or.
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let lead = word ^ (ones &* 0xE2)
        let quotes = (quote &- ones) & ~quote & high
        let backslashes = (backslash &- ones) & ~backslash & high
        let leads = (lead &- ones) & ~lead & high
        let other = word ^ (ones &* UInt64(slash))
        let slashes = (other &- ones) & ~other & high
        return (control | quotes | backslashes | leads | slashes) != 0
    }
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    private static let lineSeparator = Array(#"\u2028"#.utf8)
    private static let paragraphSeparator = Array(#"\u2029"#.utf8)
    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)
    private static let nullText = Array("null".utf8)

    // MARK: Buffer

    @inline(__always)
    private func append(_ byte: UInt8) throws {
        if count == capacity { try makeRoom(1) }
        buffer[count] = byte
        count += 1
    }

    @inline(__always)
    private func append(_ first: UInt8, _ second: UInt8) throws {
        try reserve(2)
        buffer[count] = first
        buffer[count + 1] = second
        count += 2
    }

    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    @inline(__always)
    private func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if bytes.count > capacity - count {
            try makeRoom(bytes.count)
            // Still no room: the value is being written through, and this token follows it.
            if bytes.count > capacity - count { return try output.write(bytes) }
        }
        (buffer + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    /// Makes room for `needed` bytes (at most a few, never more than the smallest buffer).
    @inline(__always)
    private func reserve(_ needed: Int) throws {
        if needed > capacity - count { try makeRoom(needed) }
    }

    /// Makes room for `needed` more bytes of the value being written: writes the complete values
    /// out; then, if that is not enough, grows the buffer up to `memoryLimit` when the output
    /// cannot be truncated and the value is not yet being written through; else writes the
    /// value's bytes so far through, noting where the value began in a regular file (after which a
    /// token larger than the buffer is left to the caller to write).
    private func makeRoom(_ needed: Int) throws {
        if committed > 0 {
            try flushCompleteValues()
            if needed <= capacity - count { return }
        }
        if !truncatable, !partlyWritten, count + needed <= memoryLimit {
            let grown = min(max(capacity * 2, count + needed), memoryLimit)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = larger
            capacity = grown
            return
        }
        if !partlyWritten {
            // The buffer holds nothing but the value (the complete ones were written above), so
            // the value begins where the next write lands.
            if truncatable { valueStart = try output.nextWriteOffset() }
            partlyWritten = true
        }
        try output.write(UnsafeRawBufferPointer(start: buffer, count: count))
        count = 0
    }

    /// A top-level value has had its last event: it is complete, and may be written.
    @inline(__always)
    private func valueEnded() throws {
        completedValueCount &+= 1
        committed = count
        partlyWritten = false
    }

    /// Writes `values` complete top-level values given as text, one per line as this emitter
    /// writes them (compact, separated by newlines, none after the last), after the values written
    /// so far: the lines of a split parse's run of elements, written by a worker's emitter.
    /// - Parameters:
    ///   - text: The values' text.
    ///   - values: How many values it holds; none writes nothing.
    /// - Throws: The output's error.
    package func writeCompleteValues(_ text: UnsafeRawBufferPointer, count values: Int) throws {
        precondition(hasChildren.isEmpty && committed == count, "complete values are written between top-level values")
        guard values > 0 else { return }
        if wroteValue { try append(UInt8(ascii: "\n")) }
        wroteValue = true
        committed = count
        try flush()
        try output.write(text)
        completedValueCount &+= values
    }

    /// Writes elements of the array this emitter has open, as an emitter made for it with
    /// ``init(output:style:insideArrayAt:afterElements:)`` wrote them: the split parse of the
    /// array, in `extract` of a whole value.
    /// - Parameter text: The elements' text, each after its separator; empty writes nothing.
    /// - Throws: The output's error.
    package func writeElements(_ text: UnsafeRawBufferPointer) throws {
        guard !text.isEmpty else { return }
        precondition(!hasChildren.isEmpty && !afterKey, "elements are written inside an open array")
        try append(text)
        hasChildren[hasChildren.count - 1] = true
    }

    /// Writes the complete values held in the buffer to the output now, keeping the one being
    /// written (when the input is live, so that each value shows as soon as it is complete).
    /// - Throws: The output's error.
    package func flushCompleteValues() throws {
        guard committed > 0 else { return }
        try output.write(UnsafeRawBufferPointer(start: buffer, count: committed))
        let pending = count - committed
        if pending > 0 { memmove(buffer, buffer + committed, pending) }
        count = pending
        committed = 0
    }

    /// Writes the whole buffer: after ``finishCompleteValues()``, complete values only; otherwise
    /// whatever was written so far, a value cut short included.
    package func flush() throws {
        guard count > 0 else { return }
        let filled = count
        count = 0
        committed = 0
        try output.write(UnsafeRawBufferPointer(start: buffer, count: filled))
    }
}
