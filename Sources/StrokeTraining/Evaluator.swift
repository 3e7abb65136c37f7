import StrokeImage
import StrokeKit
import StrokeNN

/// Runs a network over labelled examples in batches and scores it.
public enum Evaluator {
    /// Mean cross-entropy and accuracy, for per-epoch validation.
    public struct Scores: Sendable {
        public var meanLoss: Double
        public var accuracy: Double
    }

    /// Examples per forward pass when evaluating.
    static let batchSize = 128

    /// Class probabilities of every example, in order, computed on the same inference path
    /// as `ShapeClassifier` (`InferenceEngine`), so an evaluation measures what apps run.
    public static func probabilities(_ network: Network, images: [GrayImage]) -> [[Float]] {
        var result: [[Float]] = []
        result.reserveCapacity(images.count)
        let engine = InferenceEngine(network: network)
        let imageSize = network.inputChannels * ModelInput.side * ModelInput.side
        for start in stride(from: 0, to: images.count, by: batchSize) {
            let batch = images[start..<min(images.count, start + batchSize)]
            engine.forward(batch: batch.count) { buffer in
                for (offset, image) in batch.enumerated() { ModelInput.fill(image, into: buffer + offset * imageSize) }
            }
            engine.withLogits { logits in
                for row in 0..<batch.count {
                    var probabilities = Array(logits[(row * network.classCount)..<((row + 1) * network.classCount)])
                    probabilities.withUnsafeMutableBufferPointer { Softmax.apply($0) }
                    result.append(probabilities)
                }
            }
        }
        return result
    }

    /// Mean loss and accuracy of `network` on `examples`.
    public static func score(_ network: Network, on examples: LabeledExamples) -> Scores {
        let all = probabilities(network, images: examples.images)
        var loss = 0.0, correct = 0
        for (probabilities, label) in zip(all, examples.labels) {
            loss -= log(max(Double(probabilities[label]), 1e-12))
            if probabilities.indices.max(by: { probabilities[$0] < probabilities[$1] }) == label { correct += 1 }
        }
        return Scores(meanLoss: loss / Double(max(1, examples.count)),
                      accuracy: Double(correct) / Double(max(1, examples.count)))
    }

    /// A full evaluation (confusion matrix, per-class metrics, misclassified examples).
    /// `keepImages` stores each example's image in its prediction, for reports.
    /// Predictions are the most probable class (a background class such as `none` included);
    /// `isRejected` is `rejectRule`'s decision, the same one `ShapeClassifier` makes.
    public static func evaluate(_ network: Network, on examples: LabeledExamples, classes: [String],
                                rejectRule: RejectRule = RejectRule(), keepImages: Bool = true) -> Evaluation {
        let all = probabilities(network, images: examples.images)
        let predictions = all.indices.map { index in
            let probabilities = all[index]
            let decision = rejectRule.decide(probabilities)
            return Prediction(
                source: examples.sources[index], trueClass: examples.labels[index],
                predictedClass: decision.mostProbable, confidence: probabilities[decision.mostProbable],
                probabilities: probabilities, isRejected: decision.isRejected,
                image: keepImages ? examples.images[index] : nil)
        }
        return Evaluation(classes: classes, predictions: predictions)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
