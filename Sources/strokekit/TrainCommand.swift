import ArgumentParser
import Foundation
import StrokeData
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeReport
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

    @Option(help: ArgumentHelp("Network architecture, e.g. c16-p-c32-p-c64-p-d128 (see docs/cli.md).", valueName: "spec"))
    var arch = ArchitectureSpec.default.description

    @Option(help: ArgumentHelp(
        "Stored weight precision: fp32, fp16, or int8 (weights per output channel with F16 scales, biases fp16).",
        valueName: "fp32|fp16|int8"))
    var precision = "fp32"

    @Option(help: "Worker threads per batch (data parallel).")
    var workers = min(2, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: ArgumentHelp("Append one JSON object per epoch to this file.", valueName: "file"))
    var log: String?

    @Flag(help: "Machine-readable output: one JSON object per epoch and a final summary on stdout.")
    var json = false


    @Flag(help: "Augment training images each epoch (seeded rotation, scale, shift, pen width, elastic).")
    var augment = false

    @Option(help: ArgumentHelp(
        "With --unipen: how characters become images: aspect-fit (each its own box), or reference-height:P "
            + "(each within its writer's height, which spans P pixels, and once more alone; kept in the model file), "
            + "or reference-height:P+aspect-fit (two input channels: that framed drawing and its aspect-fit shape), "
            + "or reference-height:P+aspect-fit+pen-order (a third channel: the shape, its ink brighter the later the pen drew it).",
        valueName: "aspect-fit|reference-height:P[+aspect-fit[+pen-order]]"))
    var framing: String = "aspect-fit"

    @Option(help: ArgumentHelp("Add N synthetic drawings per shape class to the training set.", valueName: "N"))
    var synthetic = 0

    @Option(help: ArgumentHelp("Add N synthetic non-shapes as a reject class 'none' (the reject option).", valueName: "N"))
    var negatives = 0

    @Option(help: ArgumentHelp("Also reject predictions whose confidence is below P (stored in the model).", valueName: "P"))
    var rejectBelow: Float?

    @Option(help: ArgumentHelp(
        "Distil from this model (soft targets on the same augmented images); same classes as this run. Not with --folds.",
        valueName: "file"))
    var teacher: String?

    @Option(help: ArgumentHelp(
        "Distil from a teacher of this architecture trained first with this run's other flags (fp16 storage) on the "
            + "same training data; with --folds, one teacher per fold on that fold's training part.",
        valueName: "spec"))
    var teacherArch: String?

    @Option(help: ArgumentHelp("Weight A of the teacher's soft targets: loss = (1-A)·CE(label) + A·T²·CE(teacher).",
                               valueName: "A"))
    var distillWeight: Float = 0.5

    @Option(help: ArgumentHelp("Temperature T of the teacher's and student's softmax in the soft-target loss.",
                               valueName: "T"))
    var distillTemperature: Float = 1

    @Option(help: ArgumentHelp("Write a report: .html page (curves, evaluation) or .png heatmap.", valueName: "file"))
    var report: String?

    @Option(help: ArgumentHelp(
        "Write the full training state to this file after every epoch, and on Ctrl-C after the current batch.",
        valueName: "file"))
    var checkpoint: String?

    @Option(help: ArgumentHelp("Continue the run that wrote this checkpoint (its flags are read from it).", valueName: "file"))
    var resume: String?

    func validate() throws {
        if resume != nil { return }   // the checkpoint's own flags are validated when it is read
        guard dataset.data != nil || dataset.unipen != nil else {
            throw ValidationError("give the dataset with --data DIR or --unipen DIR (or --resume FILE)")
        }
        guard let inputFraming = InputFraming(framing) else {
            throw ValidationError("--framing must be aspect-fit, reference-height:P, reference-height:P+aspect-fit or reference-height:P+aspect-fit+pen-order (P pixels, e.g. reference-height:18)")
        }
        if inputFraming != .aspectFit && dataset.unipen == nil {
            throw ValidationError("--framing \(framing) needs strokes (--unipen DIR): a PNG dataset is already framed")
        }
        if checkpoint != nil && folds != nil { throw ValidationError("--checkpoint saves one training run; it does not work with --folds") }
        guard ["adam", "sgd"].contains(optimizer) else { throw ValidationError("--optimizer must be adam or sgd") }
        guard Self.precisions[precision] != nil else { throw ValidationError("--precision must be fp32, fp16 or int8") }
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
        if teacher != nil && teacherArch != nil { throw ValidationError("give --teacher FILE or --teacher-arch SPEC, not both") }
        if teacher != nil && folds != nil {
            throw ValidationError("--teacher with --folds would leak the held-out folds (the teacher was trained on them); "
                                  + "use --teacher-arch SPEC to train a teacher per fold")
        }
        guard (0...1).contains(distillWeight) else { throw ValidationError("--distill-weight must be in 0...1") }
        guard distillTemperature > 0, distillTemperature.isFinite else { throw ValidationError("--distill-temperature must be positive") }
        if let teacherArch {
            do { _ = try ArchitectureSpec(parsing: teacherArch) } catch { throw ValidationError("--teacher-arch: \(error)") }
        }
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
        if let resume {
            try resumeRun(from: resume)
        } else {
            try train(resumingFrom: nil)
        }
    }

    /// Trains (or cross-validates) with these flags, from scratch or from `checkpoint`.
    private func train(resumingFrom checkpoint: TrainingCheckpoint?) throws {
        var recipe = TrainingRecipe(
            data: try dataset.load(framing: InputFraming(framing) ?? .aspectFit), configuration: try configuration(), syntheticPerClass: synthetic,
            negatives: negatives, rejectBelow: rejectBelow, validationFraction: validationSplit,
            precision: Self.precisions[precision]!,
            teacherRecipe: try teacherArch.map {
                TrainingRecipe.TeacherRecipe(architecture: try ArchitectureSpec(parsing: $0),
                                             weight: distillWeight, temperature: distillTemperature)
            })
        recipe.dataAttribution = dataset.attribution
        recipe.framing = InputFraming(framing) ?? .aspectFit
        recipe.datasetFlags = dataset.recipeFlags
        let view = TrainingProgressView(json: json, logFile: try log.map { try EpochLog(path: $0) })
        if let folds {
            try crossValidate(recipe, folds: folds, view: view)
        } else {
            try trainOnce(recipe, view: view, resumingFrom: checkpoint)
        }
    }

    /// `--resume FILE`: reads the checkpoint, runs the flags it was started with (from the
    /// folder it was started in), and continues.
    private func resumeRun(from path: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let checkpoint = try TrainingCheckpoint.read(contentsOf: url)
        guard let text = checkpoint.context[Self.argumentsKey],
              let arguments = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
            throw CLIError("\(path): the checkpoint does not record the flags of its run; it was not written by `strokekit train`")
        }
        if let folder = checkpoint.context[Self.folderKey] {
            guard FileManager.default.changeCurrentDirectoryPath(folder) else {
                throw CLIError("\(path): the run was started in \(folder), which no longer exists")
            }
        }
        var original = try TrainCommand.parse(arguments)
        original.checkpoint = url.path
        original.json = json
        if !json { Terminal.note("resuming from \(url.path): epoch \(checkpoint.epoch), \(checkpoint.batchesDone) batches done") }
        try original.train(resumingFrom: checkpoint)
    }

    static let argumentsKey = "arguments", folderKey = "folder"

    /// `--precision` values and the storage they select.
    static let precisions: [String: TensorDType] = ["fp32": .float32, "fp16": .float16, "int8": .int8]

    private func configuration() throws -> TrainingConfiguration {
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
        if let teacher {
            configuration.distillation = Distillation(
                teacher: try Teacher(contentsOf: URL(fileURLWithPath: teacher)), weight: distillWeight,
                temperature: distillTemperature)
        }
        return configuration
    }

    private func trainOnce(_ recipe: TrainingRecipe, view: TrainingProgressView, resumingFrom checkpoint: TrainingCheckpoint?) throws {
        let split = try recipe.data.stratifiedSplit(validationFraction: validationSplit, seed: seed)
        if !json { Terminal.note(recipe.data.summaryTable(train: split.train, validation: split.validation)) }
        let validation = split.validation.isEmpty ? nil : recipe.data.examples(split.validation)
        let training = recipe.trainingSet(split.train, stream: 0)
        if !json && training.count > split.train.count {
            Terminal.note("plus \(training.count - split.train.count) synthetic training images")
        }
        let student = try recipe.withTrainedTeacher(training, validation: validation, source: "teacher (--teacher-arch)",
                                                    progress: { view.show($0, label: "teacher") })
        let result = try Trainer(configuration: student.configuration, classes: recipe.classes)
            .train(training, validation: validation, checkpointing: checkpointing(), resumingFrom: checkpoint,
                   progress: { view.show($0) })
        let metadata = recipe.metadata(for: result)
        let outputURL = URL(fileURLWithPath: output)
        try TrainedModel(network: result.network, metadata: metadata)
            .write(to: outputURL, precision: recipe.precision)

        // Evaluate the model as stored (F16 rounding or int8 quantization included), read back from the file.
        let stored = try TrainedModel.load(contentsOf: outputURL).network
        let evaluation = validation.map {
            Evaluator.evaluate(stored, on: $0, classes: recipe.classes, rejectRule: recipe.rejectRule)
        }
        let rejection = evaluation.flatMap { recipe.rejectSummary(stored, validation: $0) }
        if let report {
            try ReportOutput.write(report, content: ReportContent(
                title: "StrokeKit training report", generated: ISO8601DateFormatter().string(from: Date()),
                modelMetadata: ReportContent.metadataList(metadata.dictionary),
                datasetSummary: recipe.data.summary(path: dataset.path), evaluation: evaluation,
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

    private func crossValidate(_ recipe: TrainingRecipe, folds: Int, view: TrainingProgressView) throws {
        let result = try recipe.crossValidate(folds: folds, progress: { view.show($1, label: $0) }) { fold in
            if json {
                try? printJSON(["type": "fold", "fold": fold.fold, "accuracy": fold.evaluation.accuracy,
                                "best_epoch": fold.bestEpoch, "confusion_matrix": fold.evaluation.confusionMatrix])
            } else {
                print("fold \(fold.fold)/\(folds): accuracy \(percent(fold.evaluation.accuracy)) (best epoch \(fold.bestEpoch))")
            }
        }
        let combined = result.combined
        let confusions = recipe.cycleCircleConfusions(combined)
        let rejection = RejectSummary(rule: recipe.rejectRule, evaluation: combined)
        if let report {
            try ReportOutput.write(report, content: ReportContent(
                title: "StrokeKit \(folds)-fold cross-validation", generated: ISO8601DateFormatter().string(from: Date()),
                datasetSummary: recipe.data.summary(path: dataset.path), folds: result.folds))
        }
        if json {
            try printJSON(["type": "summary", "folds": folds, "accuracies": result.accuracies,
                           "mean_accuracy": result.meanAccuracy, "std_accuracy": result.accuracyDeviation,
                           "seconds": result.seconds, "images_per_second": result.imagesPerSecond,
                           "cycle_as_circle": confusions.cycleAsCircle, "circle_as_cycle": confusions.circleAsCycle,
                           "evaluation": combined.jsonObject(), "reject": rejection.map { $0.jsonObject as Any } ?? NSNull()])
        } else {
            print("\(folds)-fold cross-validation: accuracy \(percent(result.meanAccuracy)) ± \(percent(result.accuracyDeviation)) (population std)")
            print("cycle↔circle confusions: \(confusions.cycleAsCircle) cycles as circles, "
                  + "\(confusions.circleAsCycle) circles as cycles")
            if let rejection { print(rejection.text) }
            print("summed over folds:")
            print(combined.textReport())
            if let report { print("wrote \(report)") }
        }
    }
}

extension TrainCommand {
    /// With `--checkpoint`: where to write it, the flags to resume with, and Ctrl-C asking
    /// the trainer to stop after the current batch.
    fileprivate func checkpointing() throws -> Checkpointing? {
        guard let checkpoint else { return nil }
        let arguments = resume == nil ? Array(CommandLine.arguments.drop { $0 != "train" }.dropFirst()) : []
        var context = [Self.folderKey: FileManager.default.currentDirectoryPath]
        if !arguments.isEmpty {
            context[Self.argumentsKey] = String(decoding: try JSONEncoder().encode(arguments), as: UTF8.self)
        }
        let interrupt = InterruptSignal.shared
        interrupt.install()
        return Checkpointing(url: URL(fileURLWithPath: checkpoint), context: context,
                             interruptRequested: { interrupt.isRaised })
    }
}

extension LearningRateSchedule: ExpressibleByArgument {}
