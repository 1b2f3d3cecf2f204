import Foundation

/// An ``ElevateJSONDecoder``'s settings, copied at the start of each decode call.
struct DecodingSettings: Sendable {
    var keyDecodingStrategy: ElevateJSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    var dateDecodingStrategy: ElevateJSONDecoder.DateDecodingStrategy = .deferredToDate
    var dataDecodingStrategy: ElevateJSONDecoder.DataDecodingStrategy = .base64
    var nonConformingFloatDecodingStrategy: ElevateJSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var parsingOptions: JSONParsingOptions = .default
    /// Whether ``TapeDecodable`` types are decoded through `init(fromTape:)`; off only to compare
    /// it with `init(from:)` (the differential tests, the benchmark contenders).
    var usesTapeDecodable = true
}

/// Where the decoded document's bytes came from, so that an error can be given a byte offset by
/// parsing them again: bytes in memory, or a regular file that held the same bytes (the same
/// ``FileIdentity``) when it was parsed, read again in chunks and only while it still does.
enum DecodingSource {
    case data(Data)
    case file(URL, FileIdentity)
}
