/// What Elevate decoding keeps per thread, between a decode and the nested decodes it makes.
///
/// `init(json:)` and `Decoder.decode(_:)` take only the value, so what a nested decode must tell
/// the one that called it (its structured failures, whether it read its view through
/// `Parser.parseEntity(json:)`) cannot be passed as an argument. Nested decoding is synchronous,
/// so it is passed on the thread, for one step at a time (see ``NestedFailures`` and
/// ``ViewHandOff``). Each thread has its own state, freed when the thread ends.
final class DecodingThread {
    let views = ViewHandOff.Slot()
    let schemas = SchemaPool()
    /// The calling thread's state.
    @inline(__always)
    static var current: DecodingThread { key.value { DecodingThread() } }

    private static let key = ThreadSpecificKey<DecodingThread>()
}

extension DecodingScope {
    /// Elevate's decodes in a stream: the entities kept for reuse are released once, at the end of
    /// a run of elements, instead of after each (see ``SchemaPool``), and workers decode with the
    /// caller's ``withFoundationValues(_:)`` choice.
    static let elevate = DecodingScope(
        run: { decodes in try DecodingThread.current.schemas.deferringRelease(decodes) },
        forWorkers: {
            let forcesFoundationValues = DecodingThread.current.views.forcesFoundationValues
            return DecodingScope(
                run: { decodes in
                    let views = DecodingThread.current.views
                    let saved = views.forcesFoundationValues
                    views.forcesFoundationValues = forcesFoundationValues
                    defer { views.forcesFoundationValues = saved }
                    try DecodingThread.current.schemas.deferringRelease(decodes)
                },
                forWorkers: { .none })
        })
}

extension StreamingOptions {
    /// These options, for a call that decodes Elevate types (see ``DecodingScope/elevate``).
    var forElevate: StreamingOptions {
        var options = self
        options.decodingScope = .elevate
        return options
    }
}
