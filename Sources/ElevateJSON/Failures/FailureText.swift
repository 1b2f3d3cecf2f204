/// Elevate's failure texts, written once: code that matches on them keeps working, and every
/// reader, schema and stream words the same failure the same way.
package enum FailureText {
    /// `Required key path [a.b] was missing or null`: nothing, or `null`, where a value is required.
    package static func missing(_ keyPath: String) -> String {
        "Required key path [\(keyPath)] was missing or null"
    }

    /// `Value for key path [a.b] is of incorrect type`: a value of another JSON type than asked for.
    package static func incorrectType(_ keyPath: String) -> String {
        "Value for key path [\(keyPath)] is of incorrect type"
    }

    /// `Required key path [a.b] could not be parsed to valid URL`, Elevate's text; for an optional
    /// property, which is not required, `Optional key path [a.b] could not be parsed to valid URL`.
    package static func invalidURL(_ keyPath: String, optional: Bool = false) -> String {
        "\(optional ? "Optional" : "Required") key path [\(keyPath)] could not be parsed to valid URL"
    }

    /// Elevate's text for an array element that failed to decode: its index, the decoding type or
    /// decoder, and the element's own failure text.
    package static func arrayElement(index: Int, methodName: String, reason: String) -> String {
        "Error parsing array object at index \(index) with parser [\(methodName)]\n\(reason)\n--"
    }

    /// A top-level value of concatenated JSON (counted from 0) larger than the element size limit.
    package static func valueTooLarge(index: Int, limit: Int) -> String {
        "Value \(index) is larger than the maximum element size of \(limit) bytes"
    }

    /// The failure of the member at `index` (counted in document order) of a streamed object.
    package static func objectMember(index: Int, methodName: String, reason: String) -> String {
        "Error parsing object member at index \(index) with parser [\(methodName)]\n\(reason)\n--"
    }
}
