import StrokeNN
import StrokeTensor

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Softmax followed by cross-entropy against integer labels, fused, as usual, because the
/// gradient of the pair with respect to the logits is simply `softmax − onehot`.
public enum SoftmaxCrossEntropy {
    /// What one batch scored.
    public struct BatchResult: Sendable {
        /// Sum (not mean) of the per-example losses, in Double.
        public var lossSum: Double
        /// Examples whose highest logit is the true class.
        public var correct: Int
    }

    /// logits (N, K), labels N values in 0..<K. Writes `gradient` (N, K) =
    /// (softmax(logits) − onehot(labels)) · gradientScale; pass 1/batch for a mean loss.
    public static func evaluate(
        logits: Tensor, labels: [Int], gradientScale: Float, gradient: inout Tensor
    ) -> BatchResult {
        let (batch, classes) = (logits.shape[0], logits.shape[1])
        precondition(labels.count == batch, "\(labels.count) labels for a batch of \(batch)")
        var lossSum = 0.0
        var correct = 0
        logits.values.withUnsafeBufferPointer { z in
            gradient.values.withUnsafeMutableBufferPointer { dz in
                for n in 0..<batch {
                    let row = z.baseAddress! + n * classes
                    let gradientRow = dz.baseAddress! + n * classes
                    let label = labels[n]
                    precondition(label >= 0 && label < classes, "label \(label) outside 0..<\(classes)")
                    // Subtract the max before exp so that large logits cannot overflow.
                    var maxIndex = 0
                    for k in 1..<classes where row[k] > row[maxIndex] { maxIndex = k }
                    let maxLogit = row[maxIndex]
                    var sum: Double = 0
                    for k in 0..<classes { sum += exp(Double(row[k] - maxLogit)) }
                    let logSum = log(sum)
                    lossSum += logSum - Double(row[label] - maxLogit)
                    if maxIndex == label { correct += 1 }
                    // d(loss)/d(logits) = softmax − onehot, with the same softmax inference uses.
                    let probabilities = UnsafeMutableBufferPointer(start: gradientRow, count: classes)
                    Softmax.probabilities(of: UnsafeBufferPointer(start: row, count: classes), into: probabilities)
                    // NOTE: p(label) − 1 cancels catastrophically for a confidently right example:
                    // p rounds to within 2^-24 of 1 in Float (to exactly 1 once the margin exceeds
                    // about 17), leaving a gradient of 0 or a multiple of 6e-8. Its exact value is
                    // −(sum of the other probabilities), which Float holds to full relative precision.
                    var others: Float = 0
                    for k in 0..<classes where k != label { others += probabilities[k] }
                    probabilities[label] = -others
                    for k in 0..<classes { probabilities[k] *= gradientScale }
                }
            }
        }
        return BatchResult(lossSum: lossSum, correct: correct)
    }
}
