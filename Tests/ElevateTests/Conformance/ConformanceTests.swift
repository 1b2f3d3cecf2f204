import Foundation
import Testing

@testable import Elevate

/// What the event parser made of one document.
enum ParseOutcome: Hashable, CustomStringConvertible {
    case accepted
    case rejected(JSONSyntaxError.Kind)
    /// An error that is not a `JSONSyntaxError`: always a bug.
    case failed(String)

    var description: String {
        switch self {
        case .accepted: "accepted"
        case .rejected(let kind): "rejected (`.\(kind)`)"
        case .failed(let error): "failed: \(error)"
        }
    }

    /// Parses `bytes`, split at `chunkSizes` (cycled; whole when empty).
    static func of(_ bytes: [UInt8], chunkSizes: [Int] = [], options: JSONParsingOptions = .default) -> ParseOutcome {
        do {
            _ = try recordEvents(bytes, chunkSizes: chunkSizes, options: options)
            return .accepted
        } catch let error as JSONSyntaxError {
            return .rejected(error.kind)
        } catch {
            return .failed(String(describing: error))
        }
    }
}

/// Chunkings every corpus document is parsed with: whole, one byte at a time, and uneven sizes.
let corpusChunkings: [[Int]] = [[], [1], [2, 3, 5, 7, 11]]

/// JSONTestSuite (`test_parsing`) through the event parser.
@Suite(.enabled(if: SharedCorpus.isAvailable, Comment(rawValue: SharedCorpus.missingMessage)), .timeLimit(.minutes(2)))
struct ConformanceTests {
    @Test(arguments: SharedCorpus.testParsingFiles(prefix: "y_"))
    func acceptsEveryValidDocument(_ name: String) throws {
        let bytes = try SharedCorpus.testParsingBytes(name)
        let whole = try recordEvents(bytes)
        for sizes in corpusChunkings.dropFirst() {
            #expect(try recordEvents(bytes, chunkSizes: sizes) == whole, "chunk sizes \(sizes)")
        }
    }

    @Test(arguments: SharedCorpus.testParsingFiles(prefix: "n_"))
    func rejectsEveryInvalidDocument(_ name: String) throws {
        let bytes = try SharedCorpus.testParsingBytes(name)
        for sizes in corpusChunkings {
            let outcome = ParseOutcome.of(bytes, chunkSizes: sizes)
            guard case .rejected = outcome else {
                Issue.record("\(name) was \(outcome) with chunk sizes \(sizes)")
                continue
            }
        }
    }

    @Test(arguments: SharedCorpus.testParsingFiles(prefix: "i_"))
    func implementationDefinedDocumentsHaveTheDocumentedOutcome(_ name: String) throws {
        let bytes = try SharedCorpus.testParsingBytes(name)
        let expected = try #require(Self.implementationDefined[name], "\(name) is missing from the table")
        for sizes in corpusChunkings {
            #expect(ParseOutcome.of(bytes, chunkSizes: sizes) == expected.outcome, "chunk sizes \(sizes)")
        }
    }

