/// A Codable element's `DecodingError` on its way through a stream: thrown as it is, its coding
/// path prefixed with where the element is, when the stream stops at the first invalid element;
/// reported in `reason`'s words, beside Elevate's failures, when the stream skips invalid elements.
package struct DecodingFailure: Error {
    /// The error, its coding path inside the element.
    package let error: DecodingError
    /// The failure text a skipping stream reports for it.
    package let reason: String

    package init(error: DecodingError, reason: String) {
        self.error = error
        self.reason = reason
    }
}
