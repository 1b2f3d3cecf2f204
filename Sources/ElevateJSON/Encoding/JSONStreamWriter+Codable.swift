/// `Swift.Encodable` values and the mutable ``JSON`` value in a stream.
///
/// Which overload a value takes:
/// - ``JSON`` is written as itself (``write(_:)-(JSON)``), numbers exact.
/// - A type conforming to ``Encodable`` (Elevate's) *and* `Swift.Encodable` is written as its
///   ``Encodable/json``: that is what a user of this library wrote for it
///   (``write(_:)-(T)`` with `T: Elevate.Encodable & Swift.Encodable`).
/// - A type conforming only to `Swift.Encodable` goes through its `encode(to:)`, as
///   ``ElevateJSONEncoder`` writes it (``write(_:encoder:)``).
/// - Anything else is ``write(_:)-(Any)``.
extension JSONStreamWriter {
    /// Writes the next value through its `encode(to:)`, with an encoder's strategies.
    ///
    /// ```swift
    /// let encoder = ElevateJSONEncoder()
    /// encoder.dateEncodingStrategy = .iso8601
    /// let writer = JSONStreamWriter(fileHandle: handle, framing: .jsonLines)
    /// for event in events { try writer.write(event, encoder: encoder) }
    /// try writer.finish()
    /// ```
    ///
    /// The values are `encoder`'s: its key, date, data and non-conforming float strategies, its
    /// user info, and `.sortedKeys`. The text is the writer's: its ``options`` (pretty printing,
    /// escaped slashes and line separators) and framing apply as to every other value; the encoder's
    /// `.prettyPrinted` and `.withoutEscapingSlashes` do not. Nor does
    /// ``JSONWriter/Options/maximumDepth``, which bounds the writer's own recursion over `Any`
    /// values: here the recursion is the value's `encode(to:)`, unbounded as with `JSONEncoder`.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - encoder: Whose strategies to use; `nil` for `JSONEncoder`'s defaults, with keys sorted
    ///     when ``JSONWriter/Options/sortedKeys`` is set.
    /// - Throws: `EncodingError` or what `encode(to:)` threw, in which case the stream is
    ///   unchanged; otherwise as ``write(_:)-(Any)``.
    public func write<T: Swift.Encodable>(_ value: T, encoder: ElevateJSONEncoder? = nil) throws {
        var settings = encoder?.currentSettings ?? EncodingSettings()
        if options.sortedKeys { settings.outputFormatting.insert(.sortedKeys) }
        try writeNext { generator in try ElevateJSONEncoder.encode(value, settings: settings, into: generator) }
    }


    /// Writes a ``JSON`` value as itself, with its numbers exact (no Foundation values in between).
    ///
    /// - Parameter value: The value.
    /// - Throws: As ``write(_:)-(Any)``.
    public func write(_ value: JSON) throws {
        try writeNext { try $0.write(value) }
    }
}
