/// Receives the events of a JSON text, in document order, from a ``JSONEventParser``.
///
/// The parser calls exactly one method per token. Text arguments are borrowed views that are
/// valid only during the call: copy what you keep (`text.string`, `number.value`).
///
/// Throwing from any method cancels the parse and rethrows the error from
/// ``JSONEventParser/parse(_:)-(UnsafeRawBufferPointer)``; throw ``JSONEventParser/Stop`` to end the
/// parse early without an error.
///
/// ```swift
/// final class Counter: JSONEventHandler {
///     var strings = 0
///     func string(_ value: JSONText) throws { strings += 1 }
/// }
/// ```
public protocol JSONEventHandler: AnyObject {
    /// An object begins (`{`).
    func startObject() throws
    /// A member name inside the current object.
    /// - Parameter key: The name, unescaped and validated; valid only during the call.
    func key(_ key: JSONText) throws
    /// The current object ends (`}`).
    func endObject() throws
    /// An array begins (`[`).
    func startArray() throws
    /// The current array ends (`]`).
    func endArray() throws
    /// A string value, already unescaped and validated as UTF-8.
    /// - Parameter value: The text; valid only during the call.
    func string(_ value: JSONText) throws
    /// A number, as its exact source text; convert it with ``JSONNumberText/value``.
    /// - Parameter value: The number's text; valid only during the call.
    func number(_ value: JSONNumberText) throws
    /// `true` or `false`.
    /// - Parameter value: Which of the two.
    func bool(_ value: Bool) throws
    /// `null`.
    func null() throws
}

extension JSONEventHandler {
    /// Ignores the event.
    public func startObject() throws {}
    /// Ignores the event.
    /// - Parameter key: The member name, unused.
    public func key(_ key: JSONText) throws {}
    /// Ignores the event.
    public func endObject() throws {}
    /// Ignores the event.
    public func startArray() throws {}
    /// Ignores the event.
    public func endArray() throws {}
    /// Ignores the event.
    /// - Parameter value: The string, unused.
    public func string(_ value: JSONText) throws {}
    /// Ignores the event.
    /// - Parameter value: The number, unused.
    public func number(_ value: JSONNumberText) throws {}
    /// Ignores the event.
    /// - Parameter value: The Boolean, unused.
    public func bool(_ value: Bool) throws {}
    /// Ignores the event.
    public func null() throws {}
}
