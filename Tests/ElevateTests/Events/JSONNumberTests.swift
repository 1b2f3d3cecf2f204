import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func parseNumber(_ text: String) -> JSONNumber {
    Array(text.utf8).withUnsafeBytes { JSONNumber.parse($0) }
}

/// Collects converted numbers as the parser delivers them.
private final class NumberCollector: JSONEventHandler {
    var numbers: [JSONNumber] = []
    func number(_ value: JSONNumberText) { numbers.append(value.value) }
}

private func numbersFromEvents(_ json: String, chunkSize: Int? = nil) throws -> [JSONNumber] {
    let collector = NumberCollector()
    let parser = JSONEventParser(handler: collector)
    let bytes = Array(json.utf8)
    var offset = 0
    let step = chunkSize ?? bytes.count
    while offset < bytes.count {
        try parser.parse(Array(bytes[offset..<min(bytes.count, offset + step)]))
        offset += step
    }
    try parser.finish()
    return collector.numbers
}

private func bitExact(_ number: JSONNumber, _ expected: Double) -> Bool {
    if case .double(let value) = number { return value.bitPattern == expected.bitPattern }
    // A non-integer whose nearest Double is an integer (every fraction between 2⁵² and 2⁵³) is kept
    // as its text, so that integer reads refuse it; its Double is still the nearest one.
    if case .large(let text) = number, expected == expected.rounded(), text.contains(where: { ".eE".contains($0) }) {
        return number.exactDouble?.bitPattern == expected.bitPattern
    }
    return false
}

/// Parses `bytes` in chunks of `chunkSize` into values, printing how long it took (no timing is
/// asserted: the machine is shared).
private func buildValue(_ bytes: [UInt8], chunkSize: Int, label: String) throws -> Any? {
    let builder = JSONValueBuilder()
    let parser = JSONEventParser(handler: builder)
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let end = min(buffer.count, offset + chunkSize)
                try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
            }
        }
        try parser.finish()
    }
    print("\(label): \(bytes.count) bytes in chunks of \(chunkSize): \(elapsed)")
    return builder.takeValue()
}

@Suite struct JSONNumberTests {
    static let cases: [(String, JSONNumber)] = [
        ("0", .int(0)),
        ("-9223372036854775808", .int(.min)),
        ("9223372036854775807", .int(.max)),
        ("9223372036854775808", .uint(UInt(Int.max) + 1)),
        ("18446744073709551615", .uint(.max)),
        ("18446744073709551616", .large("18446744073709551616")),
        ("-9223372036854775809", .large("-9223372036854775809")),
        ("99999999999999999999", .large("99999999999999999999")),
        ("1.5", .double(1.5)),
        ("-1.5", .double(-1.5)),
        ("1e22", .double(1e22)),
        ("1e23", .double(1e23)),
        ("0.1", .double(0.1)),
        ("1E+2", .double(100)),
        ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ("4.9406564584124654e-324", .double(.leastNonzeroMagnitude)),
        ("2.2250738585072014e-308", .double(.leastNormalMagnitude)),
        ("1e-400", .large("1e-400")),
        ("1e400", .large("1e400")),
        ("-1e400", .large("-1e400")),
        ("1e999999999", .large("1e999999999")),
        ("0e999999999", .double(0)),
        ("1.8e308", .large("1.8e308")),
        ("2e-324", .large("2e-324")),
        ("3e-324", .double(.leastNonzeroMagnitude)),
    ]

    @Test(arguments: cases)
    func parsesWithoutLoss(_ text: String, _ expected: JSONNumber) {
        let number = parseNumber(text)
        #expect(number == expected)
        if case .double(let value) = expected {
            #expect(bitExact(number, value), "bit pattern")
        }
    }

    @Test func negativeZeroIsADoubleWithItsSign() throws {
        for text in ["-0", "-0.0", "-0e5", "-0.000e-10"] {
            guard case .double(let value) = parseNumber(text) else {
                Issue.record("\(text) is not a double")
                continue
            }
            #expect(value == 0 && value.sign == .minus, "\(text)")
        }
        #expect(parseNumber("0") == .int(0))
    }

    @Test func eventsCarryTheSameNumbersAtAnyChunking() throws {
        let json = "[" + Self.cases.map(\.0).joined(separator: ",") + "]"
        let whole = try numbersFromEvents(json)
        #expect(whole == Self.cases.map(\.1))
        #expect(try numbersFromEvents(json, chunkSize: 1) == whole)
        #expect(try numbersFromEvents("-0") == [.double(-0.0)])
        #expect(try numbersFromEvents("1e400").first == .large("1e400"))
    }

