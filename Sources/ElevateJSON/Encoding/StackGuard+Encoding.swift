extension StackGuard {
    /// Throws when the calling thread's stack has no room for encoding one more level of `value`:
    /// an `Encodable` value nested in another recurses through `encode(to:)` once per level, and a
    /// deep enough one (a ``JSON`` decoded at the parser's depth limit, a recursive model) would
    /// otherwise run off a small stack. Called from ``checkedLevels`` levels down.
    /// - Parameters:
    ///   - value: The value about to be encoded, for the error.
    ///   - codingPath: Its coding path, made only for the error.
    @inline(never)
    static func checkEncoding(_ value: Any, _ codingPath: () -> [any CodingKey]) throws {
        guard let stack = ofCurrentThread, !stack.hasRoom else { return }
        let path = codingPath()
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: path,
                debugDescription: "nesting of \(path.count) levels exceeds what this thread's stack "
                    + "(\(stack.sizeDescription)) can encode; encode on a thread with a larger stack"))
    }
}
