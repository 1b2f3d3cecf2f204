import Foundation

/// Decodes the object at `keyPath` of JSON data into a ``Decodable`` type.
///
/// ```swift
/// let avatar: Avatar = try Elevate.decodeObject(from: data, atKeyPath: "response.avatar")
/// ```
/// Pass `""` for an object at the root. Only the object at the key path is materialized.
/// Values are held to ``StreamingOptions``' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the object is, with Elevate's rules (`"response.avatar"`); `""` for the root.
/// - Returns: The decoded object.
/// - Throws: ``ParserError``.
public func decodeObject<T: Decodable>(from data: Data, atKeyPath keyPath: String = "") throws -> T {
    try ObjectDecoding.decode(.data(data), atKeyPath: keyPath)
}

/// Decodes the object at `keyPath` of JSON data with a ``Decoder``.
///
/// ```swift
/// let avatar: Avatar = try Elevate.decodeObject(from: data, atKeyPath: "response.avatar", with: AvatarDecoder())
/// ```
/// Values are held to ``StreamingOptions``' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the object is, with Elevate's rules; `""` for the root.
///   - decoder: Turns the object into a `T`.
/// - Returns: What the decoder returned.
/// - Throws: ``ParserError``, including a validation error when the decoder returns something
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
/// Values are held to ``StreamingOptions``' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the array is, with Elevate's rules (`"response.items"`); `""` for the root.
/// - Returns: The decoded elements, in document order.
/// - Throws: ``ParserError``.
public func decodeArray<T: Decodable>(from data: Data, atKeyPath keyPath: String = "") throws -> [T] {
    try ArrayDecoding.decode(.data(data), atKeyPath: keyPath, methodName: String(describing: T.self)) {
        try decodeElement($0, as: T.self)
    }
}

/// Decodes each element of the array at `keyPath` of JSON data with a ``Decoder``.
///
/// Values are held to ``StreamingOptions``' default limits (64 MiB for the value at the key path or
/// one element); for more, pass `.data(data)` with `options:`.
/// - Parameters:
///   - data: A JSON document.
///   - keyPath: Where the array is, with Elevate's rules; `""` for the root.
///   - decoder: Turns each element into a `T`.
/// - Returns: What the decoder returned for each element, in document order.
/// - Throws: ``ParserError``, including a validation error for an element the decoder turns into
///   something other than a `T`.
public func decodeArray<T>(from data: Data, atKeyPath keyPath: String = "", with decoder: any Decoder) throws -> [T] {
    let methodName = String(describing: decoder)
    return try ArrayDecoding.decode(.data(data), atKeyPath: keyPath, methodName: methodName) { element in
        try decodeElement(element, with: decoder, keyPath: keyPath)
    }
}

// MARK: Any input, with options

/// Decodes the object at `keyPath` of any ``JSONInput`` into a ``Decodable`` type, reading files,
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
/// - Throws: ``ParserError``; with ``StreamingOptions/wrapsErrorsInParserError`` false, syntax
///   errors as ``JSONSyntaxError`` and unreadable input as ``JSONInputError``.
public func decodeObject<T: Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> T {
    try ObjectDecoding.decode(input, atKeyPath: keyPath, options: options)
}

/// Decodes the object at `keyPath` of any ``JSONInput`` with a ``Decoder``; see
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
    try ObjectDecoding.decode(input, atKeyPath: keyPath, with: decoder, options: options)
}

/// Decodes every element of the array at `keyPath` of any ``JSONInput``, reading files, file
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
///     error wrapping, and how many elements are decoded at once (``StreamingOptions/concurrency``);
///     ``StreamingOptions/skipsInvalidElements`` does not apply, as every failing element is
///     reported, Elevate's way (the first ``StreamingOptions/maximumReportedFailures`` in full,
///     the rest counted).
/// - Returns: The decoded elements, in document order.
/// - Throws: ``ParserError``, with every failing element listed, exactly as with one worker; with
///   ``StreamingOptions/wrapsErrorsInParserError`` false, syntax errors as ``JSONSyntaxError`` and
///   unreadable input as ``JSONInputError``.
public func decodeArray<T: Decodable>(
    from input: JSONInput, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try ArrayDecoding.decode(
        input, atKeyPath: keyPath, methodName: String(describing: T.self), options: options,
        workers: options.concurrency
    ) { try decodeElement($0, as: T.self) }
}

