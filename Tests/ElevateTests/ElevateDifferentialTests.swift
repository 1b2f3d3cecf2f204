import Foundation
import Testing

@testable import Elevate

/// Differences from Elevate 4.0.0 found by running the same schemas, decodable types, decoders and
/// inputs through the original Elevate (built on Linux from its 4.0.0 sources) and this library.
/// Each test asserts Elevate's answer where it is the documented behaviour, or pins a deliberate
/// difference that README.md lists. The expected values are written out: nothing here depends on
/// the original Elevate.
@Suite struct ElevateDifferentialTests {
    private struct Address: Elevate.Decodable, Equatable {
        let street: String
        let city: String
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "street", type: .string)
                schema.addProperty(keyPath: "city", type: .string)
            }
            street = entity <-! "street"
            city = entity <-! "city"
        }
    }

    /// Optional arrays read with `<--!`, as Elevate's README shows for arrays that may be absent.
    private struct Tagged: Elevate.Decodable {
        let tags: [String]
        let addresses: [Address]
        let nickname: String?
        init(json: Any) throws {
            let entity = try Parser.parseEntity(json: json) { schema in
                schema.addProperty(keyPath: "tags", type: .array, optional: true, decodableType: String.self)
                schema.addProperty(keyPath: "addresses", type: .array, optional: true, decodableType: Address.self)
                schema.addProperty(keyPath: "nickname", type: .string, optional: true)
            }
            tags = entity <--! "tags"
            addresses = entity <--! "addresses"
            nickname = entity <-! "nickname"
        }
    }

    private func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ParserError {
            return error.failureReason
        } catch {
            return "unexpected \(error)"
        }
    }

    // MARK: Bugs fixed

    /// Elevate's `<--!` returns `[]` for an optional array property that was missing or null, and
    /// `<-!` into an optional type returns nil; both stopped the program here.
    @Test func extractionOperatorsOnAbsentOptionalProperties() throws {
        for text in [#"{}"#, #"{"tags": null, "addresses": null, "nickname": null}"#] {
            let tagged: Tagged = try Elevate.decodeObject(from: Data(text.utf8))
            #expect(tagged.tags.isEmpty, "\(text)")
            #expect(tagged.addresses.isEmpty, "\(text)")
            #expect(tagged.nickname == nil, "\(text)")
        }
        let entity = try Parser.parseEntity(data: Data(#"{"n": "x"}"#.utf8)) { schema in
            schema.addProperty(keyPath: "ids", type: .array, optional: true, decoder: StringToIntDecoder())
        }
        let ids: [Int] = entity <--! "ids"
        #expect(ids.isEmpty)
        let present: Tagged = try Elevate.decodeObject(from: Data(#"{"tags": ["a"], "nickname": "n"}"#.utf8))
        #expect(present.tags == ["a"])
        #expect(present.nickname == "n")
    }

    /// An array element that `StringToIntDecoder` cannot read names the decoder as Elevate does,
    /// `[Elevate.StringToIntDecoder]` (Elevate's is a class, which prints with its module), not
    /// `[StringToIntDecoder()]`.
    @Test func stringToIntDecoderIsNamedAsInElevate() {
        let expected = "Error parsing array object at index 1 with parser [Elevate.StringToIntDecoder]\n"
            + "Could not convert String to Int\n--"
        #expect(
            reason {
                _ = try Parser.parseEntity(data: Data(#"{"ids": ["1", "x"]}"#.utf8)) {
                    $0.addProperty(keyPath: "ids", type: .array, decoder: StringToIntDecoder())
                }
            } == expected)
        #expect(
            reason {
                let _: [Int] = try Elevate.decodeArray(
                    from: Data(#"{"ids": ["1", "x"]}"#.utf8), atKeyPath: "ids", with: StringToIntDecoder())
            } == expected)
    }
}
