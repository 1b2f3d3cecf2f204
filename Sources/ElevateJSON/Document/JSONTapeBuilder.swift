#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Appends a ``JSONEventParser``'s events to a ``JSONTape``, for a whole document or for one value at a
/// time.
///
/// ```swift
/// let builder = JSONTapeBuilder()
/// let parser = JSONEventParser(handler: builder)
/// try parser.parseAll(data)
/// let value = builder.takeValue()
/// ```
///
/// For a stream of values (the elements of a big array, cut by another component), feed one value's
/// events, ``takeValue()``, then ``reset()`` before the next. ``reset()`` writes over the same storage
/// when no ``JSONValue`` still refers to it, so a stream whose views are dropped allocates nothing per
/// value; a view that is kept keeps its own tape, and the builder starts a new one.
///
/// How the work stays linear and flat: open containers are frames on an explicit stack (no recursion,
/// so depth is bounded only by the parser's limit). A container's first word is written when it ends,
/// with its end index and count. Each depth remembers the last few objects that ended there; a new
/// object picks the one with its first key and walks that sibling's keys alongside its own, so a key
/// that repeats
/// (arrays of records) is compared in one step and shares the sibling's arena copy, and an object
/// whose keys all matched distinct keys of a duplicate-free sibling is known to be duplicate-free
/// without any further check. Other objects are checked for duplicates when they end (see
/// `JSONTapeBuilder+Duplicates.swift`).
final class JSONTapeBuilder: JSONEventHandler {
    /// An open container.
    struct Frame {
        /// The container's tape index.
        var start: Int
        /// Values so far (for an object: keys so far).
        var count: Int
        /// The next key to compare in the chosen sibling object at this depth, and that object's end;
        /// `cursor >= cursorEnd` when there is nothing to compare with.
        var cursor: Int
        var cursorEnd: Int
        /// Whether every key so far matched a key of the previous sibling, which had no duplicates.
        var keysMatchedSibling: Bool
        var isObject: Bool
    }

    /// How many recent objects each depth remembers: enough for the few kinds of record that
    /// alternate at one depth (a tweet's `user`, `entities` and `metadata`).
    static let siblingsPerLevel = 4

    /// The tape being written; a new one replaces it when ``reset()`` finds it still referenced.
    private(set) var tape: JSONTape

    // The tape's storage, cached here: every event touches it, and the accesses never overlap, so
    // neither indirection through the tape nor dynamic exclusivity checks are worth paying for.
    @exclusivity(unchecked) private var words: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var wordCount = 0
    @exclusivity(unchecked) private var wordCapacity: Int
    @exclusivity(unchecked) private var arena: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var arenaCount = 0
    @exclusivity(unchecked) private var arenaCapacity: Int
    /// Whether every key written so far is ASCII (see ``JSONTape/keysAreASCII``).
    @exclusivity(unchecked) private var keysAreASCII = true

    /// Open containers: `frames[0]` is a sentinel that counts top-level values; `frames[depth]` is the
    /// innermost open container.
    @exclusivity(unchecked) private(set) var frames: UnsafeMutablePointer<Frame>
    @exclusivity(unchecked) private var frameCapacity = 64
    @exclusivity(unchecked) private(set) var depth = 0
    /// Per depth, ``siblingsPerLevel`` slots: the objects that ended there most recently, most recent
    /// first, each as `tapeIndex << 1 | hasDuplicates`, or -1. Depths at `levelCount` and beyond are
    /// stale.
    @exclusivity(unchecked) private var levels: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var levelCapacity = 64
    @exclusivity(unchecked) private var levelCount = 0

