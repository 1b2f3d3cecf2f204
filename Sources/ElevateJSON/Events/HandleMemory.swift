#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
import CYAJL

/// The memory YAJL allocates for one parser's handles, kept from each handle for the next.
///
/// A YAJL handle cannot be reset, so a parser that reads one value after another (JSON Lines,
/// a line at a time) frees its handle and allocates another for every value (see
/// `JSONEventParser.restart`). With the system allocator that cost about 900 instructions a
/// line: `yajl_free` returns seven blocks, two of them 2 KiB buffers too large for glibc's
/// per-thread cache, and the next handle allocates the same seven again. Given to YAJL as its
/// allocator (``functions(context:)``) from a parser's first restart on, this keeps the blocks a handle frees, up to
/// ``keptBlockCount`` of them and none over ``largestKeptBlock`` bytes, and hands them to the
/// next handle's requests: each request is then met by a block of exactly its size, since a
/// new handle asks for what the last one did. That saves about 600 instructions a line: 5% of
/// `elevate validate --json-lines`, 2% of decoding JSON Lines (callgrind, the people file).
///
/// Each block starts with a header holding its capacity, as YAJL's `free` and `realloc` are not
/// told a block's size, and, while the block is kept, the next kept block of its bucket: kept
/// blocks are listed by their capacity in a small hash table, so that a request finds a block of
/// its size in a few instructions. Used by one parser, on one thread at a time, as the parser
/// itself is.
struct HandleMemory {
    /// The most blocks kept: a handle holds five to seven.
    static let keptBlockCount = 8
    /// The largest block kept, in bytes: a buffer that grew for a huge token is returned to the
    /// system rather than held for the parser's lifetime.
    static let largestKeptBlock = 1 << 16
    /// The header before each block: its capacity, then the next kept block of its bucket. Also
    /// keeps malloc's 16-byte alignment.
    private static let headerSize = 16
    private static let bucketCount = 16

    /// The first kept block of each bucket (nil when none), a list through the blocks' headers.
    private let buckets: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private var keptCount = 0

    init() {
        buckets = .allocate(capacity: Self.bucketCount)
        buckets.initialize(repeating: nil, count: Self.bucketCount)
    }

    /// Returns every kept block to the system; the memory is unusable afterwards. Call it after
    /// the last handle allocated from this memory is freed.
    func deallocate() {
        for bucket in 0..<Self.bucketCount {
            var block = buckets[bucket]
            while let current = block {
                block = Self.next(of: current)
                Self.release(current)
            }
        }
        buckets.deallocate()
    }

    /// The functions to give `yajl_alloc`, with `context` the address of this memory (which
    /// must not move while a handle allocated from it lives).
    static func functions(context: UnsafeMutablePointer<HandleMemory>) -> yajl_alloc_funcs {
        yajl_alloc_funcs(
            malloc: { context, size in HandleMemory.memory(context).pointee.allocate(size) },
            realloc: { context, block, size in HandleMemory.memory(context).pointee.reallocate(block, size) },
            free: { context, block in HandleMemory.memory(context).pointee.free(block) },
            ctx: UnsafeMutableRawPointer(context))
    }

    private static func memory(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<HandleMemory> {
        // YAJL passes the context of the functions it was given, never nil.
        context.unsafelyUnwrapped.assumingMemoryBound(to: HandleMemory.self)
    }

    /// The capacity of a block this memory allocated.
    static func capacity(of block: UnsafeMutableRawPointer) -> Int {
        (block - headerSize).load(as: Int.self)
    }

    private static func next(of block: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        (block - headerSize).load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self)
    }

    private static func setNext(of block: UnsafeMutableRawPointer, to next: UnsafeMutableRawPointer?) {
        (block - headerSize).storeBytes(of: next, toByteOffset: 8, as: UnsafeMutableRawPointer?.self)
    }

    /// The bucket of blocks of `capacity` bytes (Fibonacci hashing: sizes that differ by a power
    /// of two land apart).
    private static func bucket(of capacity: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: capacity) &* 0x9E37_79B9_7F4A_7C15) >> 60)
    }

    /// How many blocks are kept for the next handle (for tests).
    var keptBlocks: Int { keptCount }

    /// A block of `size` bytes: a kept one of exactly that capacity, or a new one. (A new
    /// handle asks for what the last one freed, size for size.)
    mutating func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        let bucket = Self.bucket(of: size)
        var previous: UnsafeMutableRawPointer? = nil
        var candidate = buckets[bucket]
        while let block = candidate {
            let next = Self.next(of: block)
            if Self.capacity(of: block) == size {
                if let previous { Self.setNext(of: previous, to: next) } else { buckets[bucket] = next }
                keptCount -= 1
                return block
            }
            (previous, candidate) = (block, next)
        }
        return Self.newBlock(size)
    }

    /// `block` with room for `size` bytes, its contents kept: the same block when it has room.
    mutating func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer {
        guard let block else { return allocate(size) }
        if Self.capacity(of: block) >= size { return block }
        // YAJL never handles a null result: running out of memory ends the process, as a Swift
        // allocation that fails does.
        guard let raw = realloc(block - Self.headerSize, Self.headerSize + size) else {
            fatalError("out of memory: YAJL asked for \(size) bytes")
        }
        raw.storeBytes(of: size, as: Int.self)
        return raw + Self.headerSize
    }

    /// Keeps `block` for the next handle, or returns it to the system when it is large or
    /// enough blocks are kept.
    mutating func free(_ block: UnsafeMutableRawPointer?) {
        guard let block else { return }
        let capacity = Self.capacity(of: block)
        guard keptCount < Self.keptBlockCount, capacity <= Self.largestKeptBlock else {
            return Self.release(block)
        }
        let bucket = Self.bucket(of: capacity)
        Self.setNext(of: block, to: buckets[bucket])
        buckets[bucket] = block
        keptCount += 1
    }

    private static func newBlock(_ size: Int) -> UnsafeMutableRawPointer {
        guard let raw = malloc(headerSize + size) else { fatalError("out of memory: YAJL asked for \(size) bytes") }
        raw.storeBytes(of: size, as: Int.self)
        return raw + headerSize
    }

    private static func release(_ block: UnsafeMutableRawPointer) {
        freeSystemBlock(block - headerSize)
    }
}

/// The C library's `free`, which the memory's own `free(_:)` hides inside the type.
private func freeSystemBlock(_ raw: UnsafeMutableRawPointer) {
    free(raw)
}
