import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A one-line progress bar on standard error: bytes done out of the total, and the rate.
///
/// It exists only when standard error is a terminal, so logs and pipes never see control
/// characters, and it shows itself only for long work: at once for more than 64 MiB, otherwise
/// after a second. Redraws are limited to ten a second, so that reporting every 1 MiB chunk costs
/// nothing.
///
/// `@unchecked Sendable` because the library calls the progress closure on the parsing thread,
/// and its type must be `@Sendable`; all mutable state is behind `lock`.
final class ProgressBar: @unchecked Sendable {
    /// Work larger than this shows the bar from the start.
    static let largeWork = 64 << 20

    private let label: String
    private let total: Int?
    private let start = Date()
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var isShowing = false

    /// A bar for work on `label`, of `total` bytes when known; nil when standard error is not a
    /// terminal.
    static func forTerminal(label: String, total: Int?) -> ProgressBar? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return ProgressBar(label: label, total: total)
    }

    private init(label: String, total: Int?) {
        self.label = label.count > 32 ? "…" + label.suffix(31) : label
        self.total = total
    }

    /// Records that `done` bytes are finished, redrawing when due.
    func update(_ done: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        let elapsed = now.timeIntervalSince(start)
        guard isShowing || (total ?? 0) > Self.largeWork || elapsed >= 1 else { return }
        isShowing = true
        lastDraw = now
        draw(done, elapsed: elapsed)
    }

    /// Erases the bar, if it was drawn.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard isShowing else { return }
        isShowing = false
        write("\r\u{1B}[K")
    }

    private func draw(_ done: Int, elapsed: TimeInterval) {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var line = "\r\(label) "
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let width = 24
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            line += String(format: " %3d%%  %@ / %@", Int(fraction * 100), Self.megabytes(done), Self.megabytes(total))
        } else {
            line += Self.megabytes(done)
        }
        line += "  " + Self.megabytes(Int(rate)) + "/s\u{1B}[K"
        write(line)
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
