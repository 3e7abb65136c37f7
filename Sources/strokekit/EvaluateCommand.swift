import ArgumentParser
import Foundation
import StrokeData
import StrokeImage
import StrokeKit
import StrokeReport
import StrokeTraining

/// `strokekit evaluate`: accuracy, per-class metrics and the confusion matrix of a model on a
/// PNG dataset or a stroke corpus, with the model's reject rule applied.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Evaluate a model on a folder-per-class PNG dataset or a QuickDraw ndjson stroke file.",
        discussion: """
            With --strokes, each drawing is rasterized as the training images were and its \
            "word" is its true class. A drawing whose word is not one of the model's classes is \
            an error naming its line (--ignore-unknown skips it with a warning); for a model \
            that rejects by confidence only, drawings with word "none" or "background" are \
            non-shapes, counted only for the reject option.
            """)

    @Option(help: ArgumentHelp("Model file (safetensors) written by `strokekit train`; default: the bundled model.",
                               valueName: "file"))
    var model: String?

    @Option(help: ArgumentHelp("Dataset folder: one subfolder of PNGs per class.", valueName: "dir"))
    var data: String?

    @Option(help: ArgumentHelp("QuickDraw ndjson file; each drawing's \"word\" is its class.", valueName: "file.ndjson"))
    var strokes: String?

    @Option(help: ArgumentHelp(
        "UNIPEN train_r01_v07 folder (data/, include/): its characters of the model's classes.", valueName: "dir"))
    var unipen: String?

    @Option(help: ArgumentHelp("With --unipen: the writers to evaluate on (the fixed writer split; repeat for several).",
                               valueName: "train|validation|test"))
    var unipenPart: [UnipenCorpus.Part] = [.test]

    @Option(help: ArgumentHelp("With --data: invert black-on-white images: auto (when mean > 127, with a warning), no, yes.",
                               valueName: "auto|no|yes"))
    var invert: InversionPolicy = .auto

    @Flag(help: "Skip unreadable PNGs or malformed ndjson lines with a warning instead of stopping.")
    var skipBad = false

    @Flag(help: "With --strokes: skip drawings whose word is not a model class, with a warning.")
    var ignoreUnknown = false

    @Option(help: ArgumentHelp("Write a report: .html (page) or .png (heatmap).", valueName: "file"))
    var report: String?

    @Flag(help: "Print one JSON object (classes, count, accuracy, per_class, confusion_matrix, misclassified, reject).")
    var json = false

    func validate() throws {
        guard [data, strokes, unipen].compactMap({ $0 }).count == 1 else {
            throw ValidationError("give one of --data DIR, --strokes FILE.ndjson, --unipen DIR")
        }
        if let report { try ReportOutput.validate(report) }
    }

    func run() throws {
        let modelFile = try modelURL(model)
        let trained = try TrainedModel.load(contentsOf: modelFile)
        let classes = trained.metadata.classes
        let rejectRule = try RejectRule(metadata: trained.metadata, source: modelFile.path)
        let set = try strokes.map { try loadStrokes($0, classes: classes, rejectRule: rejectRule, framing: trained.framing) }
            ?? unipen.map { try loadUnipen($0, classes: classes, framing: trained.framing) }
            ?? loadDataset(data!, classes: classes, model: modelFile)
        let evaluation = Evaluator.evaluate(trained.network, on: set.examples, classes: classes, rejectRule: rejectRule,
                                            keepImages: unipen == nil || report != nil)
        let nonShapes = set.nonShapes.count == 0 ? nil
            : Evaluator.evaluate(trained.network, on: set.nonShapes, classes: classes, rejectRule: rejectRule,
                                 keepImages: false)
        let rejection = RejectSummary(rule: rejectRule, evaluation: evaluation, nonShapes: nonShapes)
        if let report {
            try ReportOutput.write(report, content: ReportContent(
                title: "\(modelFile.lastPathComponent) on \(URL(fileURLWithPath: set.summary.path).lastPathComponent)",
                generated: ISO8601DateFormatter().string(from: Date()),
                modelMetadata: ReportContent.metadataList(trained.metadata.dictionary),
                datasetSummary: set.summary, evaluation: evaluation, rejectOption: rejection))
        }
        if json {
            var object = evaluation.jsonObject()
            if let rejection { object["reject"] = rejection.jsonObject }
            try printJSON(object)
        } else {
            print("model: \(modelFile.path)")
            print("data:  \(set.summary.path) (\(evaluation.count) \(strokes == nil ? "images" : "drawings"))")
            print(evaluation.textReport())
            if let rejection { print(rejection.text) }
            if let report { print("wrote \(report)") }
        }
    }

    /// What is evaluated: labelled examples, non-shapes for the reject option, the report's summary.
    struct EvaluationSet {
        var examples: LabeledExamples
        var nonShapes: LabeledExamples
        var summary: DatasetSummary
    }

    private func loadDataset(_ path: String, classes: [String], model modelFile: URL) throws -> EvaluationSet {
        let dataset = try LabeledImageDataset(
            root: URL(fileURLWithPath: path), options: DatasetLoadOptions(invert: invert, skipBad: skipBad))
        Terminal.warn(dataset.warnings)
        // The model may know more classes than the dataset has folders (e.g. its reject
        // class `none`): labels are matched by name.
        let modelLabels = try dataset.classes.map { name in
            guard let index = classes.firstIndex(of: name) else {
                throw CLIError("""
                    the dataset's class '\(name)' is not one of the model's classes \(classes) (\(modelFile.path)); \
                    evaluate on a dataset whose class folders the model knows
                    """)
            }
            return index
        }
        var examples = dataset.allExamples
        examples.labels = examples.labels.map { modelLabels[$0] }
        return EvaluationSet(
            examples: examples, nonShapes: LabeledExamples(images: [], labels: [], sources: []),
            summary: dataset.summary(path: path))
    }

    private func loadUnipen(_ path: String, classes: [String], framing: InputFraming) throws -> EvaluationSet {
        let parts = Set(unipenPart)
        let (dataset, warnings) = try UnipenCorpus.labelDataset(
            root: URL(fileURLWithPath: path), parts: parts, classes: classes, framing: framing)
        if !warnings.isEmpty { Terminal.note("\(path): \(warnings.count) segment(s) skipped, e.g. \(warnings[0])") }
        let name = "\(path) (\(parts.map(\.rawValue).sorted().joined(separator: "+")) writers)"
        return EvaluationSet(examples: dataset.allExamples, nonShapes: LabeledExamples(images: [], labels: [], sources: []),
                             summary: dataset.summary(path: name))
    }

    private func loadStrokes(_ path: String, classes: [String], rejectRule: RejectRule,
                             framing: InputFraming) throws -> EvaluationSet {
        let (drawings, warnings) = try QuickDraw.read(contentsOf: URL(fileURLWithPath: path), skipBad: skipBad)
        Terminal.warn(warnings)
        // A threshold-only reject option has no class for non-shapes: keep them aside to count rejections.
        let nonShapeWords = rejectRule.minimumConfidence != nil && rejectRule.backgroundClasses.isEmpty
            ? RejectRule.backgroundClassNames : []
        let conversion = try StrokeExamples.examples(
            from: drawings, source: path, classes: classes, nonShapeWords: nonShapeWords, ignoreUnknown: ignoreUnknown,
            framing: framing)
        Terminal.warn(conversion.warnings)
        var classCounts = classes.map { ($0, 0) }
        for label in conversion.examples.labels { classCounts[label].1 += 1 }
        return EvaluationSet(examples: conversion.examples, nonShapes: conversion.nonShapes,
                             summary: DatasetSummary(path: path, classCounts: classCounts.map { (label: $0.0, count: $0.1) }))
    }
}
