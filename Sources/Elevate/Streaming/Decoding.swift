import Foundation

/// Decodes the object at `keyPath` of JSON data into a ``Decodable`` type.
///
/// ```swift
/// let avatar: Avatar = try Elevate.decodeObject(from: data, atKeyPath: "response.avatar")
/// ```
/// Pass `""` for an object at the root. Only the object at the key path is materialized.
/// Values are held to `StreamingOptions`' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the object is, with Elevate's rules (`"response.avatar"`); `""` for the root.
/// - Returns: The decoded object.
/// - Throws: `ParserError`.
public func decodeObject<T: Decodable>(from data: Data, atKeyPath keyPath: String = "") throws -> T {
    try ObjectDecoding.decode(.data(data), atKeyPath: keyPath)
}

/// Decodes the object at `keyPath` of JSON data with a ``Decoder``.
///
/// ```swift
/// let avatar: Avatar = try Elevate.decodeObject(from: data, atKeyPath: "response.avatar", with: AvatarDecoder())
/// ```
/// Values are held to `StreamingOptions`' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the object is, with Elevate's rules; `""` for the root.
///   - decoder: Turns the object into a `T`.
/// - Returns: What the decoder returned.
/// - Throws: `ParserError`, including a validation error when the decoder returns something
///   other than a `T` (where Elevate would crash).
public func decodeObject<T>(from data: Data, atKeyPath keyPath: String = "", with decoder: any Decoder) throws -> T {
    try ObjectDecoding.decode(.data(data), atKeyPath: keyPath, with: decoder)
}

/// Decodes each element of the array at `keyPath` of JSON data into a ``Decodable`` type.
///
/// ```swift
/// let people: [Person] = try Elevate.decodeArray(from: data, atKeyPath: "response.items")
/// ```
/// Each element is decoded as soon as its last byte is parsed; no tree of the whole document is
/// built. Every failing element is reported, with its index.
/// Values are held to `StreamingOptions`' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the array is, with Elevate's rules (`"response.items"`); `""` for the root.
/// - Returns: The decoded elements, in document order.
/// - Throws: `ParserError`.
public func decodeArray<T: Decodable>(from data: Data, atKeyPath keyPath: String = "") throws -> [T] {
    try ArrayDecoding.decode(
        .data(data), atKeyPath: keyPath, methodName: String(describing: T.self), options: StreamingOptions().forElevate
    ) {
        try decodeElement($0, as: T.self)
    }
}

/// Decodes each element of the array at `keyPath` of JSON data with a ``Decoder``.
///
/// Values are held to `StreamingOptions`' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the array is, with Elevate's rules; `""` for the root.
///   - decoder: Turns each element into a `T`.
/// - Returns: What the decoder returned for each element, in document order.
/// - Throws: `ParserError`, including a validation error for an element the decoder turns into
///   something other than a `T`.
public func decodeArray<T>(from data: Data, atKeyPath keyPath: String = "", with decoder: any Decoder) throws -> [T] {
    let methodName = String(describing: decoder)
    return try ArrayDecoding.decode(
        .data(data), atKeyPath: keyPath, methodName: methodName, options: StreamingOptions().forElevate
    ) { element in
        try decodeElement(element, with: decoder, keyPath: keyPath)
    }
}

// MARK: Any input, with options

/// Decodes the object at `keyPath` of any `JSONInput` into a ``Decodable`` type, reading files,
/// file handles and standard input in chunks and materializing only that object.
///
/// ```swift
/// let avatar = try Elevate.decodeObject(from: .file(url), atKeyPath: "response.avatar", as: Avatar.self)
/// ```
///
/// For data in memory with Elevate's defaults, `decodeObject(from: data, atKeyPath:)` is the same.
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the object is; `""`, the default, for the root.
///   - type: The ``Decodable`` type to decode (an array of one, such as `[Person].self`, decodes an array).
///   - options: Limits (by default one value at most 64 MiB, nesting 512), read size, progress and
///     error wrapping.
/// - Returns: The decoded object.
/// - Throws: `ParserError`; with `StreamingOptions.wrapsErrorsInParserError` false, syntax
///   errors as `JSONSyntaxError` and unreadable input as `JSONInputError`.
public func decodeObject<T: Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> T {
    try ObjectDecoding.decode(input, atKeyPath: keyPath, options: options.forElevate)
}

