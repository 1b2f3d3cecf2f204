import Foundation

/// An ``ElevateJSONEncoder``'s settings, copied at the start of each encode call.
struct EncodingSettings: Sendable {
    var outputFormatting: ElevateJSONEncoder.OutputFormatting = []
    var keyEncodingStrategy: ElevateJSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    var dateEncodingStrategy: ElevateJSONEncoder.DateEncodingStrategy = .deferredToDate
    var dataEncodingStrategy: ElevateJSONEncoder.DataEncodingStrategy = .base64
    var nonConformingFloatEncodingStrategy: ElevateJSONEncoder.NonConformingFloatEncodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// The generator options that give `JSONEncoder`'s text (with ``JSONGenerator/Style/foundation``):
    /// `/` escaped unless asked otherwise, U+2028/U+2029 written as they are.
    var writerOptions: JSONWriter.Options {
        JSONWriter.Options(
            prettyPrinted: outputFormatting.contains(.prettyPrinted),
            sortedKeys: outputFormatting.contains(.sortedKeys),
            escapesSlashes: !outputFormatting.contains(.withoutEscapingSlashes),
            escapesLineSeparators: false,
            maximumDepth: .max)
    }
}

/// What one encode call shares between its encoders and containers: the settings, the converted
/// keys, and whether the streaming pass has to be redone buffered (see ``EncodingStream``).
final class EncodingContext {
    let settings: EncodingSettings
    let userInfo: [CodingUserInfoKey: Any]
    /// Set when the streaming pass met something it cannot stream (a key written twice, a container
    /// used after its text was written); the call then encodes again with ``BufferedEncoding``.
    @exclusivity(unchecked) var bailedOut = false
    /// Set when an error passed through a streaming write after some of the value's text was written;
    /// if encoding still succeeds (the error was caught inside an `encode(to:)`), that text is wrong.
    @exclusivity(unchecked) var poisoned = false
    /// A misuse that Foundation traps on (a keyed container asked of an encoder that holds an array),
    /// thrown when the buffered encoding ends.
    var deferredError: (any Error)?

    /// Snake-case conversions made in this call, bounded.
    @exclusivity(unchecked) private var snakeCaseKeys: [String: String] = [:]
    private static let snakeCaseCacheLimit = 4096

    /// Whether keys are written as they are, checked before the strategy's enum is looked at.
    private let usesDefaultKeys: Bool

    init(settings: EncodingSettings) {
        self.settings = settings
        if case .useDefaultKeys = settings.keyEncodingStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
        self.userInfo = settings.userInfo.mapValues { $0 as Any }
    }

    /// The error that unwinds the streaming pass.
    func bailout() -> StreamingBailout {
        bailedOut = true
        return StreamingBailout()
    }

    /// The JSON key for `key`, at the end of `codingPath` (which is needed only by a custom strategy).
    @inline(__always)
    func jsonKey(_ key: some CodingKey, codingPath: @autoclosure () -> [any CodingKey]) -> String {
        if usesDefaultKeys { return key.stringValue }
        return convertedKey(key, codingPath: codingPath())
    }

    private func convertedKey(_ key: some CodingKey, codingPath: @autoclosure () -> [any CodingKey]) -> String {
        switch settings.keyEncodingStrategy {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            let name = key.stringValue
            if let converted = snakeCaseKeys[name] { return converted }
            let converted = SnakeCase.fromCamelCase(name)
            if snakeCaseKeys.count < Self.snakeCaseCacheLimit { snakeCaseKeys[name] = converted }
            return converted
        case .custom(let convert):
            return convert(codingPath() + [key]).stringValue
        }
    }

    // MARK: Values with a fixed form

    /// How a value is written: the scalars and the types with strategies are settled here, for
    /// both passes, so that the rules live in one place.
    enum Plan {
        /// Write this value.
        case value(EncodedValue)
        /// Run this with an encoder for the value's place (the custom strategies).
        case custom((any Swift.Encoder) throws -> Void)
        /// A `[String: T]`, written member by member with its keys as they are.
        case stringKeyedDictionary(any StringKeyedEncodableDictionary)
        /// Call the value's own `encode(to:)`.
        case ordinary
    }

    /// The plan for `value`; `codingPath` is built only for an error.
    @inline(__always)
    func plan<T: Swift.Encodable>(_ value: T, codingPath: () -> [any CodingKey]) throws -> Plan {
        // The common types first, by metatype identity, which costs a pointer comparison.
        if T.self == String.self { return .value(.string(unsafeBitCast(value, to: String.self))) }
        if T.self == Int.self { return .value(.integer(Int64(unsafeBitCast(value, to: Int.self)))) }
        if T.self == Double.self { return .value(try number(unsafeBitCast(value, to: Double.self), codingPath)) }
        if T.self == Bool.self { return .value(.bool(unsafeBitCast(value, to: Bool.self))) }
        return try planOther(value, codingPath: codingPath)
    }

