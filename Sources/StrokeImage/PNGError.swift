/// Why a PNG could not be read or written. Every reading case names its source
/// (the file name or path given to `PNG.decode` / `PNG.read`).
public enum PNGError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file has zero bytes.
    case emptyFile(source: String)
    /// The bytes do not start with the 8-byte PNG signature.
    case notPNG(source: String)
    /// The data ends before the image does (libpng's message in `detail`).
    case truncated(source: String, detail: String)
    /// libpng rejected the data (bad CRC, bad zlib stream, invalid header...).
    case corrupt(source: String, detail: String)
    /// The file could not be opened or read (missing, a folder, no permission).
    case unreadable(source: String, reason: String)
    /// The header declares an image larger than `PNG.maximumSide` or `PNG.maximumPixelCount`.
    case tooLarge(source: String, width: Int, height: Int)
    /// libpng could not encode the image (e.g. an empty image).
    case encodingFailed(detail: String)

    /// The file name or path the error is about (empty for `encodingFailed`).
    public var source: String {
        switch self {
        case .emptyFile(let source), .notPNG(let source), .truncated(let source, _),
             .corrupt(let source, _), .unreadable(let source, _), .tooLarge(let source, _, _):
            return source
        case .encodingFailed:
            return ""
        }
    }

    public var description: String {
        switch self {
        case .emptyFile(let source):
            return "\(source): empty file (0 bytes); expected a PNG image"
        case .notPNG(let source):
            return "\(source): not a PNG file (the PNG signature is missing); "
                + "hint: convert it to PNG, e.g. `magick input.jpg output.png`"
        case .truncated(let source, let detail):
            return "\(source): truncated PNG (\(detail)); the file was probably cut short while copying"
        case .corrupt(let source, let detail):
            return "\(source): corrupt PNG (libpng: \(detail))"
        case .unreadable(let source, let reason):
            return "\(source): cannot read the file (\(reason))"
        case .tooLarge(let source, let width, let height):
            return "\(source): image is \(width)x\(height), larger than the "
                + "\(PNG.maximumSide)x\(PNG.maximumSide) / \(PNG.maximumPixelCount)-pixel limit "
                + "(PNG.maximumSide, PNG.maximumPixelCount); "
                + "hint: scale it down before using it"
        case .encodingFailed(let detail):
            return "cannot encode PNG (libpng: \(detail))"
        }
    }
}
