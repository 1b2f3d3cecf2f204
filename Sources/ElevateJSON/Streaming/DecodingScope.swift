/// What runs around a stream's decodes on one thread, for decoders that keep state between the
/// decodes of one call.
///
/// Codable decoding needs nothing. Elevate's decodes (in the Elevate module) keep the entities
/// they built for reuse until the end of a run of elements, and honour `withFoundationValues`, a
/// scope of the calling thread that workers must be told about. The streaming layer knows nothing
/// of either: it runs the caller's whole pass inside ``run(_:)``, and each batch a worker
/// decodes inside the scope that ``forWorkers`` made on the calling thread when the workers
/// were started.
package struct DecodingScope: Sendable {
    /// Runs a run of decodes on the calling thread.
    package let run: @Sendable (_ decodes: () throws -> Void) throws -> Void
    /// Called on the calling thread before workers start: the scope each worker's batches run in.
    package let forWorkers: @Sendable () -> DecodingScope

    package init(
        run: @escaping @Sendable (_ decodes: () throws -> Void) throws -> Void,
        forWorkers: @escaping @Sendable () -> DecodingScope
    ) {
        self.run = run
        self.forWorkers = forWorkers
    }

    /// Nothing around the decodes: Codable's.
    package static let none: DecodingScope = DecodingScope(run: { try $0() }, forWorkers: { DecodingScope.none })

    /// Runs `body` in the scope and returns what it returns.
    package func callAsFunction<R>(_ body: () throws -> R) throws -> R {
        var result: R?
        try run { result = try body() }
        return result!
    }
}
