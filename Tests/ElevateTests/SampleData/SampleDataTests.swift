import Elevate
import ElevateSampleData
import Foundation
import Testing

@Suite("Sample data")
struct SampleDataTests {
    static let sizes = [0, 1, 10_000, 300_000]

    @Test("The same seed and size give byte-identical documents", arguments: SampleDocument.allCases)
    func deterministic(document: SampleDocument) {
        let first = document.generate(targetSize: 200_000, seed: 7)
        let second = document.generate(targetSize: 200_000, seed: 7)
        #expect(first.data == second.data)
        #expect(first.summary == second.summary)
        #expect(document.data(targetSize: 200_000, seed: 8) != first.data)
    }

    @Test("The output does not drift between versions", arguments: SampleDocument.allCases)
    func stablePrefix(document: SampleDocument) {
        // Pins the generator: a change here changes every benchmark's input.
        let data = document.data(targetSize: 0, seed: 1)
        let expected: String
        switch document {
        case .people: expected = #"{"response":{"count":1,"items":["# + "\n" + #"{"identifier":"#
        case .numbers: expected = "{\"numbers\":[\n["
        }
        #expect(String(decoding: data.prefix(expected.utf8.count), as: UTF8.self) == expected)
        var generator = ElevateSampleData.SplitMix64(seed: 1234567)
        // Published SplitMix64 reference outputs for seed 1234567.
        #expect(generator.next() == 6_457_827_717_110_365_317)
        #expect(generator.next() == 3_203_168_211_198_807_973)
    }

    @Test("Documents reach the target size and stop at the next item", arguments: SampleDocument.allCases, sizes)
    func size(document: SampleDocument, targetSize: Int) throws {
        let generated = document.generate(targetSize: targetSize, seed: SampleDocument.defaultSeed)
        #expect(generated.data.count >= targetSize)
        #expect(generated.summary.byteCount == generated.data.count)
        #expect(generated.summary.itemCount >= 1)
        let itemCount = generated.summary.itemCount
        if itemCount > 1 {
            // Raw newlines only follow the header and separate items, so the last ",\n" ends item N-1:
            // the document without its last item must fall short of the target.
            let bytes = [UInt8](generated.data)
            let lastSeparator = try #require(
                bytes.indices.dropLast().last { bytes[$0] == UInt8(ascii: ",") && bytes[$0 + 1] == 0x0A })
            let footerSize = document == .people ? 4 : 3
            let countDigits = document == .people ? String(itemCount).count - String(itemCount - 1).count : 0
            #expect(lastSeparator + footerSize - countDigits < targetSize)
        }
    }

    @Test("Documents are valid JSON for JSONSerialization and Elevate", arguments: SampleDocument.allCases)
    func validJSON(document: SampleDocument) throws {
        let generated = document.generate(targetSize: 400_000, seed: 99)
        let foundation = try JSONSerialization.jsonObject(with: generated.data)
        let elevate = try JSONValueBuilder.value(from: generated.data)
        #expect(NSDictionary(dictionary: foundation as! [String: Any]).count == 1)
        let items: [Any]
        switch document {
        case .people:
            let response = try #require((elevate as? [String: Any])?["response"] as? [String: Any])
            items = try #require(response["items"] as? [Any])
            #expect(response["count"] as? Int == items.count)
        case .numbers:
            items = try #require((elevate as? [String: Any])?["numbers"] as? [Any])
            #expect(items.allSatisfy { ($0 as? [Any])?.count == 8 })
        }
        #expect(items.count == generated.summary.itemCount)
    }

    @Test("People have the documented fields, dates and a share of escapes and non-ASCII text")
    func peopleShape() throws {
        let data = SampleDocument.people.data(targetSize: 1 << 20, seed: 3)
        let value = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let items = (value["response"] as! [String: Any])["items"] as! [[String: Any]]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        for item in items {
            #expect(item["identifier"] is Int)
            #expect(item["name"] is String)
            let birthDate = try #require(item["birthDate"] as? String)
            let date = try #require(formatter.date(from: birthDate), "\(birthDate)")
            #expect(formatter.string(from: date) == birthDate)
            #expect(("1950"..."2010").contains(String(birthDate.prefix(4))))
            let addresses = try #require(item["addresses"] as? [[String: String]])
            #expect((1...3).contains(addresses.count))
            #expect(addresses.allSatisfy { $0["street"] != nil && $0["city"] != nil })
        }
        let withNickname = Double(items.filter { $0["nickname"] != nil }.count) / Double(items.count)
        let withMembership = Double(items.filter { $0["isMember"] != nil }.count) / Double(items.count)
        #expect(abs(withNickname - 0.5) < 0.05)
        #expect(abs(withMembership - 0.7) < 0.05)
        let names = items.map { $0["name"] as! String }
        let nonASCII = Double(names.filter { !$0.allSatisfy(\.isASCII) }.count) / Double(names.count)
        #expect(nonASCII > 0.05 && nonASCII < 0.5)
        let text = String(decoding: data, as: UTF8.self)
        for escape in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#] {
            #expect(text.contains(escape), "no \(escape) in the document")
        }
        #expect(text.contains("日本") && text.contains("😀") && text.contains("é") && text.contains("ü"))
    }

    @Test("Numbers include Int64 limits, decimals and both exponent forms")
    func numbersShape() {
        let text = String(decoding: SampleDocument.numbers.data(targetSize: 200_000, seed: 5), as: UTF8.self)
        #expect(text.contains("922337203685477"))
        #expect(text.contains("-922337203685477"))
        #expect(text.contains("e-") && text.contains("E+") && text.contains("."))
    }

    @Test("Writing to a file gives the same bytes as generating in memory")
    func fileOutput() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("elevate-sample-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let summary = try SampleDocument.people.write(to: url, targetSize: 3 << 20, seed: 11)
        let generated = SampleDocument.people.generate(targetSize: 3 << 20, seed: 11)
        #expect(summary == generated.summary)
        #expect(try Data(contentsOf: url) == generated.data)
    }
}
