/// Turns a JSON value into anything: a model object, a transformed value (``DateDecoder``,
/// ``StringToIntDecoder``), or a different mapping of the same type.
///
/// Write `Elevate.Decoder` where Swift's own `Decoder` is also in scope.
public protocol Decoder {
    /// Decodes `object`, a JSON value, into the result.
    /// - Throws: `ParserError.validation(failureReason:)` when the value does not fit.
    /// - Parameter object: A JSON value, as ``Decodable/init(json:)`` receives one.
    /// - Returns: The decoded value; callers cast it to the type they asked for.
    func decode(_ object: Any) throws -> Any
}
