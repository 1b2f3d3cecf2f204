/// Turns a JSON value into anything: a model object, a transformed value (``DateDecoder``,
/// ``StringToIntDecoder``), or a different mapping of the same type.
///
/// Write `Elevate.Decoder` where Swift's own `Decoder` is also in scope.
public protocol Decoder {
    /// Decodes `object`, a JSON value, into the result.
    /// - Throws: ``ParserError/validation(failureReason:)`` when the value does not fit.
    func decode(_ object: Any) throws -> Any
}
