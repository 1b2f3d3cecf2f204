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
    private var known: StackGuard?
    private var isKnown = false

    var stack: StackGuard? {
        if !isKnown {
            known = StackGuard.current()
            isKnown = true
        }
        return known
    }

    /// The calling thread's.
    @inline(__always)
    static var current: KnownStack { key.value { KnownStack() } }

    private static let key = ThreadSpecificKey<KnownStack>()
}
