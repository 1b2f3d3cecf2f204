extension JSONStreamWriter {
    /// How a ``JSONStreamWriter`` puts successive values together; now ``JSONFraming``, shared with
    /// the readers.
    @available(*, deprecated, renamed: "JSONFraming")
    public typealias Framing = JSONFraming
}
