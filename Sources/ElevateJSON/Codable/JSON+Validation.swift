/// Checks of what a value holds, with errors that name the path: Lift's `assert` and
/// `assertionFailure`.
extension JSON {
    /// Throws an ``AccessError`` naming `path` with `message` when `condition` is false.
    ///
    /// ```swift
    /// let age = try json.int(at: "user", "age")
    /// try json.assert(age >= 0, "must not be negative", at: "user", "age")
    /// // JSON.AccessError: user.age: must not be negative
    /// ```
    /// - Parameters:
    ///   - condition: The condition that must hold; evaluated once.
    ///   - message: What is wrong when it does not.
    ///   - path: Keys and indices from this value to the value checked, for the error.
    /// - Throws: ``AccessError`` with ``AccessError/Reason/invalid(_:)``, or what `condition` threw.
    public func assert(
        _ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "assertion failed",
        at path: JSONPathComponent...
    ) throws {
        guard try condition() else {
            throw AccessError(path: JSONPathComponent.text(path), reason: .invalid(message()))
        }
    }

    /// The error to throw for a value at `path` that a check refused.
    ///
    /// ```swift
    /// guard let kind = Kind(rawValue: try json.string(at: "kind")) else {
    ///     throw json.assertionFailure("unknown kind", at: "kind")
    /// }
    /// ```
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - path: Keys and indices from this value to the value refused.
    /// - Returns: An ``AccessError`` with ``AccessError/Reason/invalid(_:)``.
    public func assertionFailure(_ message: String = "assertion failed", at path: JSONPathComponent...) -> AccessError {
        AccessError(path: JSONPathComponent.text(path), reason: .invalid(message))
    }
}
