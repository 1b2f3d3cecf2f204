/// How the streaming decoders treat limits and elements that fail validation.
public struct StreamingOptions: Sendable {
    /// Parser settings: depth limit, token size limit, comments.
    public var parsing: JSONParsingOptions
    /// The largest single element, in input bytes (default 64 MiB); larger is an error, so
    /// memory stays bounded by one element plus the read buffer.
    public var maximumElementSize: Int
    /// When true, elements that fail validation are skipped and all their failures are thrown
    /// together at the end; when false (the default) the first one stops the stream.
    public var skipsInvalidElements: Bool
    /// The read size for files and standard input.
    public var chunkSize: Int

    /// Creates options; every parameter has a safe default.
    public init(
        parsing: JSONParsingOptions = .default,
        maximumElementSize: Int = 64 << 20,
        skipsInvalidElements: Bool = false,
        chunkSize: Int = JSONInput.defaultChunkSize
    ) {
        self.parsing = parsing
        self.maximumElementSize = maximumElementSize
        self.skipsInvalidElements = skipsInvalidElements
        self.chunkSize = chunkSize
    }
}
