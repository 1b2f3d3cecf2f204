import Foundation

/// Decodes `Swift.Decodable` values from JSON, with `JSONDecoder`'s options, errors and results,
/// several times faster: the bytes are parsed once into the document tape (``JSONValue``) and
/// containers read the tape in place.
///
/// ```swift
/// let decoder = ElevateJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let people = try decoder.decode([Person].self, from: data, atKeyPath: "response.items")
/// ```
///
/// The name says which type it stands in for and does not clash with Foundation's `JSONDecoder`
/// when both modules are imported; replacing `JSONDecoder()` with `ElevateJSONDecoder()` is the
/// whole migration. The strategies have Foundation's case names and meanings, and convert from
/// Foundation's (`ElevateJSONDecoder.DateDecodingStrategy(jsonDecoder.dateDecodingStrategy)`).
///
/// Compatibility with `JSONDecoder`:
/// - Errors are `DecodingError`s with the same case and `codingPath`. The debug description adds
///   where the value is in the input (byte offset, line, column) when the decoder read the bytes
///   itself. Where Foundation reports a number that does not fit (`1.5` or `1e30` for an `Int`,
///   `300` for an `Int8`) as "not valid JSON" at the root, this decoder reports the same case,
///   `dataCorrupted`, at the value's own path.
/// - Numbers are strict: an integer property accepts an integer, or a number written with a
///   fraction or exponent that is exactly an integer below 2⁵³ in magnitude (`1.0`, `1e3`); beyond
///   that a `Double` may already have been rounded, so `1e18` is `dataCorrupted` (Foundation gives
///   1000000000000000000).
/// - `Decimal` and `Float` are read from the number's digits, as Foundation reads them from the
///   text: a `Decimal` keeps every digit (`0.30000000000000001`, `12345678901234567890.5`), a
///   `Float` is rounded once. A number no `Decimal` holds exactly (over 38 digits, or beyond its
///   exponent range) is `dataCorrupted`.
/// - Input is UTF-8 only (RFC 8259 §8.1); there is no `allowsJSON5` or `assumesTopLevelDictionary`.
/// - Duplicate keys: the last occurrence wins, the library's rule everywhere; Foundation on Linux
///   keeps the first.
/// - A type conforming to ``JSONKeyPathDecodable`` has its properties read from its declared key
///   paths, with its declared defaults.
///
/// The decoder is a class, as Foundation's is, so that `let decoder = …; decoder.… = …` code keeps
/// compiling; its settings are guarded by a lock and copied at the start of each `decode` call, so
/// one decoder can be shared between threads.
public final class ElevateJSONDecoder: Sendable {
    // Each decode call works on a copy.
    private let settings = LockedBox(DecodingSettings())

    /// Creates a decoder with Foundation's defaults: default keys, `.deferredToDate`, `.base64`,
    /// `.throw`, no user info, strict RFC 8259 parsing.
    public init() {}

    /// How JSON keys map to `CodingKey`s (default `.useDefaultKeys`). `.convertFromSnakeCase`
    /// converts exactly as Foundation does; neither applies to the keys of a `[String: T]`, as in
    /// Foundation, nor to the key paths of a ``JSONKeyPathDecodable`` type.
    public var keyDecodingStrategy: KeyDecodingStrategy {
        get { settings.withLock { $0.keyDecodingStrategy } }
        set { settings.withLock { $0.keyDecodingStrategy = newValue } }
    }

    /// How `Date` values are read (default `.deferredToDate`). `.formatted` with a fixed-width numeric
    /// format (`yyyy-MM-dd`, `yyyy-MM-dd'T'HH:mm:ss`, …), a gregorian calendar, the `en_US_POSIX`
    /// locale and a fixed-offset time zone is parsed without ICU, with the formatter's results; any
    /// other string goes to the formatter.
    public var dateDecodingStrategy: DateDecodingStrategy {
        get { settings.withLock { $0.dateDecodingStrategy } }
        set { settings.withLock { $0.dateDecodingStrategy = newValue } }
    }

