import CWideScans

/// The scans of the C module `CWideScans`, which use AVX2 and need a processor that has it: the
/// structural pre-scan's split mode (`StructuralScanner`), the plain-text pass over a chunk
/// (`InputLayout(plainText:)`, for the event layer and a counted run) and the newline count that
/// cuts JSON Lines (`NewlineCount`). Elsewhere their portable Swift versions run.
enum WideScans {
    /// Whether this processor runs them: an immutable fact of the machine, asked once.
    static let areAvailable = elevate_scan_has_wide() != 0
}
