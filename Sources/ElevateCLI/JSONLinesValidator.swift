import Elevate

/// Checks JSON Lines as it streams past: each line that is not blank must hold exactly one JSON
/// value.
///
/// The lines are split and parsed by the library's `JSONLinesParser`, the same code that
/// `Elevate.forEachValue(from:framing: .jsonLines, …)` reads them with, so the tool and the library
/// agree on every input (a byte order mark only at the start, `\r\n` endings, blank lines). Lines
/// are not buffered, so a line of any length takes no memory beyond its parser's; a syntax error's
/// column counts from the start of its line, while the line number is the file's.
final class JSONLinesValidator {
    private let counter = ValueCounter()
    private let lines: JSONLinesParser

    /// The number of values (non-blank lines) checked.
    var valueCount: Int { lines.valueCount }

    /// The number of values in all the lines, nested ones included.
    var nestedValueCount: Int { counter.count }

    /// A syntax error, and the line of the file it is on.
    struct Failure: Error {
        var error: JSONSyntaxError
        var line: Int
    }

    init(options: JSONParsingOptions = .default) {
        lines = JSONLinesParser(handler: counter, options: options)
    }

    /// Checks the next chunk of input.
    /// - Throws: ``Failure`` for the first invalid line.
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try reportingLine { try lines.feed(chunk) }
    }

    /// Ends the input, checking a last line that has no newline.
    /// - Throws: ``Failure`` when that line is invalid.
    func finish() throws {
        try reportingLine { try lines.finish() }
    }

    private func reportingLine(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as JSONLinesParser.LineError {
            throw Failure(error: failure.error, line: failure.line)
        }
    }
}
