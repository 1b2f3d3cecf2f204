/// A file that could not be opened or read.
public struct JSONInputError: Error, Sendable, CustomStringConvertible {
    /// The path, or `standard input`.
    public var path: String
    /// The system's explanation.
    public var reason: String

    /// Creates the error, as the readers of a ``JSONInput`` throw it (for tests and for code that
    /// reports its own input failures the same way).
    /// - Parameters:
    ///   - path: The path, or `standard input`.
    ///   - reason: The system's explanation.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `"<path>: <reason>"`.
    public var description: String { "\(path): \(reason)" }
}
