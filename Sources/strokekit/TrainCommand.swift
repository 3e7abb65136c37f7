import ArgumentParser
import Foundation
import StrokeData
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeReport
import StrokeTensor
import StrokeTraining
import StrokeSupport

/// `strokekit train`: train the CNN on a folder-per-class PNG dataset.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a stroke-shape CNN on a folder-per-class PNG dataset.",
        discussion: """
            Splits the dataset (stratified, seeded) into training and validation sets, trains,
            keeps the weights with the best validation accuracy, prints their evaluation and
            writes the model atomically. With --folds K it runs stratified k-fold
            cross-validation instead and writes no model.
            """)

    @OptionGroup var dataset: DatasetOptions

    @Option(help: ArgumentHelp("Model file to write (safetensors).", valueName: "file"))
    var output = "model.safetensors"

    @Option(help: "Passes over the training set.")
    var epochs = 20

    @Option(help: "Images per training step.")
    var batchSize = 32

    @Option(help: "Step size of the optimizer.")
    var learningRate: Float = 0.001

    @Option(help: ArgumentHelp("Learning-rate schedule: constant or cosine (annealed to ~0 at the last epoch).",
                               valueName: "constant|cosine"))
    var lrSchedule: LearningRateSchedule = .constant

    @Option(help: ArgumentHelp("Optimizer: adam or sgd (with --momentum).", valueName: "adam|sgd"))
    var optimizer = "adam"

    @Option(help: "Momentum for --optimizer sgd.")
    var momentum: Float = 0.9

    @Option(help: "Weight decay (decoupled for Adam, L2 for SGD); 0 = off.")
    var weightDecay: Float = 0

    @Option(help: "Seed for the split, initialisation, shuffling and augmentation.")
    var seed: UInt64 = 0

    @Option(help: "Fraction of each class held out for validation.")
    var validationSplit = 0.2

    @Option(help: ArgumentHelp("Run stratified k-fold cross-validation with K folds (writes no model).", valueName: "K"))
    var folds: Int?

    @Option(help: "Stop after this many epochs without a better validation accuracy.")
    var patience: Int?

    @Option(help: ArgumentHelp("Network architecture, e.g. c16-p-c32-p-c64-p-d128 (see README).", valueName: "spec"))
    var arch = ArchitectureSpec.default.description

    @Option(help: ArgumentHelp("Stored weight precision: fp32 or fp16.", valueName: "fp32|fp16"))
    var precision = "fp32"

    @Option(help: "Worker threads per batch (data parallel).")
    var workers = min(2, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: ArgumentHelp("Append one JSON object per epoch to this file.", valueName: "file"))
    var log: String?

    @Flag(help: "Machine-readable output: one JSON object per epoch and a final summary on stdout.")
    var json = false


    @Flag(help: "Augment training images each epoch (seeded rotation, scale, shift, pen width, elastic).")
    var augment = false

    @Option(help: ArgumentHelp("Add N synthetic drawings per shape class to the training set.", valueName: "N"))
    var synthetic = 0

    @Option(help: ArgumentHelp("Add N synthetic non-shapes as a reject class 'none' (the reject option).", valueName: "N"))
    var negatives = 0

    @Option(help: ArgumentHelp("Also reject predictions whose confidence is below P (stored in the model).", valueName: "P"))
    var rejectBelow: Float?

    @Option(help: ArgumentHelp("Write a report: .html page (curves, evaluation) or .png heatmap.", valueName: "file"))
    var report: String?

    func validate() throws {
        guard ["adam", "sgd"].contains(optimizer) else { throw ValidationError("--optimizer must be adam or sgd") }
        guard ["fp32", "fp16"].contains(precision) else { throw ValidationError("--precision must be fp32 or fp16") }
        guard epochs >= 1 else { throw ValidationError("--epochs must be at least 1") }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
        guard learningRate > 0, learningRate.isFinite else { throw ValidationError("--learning-rate must be positive") }
        guard validationSplit >= 0, validationSplit < 1 else { throw ValidationError("--validation-split must be in [0, 1)") }
        if let folds, folds < 2 { throw ValidationError("--folds must be at least 2") }
        if let patience, patience < 1 { throw ValidationError("--patience must be at least 1") }
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
        guard synthetic >= 0, negatives >= 0 else { throw ValidationError("--synthetic and --negatives must be >= 0") }
        if let rejectBelow, !(0...1).contains(rejectBelow) { throw ValidationError("--reject-below must be in 0...1") }
        if let report { try ReportOutput.validate(report) }
        if folds == nil {
            let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue,
                  FileManager.default.isWritableFile(atPath: folder) else {
                throw ValidationError("--output \(output): the folder \(folder) does not exist or is not writable")
            }
        }
        do { _ = try ArchitectureSpec(parsing: arch) } catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        let data = try dataset.load()
        var configuration = TrainingConfiguration()
        configuration.architecture = try ArchitectureSpec(parsing: arch)
        configuration.epochs = epochs
        configuration.batchSize = batchSize
        configuration.learningRate = learningRate
        configuration.schedule = lrSchedule
        configuration.optimizer = optimizer == "sgd" ? .sgd(momentum: momentum) : .adam
        configuration.weightDecay = weightDecay
        configuration.seed = seed
        configuration.patience = patience
        configuration.workers = workers
        configuration.augmentation = augment ? ImageAugmentation.default : nil
        let recipe = Recipe(data: data, synthetic: synthetic, negatives: negatives, seed: seed,
                            rejectRule: RejectRule(
                                minimumConfidence: rejectBelow,
                                backgroundClasses: negatives > 0 ? [data.classes.count] : []))
        let logFile = try log.map { try EpochLog(path: $0) }
        if let folds {
            try crossValidate(recipe, folds: folds, configuration: configuration, logFile: logFile)
        } else {
            try trainOnce(recipe, configuration: configuration, logFile: logFile)
        }
    }

    private func trainOnce(_ recipe: Recipe, configuration: TrainingConfiguration, logFile: EpochLog?) throws {
        let data = recipe.data
        let split = try data.stratifiedSplit(validationFraction: validationSplit, seed: seed)
        if !json { Terminal.note(data.summaryTable(train: split.train, validation: split.validation)) }
        let validation = split.validation.isEmpty ? nil : data.examples(split.validation)
        let training = recipe.trainingSet(split.train, stream: 0)
        if !json && training.count > split.train.count {
            Terminal.note("plus \(training.count - split.train.count) synthetic training images")
        }
        let trainer = try Trainer(configuration: configuration, classes: recipe.classes)
        let reporter = ProgressReporter(json: json, logFile: logFile, label: nil)
        let result = try trainer.train(training, validation: validation, progress: reporter.report)

        var extra: [String: String] = [:]
        if let rejectBelow { extra[RejectRule.minimumConfidenceKey] = String(rejectBelow) }
        if augment { extra["strokekit.train.augmentation"] = "default" }
        extra["strokekit.train.recipe"] = recipeDescription
        if synthetic > 0 { extra["strokekit.train.synthetic_per_class"] = String(synthetic) }
        if negatives > 0 { extra["strokekit.train.synthetic_negatives"] = String(negatives) }
        let metadata = ModelMetadata(
            classes: recipe.classes, architecture: configuration.architecture.description,
            training: .init(datasetSHA256: data.fingerprint, seed: seed, epochs: result.history.count,
                            validationAccuracy: result.validationAccuracy, created: Date()),
            extra: extra)
        let outputURL = URL(fileURLWithPath: output)
        try TrainedModel(network: result.network, metadata: metadata)
            .write(to: outputURL, precision: precision == "fp16" ? .float16 : .float32)

        // Evaluate the model as stored (F16 rounding included), read back from the file.
        let stored = try TrainedModel.load(contentsOf: outputURL).network
        let evaluation = validation.map {
            Evaluator.evaluate(stored, on: $0, classes: recipe.classes, rejectRule: recipe.rejectRule)
        }
        let rejection = evaluation.flatMap { recipe.rejectSummary(stored, validation: $0) }
        if let report {
            try ReportOutput.write(report, content: ReportContent(
                title: "StrokeKit training report", generated: ISO8601DateFormatter().string(from: Date()),
                modelMetadata: ReportContent.metadataList(metadata.dictionary),
                datasetSummary: recipe.data.summary(path: dataset.data), evaluation: evaluation,
                history: result.history, rejectOption: rejection))
        }
        if json {
            var summary: [String: Any] = [
                "type": "summary", "epochs": result.history.count, "best_epoch": result.bestEpoch,
                "train_images": result.trainImages, "seconds": result.trainingSeconds,
                "images_per_second": result.imagesPerSecond, "output": outputURL.path,
            ]
            summary["validation_accuracy"] = result.validationAccuracy ?? NSNull()
            if let evaluation { summary["evaluation"] = evaluation.jsonObject() }
            if let rejection { summary["reject"] = rejection.jsonObject }
            try printJSON(summary)
        } else {
            if let evaluation {
                print("validation evaluation (best epoch \(result.bestEpoch) of \(result.history.count)):")
                print(evaluation.textReport())
            }
            if let rejection { print(rejection.text) }
            print("trained \(result.trainImages) images x \(result.history.count) epochs in "
                  + "\(String(format: "%.2f", result.trainingSeconds)) s (\(Int(result.imagesPerSecond)) images/s)")
            print("wrote \(outputURL.path)")
            if let report { print("wrote \(report)") }
        }
    }

    private func crossValidate(_ recipe: Recipe, folds: Int, configuration: TrainingConfiguration,
                               logFile: EpochLog?) throws {
        let data = recipe.data
        let splits = try data.stratifiedFolds(folds, seed: seed)
        var evaluations: [Evaluation] = []
        var foldResults: [FoldResult] = []
        var seconds = 0.0, images = 0
        for (index, split) in splits.enumerated() {
            let trainer = try Trainer(configuration: configuration, classes: recipe.classes)
            // The held-out fold is only evaluated at the end: the best epoch is chosen on an
            // inner validation split of the training folds, so the fold's score is unbiased.
            let inner = try data.subset(split.train).stratifiedSplit(validationFraction: validationSplit, seed: seed)
            let innerTrain = inner.train.map { split.train[$0] }, innerValidation = inner.validation.map { split.train[$0] }
            let reporter = ProgressReporter(json: json, logFile: logFile, label: "fold \(index + 1)/\(folds)")
            let result = try trainer.train(
                recipe.trainingSet(innerTrain, stream: UInt64(index + 1)),
                validation: innerValidation.isEmpty ? nil : data.examples(innerValidation),
                progress: reporter.report)
            let evaluation = Evaluator.evaluate(result.network, on: data.examples(split.validation),
                                                classes: recipe.classes, rejectRule: recipe.rejectRule)
            evaluations.append(evaluation)
            foldResults.append(FoldResult(fold: index + 1, evaluation: evaluation, history: result.history))
            seconds += result.trainingSeconds
            images += result.trainImages * result.history.count
            if json {
                try printJSON(["type": "fold", "fold": index + 1, "accuracy": evaluation.accuracy,
                               "best_epoch": result.bestEpoch, "confusion_matrix": evaluation.confusionMatrix])
            } else {
                print("fold \(index + 1)/\(folds): accuracy \(percent(evaluation.accuracy)) (best epoch \(result.bestEpoch))")
            }
        }
        let accuracies = evaluations.map(\.accuracy)
        let mean = accuracies.reduce(0, +) / Double(accuracies.count)
        let deviation = (accuracies.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(accuracies.count)).squareRoot()
        let combined = Evaluation.combined(evaluations)
        let confusions = recipe.cycleCircleConfusions(combined)
        if let report {
            try ReportOutput.write(report, content: ReportContent(
                title: "StrokeKit \(folds)-fold cross-validation", generated: ISO8601DateFormatter().string(from: Date()),
                datasetSummary: recipe.data.summary(path: dataset.data), folds: foldResults))
        }
        if json {
            try printJSON(["type": "summary", "folds": folds, "accuracies": accuracies, "mean_accuracy": mean,
                           "std_accuracy": deviation, "seconds": seconds, "images_per_second": Double(images) / seconds,
                           "cycle_as_circle": confusions.cycleAsCircle, "circle_as_cycle": confusions.circleAsCycle,
                           "evaluation": combined.jsonObject()])
        } else {
            print("\(folds)-fold cross-validation: accuracy \(percent(mean)) ± \(percent(deviation)) (population std)")
            print("cycle↔circle confusions: \(confusions.cycleAsCircle) cycles as circles, "
                  + "\(confusions.circleAsCycle) circles as cycles")
            print("summed over folds:")
            print(combined.textReport())
            if let report { print("wrote \(report)") }
        }
    }
}

