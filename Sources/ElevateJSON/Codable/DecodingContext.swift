import Foundation

/// What one decode call shares between its decoders (the main one and any `superDecoder()`s): the
/// document, the resolved strategies, caches that live only as long as the call, and where the
/// first error arose.
final class DecodingContext {
    let tape: JSONTape
    let source: DecodingSource?
    /// The strategies, resolved once per call, or once per stream for all its elements.
    let strategies: ResolvedStrategies

    var settings: DecodingSettings { strategies.settings }
    var keyMode: ResolvedStrategies.KeyMode { strategies.keyMode }
    var dateMode: ResolvedStrategies.DateMode { strategies.dateMode }
    var userInfo: [CodingUserInfoKey: Any] { strategies.userInfo }

    // The caches are `@exclusivity(unchecked)` for the reason given on `TapeDecoder`'s state: one
    // context belongs to one decode call on one thread.
    /// JSON keys converted from snake case, by key entry word (keys repeated in sibling objects share
    /// one arena copy, hence one word). Bounded, and dropped with the call.
    @exclusivity(unchecked) private var snakeCaseKeys: [UInt64: String] = [:]
    /// The key-path plans of the ``JSONKeyPathDecodable`` types met in this call.
    @exclusivity(unchecked) private var plans: [ObjectIdentifier: KeyPathPlan] = [:]
    /// The tape index and coding path of the value where the error being thrown arose.
    @exclusivity(unchecked) var errorSite: (index: Int, path: [String])?

    init(tape: JSONTape, strategies: ResolvedStrategies, source: DecodingSource?) {
        self.tape = tape
        self.strategies = strategies
        self.source = source
        (treatments, recentTreatments) = strategies.knownTreatments
    }

    convenience init(tape: JSONTape, settings: DecodingSettings, source: DecodingSource?) {
        self.init(tape: tape, strategies: ResolvedStrategies(settings), source: source)
    }
    /// The key entry at `index` converted from snake case, as Foundation converts it.
    func snakeCaseKey(at index: Int) -> String {
        let word = tape.words[index] & ~JSONTape.shadowedFlag
        if let known = snakeCaseKeys[word] { return known }
        let converted = SnakeCase.convert(tape.string(at: index))
        if snakeCaseKeys.count >= 4096 { snakeCaseKeys.removeAll(keepingCapacity: true) }
        snakeCaseKeys[word] = converted
        return converted
    }

    /// How a type that is none of the special scalars is decoded.
    enum Treatment {
        case plain
        case array(any TapeDecodableArray.Type)
        case stringKeyedDictionary(any StringKeyedDictionary.Type)
        case keyPaths(KeyPathPlan)
        /// A ``TapeDecodable`` type: its generated ``TapeDecodable/init(fromTape:)``.
        case direct(any TapeDecodable.Type)
    }

    /// Treatments by type, for this call: a dynamic cast to a protocol looks conformances up (with
    /// generic metadata for conditional ones) and measured at a third of decoding time when done for
    /// every value; a dictionary lookup by type identity is a few nanoseconds.
    @exclusivity(unchecked) private var treatments: [ObjectIdentifier: Treatment] = [:]
    /// The treatments found last, searched before the dictionary: a decode goes round a few types
    /// (`[Person]`, `Person`, `[Address]`, `Address`), and comparing a handful of identities costs
    /// less than hashing one (the hashing and probing measured at 2% of decoding the people).
    @exclusivity(unchecked) private var recentTreatments: [(type: ObjectIdentifier, treatment: Treatment)] = []
    @exclusivity(unchecked) private var nextRecentSlot = 0
    private static let recentTreatmentCount = 8

    /// How values of `type` are decoded.
    @inline(__always)
    func treatment(of type: Any.Type) -> Treatment {
        let identifier = ObjectIdentifier(type)
        for entry in recentTreatments where entry.type == identifier { return entry.treatment }
        return rememberedTreatment(of: type, identifier)
    }

    /// ``treatment(of:)`` for a type not among the recent ones: from the dictionary, else found.
    @inline(never)
    private func rememberedTreatment(of type: Any.Type, _ identifier: ObjectIdentifier) -> Treatment {
        let treatment = foundTreatment(of: type, identifier)
        if recentTreatments.count < Self.recentTreatmentCount {
            recentTreatments.append((identifier, treatment))
        } else {
            recentTreatments[nextRecentSlot] = (identifier, treatment)
            nextRecentSlot = (nextRecentSlot + 1) % Self.recentTreatmentCount
        }
        return treatment
    }

