import StrokeNN
import StrokeTensor

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Softmax followed by cross-entropy against integer labels, fused, as usual, because the
/// gradient of the pair with respect to the logits is simply `softmax − onehot`; optionally
/// mixed with a cross-entropy against soft targets (a teacher's probabilities, knowledge
/// distillation, Hinton et al. 2015).
public enum SoftmaxCrossEntropy {
    /// A teacher's class probabilities for each example, and how much they count.
    ///
    /// The loss becomes (1 − weight)·CE(onehot, softmax(z)) + weight·T²·CE(q, softmax(z/T)),
    /// T = `temperature`, q = `probabilities` (the teacher's softmax at the same T); its
    /// gradient is (1 − weight)·(softmax(z) − onehot) + weight·T·(softmax(z/T) − q). The T²
    /// keeps the soft part's gradient on the scale of the hard part's as T changes.
    public struct SoftTargets {
        /// (N, K): each row sums to 1.
        public var probabilities: Tensor
        /// In 0...1; 0 is the hard-label loss alone.
        public var weight: Float
        /// Above 0; 1 is the plain softmax.
        public var temperature: Float

        public init(probabilities: Tensor, weight: Float, temperature: Float = 1) {
            precondition((0...1).contains(weight), "soft-target weight \(weight) outside 0...1")
            precondition(temperature > 0 && temperature.isFinite, "temperature \(temperature) must be positive")
            self.probabilities = probabilities
            self.weight = weight
            self.temperature = temperature
        }

        /// Soft targets from a teacher's logits (N, K): row-wise softmax(logits / temperature).
        public init(teacherLogits: Tensor, weight: Float, temperature: Float = 1) {
            var probabilities = teacherLogits
            let classes = teacherLogits.shape[1]
            probabilities.values.withUnsafeMutableBufferPointer { values in
                for start in stride(from: 0, to: values.count, by: classes) {
                    let row = UnsafeMutableBufferPointer(rebasing: values[start..<(start + classes)])
                    if temperature != 1 { for k in row.indices { row[k] /= temperature } }
                    Softmax.apply(row)
                }
            }
            self.init(probabilities: probabilities, weight: weight, temperature: temperature)
        }
    }

    /// What one batch scored.
    public struct BatchResult: Sendable {
        /// Sum (not mean) of the per-example losses, in Double.
        public var lossSum: Double
        /// Examples whose highest logit is the true class.
        public var correct: Int
    }

    /// logits (N, K), labels N values in 0..<K. Writes `gradient` (N, K) =
    /// (softmax(logits) − onehot(labels)) · gradientScale; pass 1/batch for a mean loss.
    /// With `softTargets` (N, K) the loss and gradient are the mix `SoftTargets` describes;
    /// `correct` still counts the hard labels.
    public static func evaluate(
        logits: Tensor, labels: [Int], softTargets: SoftTargets? = nil, gradientScale: Float, gradient: inout Tensor
    ) -> BatchResult {
        let (batch, classes) = (logits.shape[0], logits.shape[1])
        precondition(labels.count == batch, "\(labels.count) labels for a batch of \(batch)")
        if let softTargets {
            precondition(softTargets.probabilities.shape == logits.shape,
                         "soft targets \(softTargets.probabilities.shape) for logits \(logits.shape)")
        }
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
                    let hardLoss = log(sum) - Double(row[label] - maxLogit)
                    lossSum += hardLoss
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
                    if let softTargets {
                        lossSum += mixInSoftTargets(softTargets, row: n, logits: row, maxLogit: maxLogit, classes: classes,
                                                    gradient: probabilities, hardLoss: hardLoss)
                    }
                    for k in 0..<classes { probabilities[k] *= gradientScale }
                }
            }
        }
        return BatchResult(lossSum: lossSum, correct: correct)
    }

    /// Turns one row's hard-label gradient `gradient` (softmax − onehot) into the mixed
    /// gradient (1 − A)·gradient + A·T·(softmax(z/T) − q), and returns what the mix adds to
    /// the row's loss beyond `hardLoss`: −A·hardLoss + A·T²·CE(q, softmax(z/T)). `maxLogit`
    /// is the row's largest logit.
    private static func mixInSoftTargets(
        _ targets: SoftTargets, row n: Int, logits row: UnsafePointer<Float>, maxLogit: Float, classes: Int,
        gradient: UnsafeMutableBufferPointer<Float>, hardLoss: Double
    ) -> Double {
        let weight = targets.weight, temperature = targets.temperature
        return targets.probabilities.values.withUnsafeBufferPointer { all in
            let q = all.baseAddress! + n * classes
            // log softmax(z/T) in Double: (z_k − max)/T − log Σ exp((z_j − max)/T).
            var sum = 0.0
            for k in 0..<classes { sum += exp(Double(row[k] - maxLogit) / Double(temperature)) }
            let logSum = log(sum)
            var softLoss = 0.0
            for k in 0..<classes {
                let logP = Double(row[k] - maxLogit) / Double(temperature) - logSum
                if q[k] > 0 { softLoss -= Double(q[k]) * logP }
                let softGradient = Float(exp(logP)) - q[k]
                gradient[k] = (1 - weight) * gradient[k] + weight * temperature * softGradient
            }
            let t2 = Double(temperature) * Double(temperature)
            return Double(weight) * (t2 * softLoss - hardLoss)
        }
    }
}
