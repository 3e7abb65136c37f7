import Foundation
import StrokeData
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeSupport

/// A training run's recipe around a dataset: the trainer's configuration, which synthetic
/// images join the real ones, the model's classes (the dataset's, plus `none` when training
/// with synthetic non-shapes) and its reject rule. What `strokekit train` builds from its
/// flags, and what writes the model's provenance.
public struct TrainingRecipe: Sendable {
    public var data: LabeledImageDataset
    public var configuration: TrainingConfiguration
    /// Synthetic drawings added per shape class.
    public var syntheticPerClass: Int
    /// Synthetic non-shapes added as the reject class `none` (0: no reject class).
    public var negatives: Int
    /// Also reject a classification whose winning probability is below this.
    public var rejectBelow: Float?
    /// Fraction of each class held out to choose the best epoch.
    public var validationFraction: Double
    /// How the model file stores the weights; cross-validation scores the weights as stored.
    public var precision: TensorDType
    /// Distil from a teacher this recipe trains first, on the same training data as the
    /// student (in cross-validation: on each fold's training part only, so that no teacher
    /// has seen the fold it is scored on); nil = no such teacher.
    public var teacherRecipe: TeacherRecipe?
    /// Metadata naming the training data and its licence (`strokekit.train.data_source`,
    /// `strokekit.train.data_license`), for data that must be credited; empty for none.
    public var dataAttribution: [String: String] = [:]
    /// How the training images were made from strokes: recorded in the model file
    /// (`strokekit.input.framing`) unless it is the default aspect-fit, so that a classifier
    /// frames strokes the same way.
    public var framing: InputFraming = .aspectFit
    /// Flags of the dataset that change its images beyond its source (`--unipen-repeat`),
    /// recorded with the recipe's own.
    public var datasetFlags: [String] = []

    /// The teacher a run trains for itself: this recipe with another architecture and
    /// storage, no teacher of its own; its soft targets count `weight` at `temperature`.
    public struct TeacherRecipe: Sendable {
        public var architecture: ArchitectureSpec
        public var precision: TensorDType
        public var weight: Float
        public var temperature: Float

        public init(architecture: ArchitectureSpec = .default, precision: TensorDType = .float16,
                    weight: Float = 0.5, temperature: Float = 1) {
            self.architecture = architecture
            self.precision = precision
            self.weight = weight
            self.temperature = temperature
        }
    }

    public init(
        data: LabeledImageDataset, configuration: TrainingConfiguration, syntheticPerClass: Int = 0,
        negatives: Int = 0, rejectBelow: Float? = nil, validationFraction: Double = 0.2,
        precision: TensorDType = .float32, teacherRecipe: TeacherRecipe? = nil
    ) {
        self.data = data
        self.configuration = configuration
        self.syntheticPerClass = syntheticPerClass
        self.negatives = negatives
        self.rejectBelow = rejectBelow
        self.validationFraction = validationFraction
        self.precision = precision
        self.teacherRecipe = teacherRecipe
    }

    /// With a `teacherRecipe`: trains the teacher on `training` (choosing its best epoch on
    /// `validation`, as the student does) and returns this recipe with the student
    /// configured to distil from it, as stored (F16 rounding included). Without one, self.
    public func withTrainedTeacher(
        _ training: LabeledExamples, validation: LabeledExamples?, source: String,
        progress: (TrainingProgress) -> Void = { _ in }
    ) throws -> TrainingRecipe {
        guard let teacherRecipe else { return self }
        var teacher = self
        teacher.teacherRecipe = nil
        teacher.configuration.distillation = nil
        teacher.configuration.architecture = teacherRecipe.architecture
        teacher.precision = teacherRecipe.precision
        let result = try Trainer(configuration: teacher.configuration, classes: classes)
            .train(training, validation: validation, progress: progress)
        var student = self
        student.teacherRecipe = nil
        student.configuration.distillation = Distillation(
            teacher: Teacher(network: try teacher.storedNetwork(result), classes: classes, source: source),
            weight: teacherRecipe.weight, temperature: teacherRecipe.temperature)
        return student
    }

    /// The model's classes: the dataset's, then `none` when training with negatives.
    public var classes: [String] {
        negatives > 0 ? data.classes + [SyntheticExamples.rejectClass] : data.classes
    }

    /// The model's reject rule: its `none` class and the `rejectBelow` threshold.
    public var rejectRule: RejectRule {
        RejectRule(minimumConfidence: rejectBelow, backgroundClasses: negatives > 0 ? [data.classes.count] : [])
    }

    /// The real images at `indices` plus this recipe's synthetic ones, drawn from `stream`
    /// so that every fold gets its own synthetic set.
    public func trainingSet(_ indices: [Int], stream: UInt64) -> LabeledExamples {
        let real = data.examples(indices)
        guard syntheticPerClass > 0 || negatives > 0 else { return real }
        var generator = SeededGenerator.stream(seed: configuration.seed, 0x5157_0000 + stream)
        return real.appending(SyntheticExamples.make(
            classes: classes, perClass: syntheticPerClass, negatives: negatives, seed: generator.next()))
    }

