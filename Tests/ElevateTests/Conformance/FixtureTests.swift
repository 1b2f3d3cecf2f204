import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// Our own small conformance set in `Fixtures/`, which always runs: `valid/*.json` must parse,
/// and each `invalid/<kind>-<what>.json` must be rejected with the `JSONSyntaxError.Kind` its
/// name starts with.
@Suite struct FixtureTests {
    @Test func fixturesAreBundled() {
        #expect(Fixtures.names(in: "valid").count >= 10)
        #expect(Fixtures.names(in: "invalid").count >= 10)
    }

    @Test(arguments: Fixtures.names(in: "valid"))
    func validFixtureIsAccepted(_ name: String) throws {
        let data = try Fixtures.data("valid", name)
        let bytes = Array(data)
        let whole = try recordEvents(bytes)
        for sizes in corpusChunkings.dropFirst() {
            #expect(try recordEvents(bytes, chunkSizes: sizes) == whole, "chunk sizes \(sizes)")
        }
        // Where Foundation reads the file too, the value builder agrees with it.
        if let theirs = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            let differences = jsonDifferences(try JSONValue(parsing: data).foundationValue, theirs)
            #expect(differences.isEmpty, "\(differences)")
        }
    }

    @Test(arguments: Fixtures.names(in: "invalid"))
    func invalidFixtureIsRejectedWithItsKind(_ name: String) throws {
        let kind = try #require(Fixtures.expectedKind(of: name), "name \(name) does not start with an error kind")
        let bytes = Array(try Fixtures.data("invalid", name))
        for sizes in corpusChunkings {
            #expect(ParseOutcome.of(bytes, chunkSizes: sizes) == .rejected(kind), "chunk sizes \(sizes)")
        }
    }

    @Test func escapesAreResolved() throws {
        let object = try #require(
            try JSONValue(parsing: Fixtures.data("valid", "escapes.json")).foundationValue as? [String: Any])
        #expect(object["quote"] as? String == "\"")
        #expect(object["backslash"] as? String == "\\")
        #expect(object["slash"] as? String == "/")
        #expect(object["controls"] as? String == "\u{8}\u{C}\n\r\t")
        #expect(object["unicode"] as? String == "é中😀")
        #expect(object["nul"] as? String == "a\u{0}b")
        #expect(object["mixed"] as? String == "x\\u0041A")
    }

    @Test func numbersKeepTheirTypes() throws {
        let array = try #require(try JSONValue(parsing: Fixtures.data("valid", "numbers.json")).foundationValue as? [Any])
        #expect(array[0] as? Int == 0)
        #expect((array[1] as? Double)?.sign == .minus)
        #expect(array[11] as? Int == .max)
        #expect(array[12] as? Int == .min)
        #expect(array[13] as? UInt == .max)
        #expect(array[14] as? Double == .leastNonzeroMagnitude)
        #expect(array[15] as? Double == .greatestFiniteMagnitude)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let object = try #require(
            try JSONValue(parsing: Fixtures.data("valid", "bom.json")).foundationValue as? [String: Any])
        #expect(object["bom"] as? Bool == true)
    }
}
