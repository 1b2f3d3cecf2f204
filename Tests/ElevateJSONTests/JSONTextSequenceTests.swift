import ElevateJSON
import Foundation
import Testing

/// JSON text sequences (RFC 7464): records started by `0x1E`, written and read back, with the
/// RFC's rules and errors at the input's lines and columns, however the input is split.
@Suite struct JSONTextSequenceTests {
    struct Event: Codable, Equatable {
        var id: Int
        var tags: [String]
    }

    static let events = [Event(id: 1, tags: ["a"]), Event(id: 2, tags: []), Event(id: 3, tags: ["b", "c"])]

    /// What `values` decode to, from `text` in chunks of `chunkSize` bytes (0: one piece), or the
    /// error's description.
    static func read(_ text: String, chunkSize: Int = 0) -> Result<[Event], JSONSyntaxError> {
        let bytes = Array(text.utf8)
        var options = StreamingOptions()
        options.wrapsErrorsInParserError = false
        var values: [Event] = []
        do {
            if chunkSize == 0 {
                try forEachValue(from: .data(Data(bytes)), framing: .jsonTextSequence, as: Event.self, options: options) {
                    values.append($0)
                }
            } else {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("seq-\(UUID().uuidString).json-seq")
                try Data(bytes).write(to: url)
                defer { try? FileManager.default.removeItem(at: url) }
                options.chunkSize = chunkSize
                try forEachValue(from: .file(url), framing: .jsonTextSequence, as: Event.self, options: options) {
                    values.append($0)
                }
            }
        } catch let error as JSONSyntaxError {
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return .success(values)
    }

    @Test(arguments: [false, true])
    func theWriterWritesRecordsTheReaderReadsBack(pretty: Bool) throws {
        var output: [UInt8] = []
        var options = JSONWriter.Options.default
        options.prettyPrinted = pretty
        let writer = JSONStreamWriter(framing: .jsonTextSequence, options: options) { output += $0 }
        for event in Self.events { try writer.write(["id": event.id, "tags": event.tags] as [String: Any]) }
        try writer.finish()
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.filter { $0 == "\u{1E}" }.count == 3)
        #expect(text.hasPrefix("\u{1E}{") && text.hasSuffix("}\n"))
        if !pretty {
            #expect(text.split(separator: "\u{1E}").allSatisfy { $0.hasSuffix("}\n") && !$0.dropLast().contains("\n") })
        }
        #expect(try Self.read(text).get() == Self.events)
    }

    @Test func emptyRecordsAreSkippedAndARecordMaySpanLines() throws {
        let text = "\u{1E}\u{1E}{\"id\": 1,\n \"tags\": [\"a\"]}\n\u{1E}\n\u{1E}  {\"id\": 2, \"tags\": []}\u{1E}{\"id\":3,\"tags\":[\"b\",\"c\"]}"
        #expect(try Self.read(text).get() == Self.events)
        #expect(try Self.read("").get() == [])
        #expect(try Self.read("\u{1E}").get() == [])
    }

    /// Errors, with their kind and the input's line and column.
    @Test(arguments: [
        // Nothing may precede the first separator, not even whitespace or a byte order mark.
        ("{\"id\": 1, \"tags\": []}\n", JSONSyntaxError.Kind.syntax, 1, 1),
        (" \u{1E}{\"id\": 1, \"tags\": []}\n", .syntax, 1, 1),
        ("\u{FEFF}\u{1E}{\"id\": 1, \"tags\": []}\n", .syntax, 1, 1),
        // A syntax error in the third record, on the input's fifth line.
        ("\u{1E}{\"id\": 1, \"tags\": []}\n\u{1E}{\"id\": 2,\n \"tags\": []}\n\u{1E}{\"id\": 3,\n \"tags\": x}\n", .syntax, 5, 10),
        // Two values in one record.
        ("\u{1E}{\"id\": 1, \"tags\": []} {\"id\": 2, \"tags\": []}\n", .syntax, 1, 24),
        // A record cut short.
        ("\u{1E}{\"id\": 1, \"tags\": [\n", .truncated, 2, 1),
    ])
    func badSequencesFailWhereTheyGoWrong(text: String, kind: JSONSyntaxError.Kind, line: Int, column: Int) throws {
        for chunkSize in [0, 4096] {
            guard case .failure(let error) = Self.read(text, chunkSize: chunkSize) else {
                Issue.record("no error for \(text.debugDescription)")
                continue
            }
            #expect(error.kind == kind && error.line == line && error.column == column, "\(error)")
            #expect(error.message.hasPrefix("record "), "\(error)")
        }
    }

