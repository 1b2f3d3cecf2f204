import Foundation

/// One pass of a ``KeyPathSelector`` over a document, from any source: the calls that read a
/// whole input (`decodeArray`, `decodeObject`, `parseEntity`, `summarizeValue`, `forEachEvent`)
/// set up their selector and read their result here, so that a ``JSONInput`` and an asynchronous
/// sequence of chunks run exactly the same code around the parse.
package protocol DocumentPass: AnyObject {
    associatedtype Result

    /// Receives the document's events.
    var selector: KeyPathSelector { get }

    /// What the pass found, once the whole document parsed without error.
    func result() throws -> Result

    /// The error to throw when the parse threw `error` (by default `error` itself): a pass with
    /// work in flight lets it settle first, since an error of that work may be the one to report.
    func settle(after error: any Error) throws -> any Error

    /// Called when the pass ends, however it ends: nothing it started may outlive the call.
    func end()

    /// Called before the parse of an input whose size is known (data, a regular file).
    /// - Parameters:
    ///   - byteCount: The input's size in bytes.
    ///   - position: Reads the parser's byte offset (the end of the event being delivered).
    func willParse(byteCount: Int, position: @escaping () -> Int)

    /// With several workers: the split parse of the array the pass decodes, fed the input
    /// instead of `parser` (see ``SplitArrayReader``); nil by default, for the parser alone.
    func makeSplitReader(parser: JSONEventParser, options: StreamingOptions) -> (any SplitFeeding)?

    /// Called before a read of a ``JSONInput`` that would wait (``JSONInput/wouldWaitForInput``),
    /// after the split parse handed its complete elements over: what a live input gave so far
    /// can go out then. Nil by default: the input is read without looking.
    var whenInputWaits: (() throws -> Void)? { get }
}

extension DocumentPass {
    package func settle(after error: any Error) throws -> any Error { error }
    package func end() {}
    package func willParse(byteCount: Int, position: @escaping () -> Int) {}
    package func makeSplitReader(parser: JSONEventParser, options: StreamingOptions) -> (any SplitFeeding)? { nil }
    package var whenInputWaits: (() throws -> Void)? { nil }

    /// Parses the whole input and returns the result.
    package func run(_ input: JSONInput, options: StreamingOptions) throws -> Result {
        defer { end() }
        // The whole parse runs in the call's decoding scope (see `DecodingScope`).
        options.decodingScope.enter()
        defer { options.decodingScope.leave() }
        do {
            try parse(input, options: options)
        } catch {
            throw try settle(after: error)
        }
        return try result()
    }

    /// The parse of ``run(_:options:)``.
    private func parse(_ input: JSONInput, options: StreamingOptions) throws {
        var passParser = PassParser(handler: selector, options: options)
        passParser.split = makeSplitReader(parser: passParser.parser, options: options)
        passParser.whenInputWaits = whenInputWaits
        if let byteCount = input.knownByteCount {
            // Held strongly: a pass may ask after the parse (the parser then reports the end).
            let parser = passParser.parser
            willParse(byteCount: byteCount, position: { parser.currentByteOffset })
        }
        try passParser.run(input)
    }

    /// Parses every chunk of an asynchronous sequence and returns the result; cancelling the task
    /// ends the pass with `CancellationError`.
    package func run<Chunks: AsyncSequence>(_ chunks: Chunks, options: StreamingOptions) async throws -> Result
    where Chunks.Element: Sequence<UInt8> {
        defer { end() }
        do {
            var passParser = PassParser(handler: selector, options: options)
            passParser.split = makeSplitReader(parser: passParser.parser, options: options)
            try await passParser.run(chunks)
        } catch {
            throw try settle(after: error)
        }
        return try result()
    }
}

/// A parser over one document with a pass's limits, whose failures become the errors the
/// options ask for: Elevate's deserialization error, or the syntax and input errors themselves.
struct PassParser {
    let parser: JSONEventParser
    let options: StreamingOptions
    /// What the input goes to instead of the parser, when the pass splits its array.
    var split: (any SplitFeeding)?
    /// See ``DocumentPass/whenInputWaits``.
    var whenInputWaits: (() throws -> Void)?

    init(handler: KeyPathSelector, options: StreamingOptions) {
        let parser = JSONEventParser(handler: handler, options: options.parsing)
        handler.refusedKeyError = { [unowned parser] in parser.errorAtDeliveredKey(.duplicateKey, $0) }
        if options.maximumElementSize < Int.max {
            handler.maximumCaptureSize = options.maximumElementSize
            handler.currentOffset = { [unowned parser] in parser.currentByteOffset }
        }
        self.parser = parser
        self.options = options
    }

    func run(_ input: JSONInput) throws {
        do {
            guard split != nil || whenInputWaits != nil else {
                return try parser.parseAll(input, chunkSize: options.chunkSize, progress: options.progress)
            }
            let parser = parser
            let split = split
            let whenInputWaits = whenInputWaits
            try readChunks(
                of: input, options: options, until: { split?.isStopped == true || parser.isStopped },
                beforeInputFailure: split?.inputFailed
            ) { chunk in
                if let split { try split.feed(chunk) } else { try parser.parse(chunk) }
                guard let whenInputWaits, input.wouldWaitForInput else { return }
                try split?.handOverCompleteElements()
                try whenInputWaits()
            }
            if let split { try finish(split) } else { try parser.finish() }
        } catch {
            throw converted(error)
        }
    }

    func run<Chunks: AsyncSequence>(_ chunks: Chunks) async throws where Chunks.Element: Sequence<UInt8> {
        do {
            guard let split else { return try await parser.parseAll(chunks, progress: options.progress) }
            var bytesRead = 0
            for try await chunk in chunks {
                try Task.checkCancellation()
                bytesRead += try withContiguousBytes(of: chunk) { try split.feed($0) }
                options.progress?(bytesRead)
                if split.isStopped || parser.isStopped { return }
            }
            try Task.checkCancellation()
            try finish(split)
        } catch {
            throw converted(error)
        }
    }

    private func finish(_ split: any SplitFeeding) throws {
        try split.finish()
        if !split.isStopped { try parser.finish() }
    }

    /// The failure of a value over ``StreamingOptions/maximumElementSize``, near `offset`.
    static func tooLargeText(limit: Int, offset: Int) -> String {
        "A value is larger than the maximum element size of \(limit) bytes (ending near byte offset \(offset))"
    }

    private func converted(_ error: any Error) -> any Error {
        switch error {
        case let error as JSONSyntaxError:
            return options.wrapsErrorsInParserError ? ParserError(error) : error
        case let error as KeyPathSelector.CaptureTooLarge:
            return ParserError.validation(
                failureReason: Self.tooLargeText(limit: error.limit, offset: parser.currentByteOffset))
        case let error as JSONInputError:
            return options.wrapsErrorsInParserError ? ParserError.deserialization(reason: error.description) : error
        default:
            return error
        }
    }
}