    /// Scratch space for the duplicate check of large objects, reused.
    @exclusivity(unchecked) var scratch: [Int] = []
    /// Creates a builder. A repeated key's last occurrence replaces the earlier ones; a parser whose
    /// ``JSONParsingOptions/rejectsDuplicateKeys`` is set throws before the builder sees one.
    /// - Parameters:
    ///   - expectedBytes: The size of the input, when known: the tape reserves room for it, so that a
    ///     whole document is built without regrowing.
    init(expectedBytes: Int = 0) {
        // Untouched capacity costs address space only: reserve for the densest likely document.
        tape = JSONTape(wordCapacity: expectedBytes / 4 + 16, byteCapacity: expectedBytes + 64)
        words = tape.words
        wordCapacity = tape.wordCapacity
        arena = tape.bytes
        arenaCapacity = tape.byteCapacity
        frames = .allocate(capacity: frameCapacity)
        levels = .allocate(capacity: levelCapacity * Self.siblingsPerLevel)
        frames[0] = Frame(start: 0, count: 0, cursor: 0, cursorEnd: 0, keysMatchedSibling: false, isObject: false)
    }

    deinit {
        frames.deallocate()
        levels.deallocate()
    }

    // MARK: Values in and out

    /// Whether a complete top-level value is on the tape.
    var hasValue: Bool { depth == 0 && wordCount > 0 }

    /// Whether a container is open.
    var isBuilding: Bool { depth > 0 }

    /// The completed top-level value, viewed on the tape, or nil when there is none. The builder keeps
    /// the value until ``reset()`` or the start of the next top-level value; taking it does not copy.
    func takeValue() -> JSONValue? {
        guard hasValue else { return nil }
        commit()
        return JSONValue(tape: tape, index: 0)
    }

    /// Forgets the tape's contents, ready for a new value: writes over the same storage when nothing
    /// else refers to the tape, and starts a new tape otherwise, so that views handed out stay valid.
    /// Whether ``reset()`` writes the next value over a tape that nothing else holds any more. Off
    /// while workers on other threads read the values (parallel decoding): the check sees the
    /// worker's release, but the memory would then pass from its reads to this thread's writes by
    /// way of a reference count, an ordering thread sanitizers cannot see; a fresh tape from the
    /// allocator is certainly unshared.
    var reusesTape = true
    /// Where tapes the workers are done with come back from, when ``reusesTape`` is off.
    @exclusivity(unchecked) var recycler: TapeRecycler?
    /// Tapes taken from ``recycler``, used before allocating.
    @exclusivity(unchecked) private var recycled: [JSONTape] = []

    func reset() {
        if reusesTape, isKnownUniquelyReferenced(&tape) {
            wordCount = 0
            arenaCount = 0
        } else {
            if recycled.isEmpty { recycler?.takeAll(into: &recycled) }
            // The next value is probably the size of this one.
            tape = recycled.popLast() ?? JSONTape(wordCapacity: wordCount, byteCapacity: arenaCount)
            words = tape.words
            wordCount = 0
            wordCapacity = tape.wordCapacity
            arena = tape.bytes
            arenaCount = 0
            arenaCapacity = tape.byteCapacity
        }
        depth = 0
        frames[0].count = 0
        levelCount = 0
        keysAreASCII = true
    }

    /// Writes the counts back to the tape, for views and for `usedBytes`.
    private func commit() {
        tape.wordCount = wordCount
        tape.byteCount = arenaCount
        tape.keysAreASCII = keysAreASCII
    }

    // MARK: Appending

    @inline(__always)
    private func beginValue() throws {
        if depth == 0, wordCount > 0 {
            // A second top-level value (multiple-value input, or no reset between values): it
            // replaces the first, like JSONValueBuilder.
            reset()
        }
        frames[depth].count &+= 1
        if wordCount &+ 2 > wordCapacity { try growWords() }
    }

    @inline(__always)
    private func append(_ word: UInt64) {
        words[wordCount] = word
        wordCount &+= 1
    }

    @inline(never)
    private func growWords() throws {
        guard wordCount + 3 <= JSONTape.maximumWordCount else { throw Self.tooLarge() }
        let capacity = max(wordCapacity * 2, 64)
        words = realloc(words, capacity * 8)!.bindMemory(to: UInt64.self, capacity: capacity)
        wordCapacity = capacity
        tape.words = words
        tape.wordCapacity = capacity
    }

