import Hummingbird
import ServiceLifecycle
import UploadServer

struct ServerDidNotStart: Error {}

/// Runs the upload server in this process on a port the system chooses, on 127.0.0.1, while `body`
/// runs; then shuts it down gracefully.
func withUploadServer<Result: Sendable>(_ body: (_ port: Int) async throws -> Result) async throws -> Result {
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = buildApplication(host: "127.0.0.1", port: 0) { port in
        portContinuation.yield(port)
    }
    // A graceful shutdown, as on SIGTERM: cancelling the server's task instead works too, but
    // logs the cancellation as an error.
    let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            // A server that fails to start ends the stream, so that the wait below ends too.
            defer { portContinuation.finish() }
            try await serviceGroup.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await group.next()  // the server's own error, if it threw one
            throw ServerDidNotStart()
        }
        do {
            let result = try await body(port)
            await serviceGroup.triggerGracefulShutdown()
            return result
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            throw error
        }
    }
}