/// The training recipe around a dataset: which synthetic images join the real ones,
/// and the model's class list (the dataset's, plus `none` when training with negatives).
struct Recipe {
    let data: LabeledImageDataset
    let synthetic: Int
    let negatives: Int
    let seed: UInt64
    let rejectRule: RejectRule

    var classes: [String] {
        negatives > 0 ? data.classes + [SyntheticExamples.rejectClass] : data.classes
    }

    /// The real images at `indices` plus this recipe's synthetic ones (drawn from `stream`,
    /// so every fold gets its own synthetic set).
    func trainingSet(_ indices: [Int], stream: UInt64) -> LabeledExamples {
        let real = data.examples(indices)
        guard synthetic > 0 || negatives > 0 else { return real }
        var generator = SeededGenerator.stream(seed: seed, 0x5157_0000 + stream)
        return real.appending(SyntheticExamples.make(
            classes: classes, perClass: synthetic, negatives: negatives, seed: generator.next()))
    }

    /// Reject-option figures: real validation shapes rejected, and held-out synthetic
    /// non-shapes (a seed the training set never used) rejected.
    func rejectSummary(_ network: Network, validation: Evaluation) -> RejectSummary? {
        guard negatives > 0 || rejectRule.minimumConfidence != nil else { return nil }
        var nonShapeCount: Int? = nil, nonShapesRejected: Int? = nil
        if negatives > 0 {
            var generator = SeededGenerator.stream(seed: seed, 0xBAD_5EED)
            let heldOut = SyntheticExamples.make(classes: classes, perClass: 0, negatives: 1000, seed: generator.next())
            let evaluation = Evaluator.evaluate(network, on: heldOut, classes: classes, rejectRule: rejectRule,
                                                keepImages: false)
            nonShapeCount = evaluation.count
            nonShapesRejected = evaluation.predictions.filter(\.isRejected).count
        }
        return RejectSummary(
            rule: rejectRule.summary(classes: classes), threshold: Double(rejectRule.minimumConfidence ?? 0),
            trueShapeCount: validation.count, trueShapesRejected: validation.predictions.filter(\.isRejected).count,
            nonShapeCount: nonShapeCount, nonShapesRejected: nonShapesRejected)
    }

