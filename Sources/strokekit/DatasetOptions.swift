import ArgumentParser
import Foundation
import StrokeData
import StrokeImage
import StrokeReport
import StrokeTraining

/// `--data`, `--invert`, `--skip-bad`: how a folder-per-class PNG dataset is read.
struct DatasetOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Dataset folder: one subfolder of PNGs per class.", valueName: "dir"))
    var data: String

    @Option(help: ArgumentHelp("Invert black-on-white images: auto (when mean > 127, with a warning), no, yes.",
                               valueName: "auto|no|yes"))
    var invert: InversionPolicy = .auto

    @Flag(help: "Skip unreadable or non-PNG files with a warning instead of stopping.")
    var skipBad = false

    /// Loads the dataset, printing its warnings to stderr.
    func load() throws -> LabeledImageDataset {
        let dataset = try LabeledImageDataset(
            root: URL(fileURLWithPath: data), options: DatasetLoadOptions(invert: invert, skipBad: skipBad))
        Terminal.warn(dataset.warnings)
        return dataset
    }
}

extension InversionPolicy: ExpressibleByArgument {}

extension LabeledImageDataset {
    /// The samples at `indices` as trainer/evaluator input.
    func examples(_ indices: [Int]) -> LabeledExamples {
        LabeledExamples(
            images: indices.map { samples[$0].image },
            labels: indices.map { samples[$0].classIndex },
            sources: indices.map { samples[$0].url.path })
    }

    /// A dataset of the samples at `indices` (same classes), e.g. to split a fold again.
    func subset(_ indices: [Int]) -> LabeledImageDataset {
        LabeledImageDataset(classes: classes, samples: indices.map { samples[$0] })
    }

    /// Path, fingerprint and class counts for reports.
    func summary(path: String) -> DatasetSummary {
        DatasetSummary(path: path, fingerprint: fingerprint, classCounts: zip(classes, counts).map { ($0, $1) })
    }

    /// Every sample, in order.
    var allExamples: LabeledExamples { examples(Array(samples.indices)) }
}
