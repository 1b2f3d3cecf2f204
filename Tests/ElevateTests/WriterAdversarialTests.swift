import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Adversarial and round-trip tests of the writing side: `JSONWriter`, `JSONStreamWriter`,
/// `JSONEventWriter` and `ElevateJSONEncoder`, each checked against an independent reader (this
/// library's parser, `JSONSerialization`, `JSONDecoder`) or against Foundation's `JSONEncoder` text.
@Suite struct WriterAdversarialTests {
    // MARK: Random values

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

    @Test func randomTreesRoundTripThroughEveryOption() throws {
        var random = SeededGenerator(state: 0xA11CE)
        for round in 0..<300 {
            let tree = Self.randomTree(&random)
            var parsedTexts: [Any] = []
            for options in Self.optionCombinations {
                let data = try JSONWriter.data(for: tree, options: options)
                let text = String(decoding: data, as: UTF8.self)
                let parsed = try JSONValueBuilder.value(from: data)
                #expect(treesEqual(tree, parsed), "round \(round) \(options): \(text)")
                // Valid for Foundation too.
                #expect(
                    (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil,
                    "round \(round) \(options): \(text)")
                // Escaping options keep the text ASCII where they promise to.
                if options.escapesLineSeparators {
                    #expect(!text.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
                }
                if options.escapesSlashes {
                    #expect(!text.replacingOccurrences(of: "\\/", with: "").contains("/"))
                }
                #expect(!text.unicodeScalars.contains { $0.value < 0x20 && !options.prettyPrinted })
                parsedTexts.append(parsed)
            }
            #expect(parsedTexts.allSatisfy { treesEqual($0, parsedTexts[0]) })
            // The mutable JSON value writes the same value, numbers exact.
            let json = try JSON(foundationValue: tree)
            let jsonData = try JSONWriter.data(for: json, options: .init(sortedKeys: true))
            #expect(treesEqual(tree, try JSONValueBuilder.value(from: jsonData)), "round \(round) JSON")
        }
    }