    /// Cycles predicted as circles and circles predicted as cycles, the thesis's main confusion.
    func cycleCircleConfusions(_ evaluation: Evaluation) -> (cycleAsCircle: Int, circleAsCycle: Int) {
        guard let circle = classes.firstIndex(of: "circle"), let cycle = classes.firstIndex(of: "cycle") else { return (0, 0) }
        return (evaluation.confusionMatrix[cycle][circle], evaluation.confusionMatrix[circle][cycle])
    }
}

extension RejectSummary {
    /// The reject figures as terminal lines.
    var text: String {
        var lines = ["reject option (\(rule)): \(trueShapesRejected)/\(trueShapeCount) shapes rejected "
                     + "(\(percent(trueShapeRejectionRate ?? 0)), lower is better)"]
        if let nonShapeCount, let nonShapesRejected {
            lines.append("  non-shapes rejected: \(nonShapesRejected)/\(nonShapeCount) "
                         + "(\(percent(nonShapeRejectionRate ?? 0)), higher is better)")
        }
        return lines.joined(separator: "\n")
    }

    var jsonObject: [String: Any] {
        var object: [String: Any] = ["rule": rule, "true_shapes": trueShapeCount, "true_shapes_rejected": trueShapesRejected]
        object["non_shapes"] = nonShapeCount ?? NSNull()
        object["non_shapes_rejected"] = nonShapesRejected ?? NSNull()
        return object
    }
}

