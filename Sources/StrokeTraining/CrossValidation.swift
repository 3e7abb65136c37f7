import StrokeData

/// One fold of a k-fold cross-validation.
public struct FoldResult: Sendable {
    /// 1-based fold number.
    public var fold: Int
    /// The fold's held-out evaluation.
    public var evaluation: Evaluation
    /// The fold's per-epoch training figures; empty hides its curves.
    public var history: [EpochRecord]
    /// The epoch whose weights were kept (chosen on the inner validation split).
    public var bestEpoch: Int

    public init(fold: Int, evaluation: Evaluation, history: [EpochRecord] = [], bestEpoch: Int = 0) {
        self.fold = fold
        self.evaluation = evaluation
        self.history = history
        self.bestEpoch = bestEpoch
    }
}

/// What a k-fold cross-validation measured.
public struct CrossValidationResult: Sendable {
    public var folds: [FoldResult]
    /// Training seconds over all folds, and training images per second.
    public var seconds: Double
    public var imagesPerSecond: Double

    /// Held-out accuracy of each fold.
    public var accuracies: [Double] { folds.map(\.evaluation.accuracy) }
    /// Mean of the fold accuracies.
    public var meanAccuracy: Double { accuracies.reduce(0, +) / Double(max(1, accuracies.count)) }
    /// Population standard deviation of the fold accuracies.
    public var accuracyDeviation: Double {
        let mean = meanAccuracy
        return (accuracies.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(1, accuracies.count))).squareRoot()
    }
    /// Every fold's predictions in one evaluation (the summed confusion matrix).
    public var combined: Evaluation { Evaluation.combined(folds.map(\.evaluation)) }
}

extension TrainingRecipe {
    /// Stratified k-fold cross-validation of this recipe. Each fold trains on the other folds
    /// (plus the recipe's synthetic images) and is scored once, at the end: the best epoch is
    /// chosen on an inner validation split of the training folds, never on the held-out fold,
    /// so the fold's score is unbiased; it scores the weights as `precision` stores them. `progress` gets each fold's label ("fold 2/5") with the
    /// trainer's progress; `foldFinished` each fold's result as it ends. With a
    /// `teacherRecipe`, each fold first trains its own teacher on the same training part and
    /// inner validation split (progress label "fold 2/5 teacher"), so no teacher has seen
    /// the held-out fold. A fixed teacher in `configuration.distillation` is refused: it was
    /// trained on data that the folds hold out.
    public func crossValidate(
        folds k: Int,
        progress: (String, TrainingProgress) -> Void = { _, _ in },
        foldFinished: (FoldResult) -> Void = { _ in }
    ) throws -> CrossValidationResult {
        if let distillation = configuration.distillation {
            throw TrainingError.invalidConfiguration(
                "cross-validation with a fixed teacher (\(distillation.teacher.source)) would leak the held-out folds "
                    + "into the students; train a teacher per fold instead (a teacher recipe)")
        }
        let splits = try data.stratifiedFolds(k, seed: configuration.seed)
        var results: [FoldResult] = []
        var seconds = 0.0, images = 0
        for (index, split) in splits.enumerated() {
            let inner = try data.subset(split.train)
                .stratifiedSplit(validationFraction: validationFraction, seed: configuration.seed)
            let innerTrain = inner.train.map { split.train[$0] }, innerValidation = inner.validation.map { split.train[$0] }
            let label = "fold \(index + 1)/\(k)"
            let training = trainingSet(innerTrain, stream: UInt64(index + 1))
            let validation = innerValidation.isEmpty ? nil : data.examples(innerValidation)
            let student = try withTrainedTeacher(training, validation: validation, source: "teacher of \(label)",
                                                 progress: { progress(label + " teacher", $0) })
            let trainer = try Trainer(configuration: student.configuration, classes: classes)
            let result = try trainer.train(training, validation: validation, progress: { progress(label, $0) })
            let evaluation = Evaluator.evaluate(try storedNetwork(result), on: data.examples(split.validation),
                                                classes: classes, rejectRule: rejectRule)
            let fold = FoldResult(fold: index + 1, evaluation: evaluation, history: result.history,
                                  bestEpoch: result.bestEpoch)
            results.append(fold)
            foldFinished(fold)
            seconds += result.trainingSeconds
            images += result.trainImages * result.history.count
        }
        return CrossValidationResult(folds: results, seconds: seconds,
                                     imagesPerSecond: seconds > 0 ? Double(images) / seconds : 0)
    }
}