/// Decodes every element of the array at `keyPath` of any ``JSONInput`` with a ``Decoder``; see
/// ``decodeArray(from:atKeyPath:as:options:)-(JSONInput,_,_,_)``.
///
/// ```swift
/// let format = DateDecoder(dateFormatString: "yyyy-MM-dd")
/// let dates = try Elevate.decodeArray(from: .file(url), atKeyPath: "dates", with: format,
///                                     as: Date.self)
/// ```
/// - Parameters:
///   - input: Where the JSON comes from.
///   - keyPath: Where the array is; `""`, the default, for the root.
///   - decoder: Decodes each element; shared by the workers when ``StreamingOptions/concurrency`` > 1.
///   - type: What the decoder is expected to return for each element.
///   - options: Limits, read size, progress, error wrapping and concurrency.
/// - Returns: The decoded elements, in document order.
/// - Throws: As ``decodeArray(from:atKeyPath:as:options:)-(JSONInput,_,_,_)``, and a validation error
///   for an element the decoder turns into something other than a `T`.
public func decodeArray<T>(
    from input: JSONInput, atKeyPath keyPath: String = "", with decoder: any Decoder, as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions()
) throws -> [T] {
    try ArrayDecoding.decode(
        input, atKeyPath: keyPath, methodName: String(describing: decoder), options: options,
        workers: options.concurrency
    ) { try decodeElement($0, with: decoder, keyPath: keyPath) }
}

/// The object at a key path of any input, decoded as Elevate does it: a one-property schema of
/// type `.dictionary`.
enum ObjectDecoding {
    static func decode<T: Decodable>(
        _ input: JSONInput, atKeyPath keyPath: String, options: StreamingOptions = StreamingOptions()
    ) throws -> T {
        let plan = Plan<T>(decoding: T.self, atKeyPath: keyPath)
        return try plan.result(CapturedValues(input: input, paths: plan.paths, options: options))
    }

    static func decode<T>(
        _ input: JSONInput, atKeyPath keyPath: String, with decoder: any Decoder,
        options: StreamingOptions = StreamingOptions()
    ) throws -> T {
        let plan = Plan<T>(decoder: decoder, atKeyPath: keyPath)
        return try plan.result(CapturedValues(input: input, paths: plan.paths, options: options))
    }

    static func decode<T: Decodable, Chunks: AsyncSequence>(
        _ chunks: Chunks, atKeyPath keyPath: String, options: StreamingOptions = StreamingOptions()
    ) async throws -> T where Chunks.Element: Sequence<UInt8> {
        let plan = Plan<T>(decoding: T.self, atKeyPath: keyPath)
        return try plan.result(await CapturedValues(chunks: chunks, paths: plan.paths, options: options))
    }

    static func decode<T, Chunks: AsyncSequence>(
        _ chunks: Chunks, atKeyPath keyPath: String, with decoder: any Decoder,
        options: StreamingOptions = StreamingOptions()
    ) async throws -> T where Chunks.Element: Sequence<UInt8> {
        let plan = Plan<T>(decoder: decoder, atKeyPath: keyPath)
        return try plan.result(await CapturedValues(chunks: chunks, paths: plan.paths, options: options))
    }

    /// What one `decodeObject` captures, and how it turns the captured values into its result.
    private struct Plan<T> {
        let paths: [KeyPath]
        let result: (CapturedValues) throws -> T

        init(decoding type: T.Type, atKeyPath keyPath: String) where T: Decodable {
            let path = KeyPath(keyPath)
            if T.self is any DecodableArray.Type {
                // `let people: [Person] = try decodeObject(…)`: the value is an array, decoded whole.
                paths = [path]
                result = { captured in
                    guard let value = captured.value(at: path), !value.isNull else {
                        throw ParserError.validation(
                            failureReason: "Required key path [\(keyPath)] was missing or null")
                    }
                    return try ViewHandOff.decode(value, by: ObjectIdentifier(T.self)) { try T(json: $0) }
                }
                return
            }
            let schema = Schema()
            // As in Elevate, a primitive is read as its own property type; anything else is an object.
            schema.addProperty(keyPath: keyPath, type: primitivePropertyType(T.self) ?? .dictionary, decodableType: T.self)
            paths = schema.storage.map(\.path)
            result = { captured in
                try typedResult(Parser.entity(schema, from: captured)[keyPath], keyPath: keyPath, method: T.self)
            }
        }

        init(decoder: any Decoder, atKeyPath keyPath: String) {
            let schema = Schema()
            schema.addProperty(keyPath: keyPath, type: .dictionary, decoder: decoder)
            paths = schema.storage.map(\.path)
            result = { captured in
                try typedResult(
                    Parser.entity(schema, from: captured)[keyPath], keyPath: keyPath, method: type(of: decoder))
            }
        }
    }
}

