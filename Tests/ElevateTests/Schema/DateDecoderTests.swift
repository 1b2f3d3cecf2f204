import ElevateSampleData
import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

@Suite struct DateDecoderTests {
    static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        return formatter
    }

    @Test(arguments: ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ss", "yyyy/MM/dd HH:mm", "dd.MM.yyyy"])
    func fastPathGivesDateFormattersResults(format: String) throws {
        let decoder = DateDecoder(dateFormatString: format)
        let reference = Self.formatter(format)
        var generator = SplitMix64(seed: randomTestSeed)
        let start = Date(timeIntervalSince1970: -5_000_000_000)
        for _ in 0..<2000 {
            let date = start.addingTimeInterval(Double.random(in: 0...9_000_000_000, using: &generator).rounded())
            let text = reference.string(from: date)
            let decoded = try decoder.decode(text) as? Date
            #expect(decoded == reference.date(from: text), "\(text), ELEVATE_TEST_SEED=\(randomTestSeed)")
        }
        // Strings the fast path leaves to DateFormatter still give its answers.
        for text in ["2020-02-30", "2020-1-5", "1500-01-01", "garbage", "2020-13-01", "2021-02-29"] {
            let decoded = try? decoder.decode(text) as? Date
            #expect(decoded == reference.date(from: text), "\(format) \(text)")
        }
    }

    @Test func explicitFormatterIsUsed() throws {
        let formatter = Self.formatter("dd MMM yyyy")
        let decoder = DateDecoder(dateFormatter: formatter)
        #expect(try decoder.decode("04 Jul 1976") as? Date == formatter.date(from: "04 Jul 1976"))
    }

    @Test func rejectsNonStringsAndMismatches() {
        let decoder = DateDecoder(dateFormatString: "yyyy-MM-dd")
        do {
            _ = try decoder.decode(12)
            Issue.record("accepted a number")
        } catch {
            #expect("\(error)" == "Parser Validation Error - DateParser object to parse was not a String.")
        }
        #expect(throws: ParserError.self) { _ = try decoder.decode("12/31/1999") }
    }
}

extension DateDecoderTests {
    @Test func fastPathCoversNumericFormatsInFixedZones() {
        #expect(FixedDatePattern.fixedOffset(of: TimeZone(identifier: "UTC")!) == 0)
        #expect(FixedDatePattern.fixedOffset(of: TimeZone(secondsFromGMT: 3600)!) == 3600)
        #expect(FixedDatePattern.fixedOffset(of: TimeZone(identifier: "Europe/Paris")!) == nil)
        #expect(FixedDatePattern.cached(for: "yyyy-MM-dd") != nil)
        #expect(FixedDatePattern.cached(for: "yyyy-MM-dd'T'HH:mm:ss") != nil)
        #expect(FixedDatePattern.cached(for: "MMM d, yyyy") == nil)
    }
}

extension DateDecoderTests {
    /// The fast path in fixed zones other than UTC (the process's own zone is usually UTC, so
    /// `DateDecoder` alone would never exercise an offset): compared with `DateFormatter` in the
    /// same zone, over random dates.
    @Test(arguments: [19_800, -28_800, 50_400, -3_600])
    func fastPathInFixedNonUTCOffsets(offset: Int) throws {
        for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ss", "dd.MM.yyyy HH:mm"] {
            let pattern = try #require(FixedDatePattern.cached(for: format))
            let reference = Self.formatter(format)
            reference.timeZone = TimeZone(secondsFromGMT: offset)
            var generator = SplitMix64(seed: randomTestSeed &+ UInt64(bitPattern: Int64(offset)))
            for _ in 0..<500 {
                let date = Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...4_000_000_000, using: &generator).rounded())
                let text = reference.string(from: date)
                #expect(
                    pattern.date(from: text, offsetSeconds: offset) == reference.date(from: text),
                    "\(format) \(text) at \(offset), ELEVATE_TEST_SEED=\(randomTestSeed)")
            }
        }
    }
}
