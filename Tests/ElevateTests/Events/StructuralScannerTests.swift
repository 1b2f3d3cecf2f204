import ElevateSampleData
import Testing

@testable import ElevateJSON

/// The structural pre-scan (`StructuralScanner`) stops exactly where a byte-by-byte reading of
/// strings, escapes and nesting says, whatever the blocks' boundaries and however deep the text.
@Suite struct StructuralScannerTests {
    /// What a byte-by-byte reading finds for `.splitArray(cutFrom:)` from offset 0: every stop
    /// (a depth-1 comma at or past the cut, or the close of depth 1), resuming after each.
    private struct NaiveScan: Equatable {
        var stops: [Int] = []
        var commas = 0
        var lastComma = -1
        var newlines = 0
        var lastLineStart = 0
        var depth = 1
    }

    private func naive(_ bytes: [UInt8], cutFrom: Int) -> NaiveScan {
        var scan = NaiveScan()
        var inString = false
        var escaped = false
        for (offset, byte) in bytes.enumerated() {
            if byte == 0x0A {
                scan.newlines += 1
                scan.lastLineStart = offset + 1
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): scan.depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                scan.depth -= 1
                if scan.depth == 0 {
                    scan.stops.append(offset)
                    return scan
                }
            case UInt8(ascii: ","):
                guard scan.depth == 1 else { continue }
                scan.commas += 1
                scan.lastComma = offset
                if offset >= cutFrom { scan.stops.append(offset) }
            default: continue
            }
        }
        return scan
    }

    private func scanned(_ bytes: [UInt8], cutFrom: Int, wide: Bool) -> NaiveScan {
        var scanner = StructuralScanner()
        scanner.allowsWideScan = wide
        var scan = NaiveScan()
        var position = 0
        bytes.withUnsafeBytes { buffer in
            while case .at(let offset) = scanner.scan(
                buffer, from: position, base: 0, mode: .splitArray(cutFrom: cutFrom))
            {
                scan.stops.append(offset)
                position = offset + 1
                if buffer[offset] != UInt8(ascii: ",") { break }
            }
        }
        scan.commas = scanner.topLevelCommas
        scan.lastComma = scanner.lastTopLevelComma
        scan.newlines = scanner.newlines
        scan.lastLineStart = scanner.lastLineStart
        scan.depth = scanner.depth
        return scan
    }

    /// Random texts of nested arrays and objects, strings with escapes and backslash runs, and
    /// newlines, some hundreds of bytes long, so that depth changes inside and across blocks.
    @Test func theScannerAgreesWithAByteByByteReading() {
        var generator = SplitMix64(seed: randomTestSeed)
        let pieces: [String] = [
            "[", "]", "{", "}", ",", ",", ",", "\"a\"", "\"\\\"\"", "\"\\\\\"", "\"[{,\"", "\"x\\\\\\\"]\"",
            "1", "true", " ", "\n", "\"ü\"", String(repeating: "7", count: 40),
        ]
        for round in 0..<3000 {
            var text: [UInt8] = []
            var depth = 1
            let length = Int.random(in: 0...600, using: &generator)
            while text.count < length {
                var piece = pieces.randomElement(using: &generator)!
                // Keep most texts inside the array, so that runs of depth >= 2 span whole blocks.
                if piece == "]" || piece == "}" {
                    if depth <= 1 && round % 4 != 0 { piece = "{" }
                }
                if piece == "[" || piece == "{" { depth += 1 }
                if piece == "]" || piece == "}" { depth -= 1 }
                text += Array(piece.utf8)
            }
            text += Array(String(repeating: "}", count: max(depth, 1)).utf8)
            let cutFrom = Int.random(in: 0...max(text.count, 1), using: &generator)
            // The portable scan, and the AVX2 one where the processor has it.
            for wide in [false, true] {
                #expect(
                    scanned(text, cutFrom: cutFrom, wide: wide) == naive(text, cutFrom: cutFrom),
                    "\(String(decoding: text, as: UTF8.self)) cut from \(cutFrom), wide \(wide), ELEVATE_TEST_SEED=\(randomTestSeed)"
                )
            }
        }
    }
}