extension TrainCommand {
    /// The training flags that decide the weights, for the model's provenance.
    var recipeDescription: String {
        var parts = ["--epochs \(epochs)", "--batch-size \(batchSize)", "--learning-rate \(learningRate)",
                     "--lr-schedule \(lrSchedule.rawValue)", "--optimizer \(optimizer)", "--seed \(seed)",
                     "--validation-split \(validationSplit)", "--arch \(arch)", "--workers \(workers)"]
        if weightDecay > 0 { parts.append("--weight-decay \(weightDecay)") }
        if augment { parts.append("--augment") }
        if synthetic > 0 { parts.append("--synthetic \(synthetic)") }
        if negatives > 0 { parts.append("--negatives \(negatives)") }
        if let rejectBelow { parts.append("--reject-below \(rejectBelow)") }
        return parts.joined(separator: " ")
    }
}

extension LearningRateSchedule: ExpressibleByArgument {}

extension RejectRule {
    /// "class 'none' or confidence < 0.6", for reports.
    func summary(classes: [String]) -> String {
        (backgroundClasses.sorted().map { "class '\(classes[$0])'" }
            + [minimumConfidence.map { "confidence < \($0)" }].compactMap { $0 })
            .joined(separator: " or ")
    }
}

/// Turns training progress into a progress bar (TTY), plain epoch lines (not a TTY) or
/// JSON lines (`--json`), and appends epoch records to the `--log` file.
final class ProgressReporter {
    let json: Bool
    let logFile: EpochLog?
    let label: String?
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(json: Bool, logFile: EpochLog?, label: String?) {
        self.json = json
        self.logFile = logFile
        self.label = label
    }