    @Test func matchesSwiftOnShortestDescriptionsOfRandomDoubles() {
        var generator = SplitMix64(seed: randomTestSeed)
        var failures: [String] = []
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            let text = value.description
            if !bitExact(parseNumber(text), Double(text)!) { failures.append(text) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10)), ELEVATE_TEST_SEED=\(randomTestSeed)")
    }

    @Test func matchesSwiftOnSeventeenDigitMantissas() {
        var generator = SplitMix64(seed: randomTestSeed &+ 1)
        var failures: [String] = []
        for _ in 0..<20_000 {
            let mantissa = UInt64.random(in: 10_000_000_000_000_000...99_999_999_999_999_999, using: &generator)
            let digits = String(mantissa)
            let point = Int.random(in: 1...17, using: &generator)
            let exponent = Int.random(in: -300...290, using: &generator)
            let text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point)) + "e\(exponent)"
            if !bitExact(parseNumber(text), Double(text)!) { failures.append(text) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10)), ELEVATE_TEST_SEED=\(randomTestSeed)")
    }

    @Test func longMantissasRoundCorrectly() {
        // Halfway cases and digits beyond the 19 that fit a UInt64.
        for text in [
            "9007199254740993", "9007199254740993.0", "9007199254740992.5000000000000000001",
            "0.30000000000000000000000000000000001", "123456789012345678901234567890e-10",
            "2.47032822920623272088e-324", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
        ] {
            let expected = Double(text)!
            let number = parseNumber(text)
            if case .int(let value) = number {
                #expect(Double(value) == expected)
            } else if expected == 0 {
                #expect(number == .large(text), "rounds to zero: kept as text")
            } else if expected == expected.rounded(), text.hasPrefix("1.0000") {
                // Not integers, though their nearest Double is 1.0: kept as text, so that no
                // integer read takes them for 1; their Double is still the nearest one.
                #expect(number == .large(text), "\(text): \(number)")
                #expect(number.exactDouble?.bitPattern == expected.bitPattern)
            } else {
                #expect(bitExact(number, expected), "\(text): \(number) vs \(expected)")
            }
        }
    }

    /// A locale whose decimal separator is a comma, if one is installed (`de_DE.UTF-8`; point
    /// `LOCPATH` at a `localedef` output to provide one).
    nonisolated(unsafe) static let commaLocale: locale_t? = {
        for name in ["de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8"] {
            if let locale = newlocale(LC_NUMERIC_MASK, name, nil) { return locale }
        }
        return nil
    }()

    @Test(.enabled(if: commaLocale != nil, "no comma-decimal locale (de_DE) installed"))
    func resultsDoNotDependOnLocale() throws {
        let texts = ["1.5", "1e23", "0.1", "1.2345678901234567890123e-5", "-2.5e-300", "1.7976931348623157e308"]
        let expected = texts.map(parseNumber)
        // uselocale is per thread, so the rest of the test process is unaffected.
        let previous = uselocale(Self.commaLocale!)
        defer { uselocale(previous) }
        #expect(strtod("1.5", nil) == 1, "the comma locale is in effect")
        #expect(texts.map(parseNumber) == expected)
        #expect(try numbersFromEvents("[" + texts.joined(separator: ",") + "]") == expected)
    }

    @Test(.timeLimit(.minutes(6))) func aMillionDigitNumberIsKeptExactly() throws {
        let digits = "1" + String(repeating: "0", count: 999_999)
        for chunkSize in [Int.max, 65_536] {
            let value = try buildValue(
                Array(("[" + digits + "]").utf8), chunkSize: chunkSize, label: "10^6-digit integer")
            let number = try #require((value as? [Any])?.first as? JSONLargeNumber)
            #expect(number.text == digits)
        }
        // As a top-level value, it is only complete at the end of the input.
        let value = try buildValue(Array(digits.utf8), chunkSize: 65_536, label: "top-level 10^6-digit integer")
        #expect((value as? JSONLargeNumber)?.text == digits)
        // A million-digit fraction still rounds to the nearest Double.
        let fraction = "0." + String(repeating: "3", count: 999_998)
        let double = try buildValue(
            Array(("[" + fraction + "]").utf8), chunkSize: Int.max, label: "10^6-digit fraction")
        #expect((double as? [Any])?.first as? Double == Double("0.33333333333333333333333"))
    }

    @Test(.timeLimit(.minutes(6)), arguments: ["1e999999999", "-1e999999999", "1e-999999999", "1.5e+99999999999999999999", "123e-10000000"])
    func hugeExponentsAreLargeNumbersNotInfinity(_ text: String) throws {
        let value = try JSONValueBuilder.value(from: Data("[\(text)]".utf8))
        let number = try #require((value as? [Any])?.first as? JSONLargeNumber)
        #expect(number.text == text)
        #expect(number.doubleValue == nil)
    }
}