    @inline(never)
    private func growArena(toHold extra: Int) throws {
        guard arenaCount + extra <= JSONTape.maximumArenaOffset else { throw Self.tooLarge() }
        let capacity = max(arenaCapacity * 2, arenaCount + extra, 256)
        arena = realloc(arena, capacity)!.bindMemory(to: UInt8.self, capacity: capacity)
        arenaCapacity = capacity
        tape.bytes = arena
        tape.byteCapacity = capacity
    }

    private static func tooLarge() -> DocumentTooLarge {
        DocumentTooLarge(message: "the document needs more than 2^32 tape entries or 64 GiB of text")
    }

    /// Copies text into the arena and returns its reference word.
    @inline(__always)
    private func arenaWord(_ kind: JSONTape.Kind, _ text: UnsafeRawBufferPointer) throws -> UInt64 {
        let length = text.count
        let extra = length >= JSONTape.longLength ? length + 8 : length
        if arenaCount &+ extra > arenaCapacity { try growArena(toHold: extra) }
        let offset = arenaCount
        var destination = arena + offset
        if length >= JSONTape.longLength {
            UnsafeMutableRawPointer(destination).storeBytes(of: length, toByteOffset: 0, as: Int.self)
            destination += 8
        }
        memcpy(destination, text.baseAddress!, length)
        arenaCount = offset &+ extra
        return JSONTape.referenceWord(kind, offset: offset, length: length)
    }

    // MARK: Events

    func startObject() throws {
        try startContainer(isObject: true)
    }

    func startArray() throws {
        try startContainer(isObject: false)
    }

    @inline(__always)
    private func startContainer(isObject: Bool) throws {
        try beginValue()
        let start = wordCount
        append(0)  // Written when the container ends.
        depth &+= 1
        if depth == frameCapacity { growFrames() }
        let frame = Frame(
            start: start, count: 0, cursor: 0, cursorEnd: 0, keysMatchedSibling: false, isObject: isObject)
        // The sibling to compare keys with is chosen at the first key.
        if isObject, depth >= levelCount { clearLevels(through: depth) }
        frames[depth] = frame
    }

    @inline(never)
    private func growFrames() {
        let capacity = frameCapacity * 2
        let grown = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
        grown.moveInitialize(from: frames, count: frameCapacity)
        frames.deallocate()
        frames = grown
        frameCapacity = capacity
    }