    func report(_ progress: TrainingProgress) {
        switch progress {
        case .batch(let epoch, let batch, let batchCount, let loss, let accuracy, let rate, let remaining):
            guard !json, Terminal.stderrIsTTY else { return }
            // Redraw at most 20 times a second: drawing must not slow training down.
            let now = ContinuousClock.now
            guard batch == batchCount || now - lastDraw > .milliseconds(50) else { return }
            lastDraw = now
            Terminal.overwriteLine(
                (label.map { "\($0) " } ?? "")
                + "epoch \(epoch) \(progressBar(Double(batch) / Double(batchCount))) batch \(batch)/\(batchCount) "
                + "loss \(String(format: "%.4f", loss)) acc \(percent(accuracy)) "
                + "\(Int(rate)) img/s ETA \(formatDuration(remaining))")
        case .epoch(let record):
            logFile?.append(record, label: label)
            if json {
                var object = record.jsonObject
                object["type"] = "epoch"
                if let label { object["fold"] = label }
                try? printJSON(object)
                return
            }
            let line = (label.map { "\($0) " } ?? "")
                + "epoch \(record.epoch): loss \(String(format: "%.4f", record.trainLoss)) "
                + "acc \(percent(record.trainAccuracy))"
                + (record.validationAccuracy.map { " val_loss \(String(format: "%.4f", record.validationLoss ?? .nan)) val_acc \(percent($0))" } ?? "")
                + " \(Int(record.imagesPerSecond)) img/s"
            if Terminal.stderrIsTTY { Terminal.overwriteLine(line + "\n") } else { Terminal.note(line) }
        }
    }

}

extension EpochRecord {
    var jsonObject: [String: Any] {
        var object: [String: Any] = [
            "epoch": epoch, "train_loss": trainLoss, "train_accuracy": trainAccuracy,
            "seconds": seconds, "images_per_second": imagesPerSecond,
        ]
        object["validation_loss"] = validationLoss ?? NSNull()
        object["validation_accuracy"] = validationAccuracy ?? NSNull()
        return object
    }
}

/// The `--log FILE`: one JSON object per epoch, appended as each epoch ends.
final class EpochLog {
    let handle: FileHandle
    let path: String

    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) ,
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CLIError("cannot write the log file \(path): check that its folder exists and is writable")
        }
        self.handle = handle
    }

    func append(_ record: EpochRecord, label: String?) {
        var object = record.jsonObject
        if let label { object["fold"] = label }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        handle.write(data + Data("\n".utf8))
    }
}

/// An error the CLI reports as `Error: <message>` with a non-zero exit.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
