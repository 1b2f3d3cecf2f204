import Foundation

/// Encodes `Swift.Encodable` values as JSON, with `JSONEncoder`'s options, errors and text, several
/// times faster: values are written through YAJL's generator as `encode(to:)` produces them, with no
/// tree of intermediate values.
///
/// ```swift
/// let encoder = ElevateJSONEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// encoder.dateEncodingStrategy = .iso8601
/// let data = try encoder.encode(people)
/// ```
///
/// The name says which type it stands in for and does not clash with Foundation's `JSONEncoder`
/// when both modules are imported; replacing `JSONEncoder()` with `ElevateJSONEncoder()` is the
/// whole migration. The options have Foundation's names and meanings, and convert from Foundation's
/// (`ElevateJSONEncoder.DateEncodingStrategy(jsonEncoder.dateEncodingStrategy)`).
///
/// Compatibility with `JSONEncoder` (swift-foundation, as shipped with Swift 6 on Linux):
/// - The text is the same bytes, pretty-printed or not, wherever `JSONEncoder`'s is determined: with
///   `.sortedKeys`, or for objects of one member. Without `.sortedKeys` member order is unspecified
///   in both (this encoder writes members in the order they are encoded).
/// - Numbers: a `Double` or `Float` is the shortest text that reads back as the same value, with no
///   trailing `.0` (`1`, `0.1`, `1e+16`); every `Int64` and `UInt64` is exact; a `Decimal` is its
///   exact description. `/` is escaped as `\/` unless `.withoutEscapingSlashes`; U+2028 and U+2029
///   are written as they are, as `JSONEncoder` does (``JSONWriter`` escapes them).
/// - Special cases as in Foundation: `Date` and `Data` follow their strategies wherever they are
///   (properties, arrays, dictionary values), `URL` is its `absoluteString`, `[String: T]` keys are
///   written as they are (no key strategy), `[Int: T]` is an object with the integers as keys, a
///   value that encodes nothing is `{}`, the same key encoded twice keeps the last value,
///   `superEncoder()` writes under `"super"`, and a top-level value may be a scalar.
/// - Errors: `EncodingError.invalidValue` with `JSONEncoder`'s coding path and message for NaN and
///   infinities under `.throw`, and for a top-level value that encodes nothing. Asking one encoder
///   for two kinds of container, where Foundation traps, throws `EncodingError.invalidValue`.
///
/// A few uses of the Encoder API cannot be streamed: a key encoded twice in one container, and a
/// nested container written to after its parent has moved on to a later element. For those the
/// value is encoded a second time into a buffer, so `encode(to:)` methods run twice; the result is
/// still `JSONEncoder`'s. `.sortedKeys` always buffers the value first.
///
/// The encoder is a class, as Foundation's is, so that `let encoder = …; encoder.… = …` code keeps
/// compiling; its settings are guarded by a lock and copied at the start of each `encode` call, so
/// one encoder can be shared between threads and tasks.
public final class ElevateJSONEncoder: Sendable {
    // Each encode call works on a copy.
    private let settings = LockedBox(EncodingSettings())

    /// Creates an encoder with Foundation's defaults: compact output, default keys,
    /// `.deferredToDate`, `.base64`, `.throw`, no user info.
    public init() {}

    /// How the text is laid out (default compact, unsorted, with `/` escaped).
    public var outputFormatting: OutputFormatting {
        get { settings.withLock { $0.outputFormatting } }
        set { settings.withLock { $0.outputFormatting = newValue } }
    }

    /// How `CodingKey`s become JSON keys (default `.useDefaultKeys`).
    public var keyEncodingStrategy: KeyEncodingStrategy {
        get { settings.withLock { $0.keyEncodingStrategy } }
        set { settings.withLock { $0.keyEncodingStrategy = newValue } }
    }

    /// How `Date` values are written (default `.deferredToDate`).
    public var dateEncodingStrategy: DateEncodingStrategy {
        get { settings.withLock { $0.dateEncodingStrategy } }
        set { settings.withLock { $0.dateEncodingStrategy = newValue } }
    }

    /// How `Data` values are written (default `.base64`).
    public var dataEncodingStrategy: DataEncodingStrategy {
        get { settings.withLock { $0.dataEncodingStrategy } }
        set { settings.withLock { $0.dataEncodingStrategy = newValue } }
    }

    /// What to write for infinities and NaN (default `.throw`).
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
        get { settings.withLock { $0.nonConformingFloatEncodingStrategy } }
        set { settings.withLock { $0.nonConformingFloatEncodingStrategy = newValue } }
    }

    /// Values handed to every `encode(to:)` through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { settings.withLock { $0.userInfo } }
        set { settings.withLock { $0.userInfo = newValue } }
    }

    /// Encodes `value` as JSON text.
    ///
    /// ```swift
    /// let data = try ElevateJSONEncoder().encode(Person(name: "Ada", born: 1815))
    /// // {"name":"Ada","born":1815}
    /// ```
    /// - Parameter value: The value; any `Encodable`, a scalar too.
    /// - Returns: The JSON text in UTF-8.
    /// - Throws: `EncodingError.invalidValue` for a value JSON cannot hold (see the type's
    ///   discussion), or what an `encode(to:)` threw.
    public func encode<T: Swift.Encodable>(_ value: T) throws -> Data {
        Data(try encodedBytes(value))
    }

    /// Encodes `value` and writes the text to a file, replacing it.
    ///
    /// ```swift
    /// try encoder.encode(catalog, to: URL(fileURLWithPath: "catalog.json"))
    /// ```
    /// - Parameters:
    ///   - value: The value.
    ///   - url: A file URL.
    ///   - options: How the file is written; `.atomic` by default.
    /// - Throws: As ``encode(_:)``, and `CocoaError` when the file cannot be written.
    public func encode<T: Swift.Encodable>(_ value: T, to url: URL, options: Data.WritingOptions = .atomic) throws {
        try encode(value).write(to: url, options: options)
    }

    /// A copy of the settings, as an encode call takes them.
    var currentSettings: EncodingSettings { settings.withLock { $0 } }

    /// The text of `value`, as bytes.
    func encodedBytes<T: Swift.Encodable>(_ value: T) throws -> [UInt8] {
        let settings = currentSettings
        let generator = JSONGenerator(options: settings.writerOptions, style: .foundation)
        try Self.encode(value, settings: settings, into: generator)
        return generator.output
    }

    /// Appends `value` as one top-level value to `generator`'s output, streamed, or buffered when
    /// streaming cannot give `JSONEncoder`'s result (see ``EncodingStream``). The generator's
    /// options and style decide the text; `settings` decide the values (and whether keys are sorted).
    ///
    /// On error, the generator's output is left as it was.
    static func encode<T: Swift.Encodable>(_ value: T, settings: EncodingSettings, into generator: JSONGenerator)
        throws
    {
        let sortedKeys = settings.outputFormatting.contains(.sortedKeys)
        if !sortedKeys {
            let context = EncodingContext(settings: settings)
            let mark = generator.output.count
            do {
                try EncodingStream(context: context, output: EncodingOutput(root: generator, sortedKeys: false))
                    .encodeTopLevel(value)
                if !context.poisoned && !context.bailedOut { return }
                generator.output.removeSubrange(mark...)
            } catch {
                // An error that reached the top is the caller's, unless the pass gave up first.
                if !context.bailedOut { throw error }
            }
        }
        try BufferedEncoding.encode(
            value, context: EncodingContext(settings: settings),
            output: EncodingOutput(root: generator, sortedKeys: sortedKeys))
    }
}
