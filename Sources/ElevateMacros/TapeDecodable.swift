@_exported import ElevateJSON

/// Writes `init(fromTape:)` for a `Decodable` struct, so that ``ElevateJSON/ElevateJSONDecoder``
/// decodes it without the standard library's container boxes (see ``ElevateJSON/TapeDecodable``).
///
/// ```swift
/// import ElevateMacros
///
/// @TapeDecodable
/// struct Person: Codable {
///     var identifier: Int
///     var name: String
///     var nickname: String?
///     var addresses: [Address]
/// }
///
/// @TapeDecodable
/// struct Address: Codable {
///     var street: String
///     var city: String
/// }
/// ```
///
/// The initializer is the one the compiler synthesizes for `init(from:)`, against
/// ``ElevateJSON/TapeKeyedDecodingContainer``: every stored property is decoded under its
/// `CodingKeys` case, in the order of the cases (the type's own `CodingKeys`, custom names
/// included, when it declares one), each read naming the property's key path so that the compiler
/// chooses `decodeIfPresent` for an optional type and `decode` otherwise, as it does. A `let` with
/// an initial value, a `lazy var`, and a property that a declared `CodingKeys` leaves out keep their
/// initial value. Values, errors and coding paths are those of `init(from:)`.
///
/// The macro refuses, with a message, what it sees it cannot reproduce: a class, enum or actor, a
/// struct that writes its own `init(from:)`, a property with a custom attribute (a property
/// wrapper), a decoded `var` without a type annotation, declarations inside `#if`, and a
/// `CodingKeys` that is no enum. It cannot see an `init(from:)` written in an extension or
/// inherited from a protocol, nor `decode` overloads added to `KeyedDecodingContainer`: don't use
/// it on such types (the article "Codable on the Tape" lists every case).
@attached(extension, conformances: TapeDecodable, names: named(init(fromTape:)))
public macro TapeDecodable() = #externalMacro(module: "ElevateMacrosPlugin", type: "TapeDecodableMacro")
