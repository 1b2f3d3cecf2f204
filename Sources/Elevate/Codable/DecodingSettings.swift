import Foundation

/// An ``ElevateJSONDecoder``'s settings, copied at the start of each decode call.
struct DecodingSettings {
    var keyDecodingStrategy: ElevateJSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    var dateDecodingStrategy: ElevateJSONDecoder.DateDecodingStrategy = .deferredToDate
    var dataDecodingStrategy: ElevateJSONDecoder.DataDecodingStrategy = .base64
    var nonConformingFloatDecodingStrategy: ElevateJSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var documentOptions: JSONDocumentOptions = .default
}

/// The decoded document's bytes, so that an error can be given a byte offset by parsing them again.
/// Only bytes already in memory: reading a file again would cost its size in memory on the error
/// path and could find other bytes than those decoded.
enum DecodingSource {
    case data(Data)
}