    @Test func longStringsAcrossTheStreamBuffer() throws {
        var random = SeededGenerator(state: 0x10C)
        var strings: [String] = []
        for length in [JSONStreamWriter.bufferSize - 1, JSONStreamWriter.bufferSize, 3 * JSONStreamWriter.bufferSize + 7] {
            var text = ""
            while text.utf8.count < length { text += Self.hostileScalars.randomElement(using: &random)! }
            strings.append(text)
        }
        for framing in [JSONFraming.array, .jsonLines, .concatenated] {
            var output: [UInt8] = []
            let writer = JSONStreamWriter(framing: framing) { output.append(contentsOf: $0) }
            for string in strings { try writer.write([string: string]) }
            try writer.finish()
            let values = try Self.readBack(output, framing: framing)
            #expect(values.count == strings.count)
            for (value, string) in zip(values, strings) { #expect(treesEqual(value, [string: string])) }
        }
    }

    // MARK: Numbers

    @Test func numbersOfEveryKindReadBackExactly() throws {
        // Floats: the Float's own shortest text, which reads back as the same Float.
        let floats: [Float] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -0.0, 0.1, 1.0 / 3.0, Float("16777217")!,
            Float("1e-45")!, 3.4028235e38, .ulpOfOne,
        ]
        for float in floats {
            let text = try JSONWriter.string(for: float)
            #expect(text == float.description)
            #expect(Float(text)?.bitPattern == float.bitPattern, "\(text)")
            #expect(try JSONWriter.string(for: NSNumber(value: float)) == text)
        }
        // Doubles, through NSNumber and CGFloat too.
        for double in Self.edgeDoubles {
            let text = try JSONWriter.string(for: double)
            #expect(Double(text)?.bitPattern == double.bitPattern, "\(text)")
            #expect(try JSONWriter.string(for: NSNumber(value: double)) == text)
            #expect(try JSONWriter.string(for: CGFloat(double)) == text)
            let parsed = try JSONValueBuilder.value(from: Data(text.utf8))
            #expect((parsed as? Double)?.bitPattern == double.bitPattern, "\(text)")
        }
        // Decimals: their exact text, which JSON grammar accepts and Decimal reads back.
        let decimals: [Decimal] = [
            .greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 0,
            Decimal(string: "-0.000123")!, Decimal(string: "12345678901234567890123456789012345678")!,
            Decimal(string: "1e100")!, Decimal(string: "-1e-100")!, Decimal(sign: .minus, exponent: 0, significand: 0),
        ]
        for decimal in decimals {
            let text = try JSONWriter.string(for: decimal)
            #expect(JSONNumberFormat.isValid(text.utf8), "\(text)")
            #expect(Decimal(string: text) == decimal, "\(text)")
            #expect(try JSONWriter.string(for: NSDecimalNumber(decimal: decimal)) == text)
        }
        // Integers of every width, at their limits, plain and as NSNumber.
        let integers: [(Any, String)] = [
            (Int8.min, "-128"), (UInt8.max, "255"), (Int64.min, "-9223372036854775808"),
            (UInt64.max, "18446744073709551615"), (UInt.max, "18446744073709551615"),
            (NSNumber(value: UInt64.max), "18446744073709551615"), (NSNumber(value: Int64.min), "-9223372036854775808"),
            (NSNumber(value: UInt8.max), "255"), (NSNumber(value: Int16.min), "-32768"),
            (NSNumber(value: UInt32.max), "4294967295"), (NSNumber(value: UInt(Int.max) + 1), "9223372036854775808"),
        ]
        for (value, expected) in integers { #expect(try JSONWriter.string(for: value) == expected) }
    }

    @Test func nonFiniteNumbersAreRefusedEverywhere() throws {
        let values: [Any] = [
            Double.nan, Double.infinity, -Double.infinity, Float.nan, -Float.infinity, Decimal.nan,
            NSNumber(value: Double.nan), NSNumber(value: Float.infinity), CGFloat.infinity, JSON(Double.nan),
            NSDecimalNumber.notANumber, Double.signalingNaN,
        ]
        for (index, value) in values.enumerated() {
            let error = writerError { _ = try JSONWriter.data(for: ["a": [0, value]]) }
            #expect(error?.kind == .nonFiniteNumber, "\(index): \(value)")
            #expect(error?.path == "a[1]", "\(index)")
            var output: [UInt8] = []
            let writer = JSONStreamWriter(framing: .array) { output.append(contentsOf: $0) }
            try writer.write(1)
            #expect(writerError { try writer.write(value) }?.kind == .nonFiniteNumber)
            try writer.write(2)
            try writer.finish()
            #expect(String(decoding: output, as: UTF8.self) == "[1,2]")
        }
    }

    // MARK: JSONEventWriter

    /// Parses `bytes` into a ``JSONEventWriter`` in chunks of the given sizes.
    static func rewriteInChunks(_ bytes: [UInt8], options: JSONWriter.Options, chunkSizes: [Int], parsing: JSONParsingOptions = .default) throws -> [UInt8] {
        var output: [UInt8] = []
        let writer = JSONEventWriter(options: options) { output.append(contentsOf: $0) }
        try parseInChunks(JSONEventParser(handler: writer, options: parsing), bytes, chunkSizes: chunkSizes)
        try writer.finish()
        return output
    }

    /// The event writer gives JSONWriter's text, byte for byte: a document written with sorted keys
    /// re-emitted in the same options is the same bytes, compact or pretty, at any depth.
    @Test func eventWriterTextIsJSONWritersText() throws {
        var random = SeededGenerator(state: 0xE7E7)
        for round in 0..<200 {
            var tree = Self.randomTree(&random, maximumDepth: 5)
            if round % 20 == 0 {
                // Past YAJL's 127 open containers, twice over, through objects and arrays.
                for level in 0..<(130 + round) {
                    if level % 3 == 0 {
                        tree = ["k\(level % 7)": tree, "z": [1] as [Any]] as [String: Any]
                    } else {
                        tree = [tree, [String: Any]()] as [Any]
                    }
                }
            }
            let maximumDepth = 1024
            for options in Self.optionCombinations where options.sortedKeys || round % 2 == 0 {
                var sorted = options
                sorted.sortedKeys = true
                sorted.maximumDepth = maximumDepth
                let expected = try JSONWriter.bytes(for: tree, options: sorted)
                let compact = try JSONWriter.bytes(for: tree, options: .init(sortedKeys: true, maximumDepth: maximumDepth))
                let chunks = [[1 << 20], [1, 2, 3, 7], [Int.random(in: 1...64, using: &random)]][round % 3]
                let rewritten = try Self.rewriteInChunks(
                    compact, options: sorted, chunkSizes: chunks, parsing: .init(maximumDepth: maximumDepth))
                #expect(
                    rewritten == expected,
                    "round \(round) \(options): \(String(decoding: rewritten.prefix(300), as: UTF8.self)) vs \(String(decoding: expected.prefix(300), as: UTF8.self))")
            }
        }
    }

