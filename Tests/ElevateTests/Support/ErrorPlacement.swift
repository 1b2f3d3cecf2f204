import Testing

@testable import Elevate
@testable import ElevateJSON

/// Checks that an error is placed at the byte the input gives (offset, line and column computed
/// here from the bytes), for several chunkings: the event layer's fast paths (text read in place,
/// the sixteen-byte layout scan, the inline UTF-8 check) must place errors exactly where the
/// general paths do.
enum ErrorPlacement {
    static let chunkings = [0, 1, 7, 16, 100, 4096]

    /// For long documents, where one byte per call would be slow in a debug build.
    static let longChunkings = [0, 7, 16, 100, 4096]

    /// A long document: many short lines (more newlines than a sixteen-byte lane may count
    /// before it is flushed), strings in ASCII and not, escaped and not, numbers, literals.
    static func longDocument(rows: Int) -> String {
        var text = "[\n"
        for row in 0..<rows {
            switch row % 5 {
            case 0: text += #"{"id":\#(row),"name":"Jürgen Königstraße","ok":true},"#
            case 1: text += #"["plain ascii text, longer than a word", -\#(row).5e-3, null],"#
            case 2: text += #"{"esc\"aped":"tab\tand \u00e9 and \ud83d\ude00","n":0},"#
            case 3: text += #""\#(String(repeating: "x", count: row % 40))","#
            default: text += "\(row),\t\r"
            }
            text += "\n"
        }
        return text + "0]"
    }

    /// The error of `bytes` in chunks of `chunkSize` (0: one chunk).
    static func error(_ bytes: [UInt8], chunkSize: Int, options: JSONParsingOptions = .default) -> JSONSyntaxError? {
        do {
            _ = try recordEvents(bytes, chunkSizes: chunkSize == 0 ? [] : [chunkSize], options: options)
            return nil
        } catch let error as JSONSyntaxError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// Checks that `bytes` fails at `offset` with `kind`, with the line and column the bytes give.
    static func expectError(
        _ bytes: [UInt8], at offset: Int, _ kind: JSONSyntaxError.Kind, options: JSONParsingOptions = .default,
        chunkings: [Int] = chunkings, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = bytes[..<offset]
        let line = before.filter { $0 == 0x0A }.count + 1
        let column = offset - ((before.lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0) + 1
        for chunkSize in chunkings {
            guard let error = error(bytes, chunkSize: chunkSize, options: options) else {
                Issue.record("chunks of \(chunkSize): no error", sourceLocation: sourceLocation)
                continue
            }
            #expect(
                error.kind == kind && error.byteOffset == offset && error.line == line && error.column == column,
                "chunks of \(chunkSize): \(error), expected \(kind) at \(offset) (\(line):\(column))",
                sourceLocation: sourceLocation)
        }
    }
}
