/// Why a report could not be made or written. Every message names the path it is about.
public enum ReportError: Error, CustomStringConvertible, Equatable {
    /// The output name ends in neither `.html`/`.htm` nor `.png`.
    case unsupportedExtension(path: String)
    /// The folder the report should go into does not exist.
    case directoryMissing(path: String, directory: String)
    /// Something on the way to the report is a file, not a folder.
    case notADirectory(path: String, component: String)
    /// The output path names an existing folder.
    case outputIsDirectory(path: String)
    /// The system refused to write the file (permissions, read-only disk, full disk, ...).
    case writeFailed(path: String, reason: String)
    /// A PNG report needs an evaluation to draw, and the content has none.
    case nothingToDraw(path: String)
    /// libpng could not encode an image.
    case pngEncodingFailed(String)

    public var description: String {
        switch self {
        case .unsupportedExtension(let path):
            "\(path): unsupported report type; hint: name the report FILE.html (the full page) or FILE.png (the confusion heatmap)"
        case .directoryMissing(let path, let directory):
            "\(path): cannot write the report because the folder \(directory) does not exist; hint: create it first (mkdir -p)"
        case .notADirectory(let path, let component):
            "\(path): cannot write the report because \(component) is a file, not a folder"
        case .outputIsDirectory(let path):
            "\(path): is a folder; hint: give a file name such as \(path.hasSuffix("/") ? path : path + "/")report.html"
        case .writeFailed(let path, let reason):
            "\(path): cannot write the report: \(reason)"
        case .nothingToDraw(let path):
            "\(path): a PNG report draws the confusion matrix, but there is no evaluation to draw"
        case .pngEncodingFailed(let reason):
            "cannot encode the report image as PNG: \(reason)"
        }
    }
}