/// The property type Elevate's `decodeObject` uses for a primitive result type.
private func primitivePropertyType(_ type: Any.Type) -> SchemaPropertyProtocol? {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(String.self): return .string
    case ObjectIdentifier(Int.self): return .int
    case ObjectIdentifier(UInt.self): return .uint
    case ObjectIdentifier(Float.self): return .float
    case ObjectIdentifier(Double.self): return .double
    case ObjectIdentifier(Bool.self): return .bool
    default: return nil
    }
}

/// An element decoded by a ``Decodable`` type (handed a view, see ``ViewHandOff``).
@inline(__always)
func decodeElement<T: Decodable>(_ element: JSONValue, as type: T.Type) throws -> T {
    try ViewHandOff.decode(element, by: ObjectIdentifier(T.self)) { try T(json: $0) }
}

/// An element decoded by a ``Decoder`` (handed a view, see ``ViewHandOff``) as a `T`.
@inline(__always)
func decodeElement<T>(_ element: JSONValue, with decoder: any Decoder, keyPath: String) throws -> T {
    let decoded = try ViewHandOff.decode(element, by: ObjectIdentifier(type(of: decoder))) { try decoder.decode($0) }
    return try typedResult(decoded, keyPath: keyPath, method: type(of: decoder))
}

/// The decoded value as a `T`, or a validation error naming both types.
func typedResult<T>(_ value: Any?, keyPath: String, method: Any.Type) throws -> T {
    guard let value else {
        throw ParserError.validation(failureReason: "Required key path [\(keyPath)] was missing or null")
    }
    guard let typed = value as? T else {
        throw ParserError.validation(
            failureReason: "Decoder [\(method)] returned \(type(of: value)), not the requested \(T.self)")
    }
    return typed
}

/// Element-by-element decoding of the array at a key path, in one pass over the data.
enum ArrayDecoding {
    /// - Parameter workers: How many elements are decoded at once; 1 decodes each element on the
    ///   calling thread as soon as it is parsed, more hands them to a ``ParallelElementDecoder``.
    static func decode<T>(
        _ input: JSONInput, atKeyPath keyPath: String, methodName: String,
        options: StreamingOptions = StreamingOptions(), workers: Int = 1,
        decode: @escaping (JSONValue) throws -> T
    ) throws -> [T] {
        try Pass(
            keyPath: keyPath, methodName: methodName, workers: workers,
            failureLimit: options.maximumReportedFailures, decode: decode
        )
        .run(input, options: options)
    }

    /// ``decode(_:atKeyPath:methodName:options:workers:decode:)`` of an asynchronous sequence of chunks.
    static func decode<T, Chunks: AsyncSequence>(
        _ chunks: Chunks, atKeyPath keyPath: String, methodName: String,
        options: StreamingOptions = StreamingOptions(), workers: Int = 1,
        decode: @escaping (JSONValue) throws -> T
    ) async throws -> [T] where Chunks.Element: Sequence<UInt8> {
        try await Pass(
            keyPath: keyPath, methodName: methodName, workers: workers,
            failureLimit: options.maximumReportedFailures, decode: decode
        )
        .run(chunks, options: options)
    }

    /// What was found at one candidate path (the split path, or a literal dotted root key).
    private final class Candidate<Element> {
        let found: Found
        /// Where its array started among the pass's arrays (see ``Pass/settleInDocumentOrder()``).
        var order = 0
        /// The failing elements: Elevate's texts for the first ``StreamingOptions/maximumReportedFailures``
        /// (see ``Pass``), then only a count, so that an array of millions of invalid elements
        /// does not hold millions of texts.
        var failures = SkippedFailures(limit: .max)
        /// Decodes the elements on other threads, when more than one worker is asked for.
        var parallel: ParallelElementDecoder<Element>?
        /// The elements decoded on this thread, in the array that is returned: handing the
        /// caller a copy would hold the document's elements twice at the end of the pass.
        private var elements: [Element] = []
        // Elements reach `elements` a batch at a time: in this code, generic over a type known
        // only at run time, appending one element to an `[Element]` looks the array type's
        // metadata up every time (about 500 instructions, a fifth of a small entity's decoding).
        private let batch = UnsafeMutablePointer<Element>.allocate(capacity: Candidate.batchCapacity)
        private var batchCount = 0
        private static var batchCapacity: Int { 64 }
        /// Sizes `elements` once, when its first elements are in (see ``ElementCountEstimate``).
        var estimate: ElementCountEstimate?

        init(found: Found = .missing) {
            self.found = found
        }

