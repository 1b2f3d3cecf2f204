extension JSONStreamWriter {
    /// How a ``JSONStreamWriter`` puts successive values together.
    public enum Framing: Sendable, Hashable {
        /// One JSON array: `[` first, values separated by commas, `]` at ``JSONStreamWriter/finish()``.
        /// With ``JSONWriter/Options/prettyPrinted``, one indented element per line.
        case array
        /// JSON Lines (`.jsonl`, NDJSON): each value compact on its own line, ending with `\n`.
        /// ``JSONWriter/Options/prettyPrinted`` is ignored, since a value must fit on one line.
        case jsonLines
        /// Values one after another, separated by a newline so that two numbers cannot run together;
        /// ``JSONWriter/Options/prettyPrinted`` applies. Readers need concatenated-JSON support
        /// (``JSONParsingOptions/allowsMultipleValues``).
        case concatenated
    }
}
