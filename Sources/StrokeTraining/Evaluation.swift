import StrokeImage

/// The classifier's answer for one example of a labelled set.
public struct Prediction: Sendable {
    /// Where the example came from: a file path, or a stroke's key.
    public var source: String
    /// Index of the true class in `Evaluation.classes`.
    public var trueClass: Int
    /// Index of the predicted class.
    public var predictedClass: Int
    /// Probability of the predicted class.
    public var confidence: Float
    /// Probability of every class, in class order.
    public var probabilities: [Float]
    /// True when the reject option turned this example down.
    public var isRejected: Bool
    /// The 28x28 input the network saw, for reports (thumbnails); nil when not kept.
    public var image: GrayImage?

    public init(
        source: String, trueClass: Int, predictedClass: Int, confidence: Float,
        probabilities: [Float], isRejected: Bool = false, image: GrayImage? = nil
    ) {
        self.source = source
        self.trueClass = trueClass
        self.predictedClass = predictedClass
        self.confidence = confidence
        self.probabilities = probabilities
        self.isRejected = isRejected
        self.image = image
    }

    public var isCorrect: Bool { trueClass == predictedClass }
}

/// Precision, recall, F1 and support of one class.
public struct ClassMetrics: Sendable, Equatable {
    public var label: String
    public var precision: Double
    public var recall: Double
    public var f1: Double
    /// Number of examples whose true class this is.
    public var support: Int
}

/// Accuracy, per-class metrics and the confusion matrix of a set of predictions.
public struct Evaluation: Sendable {
    /// Class labels; indices in predictions and the matrix refer to this order.
    public let classes: [String]
    public let predictions: [Prediction]
    /// `confusionMatrix[true][predicted]` counts examples.
    public let confusionMatrix: [[Int]]
    public let perClass: [ClassMetrics]

    public init(classes: [String], predictions: [Prediction]) {
        self.classes = classes
        self.predictions = predictions
        var matrix = [[Int]](repeating: [Int](repeating: 0, count: classes.count), count: classes.count)
        for prediction in predictions {
            matrix[prediction.trueClass][prediction.predictedClass] += 1
        }
        confusionMatrix = matrix
        perClass = classes.indices.map { index in
            let truePositives = matrix[index][index]
            let predictedCount = matrix.reduce(0) { $0 + $1[index] }
            let support = matrix[index].reduce(0, +)
            // An empty denominator means no evidence either way: report 0, as scikit-learn does.
            let precision = predictedCount == 0 ? 0 : Double(truePositives) / Double(predictedCount)
            let recall = support == 0 ? 0 : Double(truePositives) / Double(support)
            let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
            return ClassMetrics(
                label: classes[index], precision: precision, recall: recall, f1: f1, support: support)
        }
    }

    /// Number of examples.
    public var count: Int { predictions.count }

    /// Fraction of examples whose predicted class is the true class.
    public var accuracy: Double {
        count == 0 ? 0 : Double(predictions.lazy.filter(\.isCorrect).count) / Double(count)
    }

    /// The wrongly classified examples, least confident first.
    public var misclassified: [Prediction] {
        predictions.filter { !$0.isCorrect }.sorted { $0.confidence < $1.confidence }
    }

    /// Sums confusion matrices of several evaluations over the same classes (k-fold).
    public static func combined(_ evaluations: [Evaluation]) -> Evaluation {
        precondition(!evaluations.isEmpty, "combined(_:) needs at least one evaluation")
        return Evaluation(classes: evaluations[0].classes, predictions: evaluations.flatMap(\.predictions))
    }
}