    private func planOther<T: Swift.Encodable>(_ value: T, codingPath: () -> [any CodingKey]) throws -> Plan {
        switch kind(of: T.self) {
        case .ordinary: return .ordinary
        case .int8: return .value(.integer(Int64(value as! Int8)))
        case .int16: return .value(.integer(Int64(value as! Int16)))
        case .int32: return .value(.integer(Int64(value as! Int32)))
        case .int64: return .value(.integer(value as! Int64))
        case .uint: return .value(.unsigned(UInt64(value as! UInt)))
        case .uint8: return .value(.integer(Int64(value as! UInt8)))
        case .uint16: return .value(.integer(Int64(value as! UInt16)))
        case .uint32: return .value(.integer(Int64(value as! UInt32)))
        case .uint64: return .value(.unsigned(value as! UInt64))
        case .float: return .value(try number(value as! Float, codingPath))
        case .url: return .value(.string((value as! URL).absoluteString))
        case .decimal: return .value(try decimal(value as! Decimal, codingPath))
        case .date: return try plan(date: value as! Date, codingPath)
        case .data: return plan(data: value as! Data)
        case .stringKeyedDictionary: return .stringKeyedDictionary(value as! any StringKeyedEncodableDictionary)
        }
    }

    private func plan(date: Date, _ codingPath: () -> [any CodingKey]) throws -> Plan {
        switch settings.dateEncodingStrategy {
        case .deferredToDate: return .ordinary
        case .secondsSince1970: return .value(try number(date.timeIntervalSince1970, codingPath))
        case .millisecondsSince1970: return .value(try number(1000 * date.timeIntervalSince1970, codingPath))
        case .iso8601: return .value(.string(date.formatted(.iso8601)))
        case .formatted(let formatter): return .value(.string(formatter.string(from: date)))
        case .custom(let closure): return .custom { try closure(date, $0) }
        }
    }

    private func plan(data: Data) -> Plan {
        switch settings.dataEncodingStrategy {
        case .deferredToData: return .ordinary
        case .base64: return .value(.string(data.base64EncodedString()))
        case .custom(let closure): return .custom { try closure(data, $0) }
        }
    }

    /// The kinds of the types met last: a model's types repeat (a person, its addresses), and this
    /// spares the runtime's conformance lookup for each of their values.
    @exclusivity(unchecked) private var recentKinds: [(type: ObjectIdentifier, kind: EncodableKind)] = []
    private static let recentKindsLimit = 16

    private func kind(of type: Any.Type) -> EncodableKind {
        let identifier = ObjectIdentifier(type)
        for entry in recentKinds where entry.type == identifier { return entry.kind }
        let kind = EncodableKind.of(type)
        if recentKinds.count < Self.recentKindsLimit { recentKinds.append((identifier, kind)) }
        return kind
    }

    // MARK: Numbers

    /// A `Double` as `JSONEncoder` writes it: the shortest text that reads back as the same value,
    /// without a trailing `.0` (`1`, `0.1`, `1e+16`, `-0`).
    func number(_ value: Double, _ codingPath: () -> [any CodingKey]) throws -> EncodedValue {
        guard value.isFinite else { return try nonConforming(value, codingPath) }
        return .number(Self.trimmingPointZero(value.description))
    }

    /// A `Float` as `JSONEncoder` writes it: the shortest text that reads back as the same `Float`.
    func number(_ value: Float, _ codingPath: () -> [any CodingKey]) throws -> EncodedValue {
        guard value.isFinite else { return try nonConforming(value, codingPath) }
        return .number(Self.trimmingPointZero(value.description))
    }

    /// A `Decimal` exactly, as its description; NaN has no JSON form.
    func decimal(_ value: Decimal, _ codingPath: () -> [any CodingKey]) throws -> EncodedValue {
        guard !value.isNaN else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath(), debugDescription: "Unable to encode Decimal.nan in JSON."))
        }
        return .number(value.description)
    }

    private static func trimmingPointZero(_ text: String) -> String {
        var text = text
        let utf8 = text.utf8
        if utf8.count > 2, utf8.last == UInt8(ascii: "0"), utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".") {
            text.removeLast(2)
        }
        return text
    }

    private func nonConforming<F: BinaryFloatingPoint>(_ value: F, _ codingPath: () -> [any CodingKey]) throws
        -> EncodedValue
    {
        guard case .convertToString(let positiveInfinity, let negativeInfinity, let nan) =
            settings.nonConformingFloatEncodingStrategy
        else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        if value.isNaN { return .string(nan) }
        return .string(value > 0 ? positiveInfinity : negativeInfinity)
    }

    /// Foundation's error for a top-level value that wrote nothing.
    static func nothingEncoded<T>(_ value: T) -> EncodingError {
        EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
    }

    /// What Foundation traps on: asking an encoder for a second kind of container.
    static func containerMismatch(_ codingPath: [any CodingKey], asked: String) -> EncodingError {
        EncodingError.invalidValue(
            asked,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Attempt to request \(asked) where a different value was already encoded."))
    }
}

/// The error that unwinds a streaming pass which will be redone buffered; never seen by callers.
struct StreamingBailout: Error {}
