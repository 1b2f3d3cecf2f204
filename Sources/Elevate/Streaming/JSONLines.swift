import Foundation

/// How several top-level JSON values follow each other in one input.
public enum JSONValueFraming: Sendable, Hashable {
    /// JSON Lines: one value per line; blank lines are skipped, and a line holding anything but
    /// exactly one value is an error naming the line.
    case jsonLines
    /// Values one after another, with or without whitespace between them (`{…}{…}` or `1 2`).
    case concatenated
}

/// Decodes every top-level value of a JSON Lines or concatenated-JSON file (or the value at
/// `keyPath` inside each), handing each to `body` as soon as it is complete.
///
/// ```swift
/// try Elevate.forEachValue(in: .file(logURL), framing: .jsonLines, as: Event.self) { event in
///     handle(event)
/// }
/// ```
/// - Returns: the number of values delivered to `body`.
/// - Throws: ``ParserError``: syntax errors and invalid values name their line; by default the
///   first invalid value stops the stream, ``StreamingOptions/skipsInvalidElements`` reports them
///   all at the end instead.
@discardableResult
public func forEachValue<T: Decodable>(
    in input: JSONInput, framing: JSONValueFraming, atKeyPath keyPath: String = "", as type: T.Type = T.self,
    options: StreamingOptions = StreamingOptions(), _ body: (T) throws -> Void
) throws -> Int {
    try withoutActuallyEscaping(body) { body in
        let reader = ValueSequenceReader(
            keyPath: keyPath, methodName: "\(T.self)", framing: framing, options: options,
            decode: { try decodeElement($0, as: T.self) }, deliver: body)
        do {
            try input.forEachChunk(chunkSize: options.chunkSize, progress: options.progress) { try reader.feed($0) }
        } catch let error as JSONInputError {
            throw ParserError.deserialization(reason: error.description)
        }
        return try reader.finish()
    }
}

/// Splits input into top-level values and decodes each one.
final class ValueSequenceReader<T> {
    private let keyPath: KeyPath
    private let methodName: String
    private let framing: JSONValueFraming
    private let options: StreamingOptions
    private let decode: (JSONValue) throws -> T
    private let deliver: (T) throws -> Void

    private var failures = FailureCollector()
    private var deliveredCount = 0
    private var valueIndex = 0
    /// JSON Lines: the unfinished line carried over from the previous chunk.
    private var partialLine: [UInt8] = []
    private var lineNumber = 0
    /// Concatenated JSON: one parser for the whole input.
    private var parser: JSONEventParser?
    private var capturedValue: JSONValue?

    init(
        keyPath: String, methodName: String, framing: JSONValueFraming, options: StreamingOptions,
        decode: @escaping (JSONValue) throws -> T, deliver: @escaping (T) throws -> Void
    ) {
        self.keyPath = KeyPath(keyPath)
        self.methodName = methodName
        self.framing = framing
        self.options = options
        self.decode = decode
        self.deliver = deliver
        if framing == .concatenated {
            var parsing = options.parsing
            parsing.allowsMultipleValues = true
            let selector = makeSelector()
            selector.callbacks.documentEnd = { [unowned self] in try completeValue(line: nil) }
            let parser = JSONEventParser(handler: selector, options: parsing)
            selector.maximumCaptureSize = options.maximumElementSize
            selector.currentOffset = { [unowned parser] in parser.currentByteOffset }
            self.parser = parser
        }
    }

