import Elevate
import Foundation
import _FuzzSupport

/// `foundationTree(from:)` (the fuzz package's own events-to-tree builder), written back with `JSONWriter` (options drawn from the input)
/// and parsed again, gives the same tree; and with sorted keys, writing the second tree gives the
/// same bytes as writing the first.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let parsing = JSONParsingOptions(allowsComments: input.chance(4))
    let value: Any
    do {
        value = try foundationTree(from: Data(input.bytes), options: parsing)
    } catch is JSONSyntaxError {
        return 0
    } catch {
        fuzzFailure("value(from:) threw \(type(of: error)): \(error)")
    }
    let options = JSONWriter.Options(
        prettyPrinted: input.chance(2), sortedKeys: input.chance(2), escapesSlashes: input.chance(2),
        escapesLineSeparators: input.chance(2))
    let written: Data
    do {
        written = try JSONWriter.data(for: value, options: options)
    } catch {
        fuzzFailure("JSONWriter failed on a parsed tree (\(options)): \(error)\ntree: \(describeJSON(value))")
    }
    let reparsed: Any
    do {
        reparsed = try foundationTree(from: written)
    } catch {
        fuzzFailure("the writer's output does not parse: \(error)\noutput: \(String(decoding: written, as: UTF8.self))")
    }
    fuzzCheck(
        sameJSON(value, reparsed),
        """
        round trip changed the value (\(options))
        first:  \(describeJSON(value))
        output: \(String(decoding: written, as: UTF8.self))
        second: \(describeJSON(reparsed))
        """)
    let sorted = JSONWriter.Options(sortedKeys: true)
    let first = try? JSONWriter.bytes(for: value, options: sorted)
    let second = try? JSONWriter.bytes(for: reparsed, options: sorted)
    fuzzCheck(
        first != nil && first == second,
        """
        sorted output differs between the tree and its round trip
        first:  \(first.map { String(decoding: $0, as: UTF8.self) } ?? "error")
        second: \(second.map { String(decoding: $0, as: UTF8.self) } ?? "error")
        """)
    return 0
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
