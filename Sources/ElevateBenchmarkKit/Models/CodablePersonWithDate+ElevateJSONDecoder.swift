import Elevate
import Foundation

extension CodablePersonWithDate {
    /// ``dateDecodingStrategy`` for `ElevateJSONDecoder`: `.formatted` with the same
    /// `yyyy-MM-dd`, `en_US_POSIX` `DateFormatter` in the current time zone.
    public static var elevateDateDecodingStrategy: ElevateJSONDecoder.DateDecodingStrategy {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return .formatted(formatter)
    }
}
