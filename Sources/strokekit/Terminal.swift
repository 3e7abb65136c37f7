import Foundation

/// Where the CLI writes: results to stdout, progress, warnings and errors to stderr.
enum Terminal {
    /// True when stderr is an interactive terminal (a progress bar makes sense there).
    static let stderrIsTTY = isatty(STDERR_FILENO) == 1

    /// Writes a line to stderr.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes `warning: …` lines to stderr.
    static func warn(_ warnings: [String]) {
        for warning in warnings { note("warning: \(warning)") }
    }

    /// Rewrites the current stderr line (progress bars on a TTY).
    static func overwriteLine(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }
}

/// "1m05s", "12s" for an ETA.
func formatDuration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "?" }
    let whole = Int(seconds.rounded())
    return whole >= 60 ? "\(whole / 60)m\(String(format: "%02d", whole % 60))s" : "\(whole)s"
}

/// Draws `[=====>    ]` of `width` cells for a fraction in 0...1.
func progressBar(_ fraction: Double, width: Int = 24) -> String {
    let filled = max(0, min(width, Int(fraction * Double(width))))
    return "[" + String(repeating: "=", count: filled) + (filled < width ? ">" : "")
        + String(repeating: " ", count: max(0, width - filled - 1)) + "]"
}
