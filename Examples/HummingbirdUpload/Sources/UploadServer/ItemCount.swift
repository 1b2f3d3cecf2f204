import Hummingbird

/// What `POST /items/count` answers: how many items the upload held, the sum of their quantities,
/// and the server's peak resident memory once they were counted.
///
/// ```json
/// {"count": 5000000, "quantityTotal": 22500000, "peakResidentBytes": 38764544}
/// ```
public struct ItemCount: ResponseCodable, Sendable, Equatable {
    /// The number of elements of the `items` array.
    public var count: Int
    /// The sum of the elements' `quantity`: every element was decoded, not only counted.
    public var quantityTotal: Int
    /// The process's peak resident set size in bytes, from its start until the count ended (see
    /// ``ProcessMemory/peakResidentBytes``); absent where the system does not tell.
    ///
    /// The body was never held whole if this stays well below its size.
    public var peakResidentBytes: Int?

    /// Creates an answer.
    /// - Parameters:
    ///   - count: See ``count``.
    ///   - quantityTotal: See ``quantityTotal``.
    ///   - peakResidentBytes: See ``peakResidentBytes``.
    public init(count: Int, quantityTotal: Int, peakResidentBytes: Int?) {
        self.count = count
        self.quantityTotal = quantityTotal
        self.peakResidentBytes = peakResidentBytes
    }
}
