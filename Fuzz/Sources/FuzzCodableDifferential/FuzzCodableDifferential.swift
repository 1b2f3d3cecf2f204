import Elevate
import Foundation
import _FuzzSupport

// ElevateJSONDecoder against Foundation's JSONDecoder on the same bytes: into `JSON` (compared with
// Foundation's decoding of a small "any JSON" enum), into that enum with both decoders, and into a
// few recursive models. Both must give equal values (doubles by their bits), or both must fail.
// Inputs that touch a difference the library documents (README "Codable on the tape" and
// "Strictness and conformance", CodableOnTheTape.md) are skipped, each where its condition is
// checked; everything else that differs is a finding.

// MARK: Models

/// Any JSON value, decoded as a `Decodable` "any" type usually is: by trying each kind in turn.
indirect enum AnyValue: Codable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    /// By bits, so that `-0.0` and `0.0` differ.
    case double(UInt64)
    case string(String)
    case array([AnyValue])
    case object([String: AnyValue])

    init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int64.self) { self = .int(value); return }
        if let value = try? container.decode(Double.self) { self = .double(value.bitPattern); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([AnyValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: AnyValue].self))
    }

    func encode(to encoder: any Swift.Encoder) throws {}

    /// The same value with every number as a `Double` (by bits), to compare with `JSON`; a zero
    /// loses its sign (see ``JSON/anyValue``).
    var numbersAsDoubles: AnyValue {
        switch self {
        case .int(let value): .double(Double(value).bitPattern)
        case .double(let bits) where Double(bitPattern: bits) == 0: .double(0)
        case .array(let values): .array(values.map(\.numbersAsDoubles))
        case .object(let members): .object(members.mapValues(\.numbersAsDoubles))
        default: self
        }
    }
}

extension JSON {
    /// The value as an ``AnyValue`` with every number as a `Double`; nil when a number is kept as
    /// its text (`JSONNumber.large`), which no `Double` holds.
    var anyValue: AnyValue? {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .string(let value): return .string(value)
        case .number(let number):
            switch number {
            case .int(let value): return .double(Double(value).bitPattern)
            case .uint(let value): return .double(Double(value).bitPattern)
            // Documented (README "Values compared with JSONSerialization"): `-0` is the Double
            // `-0.0`, where Foundation's "any" reading gives the integer 0; zeros are compared
            // without their sign here (the AnyValue comparison keeps it).
            case .double(let value) where value == 0: return .double(0)
            case .double(let value): return .double(value.bitPattern)
            case .large: return nil
            }
        case .array(let values):
            var converted: [AnyValue] = []
            for value in values {
                guard let value = value.anyValue else { return nil }
                converted.append(value)
            }
            return .array(converted)
        case .object(let members):
            var converted: [String: AnyValue] = [:]
            for (key, value) in members {
                guard let value = value.anyValue else { return nil }
                converted[key] = value
            }
            return .object(converted)
        }
    }
}

/// A recursive model with optional members.
struct Node: Codable, Equatable {
    var name: String?
    var value: Double?
    var children: [Node]?

    static func == (a: Node, b: Node) -> Bool {
        a.name == b.name && a.value?.bitPattern == b.value?.bitPattern && a.children == b.children
    }
}

/// The same models twice, with and without `init(fromTape:)` (written by hand with the reads the
/// compiler's `init(from:)` makes: this package does not build the macro). Nested in two namespaces
/// so that both print as `Node` and `Record`: the two paths must give the same value or the very
/// same error text.
enum Plain {
    struct Node: Codable, Equatable {
        var name: String?
        var value: Double?
        var children: [Node]?
    }

    struct Record: Codable, Equatable {
        var id: Int
        var label: String
        var flags: [Bool]
        var nested: [Record]?
    }
}

enum Direct {
    struct Node: Codable, Equatable, TapeDecodable {
        var name: String?
        var value: Double?
        var children: [Node]?

        init(fromTape value: TapeDecodingValue) throws {
            let container = try value.container(keyedBy: CodingKeys.self)
            self.name = try container.decodeIfPresent(String.self, forKey: .name)
            self.value = try container.decodeIfPresent(Double.self, forKey: .value)
            self.children = try container.decodeIfPresent([Node].self, forKey: .children)
        }
    }

    struct Record: Codable, Equatable, TapeDecodable {
        var id: Int
        var label: String
        var flags: [Bool]
        var nested: [Record]?

