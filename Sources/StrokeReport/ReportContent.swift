import StrokeTraining

/// Everything an evaluation or training report shows. Build one, then hand it to
/// `HTMLReport.render(_:)`, `HeatmapImage.render(_:)` or `ReportWriter.write(_:to:)`.
public struct ReportContent: Sendable {
    /// The page's heading, e.g. "cnn-v3.safetensors on automata-shapes".
    public var title: String
    /// When the report was made, as the caller wants it shown (e.g. ISO 8601); nil hides it.
    /// Left to the caller so the same inputs render the same page.
    public var generated: String?
    /// Model-file metadata, shown in the given order.
    public var modelMetadata: [(key: String, value: String)]
    /// What the model was evaluated on; nil hides the dataset box.
    public var datasetSummary: DatasetSummary?
    /// The evaluation the page is about. With folds and no evaluation, the folds' combined
    /// (summed) evaluation is shown instead; see `overallEvaluation`.
    public var evaluation: Evaluation?
    /// k-fold cross-validation results, one per fold, in fold order; empty without `--folds`.
    public var folds: [FoldResult]
    /// Per-epoch training figures of a single training run; empty for `evaluate`.
    public var history: [EpochRecord]
    /// Reject-option figures, rendered only when present.
    public var rejectOption: RejectSummary?
    /// How many most- and least-confident correct examples to show per class.
    public var examplesPerClass: Int

    public init(
        title: String,
        generated: String? = nil,
        modelMetadata: [(key: String, value: String)] = [],
        datasetSummary: DatasetSummary? = nil,
        evaluation: Evaluation? = nil,
        folds: [FoldResult] = [],
        history: [EpochRecord] = [],
        rejectOption: RejectSummary? = nil,
        examplesPerClass: Int = 6
    ) {
        self.title = title
        self.generated = generated
        self.modelMetadata = modelMetadata
        self.datasetSummary = datasetSummary
        self.evaluation = evaluation
        self.folds = folds
        self.history = history
        self.rejectOption = rejectOption
        self.examplesPerClass = examplesPerClass
    }

    /// Metadata from a dictionary, sorted by key so the page is the same on every run.
    public static func metadataList(_ dictionary: [String: String]) -> [(key: String, value: String)] {
        dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// `evaluation`, or the folds' summed evaluation when there is no `evaluation`; nil when
    /// there is neither.
    public var overallEvaluation: Evaluation? {
        if let evaluation { return evaluation }
        if folds.isEmpty { return nil }
        return Evaluation.combined(folds.map(\.evaluation))
    }
}

/// The labelled set a report is about.
public struct DatasetSummary: Sendable {
    /// Where the dataset was read from (a folder or file path), shown as given.
    public var path: String
    /// A content fingerprint (e.g. SHA-256 of the file list and bytes); nil hides it.
    public var fingerprint: String?
    /// Number of examples per class, in class order.
    public var classCounts: [(label: String, count: Int)]

    public init(path: String, fingerprint: String? = nil, classCounts: [(label: String, count: Int)]) {
        self.path = path
        self.fingerprint = fingerprint
        self.classCounts = classCounts
    }

    /// Total number of examples.
    public var total: Int { classCounts.reduce(0) { $0 + $1.count } }
}

/// One fold of a k-fold cross-validation.
public struct FoldResult: Sendable {
    /// 1-based fold number.
    public var fold: Int
    /// The fold's held-out evaluation.
    public var evaluation: Evaluation
    /// The fold's per-epoch training figures; empty hides its curves.
    public var history: [EpochRecord]

    public init(fold: Int, evaluation: Evaluation, history: [EpochRecord] = []) {
        self.fold = fold
        self.evaluation = evaluation
        self.history = history
    }
}

/// How the reject option ("none of the classes") behaved on true shapes and on non-shapes.
public struct RejectSummary: Sendable {
    /// The rule in words, e.g. "reject when the top probability is below the threshold".
    public var rule: String
    /// The threshold the rule uses.
    public var threshold: Double
    /// Number of true shapes (drawings of one of the classes) evaluated.
    public var trueShapeCount: Int
    /// How many of them were wrongly rejected.
    public var trueShapesRejected: Int
    /// Number of non-shapes (scribbles, letters, ...) evaluated; nil when none were.
    public var nonShapeCount: Int?
    /// How many non-shapes were rightly rejected; nil when none were evaluated.
    public var nonShapesRejected: Int?

    public init(
        rule: String, threshold: Double, trueShapeCount: Int, trueShapesRejected: Int,
        nonShapeCount: Int? = nil, nonShapesRejected: Int? = nil
    ) {
        self.rule = rule
        self.threshold = threshold
        self.trueShapeCount = trueShapeCount
        self.trueShapesRejected = trueShapesRejected
        self.nonShapeCount = nonShapeCount
        self.nonShapesRejected = nonShapesRejected
    }

    /// Fraction of true shapes rejected (lower is better); nil without true shapes.
    public var trueShapeRejectionRate: Double? {
        trueShapeCount == 0 ? nil : Double(trueShapesRejected) / Double(trueShapeCount)
    }

    /// Fraction of non-shapes rejected (higher is better); nil without non-shapes.
    public var nonShapeRejectionRate: Double? {
        guard let nonShapeCount, let nonShapesRejected, nonShapeCount > 0 else { return nil }
        return Double(nonShapesRejected) / Double(nonShapeCount)
    }
}
