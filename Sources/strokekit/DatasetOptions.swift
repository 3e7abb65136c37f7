import ArgumentParser
import Foundation
import StrokeData
import StrokeImage
import StrokeReport
import StrokeTraining

/// `--data`, `--invert`, `--skip-bad`: how a folder-per-class PNG dataset is read.
struct DatasetOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Dataset folder: one subfolder of PNGs per class.", valueName: "dir"))
    var data: String?

    @Option(help: ArgumentHelp("Invert black-on-white images: auto (when mean > 127, with a warning), no, yes.",
                               valueName: "auto|no|yes"))
    var invert: InversionPolicy = .auto

    @Flag(help: "Skip unreadable or non-PNG files with a warning instead of stopping.")
    var skipBad = false

    /// Loads the dataset, printing its warnings to stderr.
    func load() throws -> LabeledImageDataset {
        guard let data else { throw CLIError("give the dataset with --data DIR") }
        let dataset = try LabeledImageDataset(
            root: URL(fileURLWithPath: data), options: DatasetLoadOptions(invert: invert, skipBad: skipBad))
        Terminal.warn(dataset.warnings)
        return dataset
    }
}

extension InversionPolicy: ExpressibleByArgument {}
