import StrokeModelFile

/// When a classification is rejected: the drawing looks like none of the shapes.
///
/// Two rules exist today; more will come, as `strokekit.reject.*` metadata keys that older
/// StrokeKits keep in `ModelMetadata.extra` and ignore:
/// - `strokekit.reject.min_confidence` (optional, a decimal in 0...1): reject when the
///   winning class's probability is below it.
/// - a class named `none` or `background` (any letter case): a drawing the network puts in
///   such a class is rejected, and reported with the most probable of the other classes.
public struct RejectRule: Sendable, Equatable {
    /// Metadata key of the minimum confidence.
    public static let minimumConfidenceKey = ModelMetadata.Key.rejectMinimumConfidence
    /// Class names that mean "not a shape".
    public static let backgroundClassNames: Set<String> = ["none", "background"]

    /// Reject below this probability; nil means no threshold.
    public var minimumConfidence: Float?
    /// Indices (in class order) of the background classes.
    public var backgroundClasses: Set<Int>

    public init(minimumConfidence: Float? = nil, backgroundClasses: Set<Int> = []) {
        self.minimumConfidence = minimumConfidence
        self.backgroundClasses = backgroundClasses
    }

    /// The rule a model's metadata describes. Throws `ClassifierError.modelFile` naming the
    /// file and key when `strokekit.reject.min_confidence` is not a number in 0...1.
    public init(metadata: ModelMetadata, source: String) throws {
        if let text = metadata.extra[Self.minimumConfidenceKey] {
            guard let value = Float(text), value.isFinite, (0...1).contains(value) else {
                throw ClassifierError.modelFile(.invalidMetadataValue(
                    source: source, key: Self.minimumConfidenceKey, value: text, expected: "a number in 0...1"))
            }
            minimumConfidence = value
        }
        backgroundClasses = Set(metadata.classes.indices.filter {
            Self.backgroundClassNames.contains(metadata.classes[$0].lowercased())
        })
    }

    /// The rule's verdict on one drawing's class probabilities.
    public struct Decision: Sendable, Equatable {
        /// The most probable class, background classes included (what a confusion matrix counts).
        public var mostProbable: Int
        /// The class to report: `mostProbable`, or when a background class won, the most
        /// probable of the other classes (the closest shape).
        public var reported: Int
        /// True when the drawing looks like none of the shapes.
        public var isRejected: Bool
    }

    /// Decides on `probabilities` (one per class, in class order): the one reject decision
    /// of StrokeKit, used by `ShapeClassifier`, the evaluator and the reports.
    public func decide(_ probabilities: UnsafeBufferPointer<Float>) -> Decision {
        precondition(!probabilities.isEmpty, "no probabilities to decide on")
        var best = 0
        for index in probabilities.indices where probabilities[index] > probabilities[best] { best = index }
        if backgroundClasses.contains(best) {
            // Report the most probable shape; when every class is background, keep the winner.
            var bestShape: Int? = nil
            for index in probabilities.indices where !backgroundClasses.contains(index) {
                if bestShape.map({ probabilities[index] > probabilities[$0] }) ?? true { bestShape = index }
            }
            return Decision(mostProbable: best, reported: bestShape ?? best, isRejected: true)
        }
        let isRejected = minimumConfidence.map { probabilities[best] < $0 } ?? false
        return Decision(mostProbable: best, reported: best, isRejected: isRejected)
    }

    /// `decide` on an array of probabilities.
    public func decide(_ probabilities: [Float]) -> Decision {
        probabilities.withUnsafeBufferPointer { decide($0) }
    }

    /// The rule in words, e.g. "class 'none' or confidence < 0.6", for reports.
    public func description(classes: [String]) -> String {
        let parts = backgroundClasses.sorted().map { "class '\(classes[$0])'" }
            + (minimumConfidence.map { ["confidence < \($0)"] } ?? [])
        return parts.isEmpty ? "none" : parts.joined(separator: " or ")
    }

    /// The classification for `probabilities` (one per class, in `classes` order).
    func classification(probabilities: UnsafeBufferPointer<Float>, classes: [String]) -> Classification {
        let decision = decide(probabilities)
        var byLabel: [String: Float] = [:]
        byLabel.reserveCapacity(classes.count)
        for (index, label) in classes.enumerated() { byLabel[label] = probabilities[index] }
        return Classification(label: classes[decision.reported], confidence: probabilities[decision.reported],
                              probabilities: byLabel, isRejected: decision.isRejected)
    }
}
