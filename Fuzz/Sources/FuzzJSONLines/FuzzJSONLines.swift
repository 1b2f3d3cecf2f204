import Elevate
import Foundation
import _FuzzSupport

/// The JSON Lines and concatenated-JSON readers: `forEachValue(from: .data, framing:)` (one chunk)
/// and `decodedValues(framing:)` over chunks cut from the input deliver the same values and fail
/// the same way; only `ParserError` comes out; and JSON Lines agrees with parsing each
/// non-blank line on its own with `foundationTree(from:)`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let framing: JSONFraming = input.chance(2) ? .jsonLines : .concatenated
    let keyPath = input.chance(4) ? "a" : ""
    let options = StreamingOptions(
        parsing: JSONParsingOptions(allowsComments: input.chance(4), maximumDepth: input.chance(4) ? 3 : 512),
        skipsInvalidElements: input.chance(4))
    let chunks = input.chunks(count: input.bytes.count).map { Array(input.bytes[$0]) }

    var whole = Outcome()
    do {
        try Elevate.forEachValue(
            from: .data(Data(input.bytes)), framing: framing, atKeyPath: keyPath, as: Captured.self, options: options
        ) { whole.values.append($0.json) }
    } catch {
        whole.error = parserError(error)
    }
    let split = runBlocking {
        var outcome = Outcome()
        do {
            let values = Chunks(chunks: chunks).decodedValues(
                framing: framing, atKeyPath: keyPath, as: Captured.self, options: options)
            for try await value in values { outcome.values.append(value.json) }
        } catch {
            outcome.error = parserError(error)
        }
        return outcome
    }
    let setting =
        "\(framing), key path \"\(keyPath)\", \(options.parsing), skipsInvalidElements \(options.skipsInvalidElements), chunk sizes \(chunks.map(\.count))"
    fuzzCheck(
        whole.matches(split, framing: framing),
        "whole and chunked reads differ (\(setting))\nwhole: \(whole)\nsplit: \(split)")

    if framing == .jsonLines, keyPath.isEmpty, !options.skipsInvalidElements, options.parsing.allowsComments == false,
        options.parsing.maximumDepth == 512
    {
        let expected = lineByLine(input.bytes)
        fuzzCheck(
            expected.values.count == whole.values.count && zip(expected.values, whole.values).allSatisfy(sameJSON)
                && expected.errorKind == whole.error?.kind,
            "JSON Lines differs from parsing each line alone\nreader: \(whole)\nlines:  \(expected)")
    }
    return 0
}

/// Accepts any value, so that every delivered value is kept.
struct Captured: Elevate.Decodable {
    let json: Any
    init(json: Any) { self.json = json }
}

struct Outcome: CustomStringConvertible {
    var values: [Any] = []
    var error: ParserError?

    /// Same values and the same error, texts compared without their excerpt (which shows the input
    /// only as far as it had arrived).
    func matches(_ other: Outcome, framing: JSONFraming) -> Bool {
        guard values.count == other.values.count, zip(values, other.values).allSatisfy(sameJSON) else { return false }
        switch (error, other.error) {
        case (nil, nil): return true
        case (let a?, let b?):
            return a.kind == b.kind && a.comparableText(framing) == b.comparableText(framing)
        default: return false
        }
    }

    var description: String {
        "\(values.map(describeJSON)) error: \(error.map(\.description) ?? "none")"
    }
}

extension ParserError {
    /// The description without the excerpt.
    func comparableText(_ framing: JSONFraming) -> String {
        guard let near = description.range(of: " near \"", options: .backwards) else { return description }
        return String(description[..<near.lowerBound])
    }

    enum Kind { case deserialization, validation }
    var kind: Kind {
        if case .deserialization = self { return .deserialization }
        return .validation
    }
}

func parserError(_ error: any Error) -> ParserError {
    guard let error = error as? ParserError else { fuzzFailure("threw \(type(of: error)), not ParserError: \(error)") }
    return error
}

/// What JSON Lines means, spelled out: split at `\n`, drop one trailing `\r`, skip lines of only
/// spaces and tabs, and parse each line alone; a byte order mark is allowed at the start of the first
/// line only;
/// a null line is a validation error.
func lineByLine(_ bytes: [UInt8]) -> (values: [Any], errorKind: ParserError.Kind?) {
    var values: [Any] = []
    for (index, var line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
        if line.last == 0x0D { line = line.dropLast() }
        // A byte order mark at the start of the input is no content (a first line of only a mark
        // is blank, as the same input is with the other framings).
        if index == 0, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        // A line of JSON whitespace only (carriage returns included) holds no value.
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
        // A mark anywhere else (a second one at the start of the input included) is invalid text;
        // `foundationTree` would skip it as the start of its own input.
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { return (values, .deserialization) }
        guard let value = try? foundationTree(from: Data(line)) else { return (values, .deserialization) }
        // A top-level null is handed to the decoder like any value.
        values.append(value)
    }
    return (values, nil)
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
