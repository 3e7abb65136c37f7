import ArgumentParser
import Foundation
import StrokeImage
import StrokeModelFile
import StrokeSupport

/// `strokekit montage`: a contact sheet of PNG folders and rasterized stroke files.
struct MontageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "montage",
        abstract: "Tile images from PNG folders and ndjson stroke files into one PNG contact sheet.",
        discussion: """
            Each SOURCE fills --rows rows of --columns images, in the order given: a folder \
            contributes its PNGs sorted by name, an .ndjson file its drawings rasterized as the \
            classifier sees them (28x28). Pixels are upscaled by --scale without smoothing.
            """)

    @Argument(help: ArgumentHelp("PNG folders and .ndjson files.", valueName: "source"))
    var sources: [String]

    @Option(help: ArgumentHelp("PNG file to write.", valueName: "file.png"))
    var out: String

    @Option(help: "Images per row.")
    var columns = 12

    @Option(help: "Rows per source.")
    var rows = 1

    @Option(help: "Integer upscaling factor.")
    var scale = 3

    @Option(help: "Gray gap between tiles, in output pixels.")
    var gap = 2

    func validate() throws {
        guard !sources.isEmpty else { throw ValidationError("give at least one PNG folder or .ndjson file") }
        guard (1...1000).contains(columns) else { throw ValidationError("--columns must be 1...1000, got \(columns)") }
        guard (1...1000).contains(rows) else { throw ValidationError("--rows must be 1...1000, got \(rows)") }
        guard (1...32).contains(scale) else { throw ValidationError("--scale must be 1...32, got \(scale)") }
        guard (0...16).contains(gap) else { throw ValidationError("--gap must be 0...16, got \(gap)") }
    }

    func run() throws {
        var sheetRows: [[GrayImage]] = []
        for source in sources {
            let images = try loadImages(source, limit: rows * columns)
            if images.isEmpty { Terminal.warn(["\(source): no images"]) }
            for start in stride(from: 0, to: images.count, by: columns) {
                sheetRows.append(Array(images[start..<min(images.count, start + columns)]))
            }
        }
        guard !sheetRows.isEmpty else { throw CLIError("no images in \(sources.joined(separator: ", "))") }
        let sheet = Montage(gap: gap, scale: scale).render(rows: sheetRows)
        try AtomicFile.write(PNG.encode(sheet), to: URL(fileURLWithPath: out))
        print("wrote \(out) (\(sheet.width)x\(sheet.height), \(sheetRows.count) rows)")
    }

    /// Up to `limit` images of a PNG folder (sorted by name) or of an ndjson file (rasterized).
    func loadImages(_ source: String, limit: Int) throws -> [GrayImage] {
        let url = URL(fileURLWithPath: source)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw CLIError("\(source): no such file or folder")
        }
        if isDirectory.boolValue {
            let names = try FileManager.default.contentsOfDirectory(atPath: source)
                .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
            return try names.prefix(limit).map { try PNG.read(contentsOf: url.appendingPathComponent($0)) }
        }
        let (drawings, warnings) = try QuickDraw.read(contentsOf: url)
        Terminal.warn(warnings)
        let rasterizer = Rasterizer()
        return drawings.prefix(limit).map { rasterizer.rasterize($0.strokes) }
    }
}
