/// A small, fast, seeded pseudo-random number generator: Steele, Lea and Flood's SplitMix64.
///
/// Its output depends only on the seed, never on the platform or the standard library version,
/// which is what sample documents need to be byte-identical everywhere. It is not
/// cryptographically secure.
///
/// The helpers below draw bounded values with their own arithmetic rather than with
/// `Int.random(in:using:)`, whose algorithm the standard library does not promise to keep.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let die = generator.next(below: 6) + 1
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; it advances by a fixed odd constant on every draw.
    public private(set) var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    /// - Parameter seed: Any value, zero included.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    /// - Returns: The next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Returns a uniformly distributed value in `0..<bound`.
    ///
    /// Lemire's multiply-shift with rejection, so there is no modulo bias.
    /// - Parameter bound: The exclusive upper bound; must be positive.
    /// - Returns: A value less than `bound`.
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// Returns a uniformly distributed integer in `range`.
    /// - Parameter range: A non-empty closed range.
    /// - Returns: A value inside `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound))
        if width == .max {
            return Int(truncatingIfNeeded: next())
        }
        return range.lowerBound &+ Int(truncatingIfNeeded: next(below: width &+ 1))
    }

    /// Returns `true` with the given probability, in percent.
    /// - Parameter percent: The chance of `true`, from 0 to 100.
    /// - Returns: Whether the draw fell under `percent`.
    public mutating func chance(_ percent: Int) -> Bool {
        next(below: 100) < UInt64(percent)
    }

    /// Returns one element of a non-empty collection, each equally likely.
    /// - Parameter elements: The collection to choose from.
    /// - Returns: The chosen element.
    public mutating func pick<C: RandomAccessCollection>(_ elements: C) -> C.Element {
        precondition(!elements.isEmpty, "cannot pick from an empty collection")
        let offset = Int(next(below: UInt64(elements.count)))
        return elements[elements.index(elements.startIndex, offsetBy: offset)]
    }
}
