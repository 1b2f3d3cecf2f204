import Elevate
@_spi(Testing) import ElevateJSON
import Foundation
import _FuzzSupport

/// The split parse: `forEachElement` (of a `Swift.Decodable` type), and `forEachMember` of the
/// object at the same key path (a map's members cut into runs), with `StreamingOptions.concurrency`
/// 2 must deliver exactly what one worker delivers, and fail the same way: the same values in the
/// same order, the same count, and the same error (for a `JSONSyntaxError` its kind, message, byte
/// offset, line and column; for a `ParserError` its text without the excerpt; anything else by
/// type and text). The input is
/// read as the document, and wrapped in `[`…`]`; options (comments, a small depth limit, repeated
/// keys refused, a small element size, skipping invalid elements, error wrapping, a body that
/// stops) are drawn from the input. `summarizeValue` at the same key path, and `countValues` (with
/// objects of many short members split too), must say the same with 2 workers as with 1.
///
/// The batch size of the split comes from the first byte (1…64 bytes), so that small inputs are
/// cut in many places (`StreamingOptions.splitBatchByteCount`, reached through its SPI). The input
/// is also read as JSON Lines, whose runs of whole lines the workers parse, and as concatenated
/// JSON, whose runs of whole values the workers parse: the same values, count and error (its
/// excerpt included) with 2 workers as with 1. And what `elevate extract` writes of the document
/// (`extractedText`) at a key path drawn from the input, with or without wildcards, as values or
/// as lines of elements: the same bytes, and the same error, with 2 workers as with 1.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let batch = 1 + Int(input.bytes.first ?? 0) % 64
    var options = StreamingOptions(wrapsErrorsInParserError: input.chance(2))
    options.parsing.allowsComments = input.chance(4)
    options.parsing.rejectsDuplicateKeys = input.chance(4)
    if input.chance(4) { options.parsing.maximumDepth = 2 + input.next(below: 8) }
    if input.chance(4) { options.maximumElementSize = 1 + input.next(below: 64) }
    options.skipsInvalidElements = input.chance(4)
    let stop = input.chance(4) ? input.next(below: 8) : nil

    let documents: [(name: String, bytes: [UInt8], keyPath: String)] = [
        ("document", input.bytes, ""),
        ("[document]", Array("[".utf8) + input.bytes + Array("]".utf8), ""),
        ("document at a", input.bytes, "a"),
    ]
    for document in documents {
        let data = Data(document.bytes)
        var one = options
        one.concurrency = 1
        var two = options
        two.concurrency = 2
        two.splitBatchByteCount = batch
        let expected = Outcome.of(data, keyPath: document.keyPath, options: one, stop: stop)
        let got = Outcome.of(data, keyPath: document.keyPath, options: two, stop: stop)
        fuzzCheck(
            got == expected,
            """
            2 workers (batches of \(batch) bytes) differ from 1 on \(document.name), key path \
            "\(document.keyPath)", \(options.parsing), maximumElementSize \(options.maximumElementSize), \
            skipsInvalidElements \(options.skipsInvalidElements), wraps errors \(options.wrapsErrorsInParserError), \
            body stops at \(stop.map(String.init) ?? "none")
            1 worker:  \(expected)
            2 workers: \(got)
            """)
        // The members of the object at the key path, a map's cut into runs for the workers.
        let expectedMembers = Outcome.of(data, keyPath: document.keyPath, options: one, stop: stop, members: true)
        let gotMembers = Outcome.of(data, keyPath: document.keyPath, options: two, stop: stop, members: true)
        fuzzCheck(
            gotMembers == expectedMembers,
            """
            forEachMember: 2 workers (batches of \(batch) bytes) differ from 1 on \(document.name), key path \
            "\(document.keyPath)", \(options.parsing), maximumElementSize \(options.maximumElementSize), \
            skipsInvalidElements \(options.skipsInvalidElements), body stops at \(stop.map(String.init) ?? "none")
            1 worker:  \(expectedMembers)
            2 workers: \(gotMembers)
            """)
        // The count of `elevate count`: the runs' values counted straight from YAJL's callbacks
        // where they are surely valid, by the event layer where not.
        let expectedSummary = summary(data, keyPath: document.keyPath, options: one)
        let gotSummary = summary(data, keyPath: document.keyPath, options: two)
        fuzzCheck(
            gotSummary == expectedSummary,
            """
            summarizeValue: 2 workers (batches of \(batch) bytes) differ from 1 on \(document.name), key path \
            "\(document.keyPath)", \(options.parsing)
            1 worker:  \(expectedSummary)
            2 workers: \(gotSummary)
            """)
        // The count of `elevate validate`: every array split, and a root object of many short
        // members; the error with its excerpt.
        guard document.keyPath.isEmpty else { continue }
        let expectedValues = values(data, options: one)
        let gotValues = values(data, options: two)
        fuzzCheck(
            gotValues == expectedValues,
            """
            countValues: 2 workers (batches of \(batch) bytes) differ from 1 on \(document.name), \(options.parsing)
            1 worker:  \(expectedValues)
            2 workers: \(gotValues)
            """)
    }
    // The input as JSON Lines, cut into runs of whole lines for the workers (`SplitLinesReader`),
    // and as concatenated JSON, cut into runs of whole values (`SplitValuesReader`): the values
    // inside each at the key path, as one worker delivers them.
    let valuesKeyPath = input.chance(2) ? "a" : ""
    var one = options
    one.concurrency = 1
    var two = options
    two.concurrency = 2
    two.splitBatchByteCount = batch
    let data = Data(input.bytes)
    for framing in [JSONFraming.jsonLines, .concatenated] {
        let expected = Outcome.of(data, keyPath: valuesKeyPath, options: one, stop: stop, framing: framing)
        let got = Outcome.of(data, keyPath: valuesKeyPath, options: two, stop: stop, framing: framing)
        fuzzCheck(
            got == expected,
            """
            \(framing): 2 workers (runs of \(batch) bytes) differ from 1, key path "\(valuesKeyPath)", \
            \(options.parsing), maximumElementSize \(options.maximumElementSize), skipsInvalidElements \
            \(options.skipsInvalidElements), wraps errors \(options.wrapsErrorsInParserError), body stops at \
            \(stop.map(String.init) ?? "none")
            1 worker:  \(expected)
            2 workers: \(got)
            """)
    }
    // `elevate extract`: the value at a key path, each array in it split and written in place
    // by the workers (through a 4 KiB writer, as into a pipe, so that the text a failure leaves
    // is compared too), or what a wildcard path leads to, as values or as `--json-lines`.
    let extractPaths = ["", "a", "*", "a.*", "*.*", "a.*.b", "*.a"]
    let extractPath = extractPaths[input.next(below: extractPaths.count)]
    let elementsAsLines = input.chance(3)
    let memoryLimit = extractPath.contains("*") ? nil : 4096
    let expectedText = extractedText(
        from: .data(data), atKeyPath: extractPath, elementsAsLines: elementsAsLines, memoryLimit: memoryLimit,
        options: one)
    let gotText = extractedText(
        from: .data(data), atKeyPath: extractPath, elementsAsLines: elementsAsLines, memoryLimit: memoryLimit,
        options: two)
    fuzzCheck(
        gotText.text == expectedText.text && describe(gotText.found) == describe(expectedText.found),
        """
        extract: 2 workers (runs of \(batch) bytes) differ from 1, key path "\(extractPath)", \
        elements as lines \(elementsAsLines), \(options.parsing)
        1 worker:  \(describe(expectedText.found)) \(String(decoding: expectedText.text.prefix(300), as: UTF8.self).debugDescription)
        2 workers: \(describe(gotText.found)) \(String(decoding: gotText.text.prefix(300), as: UTF8.self).debugDescription)
        """)
    return 0
}