/// Decodes the object at `keyPath` of any `JSONInput` with a ``Decoder``; see
/// ``decodeObject(from:atKeyPath:as:options:)-(JSONInput,_,_,_)``.
///
/// ```swift
/// let avatar = try Elevate.decodeObject(from: .file(url), atKeyPath: "avatar", with: AvatarDecoder(), as: Avatar.self)
/// ```
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the object is; `""`, the default, for the root.
///   - decoder: Decodes the object.
///   - type: What the decoder is expected to return.
///   - options: Limits, read size, progress and error wrapping.
/// - Returns: The decoded object.
/// - Throws: As ``decodeObject(from:atKeyPath:as:options:)-(JSONInput,_,_,_)``, and a validation
///   error when the decoder returns something other than a `T`.
public func decodeObject<T>(
    from input: JSONInput, atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> T {
    try ObjectDecoding.decode(input, atKeyPath: keyPath, with: decoder, options: options.forElevate)
}

/// Decodes every element of the array at `keyPath` of any `JSONInput`, reading files, file
/// handles and standard input in chunks and decoding each element as soon as it is complete.
///
/// ```swift
/// var options = StreamingOptions()
/// options.concurrency = StreamingOptions.automaticConcurrency
/// let people = try Elevate.decodeArray(from: .file(url), atKeyPath: "response.items", as: Person.self,
///                                      options: options)
/// ```
///
/// For data in memory with Elevate's defaults, `decodeArray(from: data, atKeyPath:)` is the same.
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for the root.
///   - type: The ``Decodable`` type of each element.
///   - options: Limits (by default one element at most 64 MiB, nesting 512), read size, progress,
///     error wrapping, and how many elements are decoded at once (`StreamingOptions.concurrency`);
///     `StreamingOptions.skipsInvalidElements` does not apply, as every failing element is
///     reported, Elevate's way (the first `StreamingOptions.maximumReportedFailures` in full,
///     the rest counted).
/// - Returns: The decoded elements, in document order.
/// - Throws: `ParserError`, with every failing element listed, exactly as with one worker; with
///   `StreamingOptions.wrapsErrorsInParserError` false, syntax errors as `JSONSyntaxError` and
///   unreadable input as `JSONInputError`.
public func decodeArray<T: Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try ArrayDecoding.decode(
        input, atKeyPath: keyPath, methodName: String(describing: T.self), options: options.forElevate,
        workers: options.concurrency
    ) { try decodeElement($0, as: T.self) }
}

/// Decodes every element of the array at `keyPath` of any `JSONInput` with `init(json:)`, for a
/// type that is both `Elevate.Decodable` and `Swift.Decodable`; see
/// `decodeArray(from:atKeyPath:as:options:)` of a `JSONInput`.
///
/// Exists so that such a type (`String`, `Int`, …) compiles without ambiguity; pass `decoder:` to
/// use `init(from:)`.
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for the root.
///   - type: The type of each element.
///   - options: Limits, read size, progress, error wrapping and concurrency.
/// - Returns: The decoded elements, in document order.
/// - Throws: As `decodeArray(from:atKeyPath:as:options:)` of a `JSONInput`.
public func decodeArray<T: Decodable & Swift.Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try ArrayDecoding.decode(
        input, atKeyPath: keyPath, methodName: String(describing: T.self), options: options.forElevate,
        workers: options.concurrency
    ) { try decodeElement($0, as: T.self) }
}

/// Decodes every element of the array at `keyPath` of any `JSONInput` with a ``Decoder``; see
/// `decodeArray(from:atKeyPath:as:options:)` of a `JSONInput`.
///
/// ```swift
/// let format = DateDecoder(dateFormatString: "yyyy-MM-dd")
/// let dates = try Elevate.decodeArray(from: .file(url), atKeyPath: "dates", with: format,
///                                     as: Date.self)
/// ```
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for the root.
///   - decoder: Decodes each element; shared by the workers when `StreamingOptions.concurrency` > 1.
///   - type: What the decoder is expected to return for each element.
///   - options: Limits, read size, progress, error wrapping and concurrency.
/// - Returns: The decoded elements, in document order.
/// - Throws: As `decodeArray(from:atKeyPath:as:options:)` of a `JSONInput`, and a validation error
///   for an element the decoder turns into something other than a `T`.
public func decodeArray<T>(
    from input: JSONInput, atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try ArrayDecoding.decode(
        input, atKeyPath: keyPath, methodName: String(describing: decoder), options: options.forElevate,
        workers: options.concurrency
    ) { try decodeElement($0, with: decoder, keyPath: keyPath) }
}
