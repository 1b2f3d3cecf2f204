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

private func foundationValue(_ data: Data) throws -> Any {
    try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
}

private func builtValue(_ text: String) throws -> Any {
    try JSONValueBuilder.value(from: Data(text.utf8))
}

/// The builder against `JSONSerialization`, which it promises to match.
@Suite struct JSONValueBuilderTests {
    @Test(
        .enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)),
        arguments: SharedCorpus.testParsingFiles(prefix: "y_"))
    func matchesFoundationOnValidDocuments(_ name: String) throws {
        let data = Data(try SharedCorpus.testParsingBytes(name))
        let differences = jsonDifferences(try JSONValueBuilder.value(from: data), try foundationValue(data))
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test(
        .enabled(if: SharedCorpus.hasNativeJSON, Comment(rawValue: SharedCorpus.missingMessage)),
        arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
    func matchesFoundationOnLargeDocuments(_ name: String) throws {
        let data = try SharedCorpus.nativeJSONData(name)
        let ours = try JSONValueBuilder.value(from: data)
        let differences = jsonDifferences(ours, try foundationValue(data))
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
        // Chunked input builds the same tree.
        let builder = JSONValueBuilder()
        let parser = JSONEventParser(handler: builder)
        var offset = 0
        while offset < data.count {
            try parser.parse(data[offset..<min(data.count, offset + 4093)])
            offset += 4093
        }
        try parser.finish()
        #expect(jsonDifferences(try #require(builder.takeValue()), try foundationValue(data)).isEmpty)
    }

    @Test func comparisonReportsPaths() {
        let theirs = try! foundationValue(Data(#"{"a":[1,true,"x"],"b":null}"#.utf8))
        #expect(jsonDifferences(try! builtValue(#"{"a":[1,true,"x"],"b":null}"#), theirs).isEmpty)
        #expect(
            jsonDifferences(try! builtValue(#"{"a":[1,1,"x"],"b":null}"#), theirs) == [
                "$.a[1]: ours Int 1, theirs __NSCFBoolean(c) 1"
            ] || jsonDifferences(try! builtValue(#"{"a":[1,1,"x"],"b":null}"#), theirs).count == 1)
        #expect(jsonDifferences(try! builtValue(#"{"a":[2,true,"x"],"c":null}"#), theirs).count == 3)
        #expect(jsonDifferences(try! builtValue(#"{"a":[1,true],"b":null}"#), theirs).count == 1)
    }

    // MARK: Intentional differences from JSONSerialization

    @Test func integersBeyondUInt64AreExactLargeNumbers() throws {
        let text = "123456789012345678901234567890123456789012345678901234567890"
        let ours = try #require(try builtValue(text) as? JSONLargeNumber)
        #expect(ours.text == text)
        // Foundation rounds to a 38-digit Decimal.
        let theirs = try #require(try foundationValue(Data(text.utf8)) as? NSDecimalNumber)
        #expect(theirs.stringValue != text)
    }

    @Test func integersUpToUIntMaxAreExact() throws {
        #expect(try builtValue("18446744073709551615") as? UInt == UInt.max)
        #expect(try builtValue("9223372036854775807") as? Int == Int.max)
        #expect(try builtValue("-9223372036854775808") as? Int == Int.min)
        #expect(try builtValue("9007199254740993") as? Int == 9_007_199_254_740_993)
        #expect(
            try builtValue("18446744073709551616") as? JSONLargeNumber == JSONLargeNumber(text: "18446744073709551616"))
        #expect(
            try builtValue("-9223372036854775809") as? JSONLargeNumber == JSONLargeNumber(text: "-9223372036854775809"))
    }

    @Test func outOfRangeExponentsAreLargeNumbersWhereFoundationFails() throws {
        for text in ["1e400", "-1e400", "1e-400", "1e999999999", "[1.5e99999]"] {
            let value = try builtValue(text)
            let number = try #require((value as? [Any])?.first ?? value as? JSONLargeNumber)
            #expect(number is JSONLargeNumber, "\(text)")
        }
        #expect(throws: (any Error).self) { try foundationValue(Data("[1e400]".utf8)) }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let ours = try #require(try builtValue("-0") as? Double)
        #expect(ours == 0 && ours.sign == .minus)
        #expect(try builtValue("0") as? Int == 0)
        #expect((try builtValue("-0.0") as? Double)?.sign == .minus)
        // Foundation gives the integer 0, which the comparison treats as equal.
        #expect(jsonDifferences(ours, try foundationValue(Data("-0".utf8))).isEmpty)
    }

    @Test func duplicateKeysKeepTheLastValueLikeFoundation() throws {
        let text = #"{"a":1,"b":2,"a":3}"#
        let ours = try #require(try builtValue(text) as? [String: Any])
        #expect(ours.count == 2)
        #expect(ours["a"] as? Int == 3)
        #expect(jsonDifferences(ours, try foundationValue(Data(text.utf8))).isEmpty)
    }

    @Test func valuesHaveNativeSwiftTypes() throws {
        let array = try #require(try builtValue(#"[1, 1.5, true, "s", null, {}, []]"#) as? [Any])
        #expect(type(of: array[0]) == Int.self)
        #expect(type(of: array[1]) == Double.self)
        #expect(type(of: array[2]) == Bool.self)
        #expect(type(of: array[3]) == String.self)
        #expect(array[4] is NSNull)
        #expect(array[5] is [String: Any])
        #expect(array[6] is [Any])
    }
}
