import Foundation

/// Writes a report file, choosing the kind by the file's extension:
/// `.html`/`.htm` for the self-contained page, `.png` for the confusion heatmap alone.
public enum ReportWriter {
    /// What `write(_:to:)` makes of a file name.
    public enum Kind: Sendable {
        case html
        case png

        /// The kind for `url`'s extension (case-insensitive), or nil when it is neither.
        public init?(url: URL) {
            switch url.pathExtension.lowercased() {
            case "html", "htm": self = .html
            case "png": self = .png
            default: return nil
            }
        }
    }

    /// Renders `content` and writes it to `url`, replacing an existing file atomically
    /// (written beside it, then renamed over it), so a reader never sees half a report.
    /// Throws `ReportError` naming the path when the extension is unknown, the folder is
    /// missing or unwritable, or a PNG is asked for without an evaluation.
    public static func write(_ content: ReportContent, to url: URL) throws(ReportError) {
        let path = url.path
        guard let kind = Kind(url: url) else { throw .unsupportedExtension(path: path) }
        try checkDestination(url)
        let data: Data
        switch kind {
        case .html:
            data = Data(HTMLReport.render(content).utf8)
        case .png:
            guard let evaluation = content.overallEvaluation else { throw .nothingToDraw(path: path) }
            data = try PNGEncoder.encode(HeatmapImage.render(evaluation))
        }
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw .writeFailed(path: path, reason: reason(for: error, directory: url.deletingLastPathComponent().path))
        }
    }

    /// Fails early, with a message a person can act on, for the common mistakes; anything
    /// else (permissions, a full disk) surfaces from the write itself.
    private static func checkDestination(_ url: URL) throws(ReportError) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .outputIsDirectory(path: url.path)
        }
        // Walk up to the nearest existing ancestor: a file there means a bad path, a folder
        // there means the report's own folder is missing.
        let directory = url.deletingLastPathComponent()
        var ancestor = directory
        while !fileManager.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
            let parent = ancestor.deletingLastPathComponent()
            if parent.path == ancestor.path { break }
            ancestor = parent
        }
        if !isDirectory.boolValue {
            throw .notADirectory(path: url.path, component: ancestor.path)
        }
        if ancestor.standardizedFileURL.path != directory.standardizedFileURL.path {
            throw .directoryMissing(path: url.path, directory: directory.path)
        }
        if !fileManager.isWritableFile(atPath: directory.path) {
            throw .writeFailed(path: url.path, reason: "the folder \(directory.path) is not writable")
        }
    }

    /// The operating system's reason, without Foundation's wrapping.
    private static func reason(for error: any Error, directory: String) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return "\(String(cString: strerror(code.rawValue))) (in \(directory))"
        }
        return nsError.localizedDescription
    }
}