    @Test func eventWriterKeepsRepeatedKeysAndSourceNumbers() throws {
        let document = #"{"a":1,"a":{"b":[1.0,-0,1E+2,1e400,123456789012345678901234567890]},"a":"\u00e9","e\u0301":0,"é":1}"#
        let bytes = Array(document.utf8)
        let compact = try rewrite(bytes)
        let expected = #"{"a":1,"a":{"b":[1.0,-0,1E+2,1e400,123456789012345678901234567890]},"a":"\#u{E9}","e\#u{301}":0,"\#u{E9}":1}"#
        #expect(String(decoding: compact, as: UTF8.self) == expected)
        #expect(Array(compact) == Array(expected.utf8))
        #expect(try recordEvents(try rewrite(bytes, options: .init(prettyPrinted: true))) == recordEvents(bytes))
        // Refusing repeats is the parser's job: the error reaches the caller, nothing claims success.
        var parsing = JSONParsingOptions()
        parsing.rejectsDuplicateKeys = true
        #expect(throws: (any Error).self) { _ = try rewrite(bytes, parsing: parsing) }
    }

    static func withKey(_ key: String, _ body: (JSONText) throws -> Void) throws {
        try Array(key.utf8).withUnsafeBytes { try body(JSONText(bytes: $0)) }
    }

    @Test func eventWriterRefusesBadSequencesDeepInside() throws {
        for depth in [1, 126, 127, 128, 200, 254, 255, 300] {
            // A close of the wrong kind, past the splice.
            var output: [UInt8] = []
            let writer = JSONEventWriter { output.append(contentsOf: $0) }
            for _ in 0..<depth { try writer.startArray() }
            try writer.startObject()
            try Self.withKey("k") { try writer.key($0) }
            #expect(writerError { try writer.endObject() }?.kind == .invalidEventSequence)
            #expect(throws: (any Error).self) { try writer.null() }
            #expect(throws: (any Error).self) { try writer.finish() }
            // Stopping inside a value: finish flushes what there is and says it is incomplete.
            let second = JSONEventWriter { _ in }
            for _ in 0..<depth {
                try second.startObject()
                try Self.withKey("a") { try second.key($0) }
            }
            try second.null()
            #expect(writerError { try second.finish() }?.kind == .invalidEventSequence)
            #expect(!second.isFinished)
        }
        // Depth limit at the parser's maximum, through the writer's own limit.
        let writer = JSONEventWriter(options: .init(maximumDepth: 300)) { _ in }
        for _ in 0..<300 { try writer.startArray() }
        #expect(writerError { try writer.startArray() }?.kind == .depthLimitExceeded)
    }