        init(fromTape value: TapeDecodingValue) throws {
            let container = try value.container(keyedBy: CodingKeys.self)
            self.id = try container.decode(Int.self, forKey: .id)
            self.label = try container.decode(String.self, forKey: .label)
            self.flags = try container.decode([Bool].self, forKey: .flags)
            self.nested = try container.decodeIfPresent([Record].self, forKey: .nested)
        }
    }
}

/// The outcome of decoding `T` with ElevateJSONDecoder, as text (doubles by their bits).
func outcomeText<T: Swift.Decodable>(_ type: T.Type, _ data: Data) -> String {
    do {
        return "value: \(try ElevateJSONDecoder().decode(type, from: data))"
    } catch {
        return "error: \(error)"
    }
}

/// Dictionary keys that must be one of the cases (`CodingKeyRepresentable`).
enum Color: String, Codable, CodingKeyRepresentable {
    case red, green, blue
}

/// An enum-keyed dictionary inside a recursive model.
struct Palette: Codable, Equatable {
    var shades: [Color: Int]
    var next: [Palette]?
}

// MARK: Outcomes

/// What one decode gave: the value, or that it failed.
enum Outcome<T: Equatable>: Equatable {
    case value(T)
    case failure(String)

    init(_ body: () throws -> T) {
        do { self = .value(try body()) } catch { self = .failure("\(error)") }
    }

    var isFailure: Bool { if case .failure = self { true } else { false } }

    /// Equal values, or failures (the messages differ between the two libraries).
    func agrees(with other: Outcome<T>) -> Bool {
        switch (self, other) {
        case (.value(let a), .value(let b)): a == b
        case (.failure, .failure): true
        default: false
        }
    }
}

// MARK: What the input holds

/// Reads the input with the library's own parser, to find the documented differences it holds.
final class Survey: JSONEventHandler {
    /// The keys of each open object, as Swift compares strings (canonical equivalence).
    private var keys: [Set<String>] = []
    var hasRepeatedKey = false
    var depth = 0
    var maximumDepth = 0
    /// An integral number of 2⁵³ or more written with a fraction or exponent.
    var hasLargeIntegralDouble = false
    /// A number kept as text: beyond 64 bits, or an exponent beyond `Double`'s range.
    var hasNumberBeyondDouble = false

    func startObject() {
        keys.append([])
        opened()
    }
    func endObject() {
        keys.removeLast()
        depth -= 1
    }
    func startArray() { opened() }
    func endArray() { depth -= 1 }
    func key(_ key: JSONText) {
        if !keys[keys.count - 1].insert(key.string).inserted { hasRepeatedKey = true }
    }
    func number(_ value: JSONNumberText) {
        switch value.value {
        case .large: hasNumberBeyondDouble = true
        case .double(let double) where double.rounded() == double && double.magnitude >= 9_007_199_254_740_992:
            hasLargeIntegralDouble = true
        default: break
        }
    }

    private func opened() {
        depth += 1
        maximumDepth = max(maximumDepth, depth)
    }
}

