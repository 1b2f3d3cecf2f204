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

    /// Reads `bytes` one by one, following strings and escapes, and hands each bracket, brace and
    /// comma outside strings to `structural` until it returns false.
    /// - Returns: The newlines among the bytes read, and the offset just after the last (0: none).
    private func readStructure(_ bytes: [UInt8], _ structural: (_ offset: Int, _ byte: UInt8) -> Bool) -> (
        newlines: Int, lastLineStart: Int
    ) {
        var lines = (newlines: 0, lastLineStart: 0)
        var inString = false
        var escaped = false
        for (offset, byte) in bytes.enumerated() {
            if byte == 0x0A {
                lines.newlines += 1
                lines.lastLineStart = offset + 1
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if "[]{},".utf8.contains(byte), !structural(offset, byte) {
                break
            }
        }
        return lines
    }

    private func naive(_ bytes: [UInt8], cutFrom: Int) -> NaiveScan {
        var scan = NaiveScan()
        (scan.newlines, scan.lastLineStart) = readStructure(bytes) { offset, byte in
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"): scan.depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                scan.depth -= 1
                if scan.depth == 0 {
                    scan.stops.append(offset)
                    return false
                }
            default:
                guard scan.depth == 1 else { return true }
                scan.commas += 1
                scan.lastComma = offset
                if offset >= cutFrom { scan.stops.append(offset) }
            }
            return true
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

    /// What a byte-by-byte reading finds for `.splitValues(cutFrom:)` from offset 0, resuming
    /// after each stop: every bracket or brace that ends a top-level value at or past the cut
    /// (one below depth 0 too), and where the last value ended.
    private struct NaiveValues: Equatable {
        var stops: [Int] = []
        var lastValueEnd = 0
        var newlines = 0
        var lastLineStart = 0
        var depth = 0
    }

    private func naiveValues(_ bytes: [UInt8], cutFrom: Int) -> NaiveValues {
        var scan = NaiveValues()
        (scan.newlines, scan.lastLineStart) = readStructure(bytes) { offset, byte in
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"): scan.depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                scan.depth = max(scan.depth - 1, 0)
                guard scan.depth == 0 else { return true }
                scan.lastValueEnd = offset + 1
                if offset >= cutFrom { scan.stops.append(offset) }
            default: break
            }
            return true
        }
        return scan
    }

    private func scannedValues(_ bytes: [UInt8], cutFrom: Int, wide: Bool, chunk: Int) -> NaiveValues {
        var scanner = StructuralScanner()
        scanner.depth = 0
        scanner.allowsWideScan = wide
        var scan = NaiveValues()
        bytes.withUnsafeBytes { buffer in
            // In chunks, as the cutter reads them: the state carries across.
            var chunkStart = 0
            while chunkStart < buffer.count {
                let chunkEnd = min(chunkStart + chunk, buffer.count)
                let piece = UnsafeRawBufferPointer(rebasing: buffer[chunkStart..<chunkEnd])
                var position = 0
                while case .at(let offset) = scanner.scan(
                    piece, from: position, base: chunkStart, mode: .splitValues(cutFrom: cutFrom - chunkStart))
                {
                    scan.stops.append(chunkStart + offset)
                    position = offset + 1
                }
                chunkStart = chunkEnd
            }
        }
        scan.lastValueEnd = scanner.lastValueEnd
        scan.newlines = scanner.newlines
        scan.lastLineStart = scanner.lastLineStart
        scan.depth = scanner.depth
        return scan
    }

    /// Random concatenated texts, stray closing brackets and commas among them, read in chunks of
    /// every size: the values mode stops where a byte-by-byte reading does.
    @Test func theValuesModeAgreesWithAByteByByteReading() {
        var generator = SplitMix64(seed: randomTestSeed)
        let pieces: [String] = [
            "[", "]", "{", "}", ",", "\"a\"", "\"\\\"\"", "\"\\\\\"", "\"[{,}]\"", "\"x\\\\\\\"]\"", "1", " ", "\n",
            "\"ü\"", String(repeating: "7", count: 40), String(repeating: "[1,{\"k\":[2]}]", count: 5),
        ]
        for _ in 0..<2000 {
            var text: [UInt8] = []
            let length = Int.random(in: 0...700, using: &generator)
            while text.count < length { text += Array(pieces.randomElement(using: &generator)!.utf8) }
            let cutFrom = Int.random(in: 0...max(text.count, 1), using: &generator)
            let chunk = [1, 7, 63, 64, 65, 200, 1 << 20].randomElement(using: &generator)!
            let expected = naiveValues(text, cutFrom: cutFrom)
            for wide in [false, true] {
                #expect(
                    scannedValues(text, cutFrom: cutFrom, wide: wide, chunk: chunk) == expected,
                    "\(String(decoding: text, as: UTF8.self)) cut from \(cutFrom), chunks of \(chunk), wide \(wide), ELEVATE_TEST_SEED=\(randomTestSeed)"
                )
            }
        }
    }

    /// What a byte-by-byte reading finds for `.findLongContainer(within:objects:endDepth:)` from
    /// offset 0, going on just past each stop (as the split parse does when a container is not
    /// split): the `[` (with `objects`, the `[` or `{`) of each container, not inside an earlier
    /// one, that its own closing bracket does not close within `within` bytes nor before the end;
    /// with an end depth, first a comma at that depth, or a bracket that closes it, the depth
    /// counted from each restart; with the newlines before each stop and where the line it is on
    /// starts; then every newline of the text.
    private struct NaiveLongArrays: Equatable {
        struct Stop: Equatable {
            var offset: Int
            var newlines: Int
            var lastLineStart: Int
        }
        var stops: [Stop] = []
        var newlines = 0
        var lastLineStart = 0
    }

    private func naiveLongContainers(_ bytes: [UInt8], within: Int, objects: Bool, endDepth: Int?) -> NaiveLongArrays {
        var structure: [(offset: Int, byte: UInt8)] = []
        _ = readStructure(bytes) { offset, byte in
            if byte != UInt8(ascii: ",") || endDepth != nil { structure.append((offset, byte)) }
            return true
        }
        func lines(before end: Int) -> (Int, Int) {
            (bytes[..<end].filter { $0 == 0x0A }.count, bytes[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
        }
        var scan = NaiveLongArrays()
        func record(_ offset: Int) {
            let (newlines, lastLineStart) = lines(before: offset)
            scan.stops.append(.init(offset: offset, newlines: newlines, lastLineStart: lastLineStart))
        }
        var index = 0
        // The depth since the last restart.
        var depth = 0
        search: while index < structure.count {
            let (open, opening) = structure[index]
            index += 1
            if opening == UInt8(ascii: ",") {
                if depth == endDepth {
                    record(open)
                    depth = 0
                }
                continue
            }
            guard opening | 0x20 == UInt8(ascii: "{") else {
                depth -= 1
                if let endDepth, depth < endDepth {
                    record(open)
                    depth = 0
                }
                continue
            }
            guard opening == UInt8(ascii: "[") || objects else {
                depth += 1
                continue
            }
            var inner = 1
            for next in index..<structure.count where structure[next].byte != UInt8(ascii: ",") {
                let (offset, byte) = structure[next]
                inner += byte | 0x20 == UInt8(ascii: "{") ? 1 : -1
                guard inner == 0 else { continue }
                if byte == opening + 2, offset < open + 1 + within {
                    // Short: passed over whole, the depth as before it.
                    index = next + 1
                    continue search
                }
                break
            }
            record(open)
            depth = 0
        }
        (scan.newlines, scan.lastLineStart) = lines(before: bytes.count)
        return scan
    }

    private func scannedLongContainers(_ bytes: [UInt8], within: Int, objects: Bool, endDepth: Int?, wide: Bool)
        -> NaiveLongArrays
    {
        var scanner = StructuralScanner()
        scanner.allowsWideScan = wide
        var scan = NaiveLongArrays()
        bytes.withUnsafeBytes { buffer in
            var position = 0
            let mode = StructuralScanner.Mode.findLongContainer(within: within, objects: objects, endDepth: endDepth)
            while case .at(let offset) = scanner.scan(buffer, from: position, base: 0, mode: mode) {
                scan.stops.append(.init(offset: offset, newlines: scanner.newlines, lastLineStart: scanner.lastLineStart))
                position = offset + 1
            }
        }
        scan.newlines = scanner.newlines
        scan.lastLineStart = scanner.lastLineStart
        return scan
    }

    /// Random texts of arrays and objects, short and long, strings with brackets and escapes,
    /// stray closing brackets: the long-container mode stops at the arrays (and objects, when
    /// asked) a byte-by-byte reading finds too long to pass over (a probe of each one's end, as
    /// the split parse made before), and at the end depth when asked, and its lines are the
    /// reading's.
    @Test func theLongContainerModeAgreesWithAByteByByteReading() {
        var generator = SplitMix64(seed: randomTestSeed)
        let pieces: [String] = [
            "[", "]", "{", "}", ",", "\"a\"", "\"\\\"[\"", "\"\\\\\"", "\"[{,}]\"", "1", " ", "\n", "\"ü\"",
            String(repeating: "7", count: 40), "[1,2]", "[[3],{\"k\":[4]}]", "{\"t\":[5,6]}",
        ]
        for _ in 0..<3000 {
            var text: [UInt8] = []
            let length = Int.random(in: 0...700, using: &generator)
            while text.count < length { text += Array(pieces.randomElement(using: &generator)!.utf8) }
            let within = Int.random(in: 0...160, using: &generator)
            let objects = Bool.random(using: &generator)
            let endDepth = Bool.random(using: &generator) ? nil : -Int.random(in: 0...3, using: &generator)
            let expected = naiveLongContainers(text, within: within, objects: objects, endDepth: endDepth)
            for wide in [false, true] {
                #expect(
                    scannedLongContainers(text, within: within, objects: objects, endDepth: endDepth, wide: wide)
                        == expected,
                    "\(String(decoding: text, as: UTF8.self)) within \(within), objects \(objects), end depth \(endDepth.map(String.init) ?? "none"), wide \(wide), ELEVATE_TEST_SEED=\(randomTestSeed)"
                )
            }
        }
    }
    /// The look ahead stops where a scan would, within its length, and leaves the scanner as it
    /// was: a scan after it goes on from the same state.
    @Test func theLookAheadLeavesTheScannerUnmoved() {
        let text = Array(#"["a,b", [1, 2], 3], 4, {"c": ","}, 5"#.utf8)
        for wide in [false, true] {
            var scanner = StructuralScanner()
            scanner.allowsWideScan = wide
            text.withUnsafeBytes { bytes in
                // An array's content: the first element ends at offset 17, the comma after it.
                #expect(scanner.stops(in: bytes, from: 0, within: 19, base: 0, mode: .splitArray(cutFrom: 0)))
                #expect(!scanner.stops(in: bytes, from: 0, within: 18, base: 0, mode: .splitArray(cutFrom: 0)))
                #expect(!scanner.stops(in: bytes, from: 0, within: 0, base: 0, mode: .splitArray(cutFrom: 0)))
                #expect(scanner.scan(bytes, from: 0, base: 0, mode: .splitArray(cutFrom: 0)) == .at(18))
                #expect(scanner.stops(in: bytes, from: 19, within: 3, base: 0, mode: .splitArray(cutFrom: 0)))
                #expect(scanner.scan(bytes, from: 19, base: 0, mode: .splitArray(cutFrom: 0)) == .at(21))
                #expect(scanner.scan(bytes, from: 22, base: 0, mode: .splitArray(cutFrom: 0)) == .at(33))
            }
        }
    }
}
