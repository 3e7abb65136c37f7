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
    public static let minimumConfidenceKey = "strokekit.reject.min_confidence"
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

    /// The classification for `probabilities` (one per class, in `classes` order).
    func classification(probabilities: UnsafeBufferPointer<Float>, classes: [String]) -> Classification {
        var best = 0
        for index in probabilities.indices where probabilities[index] > probabilities[best] { best = index }
        var isRejected = false
        if backgroundClasses.contains(best) {
            isRejected = true
            // Report the most probable shape; when every class is background, keep the winner.
            var bestShape: Int? = nil
            for index in probabilities.indices where !backgroundClasses.contains(index) {
                if bestShape.map({ probabilities[index] > probabilities[$0] }) ?? true { bestShape = index }
            }
            best = bestShape ?? best
        } else if let minimumConfidence, probabilities[best] < minimumConfidence {
            isRejected = true
        }
        var byLabel: [String: Float] = [:]
        byLabel.reserveCapacity(classes.count)
        for (index, label) in classes.enumerated() { byLabel[label] = probabilities[index] }
        return Classification(label: classes[best], confidence: probabilities[best],
                              probabilities: byLabel, isRejected: isRejected)
    }
}
