/// A value that ``JSONWriter`` and ``JSONStreamWriter`` write as the value tree its ``json``
/// returns: `[String: Any]`, `[Any]`, `String`, a number, `Bool`, `NSNull`, or another
/// `JSONRepresentable`.
///
/// Elevate's `Encodable` refines it, so that its conforming types are written wherever they sit in
/// a value tree; a type may also conform to it directly.
///
/// ```swift
/// struct Point: JSONRepresentable {
///     var x = 0, y = 0
///     var json: Any { ["x": x, "y": y] }
/// }
/// let text = try JSONWriter.string(for: ["origin": Point()], options: .init(sortedKeys: true))
/// // {"origin":{"x":0,"y":0}}
/// ```
public protocol JSONRepresentable {
    /// The JSON value of this instance.
    var json: Any { get }
}