    private func makeSelector() -> KeyPathSelector {
        var callbacks = KeyPathSelector.Callbacks()
        callbacks.value = { [unowned self] target, value in
            // The literal dotted root key (target 1) wins over the split path, as in Elevate.
            if target == 1 || capturedValue == nil { capturedValue = value }
        }
        // A repeated key: the later occurrence replaces the earlier one whole.
        callbacks.duplicateKey = { [unowned self] _ in capturedValue = nil }
        return KeyPathSelector(targets: .candidates(for: keyPath, mode: .value), callbacks: callbacks)
    }

    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        switch framing {
        case .concatenated:
            try translatingErrors { try parser!.parse(chunk) }
        case .jsonLines:
            var lineStart = 0
            while lineStart < chunk.count,
                let found = memchr(chunk.baseAddress! + lineStart, 0x0A, chunk.count - lineStart)
            {
                let newline = UnsafeRawPointer(found) - chunk.baseAddress!
                try checkLineLength(partialLine.count + newline - lineStart)
                if partialLine.isEmpty {
                    try parseLine(UnsafeRawBufferPointer(rebasing: chunk[lineStart..<newline]))
                } else {
                    partialLine.append(contentsOf: chunk[lineStart..<newline])
                    let line = partialLine
                    partialLine.removeAll(keepingCapacity: true)
                    try line.withUnsafeBytes { try parseLine($0) }
                }
                lineStart = newline + 1
            }
            try checkLineLength(partialLine.count + chunk.count - lineStart)
            partialLine.append(contentsOf: chunk[lineStart...])
        }
    }

    /// Every line, however the input is chunked, is held to the element size limit.
    private func checkLineLength(_ length: Int) throws {
        guard length > options.maximumElementSize else { return }
        throw ParserError.validation(
            failureReason: "Line \(lineNumber + 1) is longer than the maximum element size of "
                + "\(options.maximumElementSize) bytes")
    }

    /// Concatenated JSON: syntax and size errors in Elevate's terms, from `parse` and `finish`.
    private func translatingErrors(_ body: () throws -> Void) throws {
        try translatingParseErrors(
            tooLarge: { "Value \(valueIndex) is larger than the maximum element size of \($0) bytes" }, body)
    }

    private func parseLine(_ line: UnsafeRawBufferPointer) throws {
        lineNumber += 1
        var content = line
        if content.last == 0x0D { content = UnsafeRawBufferPointer(rebasing: content.dropLast()) }
        guard content.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        // Exactly one value per line, whatever the caller's options say.
        var parsing = options.parsing
        parsing.allowsMultipleValues = false
        // A byte order mark is allowed only at the start of the input, not of every line.
        let parser = JSONEventParser(handler: makeSelector(), options: parsing, skipsByteOrderMark: lineNumber == 1)
        do {
            try parser.parse(content)
            try parser.finish()
        } catch let error as JSONSyntaxError {
            // Positions are within the line: name the line of the file instead.
            var excerpt = ""
            if !error.excerpt.isEmpty { excerpt = " near \"\(error.excerpt)\"" }
            throw ParserError.deserialization(
                failureReason: "Invalid JSON at line \(lineNumber), column \(error.column): \(error.message)\(excerpt)")
        }
        try completeValue(line: lineNumber)
    }

    private func completeValue(line: Int?) throws {
        let index = valueIndex
        valueIndex += 1
        // Lines count from 1 as editors do; concatenated values from 0, as array indices.
        let place = line.map { "line \($0)" } ?? "value \(index)"
        let path = line.map { "[line \($0)]" } ?? "[\(index)]"
        guard let value = capturedValue, !value.isNull else {
            capturedValue = nil
            let text =
                "Error parsing \(place) with parser [\(methodName)]\nRequired key path [\(keyPath.text)] was missing or null\n--"
            try fail(text, reason: "Required key path [\(keyPath.text)] was missing or null", at: path)
            return
        }
        capturedValue = nil
        let decoded: T
        do {
            decoded = try NestedFailures.decode { try decode(value) }
        } catch ParserError.validation(let reason) {
            let inner = keyPath.text.isEmpty ? path : path + "." + keyPath.text
            try fail("Error parsing \(place) with parser [\(methodName)]\n\(reason)\n--", reason: reason, at: inner)
            return
        }
        deliveredCount += 1
        try deliver(decoded)
    }

    private func fail(_ text: String, reason: String, at path: String) throws {
        guard options.skipsInvalidElements else {
            var single = FailureCollector()
            single.addNested(text, reason: reason, at: path)
            throw single.error()
        }
        failures.addNested(text, reason: reason, at: path)
    }

    func finish() throws -> Int {
        switch framing {
        case .concatenated:
            try translatingErrors { try parser!.finish() }
        case .jsonLines:
            if !partialLine.isEmpty {
                let line = partialLine
                partialLine = []
                try line.withUnsafeBytes { try parseLine($0) }
            }
        }
        if !failures.isEmpty {
            throw failures.error()
        }
        return deliveredCount
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
