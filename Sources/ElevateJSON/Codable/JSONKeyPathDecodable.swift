/// A `Decodable` type whose properties come from JSON key paths other than their own names, with
/// defaults for missing or null values, without writing `init(from:)`.
///
/// Declare, in one place, the key path that feeds each coding key (nested keys separated by `.`,
/// a decimal component indexing an array, as in Elevate), the defaults, and the transforms of
/// values of another shape (``JSONTransform``: a date format per property, a number in a string,
/// a sum). ``ElevateJSONDecoder`` applies them while it decodes, in the same single pass over the
/// document; the synthesized `init(from:)` is unchanged.
///
/// ```swift
/// // {"tree_names": {"colloquial": ["oak", "quercus"]},
/// //  "stats": {"age_years": 120, "planted": "1904-05-01"},
/// //  "leaves": null}
/// struct Tree: Codable, JSONKeyPathDecodable {
///     var name: String
///     var age: Int
///     var planted: Date
///     var leaves: [String]
///     var isProtected: Bool
///
///     static let keyPaths = [
///         "name": "tree_names.colloquial.0",
///         "age": "stats.age_years",
///         "planted": "stats.planted",
///     ]
///     static let defaults: [String: any Sendable] = ["leaves": [String](), "isProtected": false]
///     static let transforms: [String: JSONTransform] = ["planted": .date(format: "yyyy-MM-dd")]
/// }
///
/// let tree = try ElevateJSONDecoder().decode(Tree.self, from: data)
/// // Tree(name: "oak", age: 120, planted: …, leaves: [], isProtected: false)
/// ```
///
/// Rules:
/// - Keys are the coding keys' `stringValue`s (the property names, for synthesized conformances).
///   A name that is no coding key (`"nmae"`) is `dataCorrupted` when the type's keyed container is
///   first asked for, rather than ignored while the property is read by its own name.
///   A key without a key path is read by its own name, with the decoder's key strategy; a key path
///   is used as written (no key strategy).
/// - When a key path leads nowhere, the key is read by its own name, as Ladybug does: the type
///   decodes what ``ElevateJSONEncoder`` (or any encoder) wrote for it, keyed by property name.
/// - A default applies when the value is missing or `null`, to required and optional properties
///   alike; give it as the property's type (`0.0`, not `0`, for a `Double`), or decoding throws
///   `typeMismatch`.
/// - A transform reads the value at the key path (or at the key's own name) into the property's
///   value, for a value of another shape; see ``JSONTransform``. Where a key path leads nowhere and
///   the key's own name is read instead, that value is decoded as the property's type, without
///   the transform: it is what an encoder wrote for the property. A missing or `null` value takes
///   the default, or is nil or missing as without a transform.
/// - Errors name the coding key in their `codingPath` (as Foundation would for the property) and
///   the key path in their description.
/// - The declarations apply to the keyed container of the conforming value itself, not to nested
///   containers or `superDecoder()`. Foundation's `JSONDecoder` ignores them (it decodes by name).
public protocol JSONKeyPathDecodable: Swift.Decodable {
    /// The JSON key path of each coding key that is not read by its own name: coding key → key path.
    static var keyPaths: [String: String] { get }
    /// The value of each coding key whose JSON value is missing or `null`: coding key → default.
    static var defaults: [String: any Sendable] { get }
    /// How each coding key whose JSON value has another shape is read from it: coding key →
    /// ``JSONTransform`` (a string that holds a number, a date format of its own, a sum).
    static var transforms: [String: JSONTransform] { get }
}

extension JSONKeyPathDecodable {
    /// No key paths: every key is read by its own name.
    public static var keyPaths: [String: String] { [:] }
    /// No defaults.
    public static var defaults: [String: any Sendable] { [:] }
    /// No transforms.
    public static var transforms: [String: JSONTransform] { [:] }
}
