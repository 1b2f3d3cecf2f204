import Foundation
import Testing

@testable import Elevate

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
        var generator = SystemRandomNumberGenerator()
        let start = Date(timeIntervalSince1970: -5_000_000_000)
        for _ in 0..<2000 {
            let date = start.addingTimeInterval(Double.random(in: 0...9_000_000_000, using: &generator).rounded())
            let text = reference.string(from: date)
            let decoded = try decoder.decode(text) as? Date
            #expect(decoded == reference.date(from: text), "\(text)")
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
