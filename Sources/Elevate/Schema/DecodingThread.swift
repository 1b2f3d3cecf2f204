/// What Elevate decoding keeps on a thread during one call, between a decode and the nested
/// decodes it makes.
///
/// `init(json:)` and `Decoder.decode(_:)` take only the value, so what a nested decode must tell
/// the one that called it (whether it read its view through `Parser.parseEntity(json:)`, see
/// ``ViewHandOff``) and what the decodes of one call share (which types cast their value, the
/// values kept entities hold) cannot be passed as arguments. Nested decoding is synchronous, so it
/// is kept on the thread, and only for the call: when the outermost decode returns, or the
/// outermost pass of elements (``enterPass()``) ends, it is emptied (``endCall()``). A call's
/// result and the calls it makes of the user's code are then the same whatever the thread decoded
/// before. What stays is a cache that never changes a result (the schemas and entity plans of
/// ``SchemaPool``). Each thread has its own state, freed when the thread ends.
final class DecodingThread {
    let views = ViewHandOff.Slot()
    let schemas = SchemaPool()

    /// How many passes of elements (``enterPass()``) are running on this thread.
    @exclusivity(unchecked) private var passes = 0

    /// Whether a pass of elements is running: its decodes are one call, which ends with the pass.
    var isInPass: Bool { passes > 0 }

    /// Begins a pass that decodes element after element on this thread synchronously, as one
    /// call, until the matching ``leavePass()``: the entities kept for reuse hold the last values
    /// they were filled with until it ends (writing placeholders into them after every element
    /// cost 3% of `decodeArray`), and what the call learned is dropped when the outermost pass
    /// ends.
    func enterPass() {
        passes += 1
    }

    /// Ends the pass ``enterPass()`` began.
    func leavePass() {
        passes -= 1
        if passes == 0 { endCall() }
    }

    /// The outermost decode or pass is over: its values and which types cast their value leave
    /// the thread.
    func endCall() {
        schemas.endCall()
        if !views.materializing.isEmpty { views.materializing.removeAll(keepingCapacity: true) }
    }

    /// The calling thread's state.
    @inline(__always)
    static var current: DecodingThread { key.value { DecodingThread() } }

    private static let key = ThreadSpecificKey<DecodingThread>()
}

extension DecodingScope {
    /// Elevate's decodes in a stream: a run of elements is one call (see
    /// ``DecodingThread/enterPass()``), on the caller's thread and on each worker, and workers
    /// decode with the caller's ``withFoundationValues(_:)`` choice.
    static let elevate = DecodingScope(
        enter: { DecodingThread.current.enterPass() },
        leave: { DecodingThread.current.leavePass() },
        forWorkers: {
            let forcesFoundationValues = DecodingThread.current.views.forcesFoundationValues
            // A worker thread runs nothing but the batches of one call: its choice is the
            // caller's while a batch runs, and no one else's before or after.
            return DecodingScope(
                enter: {
                    let thread = DecodingThread.current
                    thread.views.forcesFoundationValues = forcesFoundationValues
                    thread.enterPass()
                },
                leave: {
                    let thread = DecodingThread.current
                    thread.leavePass()
                    thread.views.forcesFoundationValues = false
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