// MARK: The target

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: count == 0 ? nil : start, count: count))
    let data = Data(bytes)

    let survey = Survey()
    var syntaxError: JSONSyntaxError?
    do {
        let parser = JSONEventParser(handler: survey)
        try parser.parseAll(data)
    } catch let error as JSONSyntaxError {
        syntaxError = error
    } catch {
        fuzzFailure("the survey parse threw \(type(of: error)): \(error)")
    }

    // Documented (README "Repeated keys", CodableOnTheTape.md): the last of repeated keys wins,
    // Foundation on Linux keeps the first.
    if survey.hasRepeatedKey { return 0 }
    // Documented (CodableOnTheTape.md, "Numbers are strict"): an integral number of 2⁵³ or more with
    // a fraction or exponent is not read as an integer by the library, and is by Foundation.
    if survey.hasLargeIntegralDouble { return 0 }
    // Documented (README "Strictness and conformance", CodableOnTheTape.md): a number beyond 64 bits
    // or `Double`'s range is kept as its text, and an underflowing exponent (`1e-400`) is an error
    // for every numeric type; Foundation rounds it, fails, or gives 0 for an integer.
    if survey.hasNumberBeyondDouble { return 0 }
    // Documented (README "Strictness and conformance"): the default depth limit is 512; Foundation's
    // is its own. Inputs nested over 128 deep are left out as well: 500 nested arrays took 3 s of
    // CPU per input here (AnyValue tries every kind at each level, under ASan), ten times the
    // timeout on a loaded machine; FuzzDocument covers depth.
    if survey.maximumDepth > 128 || syntaxError?.kind == .depthLimitExceeded { return 0 }

    let foundation = JSONDecoder()
    let elevate = ElevateJSONDecoder()

    let foundationAny = Outcome { try foundation.decode(AnyValue.self, from: data) }
    if let syntaxError, case .value = foundationAny {
        // Foundation accepts what the library rejects. Documented refusals:
        switch syntaxError.kind {
        case .invalidUTF8, .unpairedSurrogate:
            // README "Strictness and conformance": invalid UTF-8 and unpaired surrogate escapes are
            // rejected, never repaired.
            return 0
        case .invalidWhitespace:
            // README "Strictness and conformance": form feed and vertical tab are not whitespace.
            return 0
        default:
            // CodableOnTheTape.md: trailing commas are invalid JSON (RFC 8259); Foundation on Linux
            // accepts them.
            let text = String(decoding: bytes, as: UTF8.self)
            if text.range(of: #",\s*[\]}]"#, options: .regularExpression) != nil { return 0 }
            // README "Strictness and conformance": only UTF-8 is read (RFC 8259 §8.1); Foundation
            // also reads UTF-16 and UTF-32, which it tells by NUL bytes at the start.
            if bytes.prefix(4).contains(0) { return 0 }
        }
    }

    // `init(fromTape:)` against `init(from:)`, on every input, valid or not: the same text.
    let plainNode = outcomeText(Plain.Node.self, data)
    let directNode = outcomeText(Direct.Node.self, data)
    fuzzCheck(plainNode == directNode, "TapeDecodable Node: init(from:) \(plainNode), init(fromTape:) \(directNode)")
    let plainRecord = outcomeText([Plain.Record].self, data)
    let directRecord = outcomeText([Direct.Record].self, data)
    fuzzCheck(
        plainRecord == directRecord, "TapeDecodable [Record]: init(from:) \(plainRecord), init(fromTape:) \(directRecord)")

    if syntaxError != nil {
        // Not JSON: the library validates every byte (README), so every decode must fail.
        // Foundation is not compared: it leaves the text of members a model does not read
        // unchecked (a bad escape in an unread key's string decodes a Node of nils).
        fuzzCheck((Outcome { try elevate.decode(AnyValue.self, from: data) }).isFailure, "AnyValue decoded from invalid JSON")
        fuzzCheck((Outcome { try elevate.decode(JSON.self, from: data) }).isFailure, "JSON decoded from invalid JSON")
        fuzzCheck((Outcome { try elevate.decode(Node.self, from: data) }).isFailure, "Node decoded from invalid JSON")
        fuzzCheck((Outcome { try elevate.decode(Palette.self, from: data) }).isFailure, "Palette decoded from invalid JSON")
        fuzzCheck((Outcome { try elevate.decode([String: Int].self, from: data) }).isFailure, "[String: Int] decoded from invalid JSON")
        return 0
    }

    let elevateAny = Outcome { try elevate.decode(AnyValue.self, from: data) }
    fuzzCheck(
        foundationAny.agrees(with: elevateAny),
        "AnyValue: Foundation \(foundationAny), Elevate \(elevateAny)")

    // The library's JSON value, compared with Foundation's reading with every number a Double.
    let elevateJSON = Outcome { try elevate.decode(JSON.self, from: data) }
    switch (foundationAny, elevateJSON) {
    case (.value(let expected), .value(let json)):
        let converted = json.anyValue
        fuzzCheck(
            converted == expected.numbersAsDoubles,
            "JSON: Foundation \(expected.numbersAsDoubles), Elevate \(json)")
    case (.failure, .failure):
        break
    default:
        fuzzFailure("JSON: Foundation \(foundationAny), Elevate \(elevateJSON)")
    }

    let nodes = (Outcome { try foundation.decode(Node.self, from: data) }, Outcome { try elevate.decode(Node.self, from: data) })
    fuzzCheck(nodes.0.agrees(with: nodes.1), "Node: Foundation \(nodes.0), Elevate \(nodes.1)")

    let palettes = (
        Outcome { try foundation.decode(Palette.self, from: data) }, Outcome { try elevate.decode(Palette.self, from: data) }
    )
    fuzzCheck(palettes.0.agrees(with: palettes.1), "Palette: Foundation \(palettes.0), Elevate \(palettes.1)")

    let counts = (
        Outcome { try foundation.decode([String: Int].self, from: data) },
        Outcome { try elevate.decode([String: Int].self, from: data) }
    )
    fuzzCheck(counts.0.agrees(with: counts.1), "[String: Int]: Foundation \(counts.0), Elevate \(counts.1)")
    return 0
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
