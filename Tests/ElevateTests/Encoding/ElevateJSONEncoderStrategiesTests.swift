import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// `ElevateJSONEncoder`'s strategies (keys, dates, data, non-conforming floats) write what
/// `JSONEncoder` writes with the same strategies, and Foundation's strategies convert to them.
@Suite struct ElevateJSONEncoderStrategiesTests {
    @Test func nonConformingFloatConvertsToString() throws {
        let elevate = ElevateJSONEncoder()
        elevate.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "NaN")
        let foundation = JSONEncoder()
        foundation.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "NaN")
        let values = Numbers(doubles: [.nan, .infinity, 1], floats: [-.infinity], int64s: [], uint64s: [], decimals: [])
        elevate.outputFormatting = .sortedKeys
        foundation.outputFormatting = .sortedKeys
        #expect(text(try elevate.encode(values)) == text(try foundation.encode(values)))
    }

    @Test func foundationStrategiesConvert() {
        if case .convertToSnakeCase = ElevateJSONEncoder.KeyEncodingStrategy(.convertToSnakeCase) {} else { Issue.record() }
        if case .iso8601 = ElevateJSONEncoder.DateEncodingStrategy(.iso8601) {} else { Issue.record() }
        if case .deferredToData = ElevateJSONEncoder.DataEncodingStrategy(.deferredToData) {} else { Issue.record() }
        if case .throw = ElevateJSONEncoder.NonConformingFloatEncodingStrategy(.throw) {} else { Issue.record() }
        #expect(ElevateJSONEncoder.OutputFormatting([.prettyPrinted, .sortedKeys]) == [.prettyPrinted, .sortedKeys])
    }

    struct SnakeKeys: Swift.Encodable {
        static let names = [
            "myURLProperty", "URLs", "_leading", "trailing_", "__double", "a1B2", "ÉtéÀ", "ǅungla", "alreadySnake_case",
            "ABC", "aBC", "a", "", "with space", "Ωmega", "iOS", "HTTPServer2", "x-Y", "straße", "İstanbul",
        ]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: WriterSamples.AnyKey.self)
            for (index, name) in Self.names.enumerated() { try container.encode(index, forKey: WriterSamples.AnyKey(name)) }
        }
    }

    @Test func snakeCaseKeysMatchJSONEncoder() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let elevate = ElevateJSONEncoder()
        elevate.outputFormatting = .sortedKeys
        elevate.keyEncodingStrategy = .convertToSnakeCase
        #expect(WriterSamples.text(try elevate.encode(SnakeKeys())) == WriterSamples.text(try foundation.encode(SnakeKeys())))
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
        #expect(WriterSamples.text(try elevate.encode(values)) == WriterSamples.text(try foundation.encode(values)))
        #expect(WriterSamples.text(try elevate.encode(floats)) == WriterSamples.text(try foundation.encode(floats)))
    }
}
