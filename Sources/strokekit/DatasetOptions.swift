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

    @Option(help: ArgumentHelp(
        "With --unipen: show each character of these classes N times (each copy augmented anew), e.g. ',+.{}=3' "
            + "for the rare separators (repeat for several).",
        valueName: "chars=N"))
    var unipenRepeat: [String] = []

    @Option(help: ArgumentHelp(
        "With --unipen and a reference-height framing: classes shown only framed, never alone (e.g. ',+.{}': "
            + "a separator is never a label of its own).",
        valueName: "chars"))
    var unipenNeverAlone: String = ""

    @Option(help: ArgumentHelp("Invert black-on-white images: auto (when mean > 127, with a warning), no, yes.",
                               valueName: "auto|no|yes"))
    var invert: InversionPolicy = .auto

    @Flag(help: "Skip unreadable or non-PNG files with a warning instead of stopping.")
    var skipBad = false

    /// Where the dataset comes from, for reports.
    var path: String { data ?? unipen.map { "\($0) (\(parts.map(\.rawValue).sorted().joined(separator: "+")) writers)" } ?? "" }

    /// The UNIPEN writers read: `--unipen-part`, by default the training writers.
    var parts: Set<UnipenCorpus.Part> { unipenPart.isEmpty ? [.train] : Set(unipenPart) }

    /// `--unipen-repeat`: how many times each class's characters are shown; nil when a value
    /// is not `chars=N` (N from 1 to 100).
    var repeats: [String: Int]? {
        var repeats: [String: Int] = [:]
        for value in unipenRepeat {
            guard let equals = value.lastIndex(of: "="), let count = Int(value[value.index(after: equals)...]),
                  (1...100).contains(count), equals > value.startIndex else { return nil }
            for character in value[..<equals] { repeats[String(character)] = count }
        }
        return repeats
    }

    /// The flags that change which images the dataset holds beyond its source, for the
    /// model's recipe (`strokekit.train.recipe`).
    var recipeFlags: [String] {
        unipenRepeat.map { "--unipen-repeat '\($0)'" } + (unipenNeverAlone.isEmpty ? [] : ["--unipen-never-alone '\(unipenNeverAlone)'"])
    }

    /// Metadata crediting the data, for data that asks for it (UNIPEN).
    var attribution: [String: String] {
        unipen == nil ? [:] : [ModelMetadata.Key.dataSource: UnipenCorpus.citation,
                               ModelMetadata.Key.dataLicense: UnipenCorpus.license]
    }

    /// Throws unless exactly one of --data and --unipen is given.
    func validate() throws {
        if data != nil && unipen != nil { throw ValidationError("give --data DIR or --unipen DIR, not both") }
        if unipen == nil && !unipenPart.isEmpty { throw ValidationError("--unipen-part needs --unipen DIR") }
        if unipen == nil && !(unipenRepeat.isEmpty && unipenNeverAlone.isEmpty) {
            throw ValidationError("--unipen-repeat and --unipen-never-alone need --unipen DIR")
        }
        if repeats == nil {
            throw ValidationError("--unipen-repeat takes the classes' characters, '=' and a count from 1 to 100, e.g. ',+.{}=3'")
        }
    }

    /// Loads the dataset, printing its warnings to stderr. UNIPEN's strokes are rasterized
    /// with `framing`; a reference-height framing trains each character framed by its writer
    /// and alone.
    func load(framing: InputFraming = .aspectFit) throws -> LabeledImageDataset {
        if let unipen {
            let (dataset, warnings) = try UnipenCorpus.labelDataset(
                root: URL(fileURLWithPath: unipen), parts: parts, framing: framing, alsoAlone: true,
                neverAlone: Set(unipenNeverAlone.map(String.init)), repeats: repeats ?? [:])
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
