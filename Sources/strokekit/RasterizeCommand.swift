import ArgumentParser
import Foundation
import StrokeImage
import StrokeTraining

/// `strokekit rasterize`: a QuickDraw ndjson file -> a folder-per-class PNG dataset.
struct RasterizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rasterize",
        abstract: "Draw every drawing of a QuickDraw ndjson file as a 28x28 PNG in OUT/<word>/.",
        discussion: """
            MNIST Maker for any machine: each drawing is aspect-fit into 28x28, white ink on \
            black, and written to OUT/<word>/<key_id>.png (line-N.png without key_id). The \
            result is a dataset `strokekit train --data OUT` reads. The default pen is the \
            dataset's measured line width in output pixels, whatever the device's units; \
            --pen-units gives MNIST Maker's absolute pen (e.g. 15 for its 15-point pen).
            """)

    @Argument(help: ArgumentHelp("QuickDraw ndjson file.", valueName: "file.ndjson"))
    var input: String

    @Option(help: ArgumentHelp("Dataset folder to write (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("Class folder for drawings without a \"word\" (default: unlabeled, with a warning).",
                               valueName: "word"))
    var word: String?

    @Option(help: ArgumentHelp("Pen width in output pixels (default \(Rasterizer.datasetPenPixels), the dataset's).",
                               valueName: "P"))
    var penPixels: Double?

    @Option(help: ArgumentHelp("Pen width in the drawing's own units, scaled with the drawing (MNIST Maker).",
                               valueName: "U"))
    var penUnits: Double?

    @Option(help: "Output image side in pixels.")
    var side = 28

    @Flag(help: "Skip malformed ndjson lines with a warning instead of stopping.")
    var skipBad = false

    func validate() throws {
        _ = try rasterizer()
        if let word, word.isEmpty { throw ValidationError("--word must not be empty") }
    }

    func run() throws {
        let (drawings, parseWarnings) = try QuickDraw.read(contentsOf: URL(fileURLWithPath: input), skipBad: skipBad)
        Terminal.warn(parseWarnings)
        let (files, warnings) = StrokeExamples.datasetFiles(for: drawings, defaultWord: word, rasterizer: try rasterizer())
        Terminal.warn(warnings)
        let written = try StrokeExamples.writeDataset(files, to: URL(fileURLWithPath: out))
        let folders = Set(files.map { $0.relativePath.split(separator: "/")[0] }).sorted()
        print("wrote \(written.count) images into \(folders.count) class folder(s) of \(out): "
              + folders.joined(separator: ", "))
    }

    /// The rasterizer the flags describe; a `ValidationError` for bad widths.
    func rasterizer() throws -> Rasterizer {
        guard side >= 1, side <= 4096 else { throw ValidationError("--side must be between 1 and 4096, got \(side)") }
        switch (penPixels, penUnits) {
        case (.some, .some):
            throw ValidationError("give --pen-pixels or --pen-units, not both")
        case (let pixels?, nil):
            guard pixels.isFinite, pixels > 0 else { throw ValidationError("--pen-pixels must be positive, got \(pixels)") }
            return Rasterizer(side: side, pen: .pixels(pixels))
        case (nil, let units?):
            guard units.isFinite, units > 0 else { throw ValidationError("--pen-units must be positive, got \(units)") }
            return Rasterizer(side: side, pen: .sourceUnits(units))
        case (nil, nil):
            return Rasterizer(side: side)
        }
    }
}