    @Test(.enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)))
    func eventWriterMatchesJSONWriterOnTheCorpus() throws {
        var checked = 0
        for name in SharedCorpus.testParsingFiles(prefix: "y_") {
            let bytes = try SharedCorpus.testParsingBytes(name)
            guard let tree = try? JSONValueBuilder.value(from: Data(bytes)) else { continue }
            for options in Self.optionCombinations {
                let rewritten = try rewrite(bytes, options: options)
                // Same value, same events, valid for Foundation.
                #expect(try recordEvents(rewritten) == recordEvents(bytes), "\(name)")
                #expect(treesEqual(try JSONValueBuilder.value(from: Data(rewritten)), tree), "\(name)")
                #expect((try? JSONSerialization.jsonObject(with: Data(rewritten), options: .fragmentsAllowed)) != nil, "\(name)")
            }
            checked += 1
        }
        #expect(checked > 50)
    }

    // MARK: JSONStreamWriter

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
        }
    }

    @Test(arguments: [JSONFraming.array, .jsonLines], [false, true])
    func streamWriterRoundTripsManyValues(framing: JSONFraming, pretty: Bool) throws {
        var random = SeededGenerator(state: 0x57E4 + (pretty ? 1 : 0))
        var trees: [Any] = []
        var output: [UInt8] = []
        var chunks = 0
        let writer = JSONStreamWriter(framing: framing, options: .init(prettyPrinted: pretty)) {
            chunks += 1
            output.append(contentsOf: $0)
        }
        for _ in 0..<2_000 {
            let tree = Self.randomTree(&random, maximumDepth: 3)
            trees.append(tree)
            try writer.write(tree)
        }
        try writer.finish()
        try writer.finish()
        #expect(writerError { try writer.write(1) }?.kind == .writerFinished)
        #expect(writer.count == trees.count)
        #expect(chunks > 1)
        let values = try Self.readBack(output, framing: framing)
        #expect(values.count == trees.count)
        #expect(zip(values, trees).allSatisfy(treesEqual))
        if framing == .jsonLines {
            // One value per line, whatever the options.
            #expect(output.count { $0 == UInt8(ascii: "\n") } == trees.count)
        }
    }

    /// Every write is accounted for: a full disk (`/dev/full`) or a closed handle is an error from
    /// the call that reached the file, from every later call, and from `finish()`.
    @Test(arguments: [JSONFraming.array, .jsonLines, .concatenated])
    func streamWriterReportsFileHandleErrors(framing: JSONFraming) throws {
        if let full = FileHandle(forWritingAtPath: "/dev/full") {
            let writer = JSONStreamWriter(fileHandle: full, framing: framing)
            try writer.write(["small": 1])
            #expect(throws: (any Error).self) { try writer.finish() }
            #expect(throws: (any Error).self) { try writer.finish() }
            #expect(throws: (any Error).self) { try writer.write(2) }

            // Filling the buffer fails in write itself.
            let second = JSONStreamWriter(fileHandle: full, framing: framing)
            var failedAt: Int?
            for index in 0..<10_000 {
                do { try second.write(String(repeating: "x", count: 100)) } catch {
                    failedAt = index
                    break
                }
            }
            #expect(failedAt != nil)
            #expect(throws: (any Error).self) { try second.flush() }
            #expect(throws: (any Error).self) { try second.finish() }
            try full.close()
        }

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-adv-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        let writer = JSONStreamWriter(fileHandle: handle, framing: framing)
        try writer.write(1)
        try writer.flush()
        try handle.close()
        try writer.write(2)
        #expect(throws: (any Error).self) { try writer.finish() }
        #expect(throws: (any Error).self) { try writer.write(3) }
        #expect(try Data(contentsOf: url) == Data((framing == .array ? "[1" : framing == .jsonLines ? "1\n" : "1").utf8))
    }

    @Test func streamWriterWritesCodableAndJSONValuesLikeTheEncoder() throws {
        var random = SeededGenerator(state: 0xC0DE)
        var output: [UInt8] = []
        let writer = JSONStreamWriter(framing: .jsonLines) { output.append(contentsOf: $0) }
        var trees: [Any] = []
        for index in 0..<300 {
            let tree = Self.randomTree(&random, maximumDepth: 4)
            trees.append(tree)
            let json = try JSON(foundationValue: tree)
            switch index % 3 {
            case 0: try writer.write(json)
            case 1: try writer.write(Tree(json), encoder: nil)
            default: try writer.write(Tree(json), encoder: ElevateJSONEncoder())
            }
        }
        try writer.finish()
        let values = try Self.readBack(output, framing: .jsonLines)
        for (index, (value, tree)) in zip(values, trees).enumerated() {
            if index % 3 == 0 {
                #expect(treesEqual(value, tree), "\(index)")
            } else {
                // Through Codable, doubles that are integers lose their ".0", as with JSONEncoder.
                #expect(treesEqual(Self.numbersAsDoubles(value), Self.numbersAsDoubles(tree)), "\(index)")
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

    // MARK: ElevateJSONEncoder

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

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    static let formattings: [JSONEncoder.OutputFormatting] = [
        [.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
        [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
    ]

    @Test func encoderMatchesJSONEncoderOnRandomTrees() throws {
        var random = SeededGenerator(state: 0xF0F0)
        for round in 0..<200 {
            var json = try JSON(foundationValue: Self.randomTree(&random, maximumDepth: 5))
            if round % 25 == 0 {
                for level in 0..<(120 + round) { json = level % 2 == 0 ? .array([json, .object([:])]) : .object(["k": json, "e": .array([])]) }
            }
            let tree = Tree(json)
            for formatting in Self.formattings {
                let foundation = JSONEncoder()
                foundation.outputFormatting = formatting
                let elevate = ElevateJSONEncoder()
                elevate.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
                let expected = try foundation.encode(tree)
                let actual = try elevate.encode(tree)
                #expect(Self.text(actual) == Self.text(expected), "round \(round) \(formatting)")
                // Unsorted, the streamed text holds the same value.
                elevate.outputFormatting.remove(.sortedKeys)
                let streamed = try elevate.encode(tree)
                #expect(
                    treesEqual(try JSONValueBuilder.value(from: streamed, options: .init(maximumDepth: 2048)), try JSONValueBuilder.value(from: expected, options: .init(maximumDepth: 2048))),
                    "round \(round) \(formatting)")
            }
        }
    }

    /// An empty container in pretty output is `JSONEncoder`'s `[\n\n<indent>]` with an empty middle
    /// line, also nested past YAJL's 127 levels, where a child generator writes it (the blank line
    /// carried the child's indentation: trailing spaces, so not JSONEncoder's bytes).
    @Test(arguments: [1, 126, 127, 128, 200, 300])
    func prettyEmptyContainersPastYAJLsDepthAreJSONEncoders(depth: Int) throws {
        var json = JSON.object(["a": .array([]), "b": .object([:]), "c": .array([.array([]), .object([:])])])
        for level in 0..<depth { json = level % 2 == 0 ? .array([json]) : .object(["k": json]) }
        let tree = Tree(json)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
        let elevate = ElevateJSONEncoder()
        elevate.outputFormatting = [.prettyPrinted, .sortedKeys]
        let expected = Self.text(try foundation.encode(tree))
        #expect(Self.text(try elevate.encode(tree)) == expected)
        // Streamed (members in encoding order, here already sorted): the same text.
        elevate.outputFormatting = [.prettyPrinted]
        #expect(Self.text(try elevate.encode(tree)) == expected)
        // No line ends in a space.
        #expect(!expected.contains(" \n"))
    }

    /// Codable values in a pretty stream are indented like any other value, empty containers
    /// included: `[]` and `{}`, as the writer's options promise, not YAJL's `[`, a line holding
    /// only the stream's indentation, and `]`.
    @Test(arguments: [JSONFraming.array, .concatenated])
    func prettyStreamWritesEmptyCodableContainersCompact(framing: JSONFraming) throws {
        struct Holder: Swift.Encodable {
            var list: [Int] = []
            var map: [String: Int] = [:]
            var empty = Empty()
            var nested: [[String: [Int]]] = [[:], ["x": []]]
        }
        let options = JSONWriter.Options(prettyPrinted: true, sortedKeys: true)
        var codable: [UInt8] = []
        let codableWriter = JSONStreamWriter(framing: framing, options: options) { codable.append(contentsOf: $0) }
        try codableWriter.write(Holder(), encoder: nil)
        try codableWriter.write([Int](), encoder: nil)
        try codableWriter.write([String: Empty](), encoder: nil)
        try codableWriter.finish()
        var plain: [UInt8] = []
        let plainWriter = JSONStreamWriter(framing: framing, options: options) { plain.append(contentsOf: $0) }
        try plainWriter.write(
            ["list": [Any](), "map": [String: Any](), "empty": [String: Any](), "nested": [[String: Any](), ["x": [Any]()]]]
                as [String: Any])
        try plainWriter.write([Any]())
        try plainWriter.write([String: Any]())
        try plainWriter.finish()
        #expect(String(decoding: codable, as: UTF8.self) == String(decoding: plain, as: UTF8.self))
    }

    /// Encoder API uses that streaming cannot follow, each compared with JSONEncoder's text.
    struct Hostile: Swift.Encodable {
        var pattern: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            switch pattern {
            case 0:
                // The same key twice: the last value wins.
                try container.encode(1, forKey: AnyKey("a"))
                try container.encode([2, 3], forKey: AnyKey("a"))
            case 1:
                // A nested container written to after later members.
                var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
                try container.encode("after", forKey: AnyKey("z"))
                try nested.encode(true, forKey: AnyKey("late"))
                var list = container.nestedUnkeyedContainer(forKey: AnyKey("l"))
                try container.encode(0, forKey: AnyKey("m"))
                try list.encode(1)
                var inner = list.nestedUnkeyedContainer()
                try list.encode(3)
                try inner.encode(2)
            case 2:
                // superEncoder, under "super" and under a key, used after the parent moved on.
                let superEncoder = container.superEncoder()
                let keyed = container.superEncoder(forKey: AnyKey("s"))
                try container.encode(1, forKey: AnyKey("x"))
                var single = superEncoder.singleValueContainer()
                try single.encode("base")
                var keyedContainer = keyed.container(keyedBy: AnyKey.self)
                try keyedContainer.encode(Optional<Int>.none, forKey: AnyKey("nil"))
            case 3:
                // Keys that need escaping, and two spellings of one key, which are equal Swift strings.
                for key in ["\"", "\\", "\u{0}", "/", "\u{2028}", "\u{1F}\u{7F}", "", " ", "é", "e\u{301}", "😀"] {
                    try container.encode(key, forKey: AnyKey(key))
                }
            case 4:
                // Nested optionals and empty containers.
                let values: [Int??] = [nil, .some(nil), 3]
                try container.encode(values, forKey: AnyKey("o"))
                try container.encodeIfPresent(Optional<Int?>.some(nil), forKey: AnyKey("p"))
                try container.encodeIfPresent(Optional<Int?>.none, forKey: AnyKey("q"))
                _ = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("e"))
                _ = container.nestedUnkeyedContainer(forKey: AnyKey("f"))
                try container.encode([String: Int](), forKey: AnyKey("g"))
                try container.encode([[Int]](), forKey: AnyKey("h"))
                try container.encode(Empty(), forKey: AnyKey("i"))
            default:
                // A nested container asked for twice under one key: the same object.
                var first = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
                try first.encode(1, forKey: AnyKey("a"))
                var second = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
                try second.encode(2, forKey: AnyKey("b"))
            }
        }
    }

    struct Empty: Swift.Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test(arguments: 0..<6)
    func encoderMatchesJSONEncoderOnHostileEncodeTo(pattern: Int) throws {
        for formatting in Self.formattings {
            let foundation = JSONEncoder()
            foundation.outputFormatting = formatting
            let elevate = ElevateJSONEncoder()
            elevate.outputFormatting = ElevateJSONEncoder.OutputFormatting(formatting)
            let value = [Hostile(pattern: pattern)]
            #expect(Self.text(try elevate.encode(value)) == Self.text(try foundation.encode(value)), "\(formatting)")
            // Streaming (unsorted) holds the same value.
            elevate.outputFormatting.remove(.sortedKeys)
            let streamed = try JSONSerialization.jsonObject(with: try elevate.encode(value)) as! NSArray
            let reference = try JSONSerialization.jsonObject(with: try foundation.encode(value)) as! NSArray
            #expect(streamed == reference, "\(formatting)")
        }
    }

    struct SnakeKeys: Swift.Encodable {
        static let names = [
            "myURLProperty", "URLs", "_leading", "trailing_", "__double", "a1B2", "ÉtéÀ", "ǅungla", "alreadySnake_case",
            "ABC", "aBC", "a", "", "with space", "Ωmega", "iOS", "HTTPServer2", "x-Y", "straße", "İstanbul",
        ]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for (index, name) in Self.names.enumerated() { try container.encode(index, forKey: AnyKey(name)) }
        }
    }

    @Test func snakeCaseKeysMatchJSONEncoder() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let elevate = ElevateJSONEncoder()
        elevate.outputFormatting = .sortedKeys
        elevate.keyEncodingStrategy = .convertToSnakeCase
        #expect(Self.text(try elevate.encode(SnakeKeys())) == Self.text(try foundation.encode(SnakeKeys())))
    }

    @Test func convertedNonConformingFloatsAreEscaped() throws {
        let foundation = JSONEncoder()
        foundation.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "\"+∞/", negativeInfinity: "\u{0}-\u{2028}", nan: "\\n")
        foundation.outputFormatting = .sortedKeys
        let elevate = ElevateJSONEncoder()
        elevate.nonConformingFloatEncodingStrategy = .init(foundation.nonConformingFloatEncodingStrategy)
        elevate.outputFormatting = .sortedKeys
        let values: [String: [Double]] = ["d": [.infinity, -.infinity, .nan, 1]]
        let floats: [Float] = [.infinity, -.infinity, .nan, 0.1]
        #expect(Self.text(try elevate.encode(values)) == Self.text(try foundation.encode(values)))
        #expect(Self.text(try elevate.encode(floats)) == Self.text(try foundation.encode(floats)))
    }

    @Test func encoderErrorsOnNonFiniteNumbersNameThePath() throws {
        struct Holder: Swift.Encodable {
            var list: [Float]
        }
        for encoder in [ElevateJSONEncoder()] {
            do {
                _ = try encoder.encode([Holder(list: [1, .nan])])
                Issue.record("no error")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.map(\.stringValue) == ["Index 0", "list", "Index 1"])
            }
        }
    }

    /// A Foundation dictionary whose keys are different `AnyHashable`s but the same string (a
    /// `String` and an `NSString` of the same text) cannot be written as JSON without losing a
    /// member: it is an error, where one of the two values was silently dropped.
    @Test func keysThatAreTheSameStringAreAnError() throws {
        let value: [AnyHashable: Any] = [AnyHashable("a"): 1, AnyHashable(NSString(string: "a")): 2, AnyHashable("b"): 3]
        try #require(value.count == 3, "the platform merges these keys; nothing to test")
        let error = writerError { _ = try JSONWriter.string(for: value) }
        #expect(error?.kind == .invalidKey)
        #expect(error?.message.contains(#""a""#) == true)
        // Distinct strings still write.
        let fine: [AnyHashable: Any] = [AnyHashable("a"): 1, AnyHashable(NSString(string: "b")): 2]
        #expect(try JSONWriter.string(for: fine, options: .init(sortedKeys: true)) == #"{"a":1,"b":2}"#)
    }
}