/// Whether `extractedText` found a value, or its error, as text.
func describe(_ found: Result<Bool, any Error>) -> String {
    switch found {
    case .success(let found): "found \(found)"
    case .failure(let error): Outcome.describe(error)
    }
}

/// The values `countedValues` counts (`elevate validate`), or its error with its excerpt, as text.
func values(_ data: Data, options: StreamingOptions) -> String {
    do {
        return "\(try countedValues(in: .data(data), options: options)) values"
    } catch {
        return Outcome.describe(error, withExcerpt: true)
    }
}

/// What `summarizeValue` says of the value at `keyPath`, or its error, as text.
func summary(_ data: Data, keyPath: String, options: StreamingOptions) -> String {
    do {
        return String(describing: try summarizeValue(from: .data(data), atKeyPath: keyPath, options: options))
    } catch {
        return Outcome.describe(error)
    }
}

/// Each element as the text of its `JSON` value (copied off the element's `JSONValue` by
/// `ElevateJSONDecoder`, exact numbers, object keys sorted); a string starting with `!` is an
/// invalid element. (An `Elevate.Decodable` type may be handed a Foundation value, whose
/// dictionaries print in no fixed order: the first finding of this target was that.)
struct Captured: Swift.Decodable {
    let text: String
    init(from decoder: any Swift.Decoder) throws {
        let json = try JSON(from: decoder)
        if case .string(let string) = json, string.hasPrefix("!") {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "starts with !"))
        }
        text = json.description
    }
}

