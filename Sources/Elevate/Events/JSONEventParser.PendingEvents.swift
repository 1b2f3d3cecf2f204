extension JSONEventParser {
    /// Events YAJL has reported that the handler has not received yet.
    ///
    /// The C callbacks only record what they saw here; the parser hands the events to its handler
    /// in batches, from Swift code that holds the parser and its handler for the whole batch. Calling
    /// the handler from every callback instead costs a retain and a release of the parser per event
    /// (a callback can only reach it through an `Unmanaged` context): a tenth of the instructions
    /// of a whole parse of the people document, and more of its time, as the two are atomic.
    ///
    /// Text in the chunk YAJL is reading is recorded by address: the chunk outlives every batch,
    /// since batches are delivered before `yajl_parse` returns. Text anywhere else (YAJL's decode
    /// buffer for escaped strings, its lexer buffer for tokens split across chunks) is valid only
    /// during its callback, so it is copied into the arena.
    struct PendingEvents {
        /// What an event is.
        enum Code: UInt8 {
            case startObject, endObject, startArray, endArray, key, string, number, `true`, `false`, null
        }

        struct Entry {
            var code: Code
            /// Whether `start` is an offset in the arena rather than an address.
            var isInArena: Bool
            /// The in-chunk offset just past the event's token.
            var end: Int
            /// The text's address, or its offset in the arena.
            var start: Int
            var length: Int
        }

        /// Events per batch: large enough that the one retain of a batch is nothing per event,
        /// small enough that the batch stays in the first-level cache.
        static let capacity = 1024

        let entries: UnsafeMutablePointer<Entry>
        private(set) var count = 0
        private var arena: UnsafeMutableRawPointer?
        private var arenaCount = 0
        private var arenaCapacity = 0

        init() {
            entries = .allocate(capacity: Self.capacity)
        }

        /// Frees the memory; the buffer is unusable afterwards.
        func deallocate() {
            entries.deallocate()
            arena?.deallocate()
        }

        var isFull: Bool { count == Self.capacity }

        /// Records an event without text. The caller delivers the batch when it is full.
        @inline(__always)
        mutating func append(_ code: Code, end: Int) {
            entries[count] = Entry(code: code, isInArena: false, end: end, start: 0, length: 0)
            count &+= 1
        }

        /// Records an event whose text stays where it is until the batch is delivered.
        @inline(__always)
        mutating func append(_ code: Code, end: Int, text: UnsafeRawPointer?, length: Int) {
            entries[count] = Entry(
                code: code, isInArena: false, end: end, start: Int(bitPattern: text), length: length)
            count &+= 1
        }

        /// Records an event whose text is valid only now: a copy goes into the arena.
        mutating func append(_ code: Code, end: Int, copying text: UnsafeRawBufferPointer) {
            let length = text.count
            if arenaCount + length > arenaCapacity {
                let capacity = max(arenaCapacity * 2, arenaCount + length, 4096)
                let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
                if let arena {
                    grown.copyMemory(from: arena, byteCount: arenaCount)
                    arena.deallocate()
                }
                arena = grown
                arenaCapacity = capacity
            }
            if let base = text.baseAddress, length > 0 {
                (arena! + arenaCount).copyMemory(from: base, byteCount: length)
            }
            entries[count] = Entry(code: code, isInArena: true, end: end, start: arenaCount, length: length)
            arenaCount += length
            count &+= 1
        }

        /// The arena's memory, for an ``EventBatch``.
        var arenaBase: UnsafeRawPointer? { UnsafeRawPointer(arena) }

        /// Empties the batch, keeping the arena's memory unless it grew large (a huge string).
        mutating func removeAll() {
            count = 0
            arenaCount = 0
            if arenaCapacity > 1 << 20 {
                arena?.deallocate()
                arena = nil
                arenaCapacity = 0
            }
        }
    }
}
