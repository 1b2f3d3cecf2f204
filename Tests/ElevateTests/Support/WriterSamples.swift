import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Values for the writing side's suites (`JSONWriter`, `JSONStreamWriter`, `JSONEventWriter`,
/// `ElevateJSONEncoder`): seeded random trees with text that needs escaping or is easy to mangle and
/// doubles at every edge of the format, the writer's option combinations, a reader of each framing,
/// and `Tree`, any JSON tree as a `Swift.Encodable` with a hand-written `encode(to:)`, so that
/// `JSONEncoder` and `ElevateJSONEncoder` can be compared on arbitrary keys and values.
enum WriterSamples {
    /// Text that needs escaping or is easy to mangle: every control character, quotes, backslash,
    /// slash, DEL, U+2028/2029, a BOM, noncharacters, the last scalar, combining marks, emoji
    /// sequences, and text in other scripts.
    static let hostileScalars: [String] = {
        var pieces = (0..<0x20).map { String(Unicode.Scalar(UInt8($0))) }
        pieces += [
            "\"", "\\", "/", "\u{7F}", "\u{80}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}",
            "\u{FFFE}", "\u{FFFF}", "\u{10FFFF}", "\u{E000}", "\u{D7FF}", "é", "e\u{301}", "\u{301}", "漢字",
            "😀", "👩‍👩‍👧", "🇫🇷", "a", "Z", " ", "\u{E2}", "€", "\u{2027}", "\u{202A}", "<\\/script>", "\r\n",
        ]
        return pieces
    }()

    static func hostileString(_ random: inout SeededGenerator, maximumLength: Int = 12) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...maximumLength, using: &random) {
            text += hostileScalars.randomElement(using: &random)!
        }
        return text
    }

    /// Doubles at every edge of the format, and random bit patterns.
    static let edgeDoubles: [Double] = [
        0.0, -0.0, 0.1, 1.0 / 3.0, -1.0 / 3.0, 5.0, 1e308, -1e308, Double("5e-324")!, Double("-5e-324")!, .leastNonzeroMagnitude,
        .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne, 9007199254740992,
        Double("9007199254740993")!, 1e16, 1e-7, 1e21, 1e22, 123456.789, Double("2.2250738585072009e-308")!, Double("4.9406564584124654e-324")!,
        0.30000000000000004, 100, 1e15, 1e-5, 9.999999999999999e22, .pi, -.pi, 1.7976931348623157e308,
    ]

    static func randomDouble(_ random: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return edgeDoubles.randomElement(using: &random)!
        case 1:
            while true {
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        default: return Double.random(in: -1e9...1e9, using: &random)
        }
    }

    /// A random tree in the form `JSONValueBuilder` gives back: the same value must come out of a
    /// write and a parse.
    static func randomTree(_ random: inout SeededGenerator, depth: Int = 0, maximumDepth: Int = 6) -> Any {
        let containerChance = depth < maximumDepth ? 3 : 0
        switch Int.random(in: 0..<(10 + containerChance), using: &random) {
        case 0: return NSNull()
        case 1: return Bool.random(using: &random)
        case 2: return [Int.min, Int.max, 0, -1, 1].randomElement(using: &random)!
        case 3: return Int(truncatingIfNeeded: random.next())
        case 4: return UInt.random(in: UInt(Int.max) + 1...UInt.max, using: &random)
        case 5, 6: return randomDouble(&random)
        case 7:
            return JSONLargeNumber(
                text: ["123456789012345678901234567890", "-99999999999999999999", "1e-400", "-1e-400",
                       "18446744073709551616", "-9223372036854775809"].randomElement(using: &random)!)
        case 8, 9: return hostileString(&random)
        case 10, 11:
            var array: [Any] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                array.append(randomTree(&random, depth: depth + 1, maximumDepth: maximumDepth))
            }
            return array
        default:
            var object: [String: Any] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                object[hostileString(&random, maximumLength: 4)] = randomTree(
                    &random, depth: depth + 1, maximumDepth: maximumDepth)
            }
            return object
        }
    }

    static let optionCombinations: [JSONWriter.Options] = [
        .init(), .init(prettyPrinted: true), .init(sortedKeys: true), .init(prettyPrinted: true, sortedKeys: true),
        .init(escapesSlashes: true, escapesLineSeparators: false),
        .init(prettyPrinted: true, escapesSlashes: true, escapesLineSeparators: false),
    ]

    static func readBack(_ output: [UInt8], framing: JSONFraming) throws -> [Any] {
        switch framing {
        case .array:
            return try #require(try JSONValueBuilder.value(from: Data(output)) as? [Any])
        case .jsonLines:
            #expect(output.last == UInt8(ascii: "\n") || output.isEmpty)
            return try output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map {
                try JSONValueBuilder.value(from: Data($0))
            }
        case .concatenated:
            // Compact values, one per line.
            return try output.split(separator: UInt8(ascii: "\n")).map { try JSONValueBuilder.value(from: Data($0)) }
        case .jsonTextSequence:
            // Each record: the separator, a value, a newline.
            #expect(output.first == 0x1E || output.isEmpty)
            return try output.split(separator: 0x1E).map {
                #expect($0.last == UInt8(ascii: "\n"))
                return try JSONValueBuilder.value(from: Data($0))
            }
        }
    }

    /// Numbers as `Double`s, and large numbers as their text (the string `Tree` writes for them).
    static func numbersAsDoubles(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]: return object.mapValues(numbersAsDoubles)
        case let array as [Any]: return array.map(numbersAsDoubles)
        case let bool as Bool: return bool
        case let int as Int: return Double(int)
        case let uint as UInt: return Double(uint)
        case let large as JSONLargeNumber: return large.text
        default: return value
        }
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    static let formattings: [JSONEncoder.OutputFormatting] = [
        [.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
        [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
    ]

    /// Any JSON tree as a Codable value with a hand-written `encode(to:)`, so that JSONEncoder and
    /// ElevateJSONEncoder can be compared on arbitrary keys and values.
    indirect enum Tree: Swift.Encodable {
        case null, bool(Bool), int(Int), uint(UInt), double(Double), string(String)
        case array([Tree]), object([(String, Tree)])

        init(_ json: JSON) {
            switch json {
            case .null: self = .null
            case .bool(let value): self = .bool(value)
            case .string(let value): self = .string(value)
            case .number(.int(let value)): self = .int(value)
            case .number(.uint(let value)): self = .uint(value)
            case .number(.double(let value)): self = .double(value)
            case .number(.large(let text)): self = .string(text)
            case .array(let elements): self = .array(elements.map(Tree.init))
            case .object(let members):
                self = .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, Tree($0.value)) })
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .bool(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .int(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .uint(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .double(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .string(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(element) }
            case .object(let members):
                var container = encoder.container(keyedBy: AnyKey.self)
                for (key, value) in members { try container.encode(value, forKey: AnyKey(key)) }
            }
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Empty: Swift.Encodable {
        func encode(to encoder: any Encoder) throws {}
    }
}