        /// Takes `element` over: moved into the batch, not copied (a copy of a decoded struct
        /// retains and then releases each of its strings and arrays).
        func append(_ element: consuming Element) {
            (batch + batchCount).initialize(to: consume element)
            batchCount += 1
            if batchCount == Candidate.batchCapacity { flushBatch() }
        }

        private func flushBatch() {
            if let estimate, elements.count >= ElementCountEstimate.sampleCount {
                self.estimate = nil
                let count = elements.count + batchCount
                if let expected = estimate.expectedCount(after: count, stride: MemoryLayout<Element>.stride),
                    expected > elements.capacity
                {
                    elements.reserveCapacity(expected)
                }
            }
            elements.append(contentsOf: UnsafeBufferPointer(start: batch, count: batchCount))
            batch.deinitialize(count: batchCount)
            batchCount = 0
        }

        /// Takes what a worker made of the element at its index, in document order: what the
        /// sequential path does with the element itself.
        func take(_ outcome: ParallelElementDecoder<Element>.Outcome, keyPath: String, methodName: String) {
            switch outcome {
            case .decoded(let element):
                append(element)
            case .failed(let failure):
                failures.addNested(
                    EntityValidator.arrayElementFailure(index: failure.index, methodName: methodName, reason: failure.reason),
                    reason: failure.reason, nested: failure.nested, at: elementPath(keyPath, failure.index))
            }
        }

        /// The elements appended so far; none are left here afterwards.
        func takeElements() -> [Element] {
            // The parse is over: the last elements need no guess at how many are still to come.
            estimate = nil
            flushBatch()
            defer { elements = [] }
            return elements
        }

        deinit {
            batch.deinitialize(count: batchCount)
            batch.deallocate()
        }
    }

    /// How many elements an array of a document of known size will hold, guessed from the bytes
    /// its first elements took, so that the result is allocated once at about its final size.
    ///
    /// Grown by doubling instead, the result is copied at every doubling, and while the last copy
    /// runs the old storage and the new are both held: up to twice the elements' own size at
    /// the peak, for an array the caller asked for in memory.
    struct ElementCountEstimate {
        /// Elements decoded before the guess: enough for their average size to mean something,
        /// few enough that their own array's doublings cost nothing.
        static let sampleCount = 1024
        let arrayStart: Int
        let inputEnd: Int
        let position: () -> Int

        /// The expected element count, a sixteenth over the guess so that the usual spread of
        /// element sizes does not cost a doubling at the very end; nil when nothing can be
        /// guessed. Bounded so that the reservation, mostly memory never touched when the guess
        /// is too high (an array followed by other data), stays within twice the input's size.
        func expectedCount(after count: Int, stride: Int) -> Int? {
            let now = position()
            let consumed = now - arrayStart
            let remaining = inputEnd - now
            guard count > 0, consumed > 0, remaining > 0 else { return nil }
            let guess = Double(count) + Double(remaining) * Double(count) / Double(consumed) * 1.0625
            let bound = Double(inputEnd) * 2 / Double(max(stride, 1))
            return Int(min(guess, bound))
        }
    }

    private enum Found {
        case missing
        case null
        case wrongType
        case array
    }

    private final class Pass<T>: DocumentPass {
        let selector: KeyPathSelector
        private let keyPath: String
        private let methodName: String
        // The split path's candidate and the literal dotted root key's (targets 0 and 1), two
        // properties rather than an array, for the reason ``Candidate`` keeps its own buffer.
        // Touched on every element, never reentrantly: no dynamic exclusivity checks.
        @exclusivity(unchecked) private var splitPath = Candidate<T>()
        @exclusivity(unchecked) private var literalKey = Candidate<T>()

        private func candidate(_ target: Int) -> Candidate<T> {
            target == 0 ? splitPath : literalKey
        }

        private func replaceCandidate(_ target: Int, with candidate: Candidate<T>) throws {
            let replaced = self.candidate(target)
            if let parallel = replaced.parallel {
                // One thread decoded every element of the replaced array as it came, and stopped
                // at one that threw (not a validation failure): the workers' error must not be
                // dropped with the array (found by ParallelAdversarialTests, where a repeated key
                // turned `Thirteen` into a result).
                defer { parallel.cancel() }
                try settleInDocumentOrder()
            }
            if target == 0 { splitPath = candidate } else { literalKey = candidate }
        }

        /// Arrays started so far: the order of the candidates' arrays in the document.
        private var arraysStarted = 0

