#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
#if os(Linux)
    import CYAJL
#endif

/// How far down the calling thread's stack may go before decoding one more level of nesting
/// would risk running off its end.
///
/// Decoding a value nested in a value recurses: an `init(from:)` or `init(json:)` per level, each
/// taking Swift's frames and the user's. The parser's depth limit bounds the levels, but not the
/// bytes each takes, and a thread's stack can be as small as 512 KiB (secondary threads, GCD
/// workers and Swift concurrency threads on Darwin), where a recursive `Codable` type ran out near
/// 384 levels. The decoders check the address of a local against ``limit`` at each level past
/// ``checkedLevels`` (``checkedDecodes``) and throw a decoding error instead of crashing.
///
/// A thread's stack never moves or changes size, so each thread looks its bounds up once (see
/// ``ofCurrentThread``): on the main thread glibc reads `/proc/self/maps` to answer.
struct StackGuard {
    /// The lowest address decoding may reach before it stops: the stack's low end plus ``margin``.
    let limit: UInt
    /// The size of the thread's stack, in bytes, for the error message.
    let size: Int

    /// The nesting depth, in levels of the document, from which the `Codable` decoder checks the
    /// stack at each container. Shallower values cannot exhaust even a small stack, so ordinary
    /// documents never pay for a check (nor, on the main thread, for looking the bounds up).
    static let checkedLevels = 64
    /// The number of nested Elevate decodes (`init(json:)`, `Decoder.decode(_:)`) from which each
    /// checks the stack; a nested decode is one level of the document or more, and takes more
    /// stack than a `Codable` level.
    @usableFromInline static let checkedDecodes = 32

    /// What is kept free below the deepest level decoded: the rest of that level's frames, making
    /// and throwing the error (its coding path, its message) and releasing what was decoded as
    /// the error unwinds. A quarter of the stack for stacks under 256 KiB.
    static func margin(forStackSize size: Int) -> Int { min(64 << 10, size / 4) }

    /// The calling thread's stack, or nil when the system does not tell (then nothing is checked).
    static func current() -> StackGuard? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = pthread_get_stacksize_np(thread)
            guard top > UInt(size) else { return nil }
            return StackGuard(lowBound: top - UInt(size), size: size)
        #else
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard cyajl_current_thread_stack(&address, &size) != 0, let address, size > 0 else { return nil }
            return StackGuard(lowBound: UInt(bitPattern: address), size: size)
        #endif
    }

    /// A guard for a stack whose lowest usable address is `lowBound`.
    /// - Parameters:
    ///   - lowBound: The stack's lowest usable address (stacks grow down on every supported platform).
    ///   - size: The stack's size, in bytes.
    init(lowBound: UInt, size: Int) {
        self.limit = lowBound + UInt(Self.margin(forStackSize: size))
        self.size = size
    }

    /// Whether the caller's frame lies above ``limit``, i.e. one more level can be decoded.
    @inline(__always)
    var hasRoom: Bool { Self.currentAddress() > limit }

    /// The address of a local of a frame just below the caller's.
    @inline(never)
    static func currentAddress() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// The stack's size in words, as the error messages give it ("512 KiB").
    var sizeDescription: String {
        size >= 1 << 20 && size % (1 << 20) == 0 ? "\(size >> 20) MiB" : "\((size + 512) >> 10) KiB"
    }

    /// What the decoders say when the stack runs short: how deep, how big the stack, what to do.
    /// - Parameter levels: How deep the nesting is where decoding stopped, in the unit `unit` names.
    /// - Parameter unit: What `levels` counts ("levels" of the document, or nested "decodes").
    func message(levels: Int, unit: String) -> String {
        "nesting of \(levels) \(unit) exceeds what this thread's stack (\(sizeDescription)) can decode; "
            + "decode on a thread with a larger stack, or lower maximumDepth to refuse such input while parsing"
    }
}
