/// What Elevate decoding keeps per thread, between a decode and the nested decodes it makes.
///
/// `init(json:)` and `Decoder.decode(_:)` take only the value, so what a nested decode must tell
/// the one that called it (its structured failures, whether it read its view through
/// `Parser.parseEntity(json:)`) cannot be passed as an argument. Nested decoding is synchronous,
/// so it is passed on the thread, for one step at a time (see ``NestedFailures`` and
/// ``ViewHandOff``). Each thread has its own state, freed when the thread ends.
final class DecodingThread {
    let failures = NestedFailures.Slot()
    let views = ViewHandOff.Slot()
    let schemas = SchemaPool()
    /// The calling thread's stack guard (``StackGuard/ofCurrentThread``); nil when the system does
    /// not say where the stack is.
    var stack: StackGuard? { StackGuard.ofCurrentThread }

    /// Throws when the stack has too little room left for one more nested decode.
    /// - Parameter nestedDecodes: How many Elevate decodes are running on this thread, counting
    ///   the one about to start (for the message).
    /// - Throws: ``ParserError/deserialization(failureReason:)``, which the enclosing entities pass
    ///   on as it is (they gather only validation errors), as they do for input deeper than the
    ///   parser's depth limit.
    @inline(never)
    func checkStack(nestedDecodes: Int) throws {
        guard let stack, !stack.hasRoom else { return }
        throw ParserError.deserialization(reason: stack.message(levels: nestedDecodes, unit: "nested decodes"))
    }

    /// The calling thread's state.
    @inline(__always)
    static var current: DecodingThread { key.value { DecodingThread() } }

    private static let key = ThreadSpecificKey<DecodingThread>()
}
