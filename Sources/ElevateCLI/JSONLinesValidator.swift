import Elevate

/// Checks JSON Lines as it streams past: each line that is not blank must hold exactly one JSON
/// value.
///
/// Lines are not buffered: each one gets its own ``JSONEventParser``, which is fed the line's
/// pieces as the chunks bring them and finished at the newline. So a line of any length takes no
/// memory beyond the parser's, and a syntax error's column counts from the start of its line
/// (leading whitespace included), while the line number is the file's.
final class JSONLinesValidator {
    private let options: JSONParsingOptions
    private let counter = ValueCounter()
    private var parser: JSONEventParser?
    /// Whether the current line has anything but spaces, tabs and a carriage return.
    private var lineHasContent = false
    /// The bytes of the current line fed so far.
    private var lineLength = 0
    /// The one-based number of the line being read.
    private(set) var lineNumber = 1
    /// The number of values (non-blank lines) checked.
    private(set) var valueCount = 0

    /// The number of values in all the lines, nested ones included.
    var nestedValueCount: Int { counter.count }

    /// A syntax error, and the line of the file it is on.
    struct Failure: Error {
        var error: JSONSyntaxError
        var line: Int
    }

    private static let space: [UInt8] = [0x20]

    init(options: JSONParsingOptions = .default) {
        var options = options
        // One value per line is the rule; a second value on a line is an error.
        options.allowsMultipleValues = false
        self.options = options
    }

    /// Checks the next chunk of input.
    /// - Throws: ``Failure`` for the first invalid line.
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        var start = 0
        while start < chunk.count {
            let end = chunk[start...].firstIndex(of: 0x0A)
            try feedLine(UnsafeRawBufferPointer(rebasing: chunk[start..<(end ?? chunk.count)]))
            guard let end else { return }
            try endLine()
            start = end + 1
        }
    }

    /// Ends the input, checking a last line that has no newline.
    /// - Throws: ``Failure`` when that line is invalid.
    func finish() throws {
        try endLine()
    }

    private func feedLine(_ piece: UnsafeRawBufferPointer) throws {
        guard !piece.isEmpty else { return }
        lineLength += piece.count
        if !lineHasContent {
            lineHasContent = piece.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
        }
        let parser = self.parser ?? JSONEventParser(handler: counter, options: options)
        self.parser = parser
        do {
            try parser.parse(piece)
        } catch let error as JSONSyntaxError {
            throw Failure(error: error, line: lineNumber)
        }
    }

    private func endLine() throws {
        defer {
            parser = nil
            lineHasContent = false
            lineLength = 0
            lineNumber += 1
        }
        guard lineHasContent, let parser else { return }
        do {
            // The newline ends the last token, as it does in one document: a space stands in for
            // it, so that `[1] 2` is trailing garbage at the `2`, and not a number cut short.
            try parser.parse(Self.space)
            try parser.finish()
        } catch var error as JSONSyntaxError {
            // An error found at the end is reported just past the line's last byte, not the space.
            error.column = min(error.column, lineLength + 1)
            throw Failure(error: error, line: lineNumber)
        }
        valueCount += 1
    }
}
