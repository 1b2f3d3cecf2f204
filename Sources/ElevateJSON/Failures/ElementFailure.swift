/// An element of an array (or a value of a JSON Lines stream) that did not decode, as a lossy
/// decode reports it: where it is and why.
public struct ElementFailure: Error, CustomStringConvertible {
    /// The element's index in its array.
    public var index: Int
    /// The byte offset just past the element's last byte, from the start of the input; -1 when
    /// unknown.
    public var byteOffset: Int
    /// Why it failed: for a `Swift.Decodable` type its `DecodingError`, the coding path running from
    /// the document's root through the element's index; for an `Elevate.Decodable` type its
    /// `ParserError`.
    public var error: any Error

    /// Creates a failure.
    /// - Parameters:
    ///   - index: The element's index.
    ///   - byteOffset: Where the element ends, or -1.
    ///   - error: Why it failed.
    public init(index: Int, byteOffset: Int, error: any Error) {
        self.index = index
        self.byteOffset = byteOffset
        self.error = error
    }

    /// `element 3 (ending at byte 1024): …`.
    public var description: String {
        let place = byteOffset >= 0 ? " (ending at byte \(byteOffset))" : ""
        return "element \(index)\(place): \(error)"
    }
}

/// What a lossy decode of an array gives: every element that decoded, in document order, and the
/// ones that did not.
public struct LossyElements<Element> {
    /// The elements that decoded, in document order.
    public var elements: [Element]
    /// The elements that did not, in document order: the first
    /// ``StreamingOptions/maximumReportedFailures``.
    public var failures: [ElementFailure]
    /// How many elements did not decode, all of them counted.
    public var failureCount: Int

    /// Creates a result.
    /// - Parameters:
    ///   - elements: The elements that decoded.
    ///   - failures: The first elements that did not.
    ///   - failureCount: How many did not.
    public init(elements: [Element], failures: [ElementFailure], failureCount: Int) {
        self.elements = elements
        self.failures = failures
        self.failureCount = failureCount
    }
}

extension LossyElements: Sendable where Element: Sendable {}
