import Foundation
import Testing

import Elevate

/// A Codable model whose JSON keys are snake case and whose dates are formatted strings.
private struct Member: Codable, Equatable, Sendable {
    let fullName: String
    let joinedOn: Date
    let tags: [String]
}

/// Conforms to both protocols, and says which one built it.
private struct Both: Elevate.Decodable, Swift.Decodable, Equatable {
    let id: Int
    let builtBy: String

    init(json: Any) throws {
        let entity = try Parser.parseEntity(json: json) { schema in
            schema.addProperty(keyPath: "id", type: .int)
        }
        id = entity <-! "id"
        builtBy = "Elevate"
    }

    init(from decoder: any Swift.Decoder) throws {
        enum Keys: String, CodingKey { case id }
        id = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .id)
        builtBy = "Codable"
    }
}

/// Streaming readers with `Swift.Decodable` types (`CodableElement`, behind the Codable forms of
/// `forEachElement`, `forEachValue`, `decodedElements` and `decodedValues`): the same values as
/// decoding the whole array in memory, the same error contract as `Elevate.Decodable` types, and no
/// ambiguity for a type that conforms to both.
@Suite struct CodableElementTests {
    static let document = Data(
        #"""
        {"response": {"count": 3, "items": [
          {"full_name": "Ada Lovelace", "joined_on": "1815-12-10", "tags": ["math"]},
          {"full_name": "Alan Turing", "joined_on": "1912-06-23", "tags": []},
          {"full_name": "Grace Hopper", "joined_on": "1906-12-09", "tags": ["navy", "cobol"]}
        ]}}
        """#.utf8)

    static func makeDecoder() -> ElevateJSONDecoder {
        let decoder = ElevateJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        decoder.dateDecodingStrategy = .formatted(formatter)
        return decoder
    }

    /// Byte chunks of `data`, `size` bytes each, as an asynchronous sequence.
    static func chunks(_ data: Data, size: Int) -> AsyncStream<Data> {
        AsyncStream { continuation in
            var start = 0
            while start < data.count {
                let end = min(start + size, data.count)
                continuation.yield(data.subdata(in: start..<end))
                start = end
            }
            continuation.finish()
        }
    }

    @Test func forEachElementDeliversWhatTheInMemoryDecoderDecodes() throws {
        let decoder = Self.makeDecoder()
        let expected = try decoder.decode([Member].self, from: Self.document, atKeyPath: "response.items")
        #expect(expected.count == 3)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID()).json")
        try Self.document.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for input in [JSONInput.data(Self.document), .file(file)] {
            for concurrency in [1, 2] {
                var options = StreamingOptions()
                options.chunkSize = 7
                options.concurrency = concurrency
                var members: [Member] = []
                let count = try Elevate.forEachElement(
                    from: input, atKeyPath: "response.items", as: Member.self, decoder: decoder, options: options
                ) { members.append($0) }
                #expect(count == 3)
                #expect(members == expected, "\(input), \(concurrency) workers")
            }
        }
    }

    @Test func theDecodersSettingsAreReadWhenTheStreamBegins() async throws {
        let decoder = Self.makeDecoder()
        let elements = Self.chunks(Self.document, size: 5).decodedElements(
            atKeyPath: "response.items", as: Member.self, decoder: decoder)
        // Changed after the sequence was made: the stream keeps the settings it began with.
        decoder.keyDecodingStrategy = .useDefaultKeys
        var names: [String] = []
        for try await member in elements { names.append(member.fullName) }
        #expect(names == ["Ada Lovelace", "Alan Turing", "Grace Hopper"])
    }

    /// As `JSONDecoder` decoding the whole array throws it: the `DecodingError` itself, its coding
    /// path from the document's root through the element's index, on one thread or several.
    @Test(arguments: [1, 2]) func aFailingElementThrowsItsDecodingErrorWithTheFullCodingPath(workers: Int) throws {
        let broken = Data(
            #"{"items": [{"full_name": "A", "joined_on": "2000-01-01", "tags": []}, {"full_name": "B", "joined_on": "2000-01-01", "tags": ["x", 7]}]}"#
                .utf8)
        var options = StreamingOptions()
        options.concurrency = workers
        var delivered = 0
        do {
            try Elevate.forEachElement(
                from: .data(broken), atKeyPath: "items", as: Member.self, decoder: Self.makeDecoder(), options: options
            ) { _ in delivered += 1 }
            Issue.record("no error")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1", "tags", "Index 1"])
            #expect(context.codingPath[1].intValue == 1)
        }
        #expect(delivered == 1)
    }

    /// `decodeArray` for Codable types: JSONDecoder's elements, and its first error with the full
    /// coding path, on one thread or several.
    @Test(arguments: [1, 2]) func decodeArrayOfACodableTypeFromAnInput(workers: Int) throws {
        var options = StreamingOptions()
        options.concurrency = workers
        let items = (0..<300).map { #"{"full_name": "N\#($0)", "joined_on": "2000-01-01", "tags": ["t"]}"# }
        let document = Data(#"{"response": {"items": [\#(items.joined(separator: ","))]}}"#.utf8)
        let members = try decodeArray(
            from: .data(document), atKeyPath: "response.items", as: Member.self, decoder: Self.makeDecoder(),
            options: options)
        #expect(members.map(\.fullName) == (0..<300).map { "N\($0)" })

        var broken = items
        broken[201] = #"{"full_name": "X", "joined_on": "2000-01-01", "tags": [1]}"#
        let brokenDocument = Data(#"{"response": {"items": [\#(broken.joined(separator: ","))]}}"#.utf8)
        #expect {
            try decodeArray(
                from: .data(brokenDocument), atKeyPath: "response.items", as: Member.self, decoder: Self.makeDecoder(),
                options: options)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["response", "items", "Index 201", "tags", "Index 0"]
        }
        // A type that is Elevate's too (String) takes Elevate's overload, without ambiguity.
        let names: [String] = try decodeArray(from: .data(Data(#"["a", "b"]"#.utf8)))
        #expect(names == ["a", "b"])
    }

    @Test func invalidElementsAreSkippedAndReportedAtTheEnd() throws {
        let mixed = Data(
            #"[{"full_name": "A", "joined_on": "2000-01-01", "tags": []}, {"joined_on": "2000-01-01", "tags": []}, {"full_name": "C", "joined_on": "not a date", "tags": []}, {"full_name": "D", "joined_on": "2000-01-02", "tags": []}]"#
                .utf8)
        for concurrency in [1, 2] {
            var options = StreamingOptions(skipsInvalidElements: true)
            options.concurrency = concurrency
            var names: [String] = []
            do {
                try Elevate.forEachElement(from: .data(mixed), as: Member.self, decoder: Self.makeDecoder(), options: options) {
                    names.append($0.fullName)
                }
                Issue.record("no error")
            } catch ParserError.validation(let reason) {
                #expect(reason.contains("index 1") && reason.contains("keyNotFound"), "\(reason)")
                #expect(reason.contains("index 2") && reason.contains("dataCorrupted at joinedOn"), "\(reason)")
            }
            #expect(names == ["A", "D"], "\(concurrency) workers")
        }
    }

    @Test func jsonLinesAndConcatenatedValuesDecodeAsCodable() async throws {
        let lines = Data(
            """
            {"full_name": "A", "joined_on": "2000-01-01", "tags": ["a"]}

            {"full_name": "B", "joined_on": "2000-01-02", "tags": []}
            """.utf8)
        let decoder = Self.makeDecoder()
        var names: [String] = []
        try Elevate.forEachValue(from: .data(lines), framing: .jsonLines, as: Member.self, decoder: decoder) {
            names.append($0.fullName)
        }
        #expect(names == ["A", "B"])

        let concatenated = Data(#"{"m":{"full_name":"C","joined_on":"2000-01-03","tags":[]}}{"m":{"full_name":"D","joined_on":"2000-01-04","tags":[]}}"#.utf8)
        var asynchronous: [String] = []
        for try await member in Self.chunks(concatenated, size: 3).decodedValues(
            framing: .concatenated, atKeyPath: "m", as: Member.self, decoder: decoder)
        {
            asynchronous.append(member.fullName)
        }
        #expect(asynchronous == ["C", "D"])

        let badLine = Data("{\"full_name\": \"A\", \"joined_on\": \"2000-01-01\", \"tags\": []}\n{\"full_name\": 5}\n".utf8)
        #expect {
            try Elevate.forEachValue(from: .data(badLine), framing: .jsonLines, as: Member.self, decoder: decoder) { _ in }
        } throws: { error in
            // The values of a stream are an array's elements to Codable: line 2 is index 1.
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 1", "fullName"]
        }
    }

    @Test func aTypeConformingToBothProtocolsUsesElevateUnlessADecoderIsPassed() async throws {
        let data = Data(#"[{"id": 1}, {"id": 2}]"#.utf8)
        var built: [String] = []
        try Elevate.forEachElement(from: .data(data), as: Both.self) { built.append($0.builtBy) }
        try Elevate.forEachElement(from: .data(data), as: Both.self, decoder: ElevateJSONDecoder()) {
            built.append($0.builtBy)
        }
        try Elevate.forEachValue(from: .data(data), framing: .array, as: Both.self) { built.append($0.builtBy) }
        try Elevate.forEachValue(from: .data(data), framing: .array, as: Both.self, decoder: ElevateJSONDecoder()) {
            built.append($0.builtBy)
        }
        for try await value in Self.chunks(data, size: 4).decodedElements(as: Both.self) { built.append(value.builtBy) }
        for try await value in Self.chunks(data, size: 4).decodedElements(as: Both.self, decoder: ElevateJSONDecoder()) {
            built.append(value.builtBy)
        }
        for try await value in Self.chunks(data, size: 4).decodedValues(framing: .array, as: Both.self) {
            built.append(value.builtBy)
        }
        for try await value in Self.chunks(data, size: 4).decodedValues(
            framing: .array, as: Both.self, decoder: ElevateJSONDecoder())
        {
            built.append(value.builtBy)
        }
        let expected = ["Elevate", "Codable"].flatMap { [$0, $0] }
        #expect(built == expected + expected + expected + expected)
        // The standard types, which conform to both, keep Elevate's reading.
        var strings: [String] = []
        try Elevate.forEachElement(from: .data(Data(#"["a","b"]"#.utf8)), as: String.self) { strings.append($0) }
        #expect(strings == ["a", "b"])
    }

    @Test func aStopEndsACodableStreamWithoutReadingOn() throws {
        // Invalid after the second element: a stop after the first never reads that far.
        let data = Data(#"[{"id": 1}, {"id": 2}, {"id": oops"#.utf8)
        struct Plain: Swift.Decodable { let id: Int }
        var options = StreamingOptions()
        options.chunkSize = 4
        let count = try Elevate.forEachElement(from: .data(data), as: Plain.self, options: options) { _ in
            throw JSONEventParser.Stop()
        }
        #expect(count == 1)
    }
}
