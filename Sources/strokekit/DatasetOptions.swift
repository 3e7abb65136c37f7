import ArgumentParser
import Foundation
import StrokeData
import StrokeImage
import StrokeModelFile
import StrokeReport
import StrokeTraining

/// `--data`, `--invert`, `--skip-bad`: how a folder-per-class PNG dataset is read; or
/// `--unipen`, `--unipen-part`: the UNIPEN characters of the label model's classes.
struct DatasetOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Dataset folder: one subfolder of PNGs per class.", valueName: "dir"))
    var data: String?

    @Option(help: ArgumentHelp(
        "UNIPEN train_r01_v07 folder (data/, include/): its digits, letters and , + . { } as the dataset.",
        valueName: "dir"))
    var unipen: String?

    @Option(help: ArgumentHelp("With --unipen: the writers to use (the fixed writer split; repeat for several).",
                               valueName: "train|validation|test"))
    var unipenPart: [UnipenCorpus.Part] = []

    @Option(help: ArgumentHelp("Invert black-on-white images: auto (when mean > 127, with a warning), no, yes.",
                               valueName: "auto|no|yes"))
    var invert: InversionPolicy = .auto

    @Flag(help: "Skip unreadable or non-PNG files with a warning instead of stopping.")
    var skipBad = false

    /// Where the dataset comes from, for reports.
    var path: String { data ?? unipen.map { "\($0) (\(parts.map(\.rawValue).sorted().joined(separator: "+")) writers)" } ?? "" }

    /// The UNIPEN writers read: `--unipen-part`, by default the training writers.
    var parts: Set<UnipenCorpus.Part> { unipenPart.isEmpty ? [.train] : Set(unipenPart) }

    /// Metadata crediting the data, for data that asks for it (UNIPEN).
    var attribution: [String: String] {
        unipen == nil ? [:] : [ModelMetadata.Key.dataSource: UnipenCorpus.citation,
                               ModelMetadata.Key.dataLicense: UnipenCorpus.license]
    }

    /// Throws unless exactly one of --data and --unipen is given.
    func validate() throws {
        if data != nil && unipen != nil { throw ValidationError("give --data DIR or --unipen DIR, not both") }
        if unipen == nil && !unipenPart.isEmpty { throw ValidationError("--unipen-part needs --unipen DIR") }
    }

    /// Loads the dataset, printing its warnings to stderr. UNIPEN's strokes are rasterized
    /// with `framing`; a reference-height framing trains each character framed by its writer
    /// and alone.
    func load(framing: InputFraming = .aspectFit) throws -> LabeledImageDataset {
        if let unipen {
            let (dataset, warnings) = try UnipenCorpus.labelDataset(
                root: URL(fileURLWithPath: unipen), parts: parts, framing: framing, alsoAlone: true)
            if !warnings.isEmpty {
                Terminal.note("\(unipen): \(warnings.count) segment(s) skipped, e.g. \(warnings[0])")
            }
            return dataset
        }
        guard let data else { throw CLIError("give the dataset with --data DIR or --unipen DIR") }
        let dataset = try LabeledImageDataset(
            root: URL(fileURLWithPath: data), options: DatasetLoadOptions(invert: invert, skipBad: skipBad))
        Terminal.warn(dataset.warnings)
        return dataset
    }
}

extension InversionPolicy: ExpressibleByArgument {}
extension UnipenCorpus.Part: ExpressibleByArgument {}
