import StrokeData
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
