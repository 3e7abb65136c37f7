import ArgumentParser
import Foundation
import StrokeReport

/// `--report FILE`: checked before any work starts, written at the end.
enum ReportOutput {
    /// Rejects an unsupported extension or a missing folder before training or evaluating.
    static func validate(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        guard ReportWriter.Kind(url: url) != nil else {
            throw ValidationError("--report \(path): use a .html (page) or .png (heatmap) file name")
        }
        var isDirectory: ObjCBool = false
        let folder = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("--report \(path): the folder \(folder) does not exist")
        }
    }

    static func write(_ path: String, content: ReportContent) throws {
        try ReportWriter.write(content, to: URL(fileURLWithPath: path))
    }
}
