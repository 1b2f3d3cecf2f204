import Foundation
import Testing

@testable import Elevate
@testable import ElevateJSON

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
