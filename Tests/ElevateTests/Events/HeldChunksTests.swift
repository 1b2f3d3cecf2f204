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
    @Test(arguments: [
        (#"[""# + long, #"xyz", x]"#, 6), ("[1" + String(repeating: "5", count: 70_000), "55 x]", 3),
        (#"[""# + long + #"\\"#, #"", x]"#, 3),
        (#"[1 /*"# + long, #"*/ x]"#, 3), (#"[1 //"# + long, "\n x]", 2),
    ])
    func anErrorAfterALongLexemeIsFoundInTheChunkThatBringsIt(opening: String, closing: String, errorAt: Int) throws {
        let options = JSONParsingOptions(allowsComments: opening.contains("/"))
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
}
