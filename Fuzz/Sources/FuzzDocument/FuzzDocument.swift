import Elevate
import Foundation
import _FuzzSupport

/// `JSONValue(parsing:)` accepts and rejects what `foundationTree(from:)` (the fuzz package's own events-to-tree builder) does, with the
/// same `JSONSyntaxError`; its `foundationValue` equals the builder's tree; and the document parsed
/// from chunks (`init(parsing:)` over an asynchronous sequence) equals the one parsed whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let data = Data(input.bytes)
    let options = JSONParsingOptions(
        allowsComments: input.chance(4), maximumDepth: input.chance(4) ? 1 + input.next(below: 8) : 512,
        rejectsDuplicateKeys: input.chance(4))

    var tree: Any?
    var treeError: JSONSyntaxError?
    do {
        tree = try foundationTree(from: data, options: options)
    } catch let error as JSONSyntaxError {
        treeError = error
    } catch {
        fuzzFailure("value(from:) threw \(type(of: error)): \(error)")
    }

    let document: JSONValue
    do {
        document = try JSONValue(parsing: data, options: options)
    } catch let error as JSONSyntaxError {
        fuzzCheck(
            error == treeError,
            "JSONValue rejects (\(error)) but the tree builder gives \(treeError.map { "\($0)" } ?? "a value")")
        return 0
    } catch {
        fuzzFailure("JSONValue(parsing:) threw \(type(of: error)): \(error)")
    }
    guard let tree else { fuzzFailure("JSONValue accepts what the tree builder rejects: \(treeError!)") }
    let converted = document.foundationValue
    fuzzCheck(
        sameJSON(converted, tree),
        "foundationValue differs from the tree builder\ndocument: \(describeJSON(converted))\nbuilder:  \(describeJSON(tree))"
    )

    let chunks = input.chunks(count: input.bytes.count).map { Array(input.bytes[$0]) }
    let split: Result<JSONValue, any Error> = runBlocking {
        do { return .success(try await JSONValue(parsing: Chunks(chunks: chunks), options: options)) } catch {
            return .failure(error)
        }
    }
    switch split {
    case .success(let other):
        fuzzCheck(other == document, "chunked document differs (chunk sizes \(chunks.map(\.count)))")
    case .failure(let error):
        fuzzFailure(
            "chunked JSONValue(parsing:) failed where whole succeeded (chunk sizes \(chunks.map(\.count))): \(error)")
    }
    return 0
}

@main
enum Main {
    static func main() {
        runLibFuzzer { data, count in data.map { fuzz(UnsafeRawPointer($0), count) } ?? 0 }
    }
}
