import Elevate
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// A one-line progress bar on standard error: bytes done out of the total, and the rate, fitted
/// to the terminal's width (see ``line(label:done:total:rate:width:)``).
///
/// It exists only when standard error is a terminal, so logs and pipes never see control
/// characters, and it shows itself only for long work: at once for more than 64 MiB, otherwise
/// after a second. Redraws are limited to ten a second, so that reporting every 1 MiB chunk costs
/// nothing.
///
/// `Sendable` because the library calls the progress closure on the parsing thread, and its type
/// must be `@Sendable`; all mutable state is in a ``LockedBox``.
final class ProgressBar: Sendable {
    /// Work larger than this shows the bar from the start.
    static let largeWork = 64 << 20

    private let label: String
    private let total: Int?
    private let start = Date()
    /// When the bar was last drawn, and whether it is on screen.
    private struct DrawState: Sendable {
        var lastDraw = Date.distantPast
        var isShowing = false
    }

    private let drawState = LockedBox(DrawState())

    /// A bar for work on `label`, of `total` bytes when known; nil when standard error is not a
    /// terminal.
    static func forTerminal(label: String, total: Int?) -> ProgressBar? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return ProgressBar(label: label, total: total)
    }

    private init(label: String, total: Int?) {
        self.label = label
        self.total = total
    }

    /// Records that `done` bytes are finished, redrawing when due.
    func update(_ done: Int) {
        // The bar is written with the lock held, so that two threads' redraws never interleave.
        drawState.withLock { state in
            let now = Date()
            guard now.timeIntervalSince(state.lastDraw) >= 0.1 else { return }
            let elapsed = now.timeIntervalSince(start)
            guard state.isShowing || (total ?? 0) > Self.largeWork || elapsed >= 1 else { return }
            state.isShowing = true
            state.lastDraw = now
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            // The width is asked again at every draw, so that a resized window is followed.
            let line = Self.line(label: label, done: done, total: total, rate: rate, width: Self.terminalWidth())
            write("\r" + line + "\u{1B}[K")
        }
    }

    /// Erases the bar, if it was drawn.
    func finish() {
        drawState.withLock { state in
            guard state.isShowing else { return }
            state.isShowing = false
            write("\r\u{1B}[K")
        }
    }

    // MARK: Layout

    /// The text of the bar, without the carriage return and erase that frame it: never longer
    /// than `width - 1` columns, so that the cursor never reaches the last column, where a
    /// terminal wraps and the next `\r` would redraw on a new line.
    ///
    /// What does not fit goes, least useful first: the bar shrinks from 24 columns to 10, then
    /// the totals, the rate and the bar go, and the label is shortened in the middle
    /// (`/data/…/file.json`), keeping at least its last characters.
    ///
    /// - Parameters:
    ///   - label: What is being worked on, usually a path; control characters already escaped.
    ///   - done: Bytes finished.
    ///   - total: All the bytes, when known.
    ///   - rate: Bytes per second.
    ///   - width: The terminal's width in columns.
    static func line(label: String, done: Int, total: Int?, rate: Double, width: Int) -> String {
        let room = max(width - 1, 0)
        let speed = megabytes(Int(rate)) + "/s"
        var parts: [[String]] = []
        if let total, total > 0 {
            let fraction = min(1, max(0, Double(done) / Double(total)))
            let percent = String(format: "%3d%%", Int(fraction * 100))
            let amounts = megabytes(done) + " / " + megabytes(total)
            // Widest first; the first that fits with a label of at least 12 columns wins.
            parts = [
                [bar(fraction, 24), percent, amounts, speed], [bar(fraction, 10), percent, amounts, speed],
                [bar(fraction, 10), percent, speed], [percent, speed], [percent],
            ]
        } else {
            parts = [[megabytes(done), speed], [megabytes(done)]]
        }
        for candidate in parts {
            let tail = candidate.joined(separator: "  ")
            let labelRoom = room - tail.count - 1
            if labelRoom >= min(12, label.count) {
                return middleTruncated(label, to: labelRoom) + " " + tail
            }
        }
        // Very narrow: what fits of the last candidate, or of the label.
        let last = parts.last!.joined(separator: "  ")
        return last.count <= room ? last : middleTruncated(label, to: room)
    }

    /// `text`, or when it is longer than `limit` characters, its start and end joined by `…`,
    /// keeping more of the end (a path's file name matters most).
    static func middleTruncated(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        guard limit > 1 else { return limit == 1 ? "…" : "" }
        let kept = limit - 1
        let head = kept / 3
        return String(text.prefix(head)) + "…" + String(text.suffix(kept - head))
    }

    private static func bar(_ fraction: Double, _ width: Int) -> String {
        let filled = Int(fraction * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    /// The width of the terminal standard error writes to: its window size, else `COLUMNS`, else 80.
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return width(fromColumns: ProcessInfo.processInfo.environment["COLUMNS"])
    }

    /// The width `COLUMNS` gives, or 80 when it is unset or not a positive number.
    static func width(fromColumns columns: String?) -> Int {
        guard let columns, let width = Int(columns.trimmingCharacters(in: .whitespaces)), width > 0 else { return 80 }
        return width
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
