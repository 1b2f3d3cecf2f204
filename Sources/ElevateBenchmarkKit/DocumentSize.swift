/// A document size given as text: plain bytes (`1048576`) or a number with a unit, decimal (`KB`,
/// `MB`, `GB`, powers of 1000) or binary (`KiB`, `MiB`, `GiB`, powers of 1024). Units are
/// case-insensitive; the number may have a fraction (`1.5GB`).
///
/// ```swift
/// DocumentSize("64MB")?.bytes   // 64_000_000
/// DocumentSize("16 MiB")?.bytes // 16_777_216
/// ```
public struct DocumentSize: Sendable, Hashable, CustomStringConvertible {
    /// The size in bytes.
    public var bytes: Int

    private static let units: [(suffix: String, factor: Double)] = [
        ("kib", 1024), ("mib", 1024 * 1024), ("gib", 1024 * 1024 * 1024),
        ("kb", 1000), ("mb", 1_000_000), ("gb", 1_000_000_000), ("b", 1),
    ]

    /// Creates a size of `bytes` bytes.
    /// - Parameter bytes: See ``bytes``.
    public init(bytes: Int) {
        self.bytes = bytes
    }

    /// Parses `64MB`, `16 MiB`, `1.5gb` or `4096`; `nil` for anything else or below one byte.
    /// - Parameter text: The size as text.
    public init?(_ text: String) {
        var text = Substring(text.lowercased().filter { $0 != " " && $0 != "_" })
        var factor: Double = 1
        // Longest suffixes first, so that "kib" is not read as "…b".
        if let unit = Self.units.first(where: { text.hasSuffix($0.suffix) }) {
            text = text.dropLast(unit.suffix.count)
            factor = unit.factor
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let number = Double(text), (number * factor).isFinite
        else { return nil }
        let total = (number * factor).rounded()
        guard total >= 1, total < Double(Int.max) else { return nil }
        bytes = Int(total)
    }

    /// `"<n> bytes"`.
    public var description: String { "\(bytes) bytes" }
}