    /// How `Data` values are read (default `.base64`).
    public var dataDecodingStrategy: DataDecodingStrategy {
        get { settings.withLock { $0.dataDecodingStrategy } }
        set { settings.withLock { $0.dataDecodingStrategy = newValue } }
    }

    /// Which strings stand for infinities and NaN in `Float`/`Double` properties (default `.throw`).
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
        get { settings.withLock { $0.nonConformingFloatDecodingStrategy } }
        set { settings.withLock { $0.nonConformingFloatDecodingStrategy = newValue } }
    }

    /// Values handed to every `init(from:)` through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { settings.withLock { $0.userInfo } }
        set { settings.withLock { $0.userInfo = newValue } }
    }

    /// The parser's settings for the input: comments, limits, whether a repeated key is an error.
    public var parsingOptions: JSONParsingOptions {
        get { settings.withLock { $0.parsingOptions } }
        set { settings.withLock { $0.parsingOptions = newValue } }
    }

    /// Whether ``TapeDecodable`` types are decoded through their generated `init(fromTape:)` (the
    /// default) or their `init(from:)`: for the tests and benchmarks that compare the two.
    package var usesTapeDecodable: Bool {
        get { settings.withLock { $0.usesTapeDecodable } }
        set { settings.withLock { $0.usesTapeDecodable = newValue } }
    }

    /// Decodes a value of `type` from a JSON document, or from the value at an Elevate key path of
    /// it; nothing outside that value is decoded.
    ///
    /// ```swift
    /// let person = try ElevateJSONDecoder().decode(Person.self, from: data)
    /// let items = try decoder.decode([Item].self, from: data, atKeyPath: "response.items")
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The document's bytes.
    ///   - keyPath: Where the value is: split on `.`, a decimal component indexes an array, a
    ///     literal dotted key wins; `""`, the default, is the root. Coding paths in errors start with
    ///     its components.
    /// - Returns: The value.
    /// - Throws: `DecodingError.dataCorrupted` (with the ``JSONSyntaxError`` as its underlying error)
    ///   for input that is not JSON; `DecodingError.keyNotFound` when the key path leads nowhere; the
    ///   `DecodingError` that decoding raised otherwise, or what an `init(from:)` threw.
    public func decode<T: Swift.Decodable>(_ type: T.Type, from data: Data, atKeyPath keyPath: String = "")
        throws -> T
    {
        let settings = self.settings.withLock { $0 }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data, options: settings.parsingOptions)
        } catch {
            throw Self.invalidJSON(error)
        }
        return try Self.decode(type, in: document, atKeyPath: keyPath, settings: settings, source: .data(data))
    }

    /// A JSON file, read in chunks: only its tape is kept, not the file's bytes. A decoding error's
    /// debug description gives the value's line, column and byte offset, found by reading the file
    /// again in chunks up to that value, and only when the file still holds the bytes that were
    /// decoded (the same inode, size and modification time); otherwise the error carries the coding
    /// path alone.
    private func decode<T: Swift.Decodable>(_ type: T.Type, contentsOf url: URL, atKeyPath keyPath: String)
        throws -> T
    {
        let settings = self.settings.withLock { $0 }
        let document: JSONValue
        var identity: FileIdentity?
        do {
            document = try JSONValue(
                contentsOf: url, options: settings.parsingOptions, chunkSize: 1 << 20, identity: &identity)
        } catch {
            throw Self.parseFailure(error)
        }
        return try Self.decode(
            type, in: document, atKeyPath: keyPath, settings: settings, source: identity.map { .file(url, $0) })
    }

    /// Decodes a value of `type` from the value at an Elevate key path of any ``JSONInput``: data
    /// in memory, a file, an open file handle or standard input, the last three read in chunks (only
    /// the tape is kept; for a file, an error's debug description gives the value's line, column and
    /// byte offset while the file is unchanged). Gzip input is inflated as it is read (see
    /// ``JSONInput``); positions are those of its text.
    ///
    /// ```swift
    /// let config = try decoder.decode(Config.self, from: .standardInput)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - input: Where the document comes from.
    ///   - keyPath: Where the value is, as in ``decode(_:from:atKeyPath:)-(_,Data,_)``; `""`, the
    ///     default, for the root.
    /// - Returns: The value.
    /// - Throws: As ``decode(_:from:atKeyPath:)-(_,Data,_)``; `CocoaError` when a file cannot be
    ///   read; ``JSONInputError`` when a file handle or standard input cannot be read, or when gzip
    ///   input cannot be inflated.
    public func decode<T: Swift.Decodable>(_ type: T.Type, from input: JSONInput, atKeyPath keyPath: String = "")
        throws -> T
    {
        switch input {
        case .data(let data) where !data.startsWithGzipMagicBytes:
            return try decode(type, from: data, atKeyPath: keyPath)
        case .file(let url): return try decode(type, contentsOf: url, atKeyPath: keyPath)
        case .data, .fileHandle, .standardInput: break
        }
        let settings = self.settings.withLock { $0 }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: input, options: settings.parsingOptions)
        } catch {
            throw Self.parseFailure(error)
        }
        // Gzip data in memory can be inflated again to find a failing value's position.
        let source: DecodingSource? = if case .data(let data) = input { .data(data) } else { nil }
        return try Self.decode(type, in: document, atKeyPath: keyPath, settings: settings, source: source)
    }

    /// Decodes a value of `type` from the value at an Elevate key path of a document that arrives
    /// as an asynchronous sequence of byte chunks (`Data`, `[UInt8]`, …); only its tape is kept.
    ///
    /// ```swift
    /// let reply = try await decoder.decode(Reply.self, from: responseChunks, atKeyPath: "data")
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - chunks: The document's bytes, in order.
    ///   - keyPath: Where the value is, as in ``decode(_:from:atKeyPath:)-(_,Data,_)``; `""`, the
    ///     default, for the root.
    /// - Returns: The value.
    /// - Throws: As ``decode(_:from:atKeyPath:)-(_,Data,_)``; `CancellationError` when the task is
    ///   cancelled; what the sequence throws.
    public func decode<T: Swift.Decodable, Chunks: AsyncSequence>(
        _ type: T.Type, from chunks: Chunks, atKeyPath keyPath: String = ""
    ) async throws -> T where Chunks.Element: Sequence<UInt8> {
        let settings = self.settings.withLock { $0 }
        let document: JSONValue
        do {
            document = try await JSONValue(parsing: chunks, options: settings.parsingOptions)
        } catch {
            throw Self.parseFailure(error)
        }
        return try Self.decode(type, in: document, atKeyPath: keyPath, settings: settings, source: nil)
    }

    /// Decodes a value of `type` from the value at an Elevate key path of a document that arrives
    /// as an asynchronous sequence of single bytes (`URLSession.AsyncBytes`, `AsyncStream<UInt8>`,
    /// …), gathered into chunks as ``AsyncByteChunks`` does.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// let reply = try await decoder.decode(Reply.self, from: bytes)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: The document's bytes, in order.
    ///   - keyPath: Where the value is; `""`, the default, for the root.
    /// - Returns: The value.
    /// - Throws: As the chunk sequences' `decode(_:from:atKeyPath:)`.
    @inlinable
    public func decode<T: Swift.Decodable, Bytes: AsyncSequence>(
        _ type: T.Type, from bytes: Bytes, atKeyPath keyPath: String = ""
    ) async throws -> T where Bytes.Element == UInt8 {
        try await decode(type, from: AsyncByteChunks(bytes), atKeyPath: keyPath)
    }

    /// Decodes a value of `type` from an already parsed value (or the value at a key path below it).
    ///
    /// ```swift
    /// let document = try JSONValue(parsing: data)
    /// let user = try decoder.decode(User.self, from: document, atKeyPath: "user")
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The value.
    ///   - keyPath: Where below `value` to decode from; `""` for `value` itself.
    /// - Returns: The decoded value.
    /// - Throws: As ``decode(_:from:atKeyPath:)-(_,Data,_)``; debug descriptions carry no byte offsets, as the
    ///   view has no bytes.
    public func decode<T: Swift.Decodable>(_ type: T.Type, from value: JSONValue, atKeyPath keyPath: String = "")
        throws -> T
    {
        let settings = self.settings.withLock { $0 }
        return try Self.decode(type, in: value, atKeyPath: keyPath, settings: settings, source: nil)
    }

    /// The settings a decode call starting now would use.
    var currentSettings: DecodingSettings { settings.withLock { $0 } }

    static func decode<T: Swift.Decodable>(
        _ type: T.Type, in root: JSONValue, atKeyPath keyPath: String, settings: DecodingSettings,
        source: DecodingSource?
    ) throws -> T {
        try decode(type, in: root, atKeyPath: keyPath, strategies: ResolvedStrategies(settings), source: source)
    }

    static func decode<T: Swift.Decodable>(
        _ type: T.Type, in root: JSONValue, atKeyPath keyPath: String, strategies: ResolvedStrategies,
        source: DecodingSource?, hintDepth: Int = TapeDecoder.documentHintDepth
    ) throws -> T {
        let (value, path) = try locate(keyPath, in: root)
        return try withDecoder(
            at: value, path: path, strategies: strategies, source: source, hintDepth: hintDepth
        ) { try $0.unwrap(type) }
    }

    /// Runs `body` with a decoder at the root of `root`, as the decode calls do for `init(from:)`.
    static func decodeRoot<T>(
        of root: JSONValue, settings: DecodingSettings, source: DecodingSource?, _ body: (TapeDecoder) throws -> T
    ) throws -> T {
        try withDecoder(
            at: root, path: [], strategies: ResolvedStrategies(settings), source: source,
            hintDepth: TapeDecoder.documentHintDepth, body)
    }

    /// A decoder at `value` for `body`; a `DecodingError` it throws gets its position in the
    /// source, when the source still has it.
    @inline(__always)
    private static func withDecoder<T>(
        at value: JSONValue, path: [CodingPathComponent], strategies: ResolvedStrategies, source: DecodingSource?,
        hintDepth: Int, _ body: (TapeDecoder) throws -> T
    ) throws -> T {
        let context = DecodingContext(tape: value.tape, strategies: strategies, source: source)
        let decoder = TapeDecoder(context: context, tape: value.tape, index: value.index, path: path, hintDepth: hintDepth)
        do {
            return try body(decoder)
        } catch let error as DecodingError {
            throw context.positioned(error)
        }
    }

    /// The value at `keyPath`, and the coding path leading to it.
    private static func locate(_ keyPath: String, in root: JSONValue) throws -> (JSONValue, [CodingPathComponent]) {
        var path: [CodingPathComponent] = []
        let walk = KeyPath(keyPath).resolve(from: root) { step in
            switch step {
            case .key(let key): path.append(.key(StringCodingKey(key)))
            case .index(let index): path.append(.index(index))
            }
        }
        switch walk {
        case .found(let value):
            return (value, path)
        case .missing(let component):
            throw DecodingError.keyNotFound(
                StringCodingKey(component),
                DecodingError.Context(
                    codingPath: path.map(\.codingKey),
                    debugDescription: "No value at key path \"\(keyPath)\": nothing at \"\(component)\"."))
        }
    }

    /// The error for input that does not parse, as Foundation words it.
    /// What a failed parse of the whole document throws: bytes that are not JSON (or a rejected
    /// duplicate key) as ``invalidJSON(_:)``, anything else (a file that cannot be read, a
    /// cancelled task) unchanged.
    static func parseFailure(_ error: any Error) -> any Error {
        error is JSONSyntaxError ? invalidJSON(error) : error
    }

    static func invalidJSON(_ error: any Error) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: [], debugDescription: "The given data was not valid JSON. \(error)", underlyingError: error))
    }
}