    /// The error of bytes before the first separator shows them escaped, as every excerpt does:
    /// a byte order mark and an invalid byte were written as they came (the mark invisible, the
    /// invalid byte as U+FFFD).
    @Test func bytesBeforeTheFirstSeparatorAreEscapedInTheExcerpt() throws {
        let text = [0xEF, 0xBB, 0xBF, 0x1E] + Array(#"{"id": 1, "tags": []}"#.utf8) + [0x0A]
        let invalid = Array("ab".utf8) + [0xFF, 0x0A, 0x1E] + Array("1\n".utf8)
        // The excerpt shows what precedes the first separator (at most 16 bytes).
        for (bytes, excerpt) in [(text, #"\xEF\xBB\xBF"#), (invalid, #"ab\xFF\n"#)] {
            var options = StreamingOptions()
            options.wrapsErrorsInParserError = false
            do {
                try forEachValue(from: .data(Data(bytes)), framing: .jsonTextSequence, as: JSON.self, options: options) { _ in }
                Issue.record("no error")
            } catch let error as JSONSyntaxError {
                #expect(error.byteOffset == 0 && error.excerpt == excerpt, "\(error.excerpt)")
            }
        }
    }

    /// RFC 7464, 2.4: a top-level number without whitespace after it may have been cut short.
    @Test func aNumberMustBeFollowedByWhitespace() throws {
        var options = StreamingOptions()
        options.wrapsErrorsInParserError = false
        func numbers(_ text: String) throws -> [Int] {
            var values: [Int] = []
            try forEachValue(from: .data(Data(text.utf8)), framing: .jsonTextSequence, as: Int.self, options: options) {
                values.append($0)
            }
            return values
        }
        #expect(try numbers("\u{1E}12\n\u{1E}-3 \u{1E}4\n") == [12, -3, 4])
        #expect(throws: JSONSyntaxError.self) { try numbers("\u{1E}12\n\u{1E}34") }
        #expect(throws: JSONSyntaxError.self) { try numbers("\u{1E}12\u{1E}34\n") }
        // Self-delimiting values need nothing after them.
        #expect(try forEachValue(from: .data(Data("\u{1E}\"a\"\u{1E}[1]".utf8)), framing: .jsonTextSequence, as: JSON.self) { _ in } == 2)
    }

    /// Every split of the input gives the same values and the same errors.
    @Test func everySplitReadsTheSame() async throws {
        let good = "\u{1E}{\"id\": 1, \"tags\": [\"a\"]}\n\u{1E}{\"id\": 2,\n \"tags\": []}\n\u{1E}{\"id\":3,\"tags\":[\"b\",\"c\"]}\n"
        let bad = good + "\u{1E}{\"id\": 4,\n\n \"tags\": [x]}\n"
        for text in [good, bad] {
            let whole = Self.read(text)
            let bytes = Array(text.utf8)
            for size in 1...9 {
                let chunks = AsyncStream<[UInt8]> { continuation in
                    for start in stride(from: 0, to: bytes.count, by: size) {
                        continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
                    }
                    continuation.finish()
                }
                var options = StreamingOptions()
                options.wrapsErrorsInParserError = false
                var values: [Event] = []
                var failure: JSONSyntaxError?
                // The excerpt shows what had arrived: it depends on the split; nothing else does.
                func withoutExcerpt(_ error: JSONSyntaxError) -> JSONSyntaxError {
                    var error = error
                    error.excerpt = ""
                    return error
                }
                do {
                    for try await event in chunks.decodedValues(framing: .jsonTextSequence, as: Event.self, options: options) {
                        values.append(event)
                    }
                } catch let error as JSONSyntaxError {
                    failure = error
                }
                switch whole {
                case .success(let expected): #expect(values == expected && failure == nil)
                case .failure(let expected): #expect(failure.map(withoutExcerpt) == withoutExcerpt(expected), "split \(size)")
                }
            }
        }
        if case .success = Self.read(bad) { Issue.record("the bad text did not fail") }
    }
}