    @inline(never)
    private func clearLevels(through depth: Int) {
        if depth >= levelCapacity {
            let capacity = max(levelCapacity * 2, depth + 1)
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: capacity * Self.siblingsPerLevel)
            grown.moveInitialize(from: levels, count: levelCount * Self.siblingsPerLevel)
            levels.deallocate()
            levels = grown
            levelCapacity = capacity
        }
        while levelCount <= depth {
            (levels + levelCount * Self.siblingsPerLevel).initialize(repeating: -1, count: Self.siblingsPerLevel)
            levelCount += 1
        }
    }

    /// The index just past the value at `index` (the tape's `end(of:)`, on the cached storage).
    @inline(__always)
    func tapeEnd(of index: Int) -> Int {
        let word = words[index]
        switch JSONTape.kind(of: word) {
        case .object, .array: return Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
        case .int64, .uint64: return index &+ 2
        case .double64: return index &+ JSONTape.wordsOfDouble64(word)
        default: return index &+ 1
        }
    }

    func key(_ key: JSONText) throws {
        let text = key.bytes
        let length = text.count
        let frame = frames + depth
        var word: UInt64 = 0
        if length <= 7 { word = JSONTape.inlineWord(.inlineKey, text) }
        // Walk the previous sibling's keys alongside: a match shares its arena copy. Looking a few
        // keys ahead survives optional members that one record has and the next lacks.
        var matched = false
        if frame.pointee.count == 0 { chooseSibling(frame, firstKey: text, inlineWord: word) }
        var cursor = frame.pointee.cursor
        let cursorEnd = frame.pointee.cursorEnd
        var lookahead = 0
        while cursor < cursorEnd, lookahead < 4 {
            if let shared = keyMatches(cursor, text, inlineWord: word) {
                matched = true
                word = shared
            }
            cursor = tapeEnd(of: cursor &+ 1)
            if matched {
                frame.pointee.cursor = cursor
                break
            }
            lookahead &+= 1
        }
        if !matched {
            frame.pointee.keysMatchedSibling = false
            // A key shared with a sibling was looked at when the sibling was written.
            if keysAreASCII {
                keysAreASCII =
                    length <= 7
                    ? word & JSONTape.inlineNonASCIIBits == 0 : UTF8Validation.isASCII(text.baseAddress!, length)
            }
            if length > 7 {
                if arenaCount &+ length > arenaCapacity || length >= JSONTape.longLength {
                    word = try arenaWord(.key, text)
                } else {
                    memcpy(arena + arenaCount, text.baseAddress!, length)
                    word = JSONTape.referenceWord(.key, offset: arenaCount, length: length)
                    arenaCount &+= length
                }
            }
        }
        if wordCount &+ 1 > wordCapacity { try growWords() }
        append(word)
    }

    @inline(__always)
    func endObject() throws {
        let frame = frames[depth]
        let start = frame.start
        var distinct = frame.count
        if frame.count > 1, !frame.keysMatchedSibling {
            distinct -= shadowDuplicates(objectAt: start, keyCount: frame.count)
        }
        words[start] = JSONTape.word(.object, containerPayload(end: wordCount, count: distinct))
        if frame.count > 0 { remember(objectAt: start, hasDuplicates: distinct != frame.count) }
        depth &-= 1
    }

    /// Points the open object's key cursor at the remembered sibling whose first key is `firstKey`
    /// (the most recent one when none is).
    @inline(__always)
    private func chooseSibling(
        _ frame: UnsafeMutablePointer<Frame>, firstKey: UnsafeRawBufferPointer, inlineWord: UInt64
    ) {
        let slots = levels + depth * Self.siblingsPerLevel
        var chosen = slots[0]
        guard chosen >= 0 else { return }
        for slot in 0..<Self.siblingsPerLevel {
            let entry = slots[slot]
            if entry < 0 { break }
            if keyMatches(entry >> 1 &+ 1, firstKey, inlineWord: inlineWord) != nil {
                chosen = entry
                break
            }
        }
        let object = chosen >> 1
        frame.pointee.cursor = object &+ 1
        frame.pointee.cursorEnd = tapeEnd(of: object)
        frame.pointee.keysMatchedSibling = chosen & 1 == 0
    }

    /// The key word at `index` (flag cleared) when it equals `text`, whose inline word is `inlineWord`
    /// for 7 bytes or fewer.
    @inline(__always)
    private func keyMatches(_ index: Int, _ text: UnsafeRawBufferPointer, inlineWord: UInt64) -> UInt64? {
        let candidate = words[index] & ~JSONTape.shadowedFlag
        let length = text.count
        if length <= 7 { return candidate == inlineWord ? candidate : nil }
        // A long key's stored length is the "long" marker: such keys are never shared.
        guard JSONTape.kind(of: candidate) == .key, length < JSONTape.longLength,
            Int(truncatingIfNeeded: (candidate >> 36) & 0xF_FFFF) == length,
            JSONTape.bytesEqual(arena + Int(truncatingIfNeeded: candidate & 0xF_FFFF_FFFF), text.baseAddress!, count: length)
        else { return nil }
        return candidate
    }

    /// Puts the object that just ended first in its depth's slots, in place of the slot holding an
    /// object with the same first key, or of the oldest.
    @inline(__always)
    private func remember(objectAt start: Int, hasDuplicates: Bool) {
        let slots = levels + depth * Self.siblingsPerLevel
        let firstKey = words[start &+ 1] & ~JSONTape.shadowedFlag
        var replaced = Self.siblingsPerLevel - 1
        for slot in 0..<Self.siblingsPerLevel {
            let entry = slots[slot]
            if entry < 0 || words[entry >> 1 &+ 1] & ~JSONTape.shadowedFlag == firstKey {
                replaced = slot
                break
            }
        }
        var slot = replaced
        while slot > 0 {
            slots[slot] = slots[slot &- 1]
            slot &-= 1
        }
        slots[0] = start << 1 | (hasDuplicates ? 1 : 0)
    }

    func endArray() throws {
        let frame = frames[depth]
        words[frame.start] = JSONTape.word(.array, containerPayload(end: wordCount, count: frame.count))
        depth &-= 1
    }

    @inline(__always)
    private func containerPayload(end: Int, count: Int) -> UInt64 {
        UInt64(min(count, JSONTape.saturatedCount)) << 32 | UInt64(end)
    }

    @inline(__always)
    func string(_ value: JSONText) throws {
        try beginValue()
        let text = value.bytes
        let length = text.count
        if length <= 7 {
            append(JSONTape.inlineWord(.inlineString, text))
        } else if arenaCount &+ length <= arenaCapacity, length < JSONTape.longLength {
            memcpy(arena + arenaCount, text.baseAddress!, length)
            append(JSONTape.referenceWord(.string, offset: arenaCount, length: length))
            arenaCount &+= length
        } else {
            append(try arenaWord(.string, text))
        }
    }

    @inline(__always)
    func number(_ value: JSONNumberText) throws {
        try beginValue()
        let (number, digits) = JSONNumber.parseKeepingDigits(value.bytes)
        switch number {
        case .int(let integer):
            if integer >= -(1 << 55), integer < 1 << 55 {
                append(JSONTape.word(.int56, UInt64(UInt(bitPattern: integer)) & JSONTape.payloadMask))
            } else {
                append(JSONTape.word(.int64))
                append(UInt64(UInt(bitPattern: integer)))
            }
        case .uint(let integer):
            append(JSONTape.word(.uint64))
            append(UInt64(integer))
        case .double(let double):
            let bits = double.bitPattern
            if JSONNumber.needsExactDigits(for: double, textCount: value.bytes.count) {
                // What exact `Decimal` and `Float` reads need, in a third word: the decimal digits,
                // or for more than 19 of them a reference to the text (see `JSONTape`).
                let extra: UInt64
                let payload: UInt64
                if let digits, let exponent = Int16(exactly: digits.exponent) {
                    extra = digits.mantissa
                    payload = JSONTape.decimalPayload(negative: digits.negative, exponent: exponent)
                } else {
                    extra = try arenaWord(.large, value.bytes)
                    payload = JSONTape.decimalTextFlag
                }
                if wordCount &+ 3 > wordCapacity { try growWords() }
                append(JSONTape.word(.double64, payload))
                append(bits)
                append(extra)
            } else if bits & 0xFF == 0 {
                append(JSONTape.word(.double56, bits >> 8))
            } else {
                append(JSONTape.word(.double64))
                append(bits)
            }
        case .large:
            append(try arenaWord(.large, value.bytes))
        }
    }

    func bool(_ value: Bool) throws {
        try beginValue()
        append(JSONTape.word(value ? .true : .false))
    }

    func null() throws {
        try beginValue()
        append(JSONTape.word(.null))
    }
}

extension JSONTapeBuilder: EventBatchReceiver {
    /// Takes the parser's events a batch at a time, each by a direct call. The handler methods are
    /// `@inline(__always)`: left to the optimizer, whether they were inlined into this loop
    /// changed with unrelated code elsewhere in the module, by 1.5% of building a tape.
    func receive(_ batch: EventBatch) throws { try receiveEach(batch) }
}
