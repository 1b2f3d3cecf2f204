#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

extension StackGuard {
    /// The calling thread's stack guard; nil when the system does not say where the stack is.
    ///
    /// Looked up the first time a decode on this thread nests deeply enough to check it: a
    /// thread's stack never moves or changes size, so what is kept is the same for every call, and
    /// on the main thread glibc answers by reading `/proc/self/maps`, too slow to do per call. Both
    /// decoders ask here (the `Codable` one and Elevate's nested decodes), past
    /// ``checkedLevels`` and ``checkedDecodes``.
    static var ofCurrentThread: StackGuard? { KnownStack.current.stack }
}

/// What a thread knows of its stack, kept per thread and freed when the thread ends.
private final class KnownStack {
    @exclusivity(unchecked) private var known: StackGuard?
    @exclusivity(unchecked) private var isKnown = false

    var stack: StackGuard? {
        if !isKnown {
            known = StackGuard.current()
            isKnown = true
        }
        return known
    }

    /// The calling thread's.
    @inline(__always)
    static var current: KnownStack {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<KnownStack>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = KnownStack()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// The thread-specific key; its destructor releases a thread's state when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<KnownStack>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<KnownStack>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
