import Foundation

/// How the streaming readers decode one element (or value) as a `Swift.Decodable` type: with an
/// ``ElevateJSONDecoder``'s settings, straight off the element's tape.
///
/// A `DecodingError` goes to the reader as a ``DecodingFailure``: the reader throws the error
/// itself, its coding path prefixed with where the element is, when it stops at the first invalid
/// element, and reports the failure's text (naming the coding path inside the element, keeping
/// the error's description) beside Elevate's when it skips invalid elements. Any other error an
/// `init(from:)` throws goes out unchanged.
struct CodableElementDecoding<T: Swift.Decodable> {
    /// Resolved once per stream: every element is decoded with the settings the stream began
    /// with, and the per-call work of resolving them is not repeated per element.
    private let strategies: ResolvedStrategies

    init(_ decoder: ElevateJSONDecoder) {
        strategies = ResolvedStrategies(decoder.currentSettings)
    }

    func decode(_ element: JSONValue) throws -> T {
        do {
            return try ElevateJSONDecoder.decode(
                T.self, in: element, atKeyPath: "", strategies: strategies, source: nil,
                hintDepth: TapeDecoder.elementHintDepth)
        } catch let error as DecodingError {
            throw DecodingFailure(error: error, reason: Self.failureReason(error))
        }
    }

    /// `keyNotFound at address.lines[2]: No value associated with key …`, the path written as
    /// Elevate writes key paths in its failure reports.
    static func failureReason(_ error: DecodingError) -> String {
        let kind: String
        switch error {
        case .typeMismatch: kind = "typeMismatch"
        case .valueNotFound: kind = "valueNotFound"
        case .keyNotFound: kind = "keyNotFound"
        case .dataCorrupted: kind = "dataCorrupted"
        @unknown default: kind = "DecodingError"
        }
        var path = ""
        for key in error.context.codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        let place = path.isEmpty ? "" : " at \(path)"
        return "Codable \(kind)\(place): \(error.context.debugDescription)"
    }
}
