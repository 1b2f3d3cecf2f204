extension JSONEventParser {
    /// Events YAJL has reported that the handler has not received yet.
    ///
    /// The C callbacks only record what they saw here; the parser hands the events to its handler
    /// in batches, from Swift code that holds the parser and its handler for the whole batch. Calling
    /// the handler from every callback instead costs a retain and a release of the parser per event
    /// (a callback can only reach it through an `Unmanaged` context): a tenth of the instructions
    /// of a whole parse of the people document, and more of its time, as the two are atomic.
    ///
    /// Every event's text is recorded by address, so that handing it over costs nothing. Text in
    /// the chunk YAJL is reading stays where it is: the chunk outlives every batch, since batches
    /// are delivered before `yajl_parse` returns. Text anywhere else (YAJL's decode buffer for
    /// escaped strings, its lexer buffer for tokens split across chunks) is valid only during its
    /// callback, so it is copied into the arena, which never moves while events point into it:
    /// when a copy does not fit, the parser delivers the batch first (see `hasRoom(forCopying:)`).
    @usableFromInline
    struct PendingEvents {
        /// What an event is.
        @usableFromInline
        enum Code: UInt8 {
            case startObject, endObject, startArray, endArray, key, string, number, `true`, `false`, null
        }

        @usableFromInline
        struct Entry {
            @usableFromInline
            var code: Code
            /// The in-chunk offset just past the event's token.
            @usableFromInline
            var end: Int
            /// The text's first byte, in the chunk or the arena. Events without text do not write
            /// this or `length` (one store less each), and nothing reads them.
            @usableFromInline
            var start: UnsafeRawPointer
            @usableFromInline
            var length: Int
        }

        /// Events per batch, at most: large enough that the one retain of a batch is nothing per
        /// event, small enough that the batch stays in the first-level cache.
        static let maximumCapacity = 1024
        /// Events per batch at first. A parser per JSON Lines line, of a few dozen events, made
        /// and initialized room for a thousand: an eighth of the instructions of reading such a
        /// file, before the allocator's own share.
        static let initialCapacity = 64

        private(set) var entries: UnsafeMutablePointer<Entry>
        /// Where the next event goes. A pointer rather than a count: recording an event then
        /// needs no index arithmetic.
        private var next: UnsafeMutablePointer<Entry>
        /// `entries + capacity`.
        private var limit: UnsafeMutablePointer<Entry>
        private var capacity: Int
        private var arena: UnsafeMutableRawPointer?
        private var arenaCount = 0
        /// How many bytes the arena holds before it grows (read by the tests).
        private(set) var arenaCapacity = 0

        init() {
            capacity = Self.initialCapacity
            entries = Self.allocateEntries(capacity: capacity)
            next = entries
            limit = entries + capacity
        }

        private static func allocateEntries(capacity: Int) -> UnsafeMutablePointer<Entry> {
            let entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
            // Initialized once, so that the fields events without text leave alone hold defined values.
            let blank = Entry(code: .null, end: 0, start: UnsafeRawPointer(entries), length: 0)
            entries.initialize(repeating: blank, count: capacity)
            return entries
        }

        /// Frees the memory; the buffer is unusable afterwards.
        func deallocate() {
            entries.deallocate()
            arena?.deallocate()
        }

        var count: Int { next - entries }

        var isFull: Bool { next == limit }

        /// The last event recorded, if any.
        var last: Entry? { next == entries ? nil : (next - 1).pointee }

        /// Records an event without text. The caller delivers the batch when it is full.
        @inline(__always)
        mutating func append(_ code: Code, end: Int) {
            next.pointee.code = code
            next.pointee.end = end
            next += 1
        }

        /// Records an event whose text stays where it is until the batch is delivered.
        @inline(__always)
        mutating func append(_ code: Code, end: Int, text: UnsafeRawPointer, length: Int) {
            next.initialize(to: Entry(code: code, end: end, start: text, length: length))
            next += 1
        }

        /// Whether `length` bytes can be copied into the arena without moving it. When not, the
        /// parser delivers the batch first: with no event pointing into it, the arena may grow.
        func hasRoom(forCopying length: Int) -> Bool {
            next == entries || (arena != nil && arenaCount + length <= arenaCapacity)
        }

        /// Where a copy of `length` bytes would go in the arena, when it fits there now (the
        /// caller then writes it and records it with `append(_:end:copiedTo:length:)`); nil when
        /// the arena would have to grow first (see `append(_:end:copying:)`).
        @inline(__always)
        func copyDestination(forLength length: Int) -> UnsafeMutableRawPointer? {
            guard let arena, arenaCount &+ length <= arenaCapacity else { return nil }
            return arena + arenaCount
        }

        /// Records an event whose text the caller copied to `copyDestination(forLength: length)`.
        @inline(__always)
        mutating func append(_ code: Code, end: Int, copiedTo start: UnsafeMutableRawPointer, length: Int) {
            next.initialize(to: Entry(code: code, end: end, start: UnsafeRawPointer(start), length: length))
            next += 1
            arenaCount &+= length
        }

        /// Records an event whose text is valid only now: a copy goes into the arena.
        /// - Precondition: `hasRoom(forCopying: text.count)`.
        mutating func append(_ code: Code, end: Int, copying text: UnsafeRawBufferPointer) {
            let length = text.count
            if arena == nil || arenaCount + length > arenaCapacity {
                // No event points into the arena (see `hasRoom(forCopying:)`): nothing to keep.
                precondition(next == entries && arenaCount == 0, "the arena moves only when it is empty")
                arena?.deallocate()
                let capacity = max(arenaCapacity * 2, length, 4096)
                arena = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
                arenaCapacity = capacity
            }
            let start = arena.unsafelyUnwrapped + arenaCount
            if let base = text.baseAddress, length > 0 {
                start.copyMemory(from: base, byteCount: length)
            }
            next.initialize(to: Entry(code: code, end: end, start: UnsafeRawPointer(start), length: length))
            next += 1
            arenaCount += length
        }

        /// Empties the batch, keeping the arena's memory unless it grew large (a huge string).
        /// A batch that filled up makes room for more next time, up to `maximumCapacity`.
        mutating func removeAll() {
            if next == limit, capacity < Self.maximumCapacity {
                // Nothing points into the entries once they are delivered: they can move.
                entries.deallocate()
                capacity = min(capacity * 4, Self.maximumCapacity)
                entries = Self.allocateEntries(capacity: capacity)
                limit = entries + capacity
            }
            next = entries
            arenaCount = 0
            if arenaCapacity > 1 << 20 {
                arena?.deallocate()
                arena = nil
                arenaCapacity = 0
            }
        }
    }
}