    /// ``treatment(of:)`` from the dictionary, or found by dynamic casts and remembered.
    private func foundTreatment(of type: Any.Type, _ identifier: ObjectIdentifier) -> Treatment {
        if let known = treatments[identifier] { return known }
        let treatment: Treatment
        if let array = type as? any TapeDecodableArray.Type {
            treatment = .array(array)
        } else if let dictionary = type as? any StringKeyedDictionary.Type {
            treatment = .stringKeyedDictionary(dictionary)
        } else if let mapped = type as? any JSONKeyPathDecodable.Type {
            // Before `.direct`: a plan applies through `init(from:)`.
            treatment = .keyPaths(plan(for: mapped))
        } else if settings.usesTapeDecodable, !(type is AnyClass), let direct = type as? any TapeDecodable.Type {
            // Not for a class written by hand: `init(fromTape:)` is called on the static type,
            // where `init(from:)` is called on the metatype given (a subclass through its base).
            treatment = .direct(direct)
        } else {
            treatment = .plain
        }
        treatments[identifier] = treatment
        strategies.remember(treatment, for: identifier, firstCount: Self.recentTreatmentCount)
        return treatment
    }

    /// The plan of a ``JSONKeyPathDecodable`` type, made once per call.
    func plan(for type: any JSONKeyPathDecodable.Type) -> KeyPathPlan {
        let identifier = ObjectIdentifier(type)
        if let known = plans[identifier] { return known }
        let plan = KeyPathPlan(
            keyPaths: type.keyPaths, defaults: type.defaults, transforms: type.transforms,
            typeName: String(describing: type))
        plans[identifier] = plan
        return plan
    }

    // MARK: Error positions

    /// Records where an error arose, unless a deeper site of the same error is already known.
    ///
    /// An error caught and swallowed by an `init(from:)` (`try?`) leaves a stale site behind, so a
    /// site is kept only while it lies at or below the path of the error being thrown.
    func noteError(_ error: any Error, at index: Int, path: @autoclosure () -> [String], tape: JSONTape) {
        guard tape === self.tape else { return }
        let errorPath = (error as? DecodingError)?.codingPathStrings
        if let site = errorSite, let errorPath, site.path.starts(with: errorPath) || errorPath.starts(with: site.path) {
            if site.path.count >= errorPath.count || site.path == errorPath { return }
        }
        errorSite = (index, path())
    }

    /// `error` with where its value is in the input added to the debug description, when known.
    func positioned(_ error: DecodingError) -> DecodingError {
        guard let site = errorSite, let errorPath = Optional(error.codingPathStrings),
            errorPath.starts(with: site.path), let source,
            let position = TapePosition.locate(entry: site.index, on: tape, source: source,
                                                options: settings.parsingOptions)
        else { return error }
        let exact = errorPath == site.path
        let suffix = " (\(exact ? "at" : "in the value at") line \(position.line), column \(position.column), byte offset \(position.byteOffset))"
        return error.appendingToDebugDescription(suffix)
    }
}

extension DecodingError {
    /// The coding path's string values.
    var codingPathStrings: [String] {
        context.codingPath.map(\.stringValue)
    }

    var context: Context {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context
        @unknown default:
            return Context(codingPath: [], debugDescription: "")
        }
    }

    /// The same error with `prefix` before its coding path: an element's error, as the stream
    /// that cut the element out of a larger document reports it.
    package func prefixingCodingPath(_ prefix: [any CodingKey]) -> DecodingError {
        mappingContext {
            Context(
                codingPath: prefix + $0.codingPath, debugDescription: $0.debugDescription,
                underlyingError: $0.underlyingError)
        }
    }

    /// The same error with `suffix` added to its debug description.
    func appendingToDebugDescription(_ suffix: String) -> DecodingError {
        mappingContext {
            Context(
                codingPath: $0.codingPath, debugDescription: $0.debugDescription + suffix,
                underlyingError: $0.underlyingError)
        }
    }

    /// The same case with its context changed by `change`.
    private func mappingContext(_ change: (Context) -> Context) -> DecodingError {
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, change(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, change(context))
        case .keyNotFound(let key, let context): return .keyNotFound(key, change(context))
        case .dataCorrupted(let context): return .dataCorrupted(change(context))
        @unknown default: return self
        }
    }
}

