import ElevateSampleData
import Foundation
import Testing

@testable import ElevateJSON

/// While a lexeme of 64 KiB or more is open, the parser holds the chunks that follow back (YAJL
/// would lex it again from its start on every call). What it holds must not change what the
/// parse finds, nor when: the chunk that ends the lexeme is parsed as it arrives, so an error
/// after the lexeme is thrown by the `parse` call that brings it, before any later input can fail,
/// and an excerpt ends where the chunk it is in ended, as when nothing was held.
@Suite struct HeldChunksTests {
    final class Ignore: JSONEventHandler {}

    /// Parses `chunks` one by one: the index of the call that threw and its error, or nil.
    static func firstFailure(_ chunks: [[UInt8]], options: JSONParsingOptions = .default) -> (call: Int, error: JSONSyntaxError)? {
        let parser = JSONEventParser(handler: Ignore(), options: options)
        for (index, chunk) in chunks.enumerated() {
            do {
                try parser.parse(chunk)
            } catch {
                return (index, error as! JSONSyntaxError)
            }
        }
        return nil
    }

    static let long = String(repeating: "x", count: 70_000)

    /// The error after the lexeme is thrown by the call that brings it (they were held until
    /// 70 000 bytes more had come, or the input ended: an input failing first hid the error).
    /// The cases are named, not passed, so that the test's arguments print short.
    @Test(arguments: [
        "string", "number", "string ending in an escaped backslash", "block comment", "line comment",
        "number then a sign", "number with two points", "number with an exponent",
    ])
    func anErrorAfterALongLexemeIsFoundInTheChunkThatBringsIt(_ lexeme: String) throws {
        let (opening, closing, errorAt) =
            switch lexeme {
            case "string": (#"[""# + Self.long, #"xyz", x]"#, 6)
            case "number": ("[1" + String(repeating: "5", count: 70_000), "55 x]", 3)
            case "string ending in an escaped backslash": (#"[""# + Self.long + #"\\"#, #"", x]"#, 3)
            case "block comment": (#"[1 /*"# + Self.long, #"*/ x]"#, 3)
            // The number ends where its grammar does, although every byte of the chunk could be
            // part of one (the hold went on through `-+.eE` anywhere).
            case "number then a sign": ("[1" + String(repeating: "5", count: 70_000), "5-5-5", 1)
            case "number with two points": ("[1" + String(repeating: "5", count: 70_000), "5.5.5", 3)
            case "number with an exponent": ("[1" + String(repeating: "5", count: 70_000), "5.5e-7e", 6)
            default: (#"[1 //"# + Self.long, "\n x]", 2)
            }
        let options = JSONParsingOptions(allowsComments: lexeme.hasSuffix("comment"))
        let failure = Self.firstFailure([Array(opening.utf8), Array(closing.utf8)], options: options)
        #expect(failure?.call == 1)
        #expect(failure?.error.byteOffset == opening.utf8.count + errorAt, "\(String(describing: failure?.error))")
    }

    /// A control character, which YAJL rejects in a string, is reported in the call that brings
    /// it too (at the string's start, where every error in a string is placed).
    @Test func aControlCharacterInTheStringIsFoundInTheChunkThatBringsIt() {
        let failure = Self.firstFailure([Array((#"[""# + Self.long).utf8), Array("xyz\u{01}abc".utf8)])
        #expect(failure?.call == 1)
        #expect(failure?.error.byteOffset == 1)
    }

    /// An escaped quote does not end the string: its chunk is held, and the next one ends it.
    @Test func anEscapedQuoteDoesNotEndTheString() throws {
        let chunks = [#"[""# + Self.long + #"\"#, #""abc"#, #"", x]"#].map { Array($0.utf8) }
        #expect(Self.firstFailure(chunks)?.call == 2)
        let evenRun = [#"[""# + Self.long + #"\\\"#, #"\"#, #""abc", x]"#].map { Array($0.utf8) }
        #expect(Self.firstFailure(evenRun)?.call == 2)
    }

    /// Chunks that do not end the lexeme are still held: the cost stays linear.
    @Test func chunksInsideTheLexemeAreHeld() throws {
        let parser = JSONEventParser(handler: Ignore())
        try parser.parse(Array((#"[""# + Self.long).utf8))
        for _ in 0..<10 { try parser.parse(Array(String(repeating: "y", count: 1000).utf8)) }
        #expect(parser.holdsNextChunkBack)
        #expect(parser.bufferedByteCount == 70_001 + 10_000)
        try parser.parse(Array(#"z", 1]"#.utf8))
        #expect(!parser.holdsNextChunkBack)
        try parser.finish()
    }

    /// An error inside the lexeme, in a held chunk, has the excerpt it has when the chunks are
    /// parsed one by one: it ends where its chunk ended.
    @Test func anExcerptEndsWithItsHeldChunk() throws {
        // Bytes 0xFF is no UTF-8: YAJL rejects it when it lexes the string.
        let middle = Array(String(repeating: "y", count: 995).utf8) + [0xFF] + Array("abcd".utf8)
        let chunks = [Array((#"[""# + Self.long).utf8), middle, Array(#"efghijklmnopqrstuvwxyz", 1]"#.utf8)]
        let failure = Self.firstFailure(chunks)
        #expect(failure?.call == 2)
        #expect(failure?.error.byteOffset == 70_002 + 995)
        #expect(failure?.error.excerpt.hasSuffix("abcd") == true, "\(String(describing: failure?.error.excerpt))")
    }

    /// Documents with long strings (escapes at chunk ends included), numbers and comments, some
    /// damaged near a lexeme's end, fed in random chunks: the same events and error (offset, line,
    /// column, kind, message) as fed whole, and an error after the last long lexeme is thrown by the
    /// call whose chunk holds it.
    @Test func randomChunkingsOfLongLexemesAreAsWhole() throws {
        var generator = SplitMix64(seed: randomTestSeed)
        let pieces = [#"\""#, #"\\"#, "\\u00e9", "é", "a", "b", "\\n"]
        for round in 0..<40 {
            let context = "round \(round), ELEVATE_TEST_SEED=\(randomTestSeed)"
            var text = "[1"
            var longEnds: [Int] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                text += ", "
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    text += String(repeating: "7", count: Int.random(in: 66_000...140_000, using: &generator))
                case 1:
                    text += "/*" + String(repeating: "c*", count: Int.random(in: 33_000...70_000, using: &generator)) + "*/ 2"
                default:
                    text += "\""
                    let length = Int.random(in: 66_000...150_000, using: &generator)
                    var body = ""
                    while body.utf8.count < length {
                        body += Int.random(in: 0..<8, using: &generator) == 0
                            ? pieces.randomElement(using: &generator)! : String(repeating: "x", count: 97)
                    }
                    text += body + "\""
                }
                longEnds.append(text.utf8.count)
                text += ", " + (0..<Int.random(in: 0...300, using: &generator)).map { "{\"k\": [\($0), true]}" }.joined(separator: ", ")
            }
            text += "]"
            var bytes = Array(text.utf8)
            if Int.random(in: 0..<3, using: &generator) > 0 {
                // Damage near a long lexeme's end: before it, at it or after it.
                let end = longEnds.randomElement(using: &generator)!
                let at = min(bytes.count - 1, max(3, end + Int.random(in: -40...60, using: &generator)))
                bytes[at] = [UInt8(ascii: "?"), 0x01, UInt8(ascii: "\""), UInt8(ascii: "\\"), 0xFF].randomElement(using: &generator)!
            }
            let options = JSONParsingOptions(allowsComments: true)
            let whole = Self.outcome(bytes, chunkSizes: [bytes.count], options: options)
            for _ in 0..<3 {
                let sizes = (0..<5).map { _ in Int.random(in: 1_000...40_000, using: &generator) }
                let chunked = Self.outcome(bytes, chunkSizes: sizes, options: options)
                #expect(chunked.events == whole.events, "\(context), chunks \(sizes)")
                #expect(chunked.error == whole.error, "\(context), chunks \(sizes)")
                if let offset = chunked.errorOffset, offset >= longEnds.last!, offset < bytes.count - 1 {
                    // Thrown by `parse`, with the chunk that holds the error, not later.
                    #expect(chunked.thrownByParse, "\(context), chunks \(sizes): thrown by finish()")
                    #expect(chunked.chunkStartOfThrow <= offset, "\(context), chunks \(sizes): held past the error")
                }
            }
        }
    }

    /// The events and error of parsing `bytes` in chunks of `chunkSizes` (cycled): the error
    /// (position, kind, message, not the excerpt, which ends with a chunk), its offset, whether
    /// `parse` threw it (rather than `finish()`), and where the chunk it was given started.
    static func outcome(_ bytes: [UInt8], chunkSizes: [Int], options: JSONParsingOptions)
        -> (events: [String], error: String?, errorOffset: Int?, thrownByParse: Bool, chunkStartOfThrow: Int)
    {
        let recorder = EventRecorder()
        let parser = JSONEventParser(handler: recorder, options: options)
        var offset = 0
        var index = 0
        do {
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunkSizes[index % chunkSizes.count])
                do {
                    try parser.parse(Array(bytes[offset..<end]))
                } catch let error as JSONSyntaxError {
                    let described = "\(error.kind) at \(error.byteOffset) \(error.line):\(error.column): \(error.message)"
                    return (recorder.events, described, error.byteOffset, true, offset)
                }
                offset = end
                index += 1
            }
            try parser.finish()
        } catch let error as JSONSyntaxError {
            let described = "\(error.kind) at \(error.byteOffset) \(error.line):\(error.column): \(error.message)"
            return (recorder.events, described, error.byteOffset, false, offset)
        } catch {
            return (recorder.events, "\(error)", nil, false, offset)
        }
        return (recorder.events, nil, nil, false, offset)
    }
}
