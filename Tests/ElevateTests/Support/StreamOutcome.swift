import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

/// What a streaming call delivered and how it ended, as text that compares exactly, for the suites
/// that check every input form (data, a file, a pipe, an asynchronous sequence of chunks) and every
/// chunking against the whole `Data` parsed at once.
enum StreamOutcome {
    /// Any value, as canonical text (object keys sorted); the strings `"bad"` and objects with a
    /// `bad` key are invalid elements.
    struct Echo: Elevate.Decodable, Sendable {
        let text: String
        init(json: Any) throws {
            // A view, or (for types that cast their value, as this one does) a Foundation value.
            let value = (json as? JSONValue)?.foundationValue ?? json
            if value as? String == "bad" || (value as? [String: Any])?["bad"] != nil {
                throw ParserError.validation(failureReason: "bad value")
            }
            text = Self.canonical(value)
        }

        static func canonical(_ value: Any) -> String {
            switch value {
            case let object as [String: Any]:
                "{" + object.keys.sorted().map { "\($0.debugDescription): \(canonical(object[$0]!))" }
                    .joined(separator: ", ") + "}"
            case let array as [Any]: "[" + array.map(canonical).joined(separator: ", ") + "]"
            case let string as String: string.debugDescription
            case is NSNull: "null"
            default: "\(value)"
            }
        }
    }

    /// Runs `body` on the read end of a pipe into which a thread writes `bytes` in writes of the
    /// given sizes (the reader sees them as they come, so the chunking varies from run to run).
    static func throughPipe<R>(_ bytes: [UInt8], writes sizes: [Int], _ body: (JSONInput) -> R) -> R {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let thread = Thread {
            var start = 0
            var sizes = sizes[...]
            while start < bytes.count {
                let end = min(start + (sizes.popFirst() ?? bytes.count), bytes.count)
                writer.write(Data(bytes[start..<end]))
                start = end
            }
            try? writer.close()
        }
        thread.start()
        let result = body(.fileHandle(pipe.fileHandleForReading))
        // Read what the call left (after a stop or an error), so that the writer always ends.
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        return result
    }

    /// What a call delivered and how it ended, as text that compares exactly: a syntax error with
    /// all its fields, any other error with its type and description.
    static func outcome(_ delivered: [String], _ error: (any Error)?) -> String {
        let values = "[" + delivered.joined(separator: ", ") + "]"
        switch error {
        case nil:
            return "delivered \(values)"
        case let syntax as JSONSyntaxError:
            return "delivered \(values), then \(syntax.kind) at \(syntax.line):\(syntax.column) "
                + "(byte \(syntax.byteOffset)): \(syntax.message) near <\(syntax.excerpt)>"
        case let error?:
            return "delivered \(values), then \(type(of: error)): \(error)"
        }
    }

    /// Whether two outcomes are the same, but for an excerpt cut short after the offending byte
    /// where the input had not arrived yet (as ``JSONSyntaxError/excerpt`` says it may be).
    static func same(_ got: String, _ expected: String) -> Bool {
        guard got != expected else { return true }
        guard let cut = got.range(of: " near <"), let expectedCut = expected.range(of: " near <"),
            got[..<cut.lowerBound] == expected[..<expectedCut.lowerBound]
        else { return false }
        let excerpt = got[cut.upperBound...].dropLast()
        return !excerpt.isEmpty && expected[expectedCut.upperBound...].dropLast().hasPrefix(excerpt)
    }

    static func unwrapped(_ workers: Int = 1) -> StreamingOptions {
        var options = StreamingOptions(wrapsErrorsInParserError: false)
        options.concurrency = workers
        return options
    }
}
