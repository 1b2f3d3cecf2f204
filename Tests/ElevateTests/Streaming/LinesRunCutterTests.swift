import Foundation
import Testing

@_spi(Testing) @testable import ElevateJSON

/// `LinesRunCutter`, read on its own: every input byte comes out once, in order, as a run, the
/// start of a long line or the rest of one; each run knows its line (or record), offset and input
/// position; and after a long line the cutting resumes, so that the lines after it still go to
/// workers.
@Suite struct LinesRunCutterTests {
    /// What the cutter hands out, in order.
    enum Out: Equatable {
        /// A run: its first byte's offset, its first line's number, and, for records, the input's
        /// line and the bytes before it on that line.
        case run(start: Int, firstLine: Int, inputLine: Int, inputColumnOffset: Int, bytes: [UInt8])
        /// The first bytes of a long line.
        case longLine(start: Int, firstLine: Int, bytes: [UInt8])
        /// More of a long line, and whether they end it.
        case rest(bytes: [UInt8], endsLine: Bool)

        var bytes: [UInt8] {
            switch self {
            case .run(_, _, _, _, let bytes), .longLine(_, _, let bytes), .rest(let bytes, _): bytes
            }
        }
    }

    static func cut(
        _ text: [UInt8], separator: JSONLinesParser.Separator = .newline, runBytes: Int, limit: Int, chunkSize: Int,
        resumes: Bool = true
    ) throws -> [Out] {
        var options = StreamingOptions()
        options.splitBatchByteCount = runBytes
        var out: [Out] = []
        let run = { (piece: LinesRunCutter.Piece) in
            out.append(
                .run(
                    start: piece.start, firstLine: piece.firstLine, inputLine: piece.inputLine,
                    inputColumnOffset: piece.inputColumnOffset, bytes: piece.bytes))
        }
        var cutter = LinesRunCutter(options: options, longLineLimit: limit, separator: separator) { piece in
            out.append(.longLine(start: piece.start, firstLine: piece.firstLine, bytes: piece.bytes))
        }
        if resumes {
            cutter.restOfLongLine = { bytes, endsLine in out.append(.rest(bytes: Array(bytes), endsLine: endsLine)) }
        }
        var offset = 0
        while offset < text.count {
            let end = min(offset + chunkSize, text.count)
            try text[offset..<end].withUnsafeBytes { try cutter.feed($0, isStopped: { false }, run) }
            offset = end
        }
        try cutter.finish(run)
        return out
    }

    /// A document of short lines with long ones among them (first, in the middle, twice in a row,
    /// last without a separator), or records spanning input lines.
    /// - Returns: Each document, and whether short lines follow a long line in it.
    static func documents(separator: JSONLinesParser.Separator) -> [(text: [UInt8], linesAfterLong: Bool)] {
        // Records may span input lines; a line of JSON Lines ends at the first newline.
        let newline = separator == .newline ? " " : "\n"
        let long = "[" + Array(repeating: "\"abc\(newline)def\"", count: 60).joined(separator: ",") + "]"
        let short = (0..<30).map { "{\"k\": [\($0),\(newline) 2]}" }
        let end = separator == .newline ? "\n" : ""
        let start = separator == .newline ? "" : "\u{1E}"
        func lines(_ parts: [String]) -> [UInt8] {
            Array(parts.map { start + $0 + end }.joined().utf8)
        }
        return [
            (lines(short + [long] + short), true),
            (lines([long] + short + [long, long] + short), true),
            (lines(short + [long]), false),
            (Array(lines(short + [long]).dropLast(end.utf8.count)), false),
            (lines(short + [long, "1"] + short), true),
        ]
    }

    /// Every byte once, in order; each run's line and offset, and its input position, those its
    /// bytes start at; the lines after each long line cut into runs again.
    @Test(arguments: [JSONLinesParser.Separator.newline, .recordSeparator])
    func theCuttingResumesAfterALongLine(separator: JSONLinesParser.Separator) throws {
        for (text, linesAfterLong) in Self.documents(separator: separator) {
            for chunkSize in [1, 7, 100, 4096] {
                let out = try Self.cut(text, separator: separator, runBytes: 16, limit: 200, chunkSize: chunkSize)
                #expect(out.flatMap(\.bytes) == text, "chunks of \(chunkSize)")
                var offset = 0
                var longLines = 0
                var runsAfterLongLines = 0
                for piece in out {
                    let before = text[..<offset]
                    let separators = before.filter { $0 == separator.rawValue }.count
                    let firstLine = separators + (separator == .newline ? 1 : 0)
                    switch piece {
                    case .run(let start, let line, let inputLine, let column, _):
                        #expect(start == offset && line == firstLine, "chunks of \(chunkSize), run at \(offset)")
                        if separator != .newline {
                            let lastNewline = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                            #expect(inputLine == before.filter { $0 == 0x0A }.count + 1)
                            #expect(column == offset - lastNewline)
                        }
                        if longLines > 0 { runsAfterLongLines += 1 }
                    case .longLine(let start, let line, _):
                        #expect(start == offset && line == firstLine, "chunks of \(chunkSize), long line at \(offset)")
                        longLines += 1
                    case .rest(let bytes, let endsLine):
                        #expect(endsLine == (bytes.last == separator.rawValue))
                        #expect(!bytes.dropLast().contains(separator.rawValue))
                    }
                    offset += piece.bytes.count
                }
                // A chunk that holds a long line's end holds it in its run (the line is no
                // longer than a chunk then).
                guard chunkSize < 200 else { continue }
                #expect(longLines > 0, "chunks of \(chunkSize)")
                #expect((runsAfterLongLines > 0) == linesAfterLong, "chunks of \(chunkSize)")
            }
        }
    }

    /// Without `restOfLongLine`, the cutter takes nothing after the first long line (a reader
    /// for which such a line is an error stops there).
    @Test func withoutTheRestOfALongLineTheCuttingStopsThere() throws {
        let text = Self.documents(separator: .newline)[0].text
        let out = try Self.cut(text, runBytes: 16, limit: 200, chunkSize: 100, resumes: false)
        guard case .longLine(let start, _, let bytes) = out.last else {
            Issue.record("the last piece is not the long line: \(out.count) pieces")
            return
        }
        #expect(out.dropLast().flatMap(\.bytes) == Array(text[..<start]))
        #expect(text[start...].starts(with: bytes))
    }
}
