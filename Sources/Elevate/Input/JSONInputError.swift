/// A file that could not be opened or read.
public struct JSONInputError: Error, Sendable, CustomStringConvertible {
    /// The path, or `standard input`.
    public var path: String
    /// The system's explanation.
    public var reason: String

    /// `"<path>: <reason>"`.
    public var description: String { "\(path): \(reason)" }
}