    /// Reject-option figures of `network`: the validation shapes rejected, and 1000 held-out
    /// synthetic non-shapes (a stream the training set never used) rejected.
    public func rejectSummary(_ network: Network, validation: Evaluation) -> RejectSummary? {
        var heldOut: Evaluation? = nil
        if negatives > 0 {
            var generator = SeededGenerator.stream(seed: configuration.seed, 0xBAD_5EED)
            let nonShapes = SyntheticExamples.make(classes: classes, perClass: 0, negatives: 1000, seed: generator.next())
            heldOut = Evaluator.evaluate(network, on: nonShapes, classes: classes, rejectRule: rejectRule, keepImages: false)
        }
        return RejectSummary(rule: rejectRule, evaluation: validation, nonShapes: heldOut)
    }

    /// The training flags that decide the weights, as `strokekit train` spells them: the
    /// model's `strokekit.train.recipe`.
    public var flags: String {
        let config = configuration
        let optimizer: String
        switch config.optimizer {
        case .adam: optimizer = "--optimizer adam"
        case .sgd(let momentum): optimizer = "--optimizer sgd --momentum \(momentum)"
        }
        var parts = ["--epochs \(config.epochs)", "--batch-size \(config.batchSize)",
                     "--learning-rate \(config.learningRate)", "--lr-schedule \(config.schedule.rawValue)",
                     optimizer, "--seed \(config.seed)", "--validation-split \(validationFraction)",
                     "--arch \(config.architecture.description)", "--workers \(config.workers)"]
        if config.weightDecay > 0 { parts.append("--weight-decay \(config.weightDecay)") }
        if config.augmentation != nil { parts.append("--augment") }
        if framing != .aspectFit { parts.append("--framing \(framing)") }
        parts += datasetFlags
        if syntheticPerClass > 0 { parts.append("--synthetic \(syntheticPerClass)") }
        if negatives > 0 { parts.append("--negatives \(negatives)") }
        if let rejectBelow { parts.append("--reject-below \(rejectBelow)") }
        if let teacherRecipe {
            parts.append("--teacher-arch \(teacherRecipe.architecture.description) --distill-weight \(teacherRecipe.weight) "
                         + "--distill-temperature \(teacherRecipe.temperature)")
        } else if let distillation = config.distillation {
            parts.append("--teacher \(distillation.teacher.source) --distill-weight \(distillation.weight) "
                         + "--distill-temperature \(distillation.temperature)")
        }
        switch precision {
        case .float32: break
        case .float16: parts.append("--precision fp16")
        case .int8: parts.append("--precision int8")
        }
        return parts.joined(separator: " ")
    }

    /// The model file's metadata for a network this recipe trained: classes, architecture,
    /// provenance (dataset fingerprint, seed, epochs run, validation accuracy, time) and the
    /// `strokekit.train.*` and `strokekit.reject.*` keys.
    public func metadata(for result: TrainingResult, created: Date = Date()) -> ModelMetadata {
        var extra = dataAttribution
        extra[ModelMetadata.Key.trainingRecipe] = flags
        if let rejectBelow { extra[ModelMetadata.Key.rejectMinimumConfidence] = String(rejectBelow) }
        if configuration.augmentation != nil { extra[ModelMetadata.Key.augmentation] = "default" }
        if framing != .aspectFit { extra[ModelMetadata.Key.inputFraming] = framing.description }
        if syntheticPerClass > 0 { extra[ModelMetadata.Key.syntheticPerClass] = String(syntheticPerClass) }
        if negatives > 0 { extra[ModelMetadata.Key.syntheticNegatives] = String(negatives) }
        return ModelMetadata(
            classes: classes, architecture: configuration.architecture.description,
            input: .init(width: result.network.inputWidth, height: result.network.inputHeight,
                         channels: result.network.inputChannels),
            training: .init(datasetSHA256: data.fingerprint, seed: configuration.seed, epochs: result.history.count,
                            validationAccuracy: result.validationAccuracy, created: created),
            extra: extra)
    }

    /// The trained network as its model file gives it back (F16 rounding or int8
    /// quantization included), so that what is scored is what an app loads.
    public func storedNetwork(_ result: TrainingResult) throws -> Network {
        let model = TrainedModel(network: result.network, metadata: metadata(for: result))
        return try TrainedModel.load(bytes: model.file.encode(precision: precision), source: "<trained model>").network
    }

    /// Cycles predicted as circles and circles predicted as cycles, the thesis's main confusion.
    public func cycleCircleConfusions(_ evaluation: Evaluation) -> (cycleAsCircle: Int, circleAsCycle: Int) {
        guard let circle = classes.firstIndex(of: "circle"), let cycle = classes.firstIndex(of: "cycle") else { return (0, 0) }
        return (evaluation.confusionMatrix[cycle][circle], evaluation.confusionMatrix[circle][cycle])
    }
}
