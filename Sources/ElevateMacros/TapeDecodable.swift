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
/// `CodingKeys` case (the type's own `CodingKeys`, custom names included, when it declares one),
/// with `decodeIfPresent` when its type is written `T?`, `T!` or `Optional<T>`, `decode` otherwise.
/// A `let` with an initial value, and a property that a declared `CodingKeys` leaves out, keep their
/// initial value. Values, errors and coding paths are those of `init(from:)`.
///
/// The macro refuses, with a message, what it cannot reproduce: a class, enum or actor, a struct
/// that writes its own `init(from:)`, a property wrapper, a decoded `var` without a type
/// annotation, and properties declared inside `#if`. Write optional properties as `T?`, `T!` or `Optional<T>`: through a type alias, the
/// generated code would call `decode`, which refuses a missing key that `init(from:)` reads as nil.
@attached(extension, conformances: TapeDecodable, names: named(init(fromTape:)))
public macro TapeDecodable() = #externalMacro(module: "ElevateMacrosPlugin", type: "TapeDecodableMacro")
