import Hummingbird

/// Builds the upload server, whose one route, `POST /items/count`, decodes an uploaded
/// `{"items": [...]}` document of any size element by element and answers an ``ItemCount``.
///
/// ```swift
/// let app = buildApplication(port: 8080)
/// try await app.runService()
/// ```
///
/// No middleware is added: a middleware that collected the body would undo the streaming.
/// Hummingbird logs at the level of the `LOG_LEVEL` environment variable (`info` by default).
///
/// - Parameters:
///   - host: The address to listen on; `127.0.0.1`, the default, takes connections from this
///     machine only.
///   - port: The port to listen on; 0 lets the system choose a free one, which `onServerRunning`
///     is told.
///   - onServerRunning: Called once the server listens, with the port it listens on.
/// - Returns: The application, to run with `runService()` (or `run()` inside a service group).
public func buildApplication(
    host: String = "127.0.0.1",
    port: Int = 8080,
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router()
    router.post("items/count") { request, _ in
        try await countItems(in: request.body)
    }
    return Application(
        router: router,
        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "upload-server"),
        onServerRunning: { channel in
            await onServerRunning(channel.localAddress?.port ?? port)
        }
    )
}
