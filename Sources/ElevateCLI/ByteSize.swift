import ArgumentParser

/// A size given on the command line: plain bytes (`1048576`) or a number with a unit, decimal
/// (`KB`, `MB`, `GB`, powers of 1000) or binary (`KiB`, `MiB`, `GiB`, powers of 1024); units are
/// case-insensitive and the number may have a fraction (`1.5GB`).
struct ByteSize: ExpressibleByArgument, Hashable, CustomStringConvertible {
    /// The size in bytes.
    var bytes: Int

    private static let units: [(suffix: String, factor: Double)] = [
        ("kib", 1024), ("mib", 1024 * 1024), ("gib", 1024 * 1024 * 1024),
        ("kb", 1000), ("mb", 1_000_000), ("gb", 1_000_000_000), ("b", 1),
    ]

    init(bytes: Int) {
        self.bytes = bytes
    }

    /// Parses `100MB`, `64 KiB`, `1.5gb` or `4096`; nil for anything else, or a size below one byte.
    init?(argument: String) {
        var text = Substring(argument.lowercased().filter { $0 != " " && $0 != "_" })
        var factor: Double = 1
        // Longest suffixes come first, so that "kib" is not read as "…b".
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

    var description: String { "\(bytes) bytes" }

    static var defaultCompletionKind: CompletionKind { .default }
}
