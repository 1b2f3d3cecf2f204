/// What runs around a stream's decodes on one thread, for decoders that keep state for the
/// length of one call.
///
/// Codable decoding needs nothing. Elevate's decodes (in the Elevate module) treat a run of
/// elements as one call (their state is dropped when it ends) and honour `withFoundationValues`,
/// a scope of the calling thread that workers must be told about. The streaming layer knows
/// nothing of either: it brackets the caller's whole pass with ``enter`` and ``leave``, and each
/// batch a worker decodes with those of the scope that ``forWorkers`` made on the calling thread
/// when the workers were started.
///
/// A pair of calls rather than a closure to run the decodes in: a closure generic over what the
/// pass returns, called from another module, looked the result's metadata up at run time on
/// every call (a tenth of a small `decodeObject`).
package struct DecodingScope: Sendable {
    /// Called on the thread before its run of decodes.
    package let enter: @Sendable () -> Void
    /// Called on the same thread after it, however it ended.
    package let leave: @Sendable () -> Void
    /// Called on the calling thread before workers start: the scope each worker's batches run in.
    package let forWorkers: @Sendable () -> DecodingScope

    package init(
        enter: @escaping @Sendable () -> Void, leave: @escaping @Sendable () -> Void,
        forWorkers: @escaping @Sendable () -> DecodingScope
    ) {
        self.enter = enter
        self.leave = leave
        self.forWorkers = forWorkers
    }

    /// Nothing around the decodes: Codable's.
    package static let none: DecodingScope = DecodingScope(enter: {}, leave: {}, forWorkers: { DecodingScope.none })
}