        /// Waits for every element the workers were handed and throws the first error one of
        /// them threw, as one thread, which decodes the elements of both candidates as they come,
        /// would have: in the order the arrays appear in the document, whichever candidate is
        /// chosen in the end. The outcomes stay for ``ParallelElementDecoder/finish()``.
        private func settleInDocumentOrder() throws {
            for candidate in [splitPath, literalKey].sorted(by: { $0.order < $1.order }) {
                try candidate.parallel?.throwFirstError()
            }
        }

        init(
            keyPath: String, methodName: String, workers: Int, failureLimit: Int,
            decode: @escaping (JSONValue) throws -> T
        ) {
            self.keyPath = keyPath
            self.methodName = methodName
            selector = KeyPathSelector(
                targets: [KeyPathSelector.Target].candidates(for: KeyPath(keyPath), mode: .elements),
                callbacks: KeyPathSelector.Callbacks())
            selector.reusesTapes = workers == 1
            // The callbacks reach this pass, which the selector does not own: no cycle.
            var callbacks = KeyPathSelector.Callbacks()
            callbacks.arrayStart = { [unowned self] target in
                let found = Candidate<T>(found: .array)
                found.failures = SkippedFailures(limit: failureLimit)
                if let byteCount, let position {
                    found.estimate = ElementCountEstimate(arrayStart: position(), inputEnd: byteCount, position: position)
                }
                found.order = arraysStarted
                arraysStarted += 1
                if workers > 1 {
                    let parallel = ParallelElementDecoder(workers: workers, decode: decode)
                    found.parallel = parallel
                    selector.tapeRecycler = parallel.tapeRecycler
                }
                try replaceCandidate(target, with: found)
            }
            callbacks.value = { [unowned self] target, value in
                try replaceCandidate(target, with: Candidate(found: value.isNull ? .null : .wrongType))
            }
            // A repeated key: the later occurrence replaces the earlier one whole.
            callbacks.duplicateKey = { [unowned self] repeated in
                for target in repeated { try replaceCandidate(target, with: Candidate()) }
            }
            callbacks.element = { [unowned self] target, index, element in
                let candidate = candidate(target)
                if let parallel = candidate.parallel {
                    parallel.submit(element, at: index)
                    // What the workers finished goes into the result as it comes, as one thread's
                    // elements do: held to the end, the elements were there twice at the peak
                    // (their outcomes, and the array made of them).
                    try parallel.drain(untilAllDone: false) { outcome in
                        candidate.take(outcome, keyPath: keyPath, methodName: methodName)
                    }
                    return
                }
                do {
                    candidate.append(try NestedFailures.decode { try decode(element) })
                } catch ParserError.validation(let reason) {
                    candidate.failures.addNested(
                        EntityValidator.arrayElementFailure(index: index, methodName: methodName, reason: reason),
                        reason: reason, at: elementPath(keyPath, index))
                }
            }
            selector.callbacks = callbacks
        }

        private var byteCount: Int?
        private var position: (() -> Int)?

        func willParse(byteCount: Int, position: @escaping () -> Int) {
            self.byteCount = byteCount
            self.position = position
        }

        /// Whatever happens, no worker outlives the call.
        func end() {
            for candidate in [splitPath, literalKey] { candidate.parallel?.cancel() }
        }

        /// One thread would have decoded every element before the input's error first, and
        /// stopped at one whose decoding threw: the workers finish theirs, and such an error wins.
        func settle(after error: any Error) throws -> any Error {
            try settleInDocumentOrder()
            return error
        }

        func result() throws -> [T] {
            // The candidate not chosen may hold an element that threw (found by
            // ParallelAdversarialTests: a split path's `Thirteen` hidden by a literal dotted key).
            try settleInDocumentOrder()
            let chosen = literalKey.found != .missing ? literalKey : splitPath
            if let parallel = chosen.parallel {
                try parallel.drain(untilAllDone: true) { outcome in
                    chosen.take(outcome, keyPath: keyPath, methodName: methodName)
                }
                // The drain took every outcome: this only ends the threads.
                let rest = try parallel.finish()
                assert(rest.elements.isEmpty && rest.failures.isEmpty, "the drain left outcomes behind")
            }
            let elements = chosen.takeElements()
            switch chosen.found {
            case .missing, .null:
                throw ParserError.validation(failureReason: "Required key path [\(keyPath)] was missing or null")
            case .wrongType:
                throw ParserError.validation(failureReason: "Value for key path [\(keyPath)] is of incorrect type")
            case .array:
                guard chosen.failures.isEmpty else {
                    throw chosen.failures.error()
                }
                return elements
            }
        }
    }
}
