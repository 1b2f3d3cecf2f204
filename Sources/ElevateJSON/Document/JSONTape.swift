#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

import struct Foundation.Decimal

/// A parsed JSON document as one flat array of 8-byte entries plus one byte arena: no allocation per
/// node, and a subtree is skipped in O(1).
///
/// ## The format
///
/// Entries are `UInt64` words in document order: a tag in the top byte, a 56-bit payload below it.
/// The tag's high nibble is the entry's kind ("Kind" below); its low nibble is kind-specific (an
/// inline text's length, the shadowed flag of a key).
///
/// - `null`, `false`, `true`: one word, no payload.
/// - Numbers are classified once, by ``JSONNumber``: an `Int` that fits 56 bits is inline
///   (`int56`, two's complement); a `Double` whose lowest 8 bits are zero (`1.5`, `3.0`, most short
///   decimals are not, but halves, quarters and small integers are) is inline as `bits >> 8`
///   (`double56`); any other `Int`, `UInt` or `Double` takes a second word holding its 64 bits, as in
///   simdjson (`int64`, `uint64`, `double64`). A `Double` whose exact `Decimal` or `Float` its bits do
///   not give (see ``JSONNumber/needsExactDigits(for:textCount:)``) is a `double64` with a non-zero payload
///   and a third word: its decimal mantissa (the payload holding the exponent and sign, see
///   ``decimalPayload(negative:exponent:)``), or for more than 19 digits a reference to its text. A number no 64-bit type holds (`large`) keeps its
///   source text in the arena; so does a non-integer whose `Double` is an integer
///   (`1.00000000000000011`), so that no integer read takes it for one (it is rare: a `double`
///   entry stays the fast path).
/// - Strings and keys are the unescaped UTF-8 the events deliver. Up to 7 bytes are inline
///   (`inlineString`, `inlineKey`: the length in the low nibble, byte *i* in payload bits 8i…8i+7);
///   longer ones are an arena reference (`string`, `key`, `large`): offset in the payload's low 36
///   bits, length in its high 20 bits. A length of `0xFFFFF` means "long": the real length is the
///   8 bytes at the offset and the text follows them.
/// - A key is immediately followed by its value. A key whose later duplicate replaces it carries
///   ``shadowedFlag`` in its tag's low nibble; readers skip the key and its value.
/// - `object` and `array` are one word; their members or elements follow. The payload's low 32 bits
///   are the index just past the container's last entry (so skipping is O(1) and no closing entry is
///   needed); the high 24 bits are the number of elements, or of distinct keys, saturated at
///   ``saturatedCount`` (then counting walks the container).
///
/// Memory: keys that repeat in sibling objects share one arena copy (see ``JSONTapeBuilder``).
///
/// A tape is written only by the builder that owns it and is immutable once a ``JSONValue`` view of
/// it has been handed out, which is what makes it safe to share between threads.
package final class JSONTape: @unchecked Sendable {
    /// Entry kinds: the high nibble of an entry's top byte.
    package enum Kind: UInt8 {
        case null = 0x0
        case `false` = 0x1
        case `true` = 0x2
        case int56 = 0x3
        case int64 = 0x4
        case uint64 = 0x5
        case double64 = 0x6
        case double56 = 0x7
        case large = 0x8
        case string = 0x9
        case inlineString = 0xA
        case key = 0xB
        case inlineKey = 0xC
        case object = 0xD
        case array = 0xE
    }

    /// The low-nibble bit that marks a key replaced by a later duplicate.
    static let shadowedFlag: UInt64 = 0x08 << 56
    /// The payload bits.
    static let payloadMask: UInt64 = (1 << 56) - 1
    /// The high bit of each of an inline text's seven payload bytes: none is set when the text is
    /// ASCII.
    static let inlineNonASCIIBits: UInt64 = 0x0080_8080_8080_8080
    /// The element count that means "too many to store: walk the container".
    static let saturatedCount = (1 << 24) - 1
    /// The arena length that means "the length is stored in the arena".
    static let longLength = (1 << 20) - 1
    /// The largest arena offset a reference can hold.
    static let maximumArenaOffset = (1 << 36) - 1
    /// The largest entry index a container can point past.
    static let maximumWordCount = Int(UInt32.max)

    /// The entries; `wordCount` of them are written.
    var words: UnsafeMutablePointer<UInt64>
    var wordCount = 0
    var wordCapacity: Int
    /// The arena of string, key and large-number bytes.
    var bytes: UnsafeMutablePointer<UInt8>
    var byteCount = 0
    var byteCapacity: Int
    /// Whether every key on the tape is ASCII, as its builder found: then a key path that is ASCII
    /// too is the same text as a key exactly when their bytes are equal, and a lookup that missed
    /// need not look again for another spelling (see `JSONValue.equivalentMemberIndex`). False
    /// unless a builder says so.
    var keysAreASCII = false

    /// Creates an empty tape with room for `wordCapacity` entries and `byteCapacity` arena bytes.
    package init(wordCapacity: Int, byteCapacity: Int) {
        self.wordCapacity = max(wordCapacity, 16)
        self.byteCapacity = max(byteCapacity, 64)
        // malloc rather than UnsafeMutablePointer.allocate, so that growing can use realloc (which
        // moves large blocks with mremap instead of copying them).
        words = malloc(self.wordCapacity * 8)!.bindMemory(to: UInt64.self, capacity: self.wordCapacity)
        bytes = malloc(self.byteCapacity)!.bindMemory(to: UInt8.self, capacity: self.byteCapacity)
    }

    deinit {
        free(words)
        free(bytes)
    }

    /// A tape holding one `null`: the value of an input without any value.
    static func null() -> JSONTape {
        let tape = JSONTape(wordCapacity: 1, byteCapacity: 0)
        tape.words[0] = 0
        tape.wordCount = 1
        return tape
    }

    // MARK: Encoding

    @inline(__always)
    static func word(_ kind: Kind, _ payload: UInt64 = 0) -> UInt64 {
        UInt64(kind.rawValue) << 60 | payload
    }

    @inline(__always)
    static func kind(of word: UInt64) -> Kind {
        // Every nibble the builder writes is a case, and the cases are declared in raw-value order
        // from 0, so the nibble is the enum's own representation: no checked conversion per entry.
        unsafeBitCast(UInt8(truncatingIfNeeded: word >> 60), to: Kind.self)
    }

    /// The inline word of up to 7 bytes of text.
    @inline(__always)
    package static func inlineWord(_ kind: Kind, _ text: UnsafeRawBufferPointer) -> UInt64 {
        let count = text.count
        assert(count <= 7, "inline text is 7 bytes at most")
        var payload: UInt64 = 0
        if count >= 4 {
            // Two 4-byte loads that overlap when there are fewer than 8 bytes: the bytes they
            // share land on the same bits, so OR-ing them is exact (a byte copy was a memcpy call).
            let low = UInt32(littleEndian: text.baseAddress!.loadUnaligned(as: UInt32.self))
            let high = UInt32(littleEndian: text.baseAddress!.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            payload = UInt64(low) | UInt64(high) &<< UInt64(8 &* (count &- 4))
        } else {
            for index in 0..<count {
                payload |= UInt64(text[index]) &<< UInt64(8 &* index)
            }
        }
        return UInt64(kind.rawValue) << 60 | UInt64(count) << 56 | payload
    }

    /// Whether `count` bytes at `a` and `b` are equal. Keys are short: up to 16 bytes compare as
    /// two overlapping words inline, where `memcmp` was a call through the PLT.
    @inline(__always)
    static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8, count <= 16 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        return memcmp(a, b, count) == 0
    }

    /// The word of an arena reference.
    @inline(__always)
    static func referenceWord(_ kind: Kind, offset: Int, length: Int) -> UInt64 {
        UInt64(kind.rawValue) << 60 | UInt64(min(length, longLength)) << 36 | UInt64(offset)
    }

    // MARK: Reading

    @inline(__always)
    package func kind(at index: Int) -> Kind { Self.kind(of: words[index]) }

    /// The index just past the value that starts at `index`.
    @inline(__always)
    func end(of index: Int) -> Int {
        let word = words[index]
        switch Self.kind(of: word) {
        case .object, .array: return Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
        case .int64, .uint64: return index + 2
        case .double64: return index + Self.wordsOfDouble64(word)
        default: return index + 1
        }
    }

    /// Whether the key entry at `index` was replaced by a later duplicate.
    @inline(__always)
    func isShadowed(_ index: Int) -> Bool { words[index] & Self.shadowedFlag != 0 }

    /// The number of elements, or distinct keys, of the container at `index`.
    func count(ofContainer index: Int) -> Int {
        let stored = Int(truncatingIfNeeded: (words[index] >> 32) & 0xFF_FFFF)
        guard stored == Self.saturatedCount else { return stored }
        let end = end(of: index)
        var count = 0
        var position = index + 1
        if kind(at: index) == .object {
            while position < end {
                if !isShadowed(position) { count += 1 }
                position = self.end(of: position + 1)
            }
        } else {
            while position < end {
                count += 1
                position = self.end(of: position)
            }
        }
        return count
    }

    /// Calls `body` with the bytes of the text entry (string, key or large number) at `index`.
    @inline(__always)
    func withText<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let word = words[index]
        switch Self.kind(of: word) {
        case .inlineString, .inlineKey:
            var payload = (word & Self.payloadMask).littleEndian
            let length = Int(truncatingIfNeeded: (word >> 56) & 0x07)
            return try withUnsafeBytes(of: &payload) { try body(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
        default:
            return try body(arenaText(word))
        }
    }

    /// The arena bytes of a reference word.
    @inline(__always)
    func arenaText(_ word: UInt64) -> UnsafeRawBufferPointer {
        let offset = Int(truncatingIfNeeded: word & 0xF_FFFF_FFFF)
        let length = Int(truncatingIfNeeded: (word >> 36) & 0xF_FFFF)
        if length == Self.longLength {
            let realLength = UnsafeRawPointer(bytes + offset).loadUnaligned(as: Int.self)
            return UnsafeRawBufferPointer(start: bytes + offset + 8, count: realLength)
        }
        return UnsafeRawBufferPointer(start: bytes + offset, count: length)
    }

    /// The text entry at `index` as a `String`.
    package func string(at index: Int) -> String {
        withText(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the key entry at `index` is all ASCII: an inline key's payload bytes are looked at in
    /// one word, an arena key's bytes a word at a time.
    @inline(__always)
    func isASCIIKey(at index: Int) -> Bool {
        let word = words[index] & ~Self.shadowedFlag
        if Self.kind(of: word) == .inlineKey { return word & Self.inlineNonASCIIBits == 0 }
        let text = arenaText(word)
        return text.baseAddress.map { UTF8Validation.isASCII($0, text.count) } ?? true
    }

    /// Whether the key entry at `index` equals `key`.
    @inline(__always)
    func keyEquals(_ index: Int, _ key: UnsafeRawBufferPointer, inlineWord: UInt64?) -> Bool {
        let word = words[index] & ~Self.shadowedFlag
        if let inlineWord { return word == inlineWord }
        guard Self.kind(of: word) == .key else { return false }
        let text = arenaText(word)
        return text.count == key.count && Self.bytesEqual(text.baseAddress!, key.baseAddress!, count: key.count)
    }

    /// The number on the tape at `index`, or nil for another kind.
    package func number(at index: Int) -> JSONNumber? {
        let word = words[index]
        switch Self.kind(of: word) {
        case .int56: return .int(Int(bitPattern: UInt(word << 8)) >> 8)
        case .int64: return .int(Int(bitPattern: UInt(words[index + 1])))
        case .uint64: return .uint(UInt(words[index + 1]))
        case .double56: return .double(Double(bitPattern: (word & Self.payloadMask) << 8))
        case .double64: return .double(Double(bitPattern: words[index + 1]))
        case .large: return .large(String(decoding: arenaText(word), as: UTF8.self))
        default: return nil
        }
    }

    /// A `double64` payload: its third word is the decimal mantissa; the payload holds the marker,
    /// the sign and the exponent.
    static func decimalPayload(negative: Bool, exponent: Int16) -> UInt64 {
        decimalDigitsFlag | (negative ? 1 << 16 : 0) | UInt64(UInt16(bitPattern: exponent))
    }
    /// In a `double64` payload: a third word follows, the decimal mantissa.
    static let decimalDigitsFlag: UInt64 = 1 << 17
    /// In a `double64` payload: a third word follows, a reference to the number's text.
    static let decimalTextFlag: UInt64 = 1 << 18

    /// How many words the `double64` entry `word` takes: 3 when it carries its decimal digits.
    @inline(__always)
    static func wordsOfDouble64(_ word: UInt64) -> Int { word & payloadMask == 0 ? 2 : 3 }

    /// The exact text of the number at `index` when the tape keeps more than its 64 bits: a `large`
    /// number's text, or the decimal digits of a `double64` whose `Double` does not give exact
    /// `Decimal` and `Float` reads (see ``JSONNumber/needsExactDigits(for:textCount:)``), as
    /// `±mantissa e exponent`; nil for any other entry.
    package func numberText(at index: Int) -> String? {
        let word = words[index]
        switch Self.kind(of: word) {
        case .large:
            return String(decoding: arenaText(word), as: UTF8.self)
        case .double64 where word & Self.decimalTextFlag != 0:
            return String(decoding: arenaText(words[index + 2]), as: UTF8.self)
        case .double64 where word & Self.decimalDigitsFlag != 0:
            let exponent = Int(Int16(bitPattern: UInt16(truncatingIfNeeded: word)))
            return (word & (1 << 16) != 0 ? "-" : "") + Self.decimalText(words[index + 2], exponent: exponent)
        default:
            return nil
        }
    }

    /// `mantissa × 10^exponent` as JSON number text, with a decimal point where one fits in a few
    /// zeros (`12345678901234567890.5`, `0.000123456789012345678`), in exponent form otherwise.
    private static func decimalText(_ mantissa: UInt64, exponent: Int) -> String {
        let digits = String(mantissa)
        if exponent == 0 { return digits }
        if exponent < 0 {
            let fraction = -exponent
            if fraction < digits.count {
                let point = digits.index(digits.endIndex, offsetBy: -fraction)
                return digits[..<point] + "." + digits[point...]
            }
            if fraction - digits.count <= 20 {
                return "0." + String(repeating: "0", count: fraction - digits.count) + digits
            }
        }
        return digits + "e" + String(exponent)
    }

    /// The number at `index` as the `Float` nearest it, rounded once from its text or its exact
    /// value; nil when the entry is not a number. Out of `Float`'s range it is infinite or zero:
    /// the caller decides what that means.
    package func float(at index: Int) -> Float? {
        if var text = numberText(at: index) {
            return text.withUTF8 { JSONNumber.float(fromText: UnsafeRawBufferPointer($0)) }
        }
        switch number(at: index) {
        case .int(let value): return Float(value)
        case .uint(let value): return Float(value)
        // Not a tie between two Floats (the text is kept for those): one rounding, as from the text.
        case .double(let value): return Float(value)
        case .large, nil: return nil
        }
    }

    /// The number at `index` as a `Decimal`, exactly; nil when it is not a number or no `Decimal`
    /// holds it (more than 38 significant digits, or an exponent beyond `Decimal`'s range).
    package func decimal(at index: Int) -> Decimal? {
        if let text = numberText(at: index) { return Decimal(exactly: text) }
        switch number(at: index) {
        case .int(let value): return Decimal(value)
        case .uint(let value): return Decimal(value)
        // At most 15 significant digits (the text is kept otherwise): the shortest text is the number.
        case .double(let value): return Decimal(exactly: "\(value)")
        case .large, nil: return nil
        }
    }

    /// The bytes the tape takes: entries plus arena, as written (not as reserved).
    var usedBytes: Int { wordCount * 8 + byteCount }
}