/// An ``ElevateJSONDecoder``'s settings turned into what decoding consults: a key mode, a date
/// mode (with its ICU-free pattern when the formatter allows one) and the user info. Resolving
/// reads the formatter's properties under its lock, so a stream does it once for all its elements
/// rather than once per element.
final class ResolvedStrategies: @unchecked Sendable {
    /// How keys are matched.
    enum KeyMode {
        /// By the key's UTF-8 bytes.
        case bytes
        /// By the JSON key converted from snake case (cached per key entry).
        case snakeCase
        /// By the key the user's closure returns for each JSON key.
        case custom(@Sendable ([any CodingKey]) -> any CodingKey)
    }

    /// How dates are read.
    enum DateMode {
        case deferredToDate
        case secondsSince1970
        case millisecondsSince1970
        case iso8601
        /// The formatter, and the pattern that parses its strings without ICU when it can.
        case formatted(DateFormatter, fastPath: FixedDatePattern?, offsetSeconds: Int)
        case custom(@Sendable (any Swift.Decoder) throws -> Date)
    }

    // `@unchecked` for these: immutable after init, holding `Any` user info and a formatter that is
    // only read (DateFormatter is thread-safe on the platforms Foundation supports), which is what
    // makes sharing across worker threads sound. The treatments below are in a `LockedBox`.
    let settings: DecodingSettings
    let keyMode: KeyMode
    let dateMode: DateMode
    let userInfo: [CodingUserInfoKey: Any]

    /// The treatments of the types met so far by any context made from these strategies, which
    /// every new context starts from: a stream makes one context per element, and finding a type's
    /// treatment again (dynamic casts to protocols) for every element measured at a tenth of the time.
    /// Also the first few, as a context's recent treatments start: an element's context then finds
    /// its types without hashing and without growing an array of its own.
    var knownTreatments: (
        byType: [ObjectIdentifier: DecodingContext.Treatment],
        first: [(type: ObjectIdentifier, treatment: DecodingContext.Treatment)]
    ) {
        treatments.withLock { ($0.byType, $0.first) }
    }
    private let treatments = LockedBox(KnownTreatments())

    /// The treatments met by the contexts made from these strategies.
    private struct KnownTreatments {
        var byType: [ObjectIdentifier: DecodingContext.Treatment] = [:]
        var first: [(type: ObjectIdentifier, treatment: DecodingContext.Treatment)] = []
    }

    func remember(_ treatment: DecodingContext.Treatment, for type: ObjectIdentifier, firstCount: Int) {
        treatments.withLock { known in
            // Bounded like every cache here: a stream meets few types, a hostile one cannot grow it.
            guard known.byType.count < 1024, known.byType.updateValue(treatment, forKey: type) == nil else { return }
            if known.first.count < firstCount { known.first.append((type, treatment)) }
        }
    }

    init(_ settings: DecodingSettings) {
        self.settings = settings
        switch settings.keyDecodingStrategy {
        case .useDefaultKeys: keyMode = .bytes
        case .convertFromSnakeCase: keyMode = .snakeCase
        case .custom(let closure): keyMode = .custom(closure)
        }
        switch settings.dateDecodingStrategy {
        case .deferredToDate: dateMode = .deferredToDate
        case .secondsSince1970: dateMode = .secondsSince1970
        case .millisecondsSince1970: dateMode = .millisecondsSince1970
        case .iso8601: dateMode = .iso8601
        case .formatted(let formatter):
            let (pattern, offset) = Self.fastPath(for: formatter)
            dateMode = .formatted(formatter, fastPath: pattern, offsetSeconds: offset)
        case .custom(let closure): dateMode = .custom(closure)
        }
        var userInfo: [CodingUserInfoKey: Any] = [:]
        for (key, value) in settings.userInfo { userInfo[key] = value }
        self.userInfo = userInfo
    }

    /// The ICU-free pattern for a formatter whose results it reproduces exactly: a fixed-width
    /// numeric format, the gregorian calendar, the POSIX locale (so digits and calendar cannot vary),
    /// a zone whose offset never changes, strict parsing and no default date to fill fields from.
    private static func fastPath(for formatter: DateFormatter) -> (FixedDatePattern?, Int) {
        guard let format = formatter.dateFormat, !formatter.isLenient, formatter.defaultDate == nil,
            formatter.locale?.identifier == "en_US_POSIX", formatter.calendar?.identifier == .gregorian,
            let zone = formatter.timeZone, let offset = FixedDatePattern.fixedOffset(of: zone),
            let pattern = FixedDatePattern.cached(for: format)
        else { return (nil, 0) }
        return (pattern, offset)
    }

}