    /// Numbers beyond 64 bits are accepted, and the value builder keeps their exact text.
    @Test(arguments: SharedCorpus.testParsingFiles(prefix: "i_number_"))
    func outOfRangeNumbersBecomeLargeNumbers(_ name: String) throws {
        let data = Data(try SharedCorpus.testParsingBytes(name))
        let array = try #require(try JSONValueBuilder.value(from: data) as? [Any])
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "[] \n"))
        let number = try #require(array.first as? JSONLargeNumber)
        #expect(number.text == text)
        if text.contains(where: { $0 == "e" || $0 == "E" }) {
            #expect(number.doubleValue == nil, "overflows or underflows Double")
        } else {
            #expect(number.doubleValue == Double(text), "an integer beyond 64 bits still has a nearest Double")
        }
    }

    /// Writes `Docs/Conformance.md` from the parser's actual outcomes:
    /// `ELEVATE_WRITE_CONFORMANCE_DOC=1 swift test --filter writesConformanceDocument`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ELEVATE_WRITE_CONFORMANCE_DOC"] != nil))
    func writesConformanceDocument() throws {
        let document = try Self.conformanceDocument()
        let url = SharedCorpus.repositoryRoot.appendingPathComponent("Docs/Conformance.md")
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(document.utf8).write(to: url)
    }

    static func conformanceDocument() throws -> String {
        func outcomes(_ prefix: String) throws -> [(name: String, outcome: ParseOutcome, chunked: ParseOutcome)] {
            try SharedCorpus.testParsingFiles(prefix: prefix).map { name in
                let bytes = try SharedCorpus.testParsingBytes(name)
                return (name, ParseOutcome.of(bytes), ParseOutcome.of(bytes, chunkSizes: [1]))
            }
        }
        let valid = try outcomes("y_")
        let invalid = try outcomes("n_")
        let defined = try outcomes("i_")
        let validAccepted = valid.filter { $0.outcome == .accepted && $0.chunked == .accepted }.count
        let invalidRejected = invalid.filter {
            if case .rejected = $0.outcome, case .rejected = $0.chunked { return true }
            return false
        }
        let definedAccepted = defined.filter { $0.outcome == .accepted }.count
        var kinds: [String: Int] = [:]
        for entry in invalidRejected {
            if case .rejected(let kind) = entry.outcome { kinds["`.\(kind)`", default: 0] += 1 }
        }

        var text = """
            # Conformance

            Generated by `ELEVATE_WRITE_CONFORMANCE_DOC=1 swift test --filter writesConformanceDocument`
            from [JSONTestSuite](https://github.com/nst/JSONTestSuite)'s `test_parsing` files, run through
            `JSONEventParser` with default options, whole and one byte at a time (the outcome is the same
            both ways). `ConformanceTests` checks every line of this page on each test run.

            ## Summary

            | Files | Expected | Result |
            |---|---|---|
            | \(valid.count) `y_` | accepted | \(validAccepted) accepted |
            | \(invalid.count) `n_` | rejected | \(invalidRejected.count) rejected with a `JSONSyntaxError` |
            | \(defined.count) `i_` | implementation-defined | \(definedAccepted) accepted, \
            \(defined.count - definedAccepted) rejected (below) |

            How the `n_` files are rejected:

            | Error kind | Files |
            |---|---|

            """
        for (kind, count) in kinds.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            text += "| \(kind) | \(count) |\n"
        }
        text += "\nThe `n_` files rejected with a kind other than `.syntax`:\n\n| File | Outcome |\n|---|---|\n"
        for entry in invalid where entry.outcome != .rejected(.syntax) {
            text += "| `\(entry.name)` | \(entry.outcome) |\n"
        }
        text += """

            ## Implementation-defined (`i_`) files

            Our choices: numbers that overflow 64-bit integers or `Double` are accepted and delivered as
            exact text (`JSONNumber.large`, `JSONLargeNumber` in the value builder), never rounded to
            infinity or zero; invalid UTF-8 and unpaired surrogate escapes are rejected; a UTF-8 byte
            order mark is skipped; UTF-16 and UTF-32 input is rejected; nesting up to 512 levels is
            accepted (`JSONParsingOptions.maximumDepth`).

            | File | Outcome | Why |
            |---|---|---|

            """
        for entry in defined {
            let reason = implementationDefined[entry.name]?.reason ?? "(not in the table)"
            var outcome = entry.outcome.description
            if entry.chunked != entry.outcome { outcome += "; byte by byte: \(entry.chunked)" }
            text += "| `\(entry.name)` | \(outcome) | \(reason) |\n"
        }
        return text
    }

    /// The outcome we chose for each `i_` file, and why.
    static let implementationDefined: [String: (outcome: ParseOutcome, reason: String)] = [
        "i_number_double_huge_neg_exp.json": (
            .accepted, "underflows `Double` to zero: kept as exact text (`JSONLargeNumber`)"
        ),
        "i_number_huge_exp.json": (.accepted, "exponent beyond any `Double`: kept as exact text"),
        "i_number_neg_int_huge_exp.json": (.accepted, "overflows `Double` to -infinity: kept as exact text"),
        "i_number_pos_double_huge_exp.json": (.accepted, "overflows `Double` to infinity: kept as exact text"),
        "i_number_real_neg_overflow.json": (.accepted, "overflows `Double` to -infinity: kept as exact text"),
        "i_number_real_pos_overflow.json": (.accepted, "overflows `Double` to infinity: kept as exact text"),
        "i_number_real_underflow.json": (.accepted, "underflows `Double` to zero: kept as exact text"),
        "i_number_too_big_neg_int.json": (.accepted, "integer below `Int.min`: kept as exact text"),
        "i_number_too_big_pos_int.json": (.accepted, "integer above `UInt.max`: kept as exact text"),
        "i_number_very_big_negative_int.json": (.accepted, "integer below `Int.min`: kept as exact text"),
        "i_object_key_lone_2nd_surrogate.json": (.rejected(.unpairedSurrogate), "key escapes a lone low surrogate"),
        "i_string_1st_surrogate_but_2nd_missing.json": (
            .rejected(.unpairedSurrogate), "high surrogate escape with nothing after it"
        ),
        "i_string_1st_valid_surrogate_2nd_invalid.json": (
            .rejected(.unpairedSurrogate), "high surrogate escape followed by a non-surrogate escape"
        ),
        "i_string_UTF-16LE_with_BOM.json": (
            .rejected(.syntax), "UTF-16 input is not supported; only UTF-8 (RFC 8259 §8.1)"
        ),
        "i_string_UTF-8_invalid_sequence.json": (.rejected(.invalidUTF8), "invalid UTF-8 in a string"),
        "i_string_UTF8_surrogate_U+D800.json": (
            .rejected(.invalidUTF8), "UTF-8-encoded surrogate (ED A0 80) is not valid UTF-8"
        ),
        "i_string_incomplete_surrogate_and_escape_valid.json": (
            .rejected(.unpairedSurrogate), "high surrogate escape followed by `\\n`"
        ),
        "i_string_incomplete_surrogate_pair.json": (.rejected(.unpairedSurrogate), "lone low surrogate escape"),
        "i_string_incomplete_surrogates_escape_valid.json": (
            .rejected(.unpairedSurrogate), "two high surrogate escapes in a row"
        ),
        "i_string_invalid_lonely_surrogate.json": (.rejected(.unpairedSurrogate), "lone high surrogate escape"),
        "i_string_invalid_surrogate.json": (
            .rejected(.unpairedSurrogate), "high surrogate escape followed by plain text"
        ),
        "i_string_invalid_utf-8.json": (.rejected(.invalidUTF8), "byte FF is never valid UTF-8"),
        "i_string_inverted_surrogates_U+1D11E.json": (
            .rejected(.unpairedSurrogate), "low surrogate escape before the high one"
        ),
        "i_string_iso_latin_1.json": (.rejected(.invalidUTF8), "ISO 8859-1 text is not UTF-8"),
        "i_string_lone_second_surrogate.json": (.rejected(.unpairedSurrogate), "lone low surrogate escape"),
        "i_string_lone_utf8_continuation_byte.json": (.rejected(.invalidUTF8), "continuation byte without a lead byte"),
        "i_string_not_in_unicode_range.json": (.rejected(.invalidUTF8), "code point above U+10FFFF"),
        "i_string_overlong_sequence_2_bytes.json": (.rejected(.invalidUTF8), "overlong encoding (C0 AF)"),
        "i_string_overlong_sequence_6_bytes.json": (.rejected(.invalidUTF8), "6-byte overlong encoding"),
        "i_string_overlong_sequence_6_bytes_null.json": (.rejected(.invalidUTF8), "6-byte overlong encoding of NUL"),
        "i_string_truncated-utf-8.json": (.rejected(.invalidUTF8), "multi-byte sequence cut short"),
        "i_string_utf16BE_no_BOM.json": (.rejected(.syntax), "UTF-16 input is not supported; only UTF-8"),
        "i_string_utf16LE_no_BOM.json": (.rejected(.syntax), "UTF-16 input is not supported; only UTF-8"),
        "i_structure_500_nested_arrays.json": (.accepted, "500 levels is within the default `maximumDepth` of 512"),
        "i_structure_UTF-8_BOM_empty_object.json": (.accepted, "a leading UTF-8 byte order mark is skipped"),
    ]
}
