/// The command line of `upload-server`: `[--host ADDRESS] [--port NUMBER]`, the port defaulting to
/// the `PORT` environment variable, then 8080.
///
/// Parsed by hand: swift-argument-parser would add a package to build for two options.
struct ServerArguments {
    var host = "127.0.0.1"
    var port = 8080

    static let usage = "usage: upload-server [--host ADDRESS] [--port NUMBER]   (PORT in the environment sets the default port)"

    /// Reads the arguments (without the program's name) and the environment; nil for a command
    /// line it does not understand.
    init?(_ arguments: [String], environment: [String: String]) {
        if let value = environment["PORT"] {
            guard let port = Int(value) else { return nil }
            self.port = port
        }
        var remaining = arguments[...]
        while let option = remaining.popFirst() {
            guard let value = remaining.popFirst() else { return nil }
            switch option {
            case "--host":
                host = value
            case "--port":
                guard let port = Int(value) else { return nil }
                self.port = port
            default:
                return nil
            }
        }
    }
}
