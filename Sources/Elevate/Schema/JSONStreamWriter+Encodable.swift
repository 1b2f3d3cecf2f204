/// Elevate's `Encodable` values in a stream, written as their ``Encodable/json``.
extension JSONStreamWriter {
    /// Writes the next value, as its ``Encodable/json``.
    ///
    /// - Parameter value: The value.
    /// - Throws: As ``write(_:)-(Any)``.
    public func write<T: Encodable>(_ value: T) throws {
        try write(value.json as Any)
    }

    /// Writes the next value as its ``Encodable/json``, for a type that conforms to both Elevate's
    /// ``Encodable`` and `Swift.Encodable` (which would otherwise be ambiguous): Elevate's
    /// representation is what a user of this library wrote for it.
    ///
    /// - Parameter value: The value.
    /// - Throws: As ``write(_:)-(Any)``.
    public func write<T: Encodable & Swift.Encodable>(_ value: T) throws {
        try write(value.json as Any)
    }
}
