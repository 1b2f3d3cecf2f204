/// Settings of a ``JSONEventParser``; the defaults parse one strict RFC 8259 JSON text.
public struct JSONParsingOptions: Sendable, Hashable {
    /// Accepts `/* … */` and `// …` comments.
    public var allowsComments: Bool
    /// Accepts a sequence of top-level values (concatenated JSON) instead of exactly one.
    ///
    /// Strings, arrays and objects delimit themselves, so they need no separator (`[1][2]` and
    /// `"a""b"` are two values each); a number or literal followed directly by another number or
    /// literal is an error (`1-2`, `truefalse`), as the two would read as one token. Use the JSON
    /// Lines readers for line-delimited input that must be strict about newlines.
    public var allowsMultipleValues: Bool
    /// The deepest nesting of arrays and objects accepted (default 512); deeper input is an error,
    /// not a crash.
    ///
    /// At most ``depthCeiling`` (2,048), whatever is asked: Swift frees nested arrays and
    /// dictionaries recursively, and a tree much deeper than that overflows the stack of a
    /// thread with a small stack (512 KiB) when it is released. The document tape itself has no
    /// such limit, but its values are turned into such trees on request.
    ///
    /// Decoding a recursive type (a `Codable` `struct Node { var children: [Node] }` through
    /// `ElevateJSONDecoder`, or an Elevate `init(json:)` that decodes its own type) takes stack
    /// frames for every level, more than releasing a tree does, and how many bytes depends on the
    /// types and the build. On a 512 KiB stack (secondary threads, GCD workers and Swift
    /// concurrency threads on Darwin) such a decode can run short within this limit: a release
    /// build of the recursive `Codable` node above decodes about 410 levels there, the Elevate one
    /// about 170 nested decodes (340 levels); an 8 MiB stack takes every depth up to the ceiling.
    /// Past 64 levels (32 nested Elevate decodes) the decoders check the room left on the calling
    /// thread's stack at each level and stop with an error rather than crash:
    /// `DecodingError.dataCorrupted` at the coding path reached, or
    /// ``ParserError/deserialization(failureReason:)``, saying "nesting of N levels exceeds what
    /// this thread's stack (512 KiB) can decode". Decode deep documents on a thread with a bigger
    /// stack, or lower this limit to refuse them while parsing.
    public var maximumDepth: Int {
        get { storedMaximumDepth }
        set { storedMaximumDepth = min(max(newValue, 0), Self.depthCeiling) }
    }
    private var storedMaximumDepth = 512

    /// The largest ``maximumDepth`` can be: the depth whose trees a 512 KiB stack can still
    /// build, compare, print and release. Decoding recursive types may need more stack per level
    /// than that; see ``maximumDepth`` for what the decoders do when the stack runs short.
    public static let depthCeiling = 2_048
    /// Makes a key that repeats in one object an error (``JSONSyntaxError/Kind-swift.enum/duplicateKey``,
    /// at the repeated key) instead of the library's rule, where the last occurrence replaces the
    /// earlier value whole. Off by default: RFC 8259 allows repeated keys and leaves their meaning
    /// to the reader. It costs a set of each open object's keys.
    public var rejectsDuplicateKeys = false
    /// The largest token (string, key or number) held while it is split across chunks, in bytes.
    ///
    /// Bounds the memory that one token can take while the parser waits for its end. Only the
    /// token's own bytes count: whitespace and comments between tokens are never buffered. A token
    /// that lies whole in one chunk is never held, and not held to this limit (all of a `Data` is
    /// one chunk): this bounds memory, and whether a token just over it is refused depends on where
    /// the reads cut the input. To bound the values you accept, whatever the chunking, use
    /// `StreamingOptions.maximumElementSize`.
    public var maximumTokenSize: Int

    /// Creates options; every parameter has a safe default.
    /// - Parameters:
    ///   - allowsComments: See ``allowsComments``.
    ///   - allowsMultipleValues: See ``allowsMultipleValues``.
    ///   - maximumDepth: See ``maximumDepth``; at most ``depthCeiling``.
    ///   - rejectsDuplicateKeys: See ``rejectsDuplicateKeys``.
    ///   - maximumTokenSize: See ``maximumTokenSize``.
    public init(
        allowsComments: Bool = false,
        allowsMultipleValues: Bool = false,
        maximumDepth: Int = 512,
        rejectsDuplicateKeys: Bool = false,
        maximumTokenSize: Int = 64 << 20
    ) {
        self.allowsComments = allowsComments
        self.allowsMultipleValues = allowsMultipleValues
        self.storedMaximumDepth = min(max(maximumDepth, 0), Self.depthCeiling)
        self.rejectsDuplicateKeys = rejectsDuplicateKeys
        self.maximumTokenSize = maximumTokenSize
    }

    /// One strict JSON text, nesting up to 512 levels.
    public static let `default` = JSONParsingOptions()
}
