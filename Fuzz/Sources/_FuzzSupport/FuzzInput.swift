/// The knobs a fuzz target derives from its input: a pseudo-random generator seeded from the first
/// bytes, so that the input stays the JSON text itself (the JSONTestSuite seeds work unchanged) while
/// every mutation of its start also changes how it is chunked and which options are used.
public struct FuzzInput {
    /// The whole input, which is also the JSON text.
    public let bytes: [UInt8]
    private var state: UInt64

    /// Reads the input libFuzzer hands to `LLVMFuzzerTestOneInput`.
    public init(_ start: UnsafeRawPointer, _ count: Int) {
        self.init(Array(UnsafeRawBufferPointer(start: count == 0 ? nil : start, count: count)))
    }

    /// Wraps bytes, seeding the generator from the first eight and the length.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var seed = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        for byte in bytes.prefix(8) { seed = (seed << 8 | seed >> 56) ^ UInt64(byte) }
        state = seed
    }

    /// The next pseudo-random number (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A pseudo-random Boolean that is true once in `oneIn` draws.
    public mutating func chance(_ oneIn: Int) -> Bool { next(below: oneIn) == 0 }

    /// Cuts `0..<count` into consecutive non-empty ranges: a quarter of the time one byte each,
    /// otherwise random sizes up to 2, 16 or 512 bytes, so splits land inside every kind of token.
    public mutating func chunks(count: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let largest = chance(4) ? 1 : [2, 16, 512][next(below: 3)]
        var ranges: [Range<Int>] = []
        var start = 0
        while start < count {
            let end = min(count, start + 1 + next(below: largest))
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }
}

/// Stops the fuzzer with a message: libFuzzer records the input as a crash.
public func fuzzFailure(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("FUZZ FINDING: " + message(), file: file, line: line)
}

/// Stops the fuzzer when `condition` is false.
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #file,
    line: UInt = #line
) {
    if !condition() { fuzzFailure(message(), file: file, line: line) }
}