/// Thrown by a body that stops.
struct BodyStop: Error {}

struct Outcome: Equatable, CustomStringConvertible {
    var values: [String] = []
    var count: Int?
    var error: String?

    /// - Parameters:
    ///   - framing: How `data` is read: as a document whose array is at `keyPath`
    ///     (`forEachElement`, for `.array`), or as a stream of values (`forEachValue`), whose errors
    ///     keep their excerpts (each run is parsed in the input's pieces, so even those must agree).
    ///   - members: Read the members of the object at `keyPath` instead (`forEachMember`), each
    ///     as `key=text`.
    static func of(
        _ data: Data, keyPath: String, options: StreamingOptions, stop: Int?, framing: JSONFraming = .array,
        members: Bool = false
    ) -> Outcome {
        var outcome = Outcome()
        let body = { (element: Captured) in
            if outcome.values.count == stop { throw BodyStop() }
            outcome.values.append(element.text)
        }
        do {
            outcome.count =
                members
                ? try forEachMember(from: .data(data), atKeyPath: keyPath, as: Captured.self, options: options) {
                    key, value in
                    if outcome.values.count == stop { throw BodyStop() }
                    outcome.values.append("\(key)=\(value.text)")
                }
                : framing == .array
                ? try forEachElement(from: .data(data), atKeyPath: keyPath, as: Captured.self, options: options, body)
                : try forEachValue(
                    from: .data(data), framing: framing, atKeyPath: keyPath, as: Captured.self, options: options,
                    body)
        } catch {
            outcome.error = describe(error, withExcerpt: framing != .array)
        }
        return outcome
    }

    /// An error as text that must not depend on the number of workers: all but the excerpt,
    /// unless `withExcerpt`.
    static func describe(_ error: any Error, withExcerpt: Bool = false) -> String {
        switch error {
        case let syntax as JSONSyntaxError:
            return
                "JSONSyntaxError.\(syntax.kind) at \(syntax.line):\(syntax.column) (byte \(syntax.byteOffset)): \(syntax.message)"
                + (withExcerpt ? " near \(syntax.excerpt.debugDescription)" : "")
        case let parserError as ParserError where withExcerpt:
            return "ParserError: " + parserError.description
        case let parserError as ParserError:
            // `… (byte offset N): message near "excerpt""`: no message holds ` near "`; an excerpt may.
            let text = parserError.description
            guard let offset = text.range(of: "(byte offset "),
                let near = text.range(of: " near \"", range: offset.upperBound..<text.endIndex)
            else { return "ParserError: " + text }
            return "ParserError: " + text[..<near.lowerBound]
        case is BodyStop:
            return "BodyStop"
        case let decoding as DecodingError:
            return "DecodingError: \(decoding)"
        default:
            return "\(type(of: error)): \(error)"
        }
    }

    var description: String {
        "\(values.count) values \(values.prefix(8))\(values.count > 8 ? "…" : ""), count \(count.map(String.init) ?? "-"), "
            + "error: \(error ?? "none")"
    }
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
